//! Spatial registers (`content/spatial/*.geojson`, docs/spec/api-spec.md#spatial): FeatureCollections checked
//! against RFC 7946 (longitude/latitude order and ranges, closed rings, no `crs`), each feature given
//! its register as `protocol` (its own property, else the file's stem) and an `id`.

use std::path::Path;

use geojson::{GeoJson, Geometry, PolygonType, Position, Value as GeometryValue};
use portal_core::content::ContentError;
use serde_json::{json, Value};

/// The spatial folder inside the content folder.
pub const FOLDER: &str = "spatial";

fn check_position(p: &Position) -> Result<(), String> {
    match p.as_slice() {
        [lon, lat, ..] if (-180.0..=180.0).contains(lon) && (-90.0..=90.0).contains(lat) => Ok(()),
        [lon, lat, ..] => Err(format!(
            "position [{lon}, {lat}] is out of range: GeoJSON is [longitude (-180..180), latitude (-90..90)]"
        )),
        _ => Err("a position needs a longitude and a latitude".into()),
    }
}

fn check_polygon(rings: &PolygonType) -> Result<(), String> {
    for ring in rings {
        if ring.len() < 4 || ring.first() != ring.last() {
            return Err("a polygon ring needs at least four positions and must end where it starts".into());
        }
        ring.iter().try_for_each(check_position)?;
    }
    Ok(())
}

fn check_geometry(geometry: &Geometry) -> Result<(), String> {
    match &geometry.value {
        GeometryValue::Point(position) => check_position(position),
        GeometryValue::MultiPoint(positions) | GeometryValue::LineString(positions) => {
            positions.iter().try_for_each(check_position)
        }
        GeometryValue::MultiLineString(lines) => lines.iter().flatten().try_for_each(check_position),
        GeometryValue::Polygon(rings) => check_polygon(rings),
        GeometryValue::MultiPolygon(polygons) => polygons.iter().try_for_each(check_polygon),
        GeometryValue::GeometryCollection(geometries) => geometries.iter().try_for_each(check_geometry),
    }
}

/// One register: a file of `spatial/`, which the OGC API serves as a collection
/// (docs/spec/api-spec.md#ogc).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Register {
    /// The file's stem: the collection's id.
    pub stem: String,
    /// The FeatureCollection's own `name` or `title` (a member GIS tools write), else the stem.
    pub title: String,
    /// Where its features are in [`crate::load::Content::features`].
    pub features: std::ops::Range<usize>,
}

/// Parses and checks one register; returns its features as JSON with `protocol` and `id` set.
pub fn parse(file: &str, stem: &str, text: &str) -> Result<Vec<Value>, Vec<ContentError>> {
    parse_register(file, stem, text).map(|(features, _)| features)
}

/// [`parse`], with the register's title.
fn parse_register(file: &str, stem: &str, text: &str) -> Result<(Vec<Value>, String), Vec<ContentError>> {
    let at = |line: usize, message: String| vec![ContentError::new(file, line, message)];
    let mut raw: Value = serde_json::from_str(text).map_err(|e| at(e.line(), format!("invalid JSON: {e}")))?;
    portal_core::content::text::clean_value(&mut raw);
    if raw.get("crs").is_some() {
        let line = text.lines().position(|l| l.contains("\"crs\"")).map_or(1, |i| i + 1);
        return Err(at(line, "`crs` is not allowed: RFC 7946 coordinates are always WGS 84 longitude/latitude".into()));
    }
    let title = ["name", "title"].iter().find_map(|k| raw[*k].as_str().map(str::trim).filter(|t| !t.is_empty()));
    let title = title.unwrap_or(stem).to_string();
    let geojson = GeoJson::from_json_value(raw.clone()).map_err(|e| at(1, format!("not valid GeoJSON: {e}")))?;
    let GeoJson::FeatureCollection(collection) = geojson else {
        return Err(at(1, "a spatial file must be a FeatureCollection".into()));
    };
    let mut errors = Vec::new();
    let mut features = Vec::new();
    for (index, (feature, raw_feature)) in
        collection.features.iter().zip(raw["features"].as_array().into_iter().flatten()).enumerate()
    {
        let number = index + 1;
        if let Some(Err(message)) = feature.geometry.as_ref().map(check_geometry) {
            errors.push(ContentError::new(file, 1, format!("feature {number}: {message}")));
            continue;
        }
        match with_identity(raw_feature, stem, number) {
            Some(out) => features.push(out),
            None => errors.push(ContentError::new(
                file,
                1,
                format!("feature {number}: `properties` must be an object (or null)"),
            )),
        }
    }
    if errors.is_empty() {
        Ok((features, title))
    } else {
        Err(errors)
    }
}

