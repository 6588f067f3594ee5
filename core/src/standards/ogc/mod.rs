//! OGC API - Features Part 1: Core over the spatial registers (docs/spec/api-spec.md#ogc): one
//! collection per file of `content/spatial/`, the documents the build writes (landing page,
//! conformance, collections, each collection, its first page of items) and the pieces the handler
//! adds for queries: `limit`/`offset` paging, `bbox` matching (across the antimeridian too) and the
//! paging links. The property filters are those of [`crate::queries::spatial`], shared with
//! `/api/v1/spatial.json`. No I/O: the build and the handler hand the features in.

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde_json::{json, Value};

use crate::http::media::{GEOJSON, HTML, JSON};
use crate::http::problem::Problem;
use crate::http::query::Query;

/// The landing page's path; every other path of the API is under it.
pub const ROOT: &str = "/api/ogc";

/// The conformance classes the API implements.
pub const CONFORMANCE: [&str; 3] = [
    "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
    "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
    "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30",
];

/// The only coordinate reference system: WGS 84 longitude/latitude, as RFC 7946 requires.
pub const CRS84: &str = "http://www.opengis.net/def/crs/OGC/1.3/CRS84";

/// Items a page holds when `limit` is not given.
pub const DEFAULT_LIMIT: usize = 10;

/// The largest page: a larger `limit` is served as this many (the standard lets a server cap it).
pub const MAX_LIMIT: usize = 10_000;

/// Where the build keeps a collection's features for the handler (one file per collection, not
/// one per feature: docs/spec/decisions.md#d13-ogc).
pub fn store_file(collection: &str) -> String {
    format!("_portal/ogc/{collection}.json")
}

/// Characters a path segment keeps as they are (RFC 3986 unreserved).
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

fn segment(text: &str) -> String {
    utf8_percent_encode(text, SEGMENT).to_string()
}

/// The path of collection `id`.
pub fn collection_path(id: &str) -> String {
    format!("{ROOT}/collections/{}", segment(id))
}

/// The path of collection `id`'s items.
pub fn items_path(id: &str) -> String {
    format!("{}/items", collection_path(id))
}

fn link(href: String, rel: &str, media: &str, title: &str) -> Value {
    json!({"href": href, "rel": rel, "type": media, "title": title})
}

/// A bounding box in CRS84 degrees; `west > east` crosses the antimeridian.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bbox {
    /// Smallest longitude (the western edge).
    pub west: f64,
    /// Smallest latitude.
    pub south: f64,
    /// Largest longitude (the eastern edge).
    pub east: f64,
    /// Largest latitude.
    pub north: f64,
}

/// A number, also one written as text (`"30.5"`), as long as it is finite.
fn number(value: &Value) -> Option<f64> {
    let n = value.as_f64().or_else(|| value.as_str()?.trim().parse().ok())?;
    n.is_finite().then_some(n)
}

impl Bbox {
    /// The `bbox` parameter: `minLon,minLat,maxLon,maxLat`, or six numbers with heights
    /// (`minLon,minLat,minHeight,maxLon,maxLat,maxHeight`); 400 for anything else.
    pub fn parse(raw: &str) -> Result<Bbox, Problem> {
        let bad = |why: &str| Problem::bad_request(format!("`bbox` {why}; got `{raw}`."));
        let numbers: Vec<f64> = raw
            .split(',')
            .map(|part| part.trim().parse::<f64>().ok().filter(|n| n.is_finite()))
            .collect::<Option<_>>()
            .ok_or_else(|| bad("must be numbers separated by commas"))?;
        let (west, south, east, north) = match numbers.as_slice() {
            [w, s, e, n] | [w, s, _, e, n, _] => (*w, *s, *e, *n),
            _ => return Err(bad("takes 4 numbers (minLon,minLat,maxLon,maxLat) or 6 with heights")),
        };
        if ![west, east].iter().all(|lon| (-180.0..=180.0).contains(lon)) {
            return Err(bad("longitudes must be from -180 to 180"));
        }
        if ![south, north].iter().all(|lat| (-90.0..=90.0).contains(lat)) {
            return Err(bad("latitudes must be from -90 to 90"));
        }
        if south > north {
            return Err(bad("needs its southern edge (2nd number) at most its northern one"));
        }
        Ok(Bbox { west, south, east, north })
    }

