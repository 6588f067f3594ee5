//! The `spatial` section: the places registers as GeoJSON and CSV.

use crate::http::media;
use serde_json::{json, Value};

use super::describe::{content, one_of, query, text, Description};
use super::schemas::schema;
use super::Facts;
use crate::http::problem::ErrorCode::*;

/// `GET /api/v1/spatial.json`.
pub fn geojson(facts: &Facts) -> Description {
    Description::ok(content(
        "An RFC 7946 FeatureCollection.",
        media::GEOJSON,
        json!({"type": "object", "required": ["type", "features"], "properties": {
            "type": {"type": "string", "enum": ["FeatureCollection"]},
            "features": {"type": "array", "items": schema("Feature")}}}),
    ))
    .params(feature_filters(facts).into_iter().chain([query(
        "format",
        "Only `json`.",
        json!({"type": "string", "enum": ["json"]}),
        false,
    )]))
    .errors(&[BadRequest, NotFound])
}

/// `GET /api/v1/spatial.csv`.
pub fn csv(facts: &Facts) -> Description {
    Description::ok(text(
        "id,name,category,zone,protocol,latitude,longitude, then other properties. A text cell starting with =, +, -, @, \
         a tab or a carriage return has a leading ' so no spreadsheet runs it; numbers stay numbers.",
        media::CSV,
    ))
        .params([
            query("category", "Only rows of this category.", one_of(&facts.spatial_categories), false),
            query("zone", "Only rows in this zone.", one_of(&facts.spatial_zones), false),
        ])
        .errors(&[BadRequest, NotFound])
}

/// The filters features are chosen by, the same for `/api/v1/spatial.json` and OGC API items
/// (one filter serves both: `queries::spatial`).
pub fn feature_filters(facts: &Facts) -> [Value; 3] {
    [
        query(
            "category",
            "Only features of this category (exact, case-insensitive).",
            one_of(&facts.spatial_categories),
            false,
        ),
        query("zone", "Only features in this zone.", one_of(&facts.spatial_zones), false),
        query("protocol", "Only features of this register.", one_of(&facts.spatial_protocols), false),
    ]
}

/// The schema of a feature as the API publishes it.
pub fn schemas() -> Value {
    json!({
        "Feature": {
            "type": "object",
            "description": "An RFC 7946 Feature; `id` repeats `properties.id`.",
            "required": ["type", "geometry", "properties"],
            "properties": {
                "type": {"type": "string", "enum": ["Feature"]},
                "id": {"type": ["string", "number"]},
                "geometry": {"type": ["object", "null"], "required": ["type"], "properties": {"type": {"type": "string"}}},
                "properties": {
                    "type": "object",
                    "required": ["id", "protocol"],
                    "properties": {
                        "id": {"type": ["string", "number"]}, "name": {"type": "string"}, "category": {"type": "string"},
                        "zone": {"type": "string"}, "protocol": {"type": "string", "description": "The register the feature comes from."},
                    },
                    "additionalProperties": true,
                },
            },
        },
    })
}