/// The feature with `protocol` and `id` set in its properties (null or missing properties, which
/// RFC 7946 allows, become `{}`), and `id` as its own member; `None` when `properties` is
/// something else.
fn with_identity(raw_feature: &Value, stem: &str, number: usize) -> Option<Value> {
    let mut out = raw_feature.clone();
    if out.get("properties").is_none_or(Value::is_null) {
        out["properties"] = json!({});
    }
    let properties = out["properties"].as_object_mut()?;
    if !properties.contains_key("protocol") {
        properties.insert("protocol".into(), json!(stem));
    }
    if !properties.contains_key("id") {
        let id = raw_feature.get("id").cloned().unwrap_or_else(|| json!(format!("{stem}-{number}")));
        properties.insert("id".into(), id);
    }
    // RFC 7946 3.2: the identifier also as the Feature's own `id` member, for GeoJSON clients.
    let id = properties.get("id").cloned().unwrap_or(Value::Null);
    if (id.is_string() || id.is_number()) && out.get("id").is_none() {
        out["id"] = id;
    }
    Some(out)
}

/// Loads every register (files sorted by name), its features one list; problems go into `errors`.
pub fn load(content: &Path, errors: &mut Vec<ContentError>) -> (Vec<Value>, Vec<Register>) {
    let Ok(read) = std::fs::read_dir(content.join(FOLDER)) else { return (Vec::new(), Vec::new()) };
    let mut paths: Vec<_> =
        read.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "geojson")).collect();
    paths.sort();
    let mut features = Vec::new();
    let mut registers = Vec::new();
    for path in paths {
        let file = path.display().to_string();
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        match super::file::read_other(&path) {
            Ok(text) => match parse_register(&file, &stem, &text) {
                Ok((mut found, title)) => {
                    let start = features.len();
                    features.append(&mut found);
                    registers.push(Register { stem, title, features: start..features.len() });
                }
                Err(mut problems) => errors.append(&mut problems),
            },
            Err(e) => errors.push(e),
        }
    }
    (features, registers)
}

/// How far a place may be from the middle of the site's others before its coordinates look
/// swapped, in kilometres: farther than any settlement and its host community spread.
const FAR_KM: f64 = 1000.0;

/// A feature's first position (longitude, latitude), as a representative of where it is.
fn first_position(geometry: &Value) -> Option<(f64, f64)> {
    match geometry.get("coordinates") {
        Some(coordinates) => {
            let mut at = coordinates;
            while let Some(first) = at.as_array().and_then(|a| a.first()).filter(|f| f.is_array()) {
                at = first;
            }
            Some((at.get(0)?.as_f64()?, at.get(1)?.as_f64()?))
        }
        None => first_position(geometry.get("geometries")?.as_array()?.first()?),
    }
}