    /// The box around every position of a GeoJSON geometry (collections included); `None` for a
    /// null geometry or one without a single position.
    pub fn of_geometry(geometry: &Value) -> Option<Bbox> {
        let mut found = None;
        extend(geometry, &mut found);
        found
    }

    /// The longitude ranges the box covers: two when it crosses the antimeridian.
    fn longitudes(&self) -> Vec<(f64, f64)> {
        if self.west <= self.east {
            vec![(self.west, self.east)]
        } else {
            vec![(self.west, 180.0), (-180.0, self.east)]
        }
    }

    /// Whether the two boxes share a point (edges count).
    pub fn intersects(&self, other: &Bbox) -> bool {
        let latitudes = self.south <= other.north && other.south <= self.north;
        latitudes && self.longitudes().iter().any(|a| other.longitudes().iter().any(|b| a.0 <= b.1 && b.0 <= a.1))
    }

    /// The smallest box holding both (never across the antimeridian: boxes of geometries never are).
    fn union(self, other: Bbox) -> Bbox {
        Bbox {
            west: self.west.min(other.west),
            south: self.south.min(other.south),
            east: self.east.max(other.east),
            north: self.north.max(other.north),
        }
    }

    /// `[west, south, east, north]`.
    pub fn to_json(self) -> Value {
        json!([self.west, self.south, self.east, self.north])
    }
}

/// Adds the positions of a geometry (or of its coordinates' nesting) to `found`.
fn extend(value: &Value, found: &mut Option<Bbox>) {
    match value {
        Value::Object(geometry) => {
            if let Some(Value::Array(members)) = geometry.get("geometries") {
                members.iter().for_each(|m| extend(m, found));
            }
            if let Some(coordinates) = geometry.get("coordinates") {
                extend(coordinates, found);
            }
        }
        Value::Array(items) if items.first().and_then(number).is_some() => {
            if let (Some(lon), Some(lat)) = (items.first().and_then(number), items.get(1).and_then(number)) {
                let point = Bbox { west: lon, south: lat, east: lon, north: lat };
                *found = Some(found.map_or(point, |b| b.union(point)));
            }
        }
        Value::Array(items) => items.iter().for_each(|item| extend(item, found)),
        _ => {}
    }
}

/// A feature's identifier: its own `id` (text or number, which the build sets from
/// `properties.id` or its place in the file), else one derived from its properties, stable from
/// build to build.
pub fn feature_id(feature: &Value) -> String {
    match &feature["id"] {
        Value::String(id) if !id.is_empty() => id.clone(),
        Value::Number(id) => id.to_string(),
        _ => format!("f-{:016x}", crate::dist::fnv1a(feature["properties"].to_string().as_bytes())),
    }
}

/// The features with their `id` set as [`feature_id`] says (a number stays a number).
pub fn with_ids(features: &[Value]) -> Vec<Value> {
    features
        .iter()
        .map(|feature| {
            let mut out = if feature.is_object() { feature.clone() } else { json!({"type": "Feature"}) };
            if !(out["id"].is_number() || out["id"].as_str().is_some_and(|id| !id.is_empty())) {
                out["id"] = json!(feature_id(feature));
            }
            out
        })
        .collect()
}

/// The feature of collection features with id `id` (the first, should two share it).
pub fn find<'a>(features: &'a [Value], id: &str) -> Option<&'a Value> {
    features.iter().find(|feature| feature_id(feature) == id)
}

/// Keeps the features whose geometry's box meets `bbox`; a feature without a geometry never does.
pub fn within(features: Vec<Value>, bbox: &Bbox) -> Vec<Value> {
    features.into_iter().filter(|f| Bbox::of_geometry(&f["geometry"]).is_some_and(|b| b.intersects(bbox))).collect()
}

