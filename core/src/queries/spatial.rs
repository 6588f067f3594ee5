//! Spatial data (docs/spec/api-spec.md#spatial): filtering the built FeatureCollection by `category`, `zone`
//! and `protocol` (exact, case-insensitive; a value no feature has is 400 listing the allowed ones),
//! and the CSV form with a representative point for every geometry.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use crate::content::scalar_text;
use crate::http::problem::Problem;
use crate::http::query::Query;
use crate::queries::csv_cells::{self, Cell};

/// The columns every CSV row starts with.
pub const CSV_COLUMNS: [&str; 7] = ["id", "name", "category", "zone", "protocol", "latitude", "longitude"];

/// Properties a filter may test.
pub const FILTERS: [&str; 3] = ["category", "zone", "protocol"];

/// The filters among `names` a request asks for, as `(name, value)` with the value trimmed: what
/// [`filter`] takes, for `/api/v1/spatial.*` and the OGC API's items alike.
pub fn requested<'q>(query: &'q Query, names: &[&'static str]) -> Vec<(&'static str, &'q str)> {
    names.iter().filter_map(|n| query.get(n).map(|v| (*n, v.trim()))).collect()
}

/// Keeps the features whose properties match every `(name, value)` filter.
pub fn filter(features: &[Value], filters: &[(&str, &str)]) -> Result<Vec<Value>, Problem> {
    for (name, wanted) in filters {
        let allowed: BTreeSet<String> = features.iter().filter_map(|f| scalar_text(&f["properties"][*name])).collect();
        if !allowed.iter().any(|a| a.eq_ignore_ascii_case(wanted)) {
            return Err(Problem::bad_request(format!(
                "No feature has {name} `{wanted}`. Allowed values: {}.",
                allowed.into_iter().collect::<Vec<_>>().join(", ")
            )));
        }
    }
    Ok(features
        .iter()
        .filter(|f| {
            filters.iter().all(|(name, wanted)| {
                scalar_text(&f["properties"][*name]).is_some_and(|v| v.eq_ignore_ascii_case(wanted))
            })
        })
        .cloned()
        .collect())
}

fn positions(value: &Value) -> Vec<(f64, f64)> {
    match value {
        Value::Array(items) if items.first().is_some_and(Value::is_number) => {
            match (items.first().and_then(Value::as_f64), items.get(1).and_then(Value::as_f64)) {
                (Some(lon), Some(lat)) => vec![(lon, lat)],
                _ => Vec::new(),
            }
        }
        Value::Array(items) => items.iter().flat_map(positions).collect(),
        _ => Vec::new(),
    }
}

/// A representative `(longitude, latitude)` of a geometry: a point itself, the middle vertex of a
/// line, the mean of a polygon's outer ring (without its closing vertex), the first member of a
/// multi-geometry or collection.
pub fn representative_point(geometry: &Value) -> Option<(f64, f64)> {
    let coordinates = &geometry["coordinates"];
    match geometry["type"].as_str()? {
        "Point" => positions(coordinates).first().copied(),
        "LineString" => {
            let line = positions(coordinates);
            line.get(line.len() / 2).copied()
        }
        "Polygon" => {
            let mut ring = positions(coordinates.get(0)?);
            if ring.len() > 1 && ring.first() == ring.last() {
                ring.pop();
            }
            let n = ring.len() as f64;
            (n > 0.0).then(|| (ring.iter().map(|p| p.0).sum::<f64>() / n, ring.iter().map(|p| p.1).sum::<f64>() / n))
        }
        "MultiPoint" | "MultiLineString" | "MultiPolygon" => {
            let kind = geometry["type"].as_str()?.trim_start_matches("Multi");
            representative_point(&json!({"type": kind, "coordinates": coordinates.get(0)?}))
        }
        "GeometryCollection" => geometry["geometries"].get(0).and_then(representative_point),
        _ => None,
    }
}