/// Great-circle distance in kilometres between two (longitude, latitude) points.
fn distance_km((lon1, lat1): (f64, f64), (lon2, lat2): (f64, f64)) -> f64 {
    let (p1, p2) = (lat1.to_radians(), lat2.to_radians());
    let (dp, dl) = ((lat2 - lat1).to_radians(), (lon2 - lon1).to_radians());
    let a = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    6371.0 * 2.0 * a.sqrt().asin()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Where feature `index` is written: its register's file, the line of its id or name, its name
/// and its id.
fn place(
    root: &Path,
    features: &[Value],
    registers: &[Register],
    index: usize,
) -> Option<(String, usize, String, String)> {
    let register = registers.iter().find(|r| r.features.contains(&index))?;
    let properties = &features.get(index)?["properties"];
    let id = properties["id"].as_str().map_or_else(|| properties["id"].to_string(), str::to_string);
    let name = properties["name"].as_str().or_else(|| properties["title"].as_str()).unwrap_or(&id).to_string();
    let path = root.join(FOLDER).join(format!("{}.geojson", register.stem));
    let line = std::fs::read_to_string(&path)
        .ok()
        .and_then(|text| text.lines().position(|l| l.contains(&format!("\"{name}\"")) || l.contains(&id)))
        .map_or(1, |i| i + 1);
    Some((path.display().to_string(), line, name, id))
}

/// Twice the signed area of a ring (positive when it runs counter-clockwise), by the shoelace
/// formula over longitude and latitude.
fn signed_area(ring: &[Value]) -> f64 {
    let at = |p: &Value| (p[0].as_f64().unwrap_or(0.0), p[1].as_f64().unwrap_or(0.0));
    ring.windows(2).map(|w| (at(&w[0]), at(&w[1]))).map(|((x1, y1), (x2, y2))| x1 * y2 - x2 * y1).sum()
}

/// Turns the rings of a polygon (its `coordinates`) the way RFC 7946 says (exterior ring
/// counter-clockwise, holes clockwise); whether any was turned.
fn rewind_polygon(rings: &mut Value) -> bool {
    let mut turned = false;
    for (n, ring) in rings.as_array_mut().into_iter().flatten().enumerate() {
        let Some(positions) = ring.as_array_mut() else { continue };
        let area = signed_area(positions);
        if (n == 0 && area < 0.0) || (n > 0 && area > 0.0) {
            positions.reverse();
            turned = true;
        }
    }
    turned
}

/// [`rewind_polygon`] over every polygon of a geometry (multi-polygons and collections too).
fn rewind_geometry(geometry: &mut Value) -> bool {
    match geometry["type"].as_str() {
        Some("Polygon") => rewind_polygon(&mut geometry["coordinates"]),
        Some("MultiPolygon") => {
            geometry["coordinates"].as_array_mut().into_iter().flatten().fold(false, |t, p| rewind_polygon(p) | t)
        }
        Some("GeometryCollection") => {
            geometry["geometries"].as_array_mut().into_iter().flatten().fold(false, |t, g| rewind_geometry(g) | t)
        }
        _ => false,
    }
}

/// Publishes every polygon with RFC 7946's winding (exterior rings counter-clockwise, holes
/// clockwise; clients that fill by winding draw a turned ring inside out), turning the rings
/// that run the other way, with a warning naming each feature turned (docs/content.md#places-and-the-map).
pub fn rewind(root: &Path, features: &mut [Value], registers: &[Register]) -> Vec<ContentError> {
    let turned: Vec<usize> =
        (0..features.len()).filter(|&index| rewind_geometry(&mut features[index]["geometry"])).collect();
    turned
        .into_iter()
        .filter_map(|index| {
            let (path, line, name, id) = place(root, features, registers, index)?;
            Some(ContentError::new(
                path,
                line,
                format!(
                    "place `{name}` ({id}): a polygon ring runs the wrong way for RFC 7946 (exterior rings \
                     counter-clockwise, holes clockwise); it is published turned round"
                ),
            ))
        })
        .collect()
}

/// Warnings for the places whose longitude and latitude look swapped: thousands of kilometres
/// from the middle of the site's other places (the median of their positions), and near it
/// when read the other way round. Each names its register's file, the line of its id or name
/// and the feature (docs/content.md#places-and-the-map). Needs three places or more to know where the site is.
pub fn swapped_places(root: &Path, features: &[Value], registers: &[Register]) -> Vec<ContentError> {
    let positions: Vec<Option<(f64, f64)>> = features.iter().map(|f| first_position(&f["geometry"])).collect();
    let known: Vec<(f64, f64)> = positions.iter().flatten().copied().collect();
    if known.len() < 3 {
        return Vec::new();
    }
    let middle = (median(known.iter().map(|p| p.0).collect()), median(known.iter().map(|p| p.1).collect()));
    let mut warnings = Vec::new();
    for (index, position) in positions.iter().enumerate() {
        let Some((lon, lat)) = *position else { continue };
        let (far, turned) = (distance_km((lon, lat), middle), distance_km((lat, lon), middle));
        if far < FAR_KM || turned >= FAR_KM {
            continue;
        }
        let Some((path, line, name, id)) = place(root, features, registers, index) else { continue };
        warnings.push(ContentError::new(
            path,
            line,
            format!(
                "place `{name}` ({id}) at [{lon}, {lat}] is {} km from the site's other places; [{lat}, {lon}] \
                 would be among them: GeoJSON writes [longitude, latitude], are the two swapped?",
                far.round()
            ),
        ));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    const OK: &str = r#"{"type": "FeatureCollection", "features": [
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [30.1, -1.2]}, "properties": {"name": "Borehole 1", "category": "water"}}]}"#;

    #[test]
    fn protocol_and_id_default_from_the_file() {
        let features = parse("places.geojson", "places", OK).expect("valid");
        assert_eq!(features[0]["properties"]["protocol"], "places");
        assert_eq!(features[0]["properties"]["id"], "places-1");
    }

    #[test]
    fn rfc_7946_violations_are_errors() {
        let swapped = OK.replace("[30.1, -1.2]", "[-1.2, 130.1]");
        assert!(parse("p.geojson", "p", &swapped).expect_err("lat out of range")[0].message.contains("feature 1"));
        let open_ring = r#"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {},
            "geometry": {"type": "Polygon", "coordinates": [[[30, 1], [31, 1], [31, 2], [30, 2]]]}}]}"#;
        assert!(parse("p.geojson", "p", open_ring).expect_err("open ring")[0].message.contains("end where it starts"));
        let crs = OK.replacen('{', r#"{"crs": {"type": "name"},"#, 1);
        assert!(parse("p.geojson", "p", &crs).expect_err("crs")[0].message.contains("crs"));
    }

    #[test]
    fn a_place_with_its_coordinates_swapped_is_a_warning_naming_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join(FOLDER)).expect("folder");
        let point = |name: &str, lon: f64, lat: f64| {
            format!(
                r#"{{"type": "Feature", "geometry": {{"type": "Point", "coordinates": [{lon}, {lat}]}}, "properties": {{"name": "{name}"}}}}"#
            )
        };
        let places = [point("Well", 31.1, 3.0), point("Clinic", 31.3, 3.1), point("School", 31.2, 2.9)];
        let swapped = point("Market", 3.05, 31.25);
        let text =
            format!("{{\"type\": \"FeatureCollection\", \"features\": [\n{},\n{swapped}\n]}}\n", places.join(",\n"));
        std::fs::write(dir.path().join(FOLDER).join("places.geojson"), &text).expect("write");
        let (features, registers) = load(dir.path(), &mut Vec::new());
        let warnings = swapped_places(dir.path(), &features, &registers);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(warnings[0].line, 5);
        assert!(warnings[0].message.contains("`Market` (places-4)"), "{}", warnings[0].message);
        let (features, registers) = (features[..3].to_vec(), vec![Register { features: 0..3, ..registers[0].clone() }]);
        assert!(swapped_places(dir.path(), &features, &registers).is_empty(), "places near each other are fine");
    }

    #[test]
    fn polygons_are_published_with_rfc_7946_winding_and_a_warning_naming_them() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::create_dir(dir.path().join(FOLDER)).expect("folder");
        let clockwise = json!([[0.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]]);
        let counter = json!([[0.2, 0.2], [0.8, 0.2], [0.8, 0.8], [0.2, 0.8], [0.2, 0.2]]);
        let text = json!({"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {"id": "blk", "name": "Block"},
                "geometry": {"type": "Polygon", "coordinates": [clockwise, counter]}},
            {"type": "Feature", "properties": {"id": "ok"},
                "geometry": {"type": "MultiPolygon", "coordinates": [[counter]]}},
        ]})
        .to_string();
        std::fs::write(dir.path().join(FOLDER).join("blocks.geojson"), &text).expect("write");
        let mut features = parse("blocks.geojson", "blocks", &text).expect("valid");
        let registers = [Register { stem: "blocks".into(), title: "blocks".into(), features: 0..2 }];
        let warnings = rewind(dir.path(), &mut features, &registers);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].message.contains("`Block` (blk)"), "{}", warnings[0].message);
        let rings = &features[0]["geometry"]["coordinates"];
        assert!(signed_area(rings[0].as_array().expect("ring")) > 0.0, "exterior counter-clockwise");
        assert!(signed_area(rings[1].as_array().expect("ring")) < 0.0, "hole clockwise");
        assert_eq!(rings[0][0], json!([0.0, 0.0]), "still closed where it started");
        assert_eq!(features[1]["geometry"]["coordinates"], json!([[counter]]), "a right ring stays");
    }

    #[test]
    fn odd_but_valid_features_load() {
        let odd = r#"{"type": "FeatureCollection", "name": "Odd places", "features": [
            {"type": "Feature", "geometry": null, "properties": null},
            {"type": "Feature", "id": 7, "geometry": {"type": "GeometryCollection", "geometries": [
                {"type": "Point", "coordinates": [30, 1]}]}, "properties": {"zone": 3, "depth": "12"}}]}"#;
        let (features, title) = parse_register("odd.geojson", "odd", odd).expect("valid");
        assert_eq!(title, "Odd places");
        assert_eq!((&features[0]["id"], &features[0]["properties"]["protocol"]), (&json!("odd-1"), &json!("odd")));
        assert_eq!((&features[1]["id"], &features[1]["properties"]["id"]), (&json!(7), &json!(7)));
    }
}