/// Which part of the matching features a page shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    /// Items on the page, at most [`MAX_LIMIT`].
    pub limit: usize,
    /// Items skipped before it.
    pub offset: usize,
}

impl Default for Paging {
    fn default() -> Self {
        Paging { limit: DEFAULT_LIMIT, offset: 0 }
    }
}

impl Paging {
    /// `limit` (1 or more; past [`MAX_LIMIT`] served as it) and `offset` (0 or more); 400 otherwise.
    pub fn parse(query: &Query) -> Result<Paging, Problem> {
        let count = |name: &str, min: u64| -> Result<Option<u64>, Problem> {
            let Some(raw) = query.get(name) else { return Ok(None) };
            let text = raw.trim();
            let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
            match text.parse::<u64>() {
                Ok(n) if n >= min => Ok(Some(n)),
                Err(_) if digits && text.trim_start_matches('0').len() > 19 => Ok(Some(u64::MAX)),
                _ => Err(Problem::bad_request(format!(
                    "`{name}` must be a whole number of at least {min}; got `{raw}`."
                ))),
            }
        };
        let limit = count("limit", 1)?.map_or(DEFAULT_LIMIT, |n| n.min(MAX_LIMIT as u64) as usize);
        let offset = count("offset", 0)?.map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX));
        Ok(Paging { limit, offset })
    }
}

/// The values `f` may take: `json` and `application/json` answer as JSON, the others as GeoJSON.
pub const FORMATS: [&str; 4] = ["json", "geojson", "application/json", "application/geo+json"];

/// Whether `f` asks for the page as `application/json` rather than GeoJSON; 400 for a value not
/// in [`FORMATS`].
pub fn wants_json(query: &Query) -> Result<bool, Problem> {
    match query.get("f").map(str::trim) {
        None => Ok(false),
        Some(f) if FORMATS.contains(&f) => Ok(f.ends_with("json") && !f.contains("geo")),
        Some(f) => Err(Problem::bad_request(format!("`f` may be {}; got `{f}`.", FORMATS.join(", ")))),
    }
}

/// The parameters of every OGC document but a collection's items: only `f`.
pub const DOCUMENT_PARAMETERS: [&str; 1] = ["f"];

/// The parameters of a collection's items; the property filters are `queries::spatial::FILTERS`.
pub const ITEMS_PARAMETERS: [&str; 9] =
    ["limit", "offset", "bbox", "bbox-crs", "datetime", "f", "category", "zone", "protocol"];

/// A parameter not in `allowed` is 400 naming it (OGC API - Features Part 1 refuses a query
/// parameter its API definition does not name: docs/spec/api-spec.md#ogc).
pub fn check_parameters(query: &Query, allowed: &[&str]) -> Result<(), Problem> {
    match query.pairs().map(|(name, _)| name).find(|name| !allowed.contains(name)) {
        None => Ok(()),
        Some(name) => Err(Problem::bad_request(format!(
            "`{name}` is not a parameter of this resource; it takes {}.",
            allowed.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ")
        ))),
    }
}

/// `bbox-crs`, when given, must be CRS84 (the only one served); 400 otherwise.
pub fn check_bbox_crs(query: &Query) -> Result<(), Problem> {
    match query.get("bbox-crs").map(str::trim) {
        None => Ok(()),
        Some(crs) if crs == CRS84 || crs.eq_ignore_ascii_case("[OGC:CRS84]") => Ok(()),
        Some(crs) => Err(Problem::bad_request(format!("`bbox-crs` may only be {CRS84}; got `{crs}`."))),
    }
}

pub mod datetime;
mod documents;
mod openapi;
pub use documents::{collection, collections, conformance, item, items, landing, Items, Register};
pub use openapi::{openapi, OPENAPI_PATH};

#[cfg(test)]
mod tests;