/// A coordinate in degrees with at most 7 decimals (about 1 cm), so a computed point prints as
/// `-0.6075`, not with the float artefacts of its arithmetic (`-0.6074999999999999`).
pub fn coordinate(degrees: f64) -> String {
    let text = format!("{degrees:.7}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// The CSV of `features`: the fixed columns, then every other property, sorted by name. Cells
/// follow [`crate::queries::csv_cells`] (text that could run as a formula is defused; numbers stay).
pub fn to_csv(features: &[Value]) -> Result<String, String> {
    let extra: BTreeSet<String> = features
        .iter()
        .filter_map(|f| f["properties"].as_object())
        .flat_map(|p| p.keys().cloned())
        .filter(|k| !CSV_COLUMNS.contains(&k.as_str()))
        .collect();
    let header: Vec<Cell> =
        CSV_COLUMNS.iter().copied().chain(extra.iter().map(String::as_str)).map(Cell::from).collect();
    let rows = features.iter().map(|feature| {
        let properties = &feature["properties"];
        let point = representative_point(&feature["geometry"]);
        let cell = |name: &str| Cell::of_json(&properties[name]);
        let mut row: Vec<Cell> = ["id", "name", "category", "zone", "protocol"].iter().map(|c| cell(c)).collect();
        row.push(Cell::Number(point.map(|p| coordinate(p.1)).unwrap_or_default()));
        row.push(Cell::Number(point.map(|p| coordinate(p.0)).unwrap_or_default()));
        row.extend(extra.iter().map(|name| cell(name)));
        row
    });
    csv_cells::write(std::iter::once(header).chain(rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feature(id: &str, category: &str, geometry: Value) -> Value {
        json!({"type": "Feature", "geometry": geometry, "properties": {"id": id, "name": id, "category": category, "zone": "zone-a", "protocol": "places"}})
    }

    #[test]
    fn filters_are_case_insensitive_and_unknown_values_list_the_allowed_ones() {
        let features = vec![
            feature("a", "water", json!({"type": "Point", "coordinates": [30.0, 1.0]})),
            feature("b", "school", json!(null)),
        ];
        assert_eq!(filter(&features, &[("category", "WATER")]).map(|f| f.len()), Ok(1));
        let err = filter(&features, &[("category", "lava")]).expect_err("unknown value");
        assert!(err.detail.contains("school, water"));
    }

    #[test]
    fn every_geometry_gets_a_representative_point() {
        let polygon = json!({"type": "Polygon", "coordinates": [[[30.0, 1.0], [32.0, 1.0], [32.0, 3.0], [30.0, 3.0], [30.0, 1.0]]]});
        assert_eq!(representative_point(&polygon), Some((31.0, 2.0)));
        let line = json!({"type": "LineString", "coordinates": [[30.0, 1.0], [31.0, 1.5], [32.0, 2.0]]});
        assert_eq!(representative_point(&line), Some((31.0, 1.5)));
    }

    #[test]
    fn coordinates_print_without_float_artefacts() {
        assert_eq!(coordinate(-0.6074999999999999), "-0.6075");
        assert_eq!(coordinate(30.5), "30.5");
        assert_eq!(coordinate(30.0), "30");
        assert_eq!(coordinate(-0.00000001), "0");
    }

    #[test]
    fn csv_has_the_fixed_columns_then_the_rest_sorted() {
        let mut f = feature("a", "water", json!({"type": "Point", "coordinates": [30.5, -1.25]}));
        f["properties"]["depth"] = json!(40);
        f["properties"]["artist"] = json!("Ana");
        let csv = to_csv(&[f]).expect("csv");
        assert_eq!(csv, "id,name,category,zone,protocol,latitude,longitude,artist,depth\na,a,water,zone-a,places,-1.25,30.5,Ana,40\n");
    }

    #[test]
    fn csv_text_that_could_run_as_a_formula_is_defused_but_coordinates_are_not() {
        let mut f = feature("=cmd|' /C calc'!A0", "water", json!({"type": "Point", "coordinates": [-1.5, -0.5]}));
        f["properties"]["-note"] = json!("@SUM(1)");
        let csv = to_csv(&[f]).expect("csv");
        assert_eq!(
            csv.lines().nth(1),
            Some("'=cmd|' /C calc'!A0,'=cmd|' /C calc'!A0,water,zone-a,places,-0.5,-1.5,'@SUM(1)")
        );
        assert!(csv.starts_with("id,name,category,zone,protocol,latitude,longitude,'-note\n"));
    }
}
