//! OGC API - Features Part 1: Core under `/api/ogc` (in the `spatial` section): the landing page,
//! conformance, the collections (one per register) and their items.

use crate::http::media;
use serde_json::{json, Value};

use super::describe::{content, path, query, Description};
use super::schemas::schema;
use super::Facts;
use crate::http::problem::ErrorCode::*;
use crate::standards::ogc::{CONFORMANCE, CRS84, DEFAULT_LIMIT, FORMATS, MAX_LIMIT};

/// The links every OGC document carries.
fn links() -> Value {
    json!({"type": "array", "items": {"type": "object", "required": ["href", "rel"], "properties": {
        "href": {"type": "string"}, "rel": {"type": "string"}, "type": {"type": "string"}, "title": {"type": "string"}}}})
}

fn collection_id() -> Value {
    path("name", "The collection's id: the stem of its file in content/spatial/.", json!({"type": "string"}))
}

fn collection_schema() -> Value {
    json!({"type": "object", "required": ["id", "links"], "properties": {
        "id": {"type": "string"}, "title": {"type": "string"}, "description": {"type": "string"},
        "itemType": {"type": "string", "enum": ["feature"]}, "crs": {"type": "array", "items": {"type": "string", "enum": [CRS84]}},
        "extent": {"type": "object", "properties": {"spatial": {"type": "object", "properties": {
            "bbox": {"type": "array", "items": {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4}},
            "crs": {"type": "string"}}}}},
        "links": links()}})
}

/// A list parameter sent as one comma-separated value (`bbox=1,2,3,4`).
fn explode_false(mut parameter: Value) -> Value {
    parameter["style"] = json!("form");
    parameter["explode"] = json!(false);
    parameter
}

/// `GET /api/ogc`.
pub fn landing(_: &Facts) -> Description {
    Description::ok(content(
        "The landing page: links `self`, `service-desc`, `service-doc`, `conformance` and `data`.",
        media::JSON,
        json!({"type": "object", "required": ["links"], "properties": {
            "title": {"type": "string"}, "description": {"type": "string"}, "links": links()}}),
    ))
    .params([format()])
    .errors(&[BadRequest])
}

/// `GET /api/ogc/conformance`.
pub fn conformance(_: &Facts) -> Description {
    Description::ok(content(
        "The conformance classes implemented.",
        media::JSON,
        json!({"type": "object", "required": ["conformsTo"], "properties": {
            "conformsTo": {"type": "array", "items": {"type": "string", "enum": CONFORMANCE}}}}),
    ))
    .params([format()])
    .errors(&[BadRequest])
}

/// `GET /api/ogc/openapi`.
pub fn openapi(_: &Facts) -> Description {
    let mut ok = content(
        "The OGC endpoints as OpenAPI 3.0 (the `oas30` class), each collection with its own filter values.",
        media::OPENAPI_30,
        json!({"type": "object", "required": ["openapi", "paths"]}),
    );
    ok["content"][media::OPENAPI_30]["schema"]["properties"] =
        json!({"openapi": {"type": "string", "pattern": "^3\\.0\\."}});
    Description::ok(ok).params([format()]).errors(&[BadRequest])
}

/// `f` on a JSON document: only JSON.
fn format() -> Value {
    query(
        "f",
        "Only JSON; any other parameter is 400.",
        json!({"type": "string", "enum": ["json", "application/json"]}),
        false,
    )
}

/// `GET /api/ogc/collections`.
pub fn collections(_: &Facts) -> Description {
    Description::ok(content(
        "One collection per file of content/spatial/.",
        media::JSON,
        json!({"type": "object", "required": ["links", "collections"], "properties": {
            "links": links(), "collections": {"type": "array", "items": collection_schema()}}}),
    ))
    .params([format()])
    .errors(&[BadRequest])
}

/// `GET /api/ogc/collections/{name}`.
pub fn collection(_: &Facts) -> Description {
    Description::ok(content("The collection, with the box around its geometries.", media::JSON, collection_schema()))
        .params([collection_id(), format()])
        .errors(&[BadRequest, NotFound])
}

/// `GET /api/ogc/collections/{name}/items`.
pub fn items(facts: &Facts) -> Description {
    let page = json!({"type": "object", "required": ["type", "features", "numberMatched", "numberReturned", "links"], "properties": {
        "type": {"type": "string", "enum": ["FeatureCollection"]}, "features": {"type": "array", "items": schema("Feature")},
        "numberMatched": {"type": "integer", "minimum": 0}, "numberReturned": {"type": "integer", "minimum": 0},
        "links": links()}});
    let mut ok = content("A page of features with `next`/`prev` links.", media::GEOJSON, page.clone());
    ok["content"][media::JSON] = json!({"schema": page});
    let integer = |min: u64| json!({"type": "integer", "minimum": min});
    Description::ok(ok)
        .params(
            [
                collection_id(),
                query(
                    "limit",
                    &format!(
                        "Features a page holds (default {DEFAULT_LIMIT}; above {MAX_LIMIT} served as {MAX_LIMIT})."
                    ),
                    integer(1),
                    false,
                ),
                query("offset", "Features skipped before the page.", integer(0), false),
                explode_false(query(
                    "bbox",
                    "minLon,minLat,maxLon,maxLat (or 6 numbers with heights), CRS84; minLon > maxLon crosses the \
                 antimeridian. A feature matches when its geometry's box meets it.",
                    json!({"type": "array", "items": {"type": "number", "minimum": -180, "maximum": 180},
                        "oneOf": [{"minItems": 4, "maxItems": 4}, {"minItems": 6, "maxItems": 6}]}),
                    false,
                )),
                query("bbox-crs", "Only CRS84.", json!({"type": "string", "enum": [CRS84]}), false),
                query(
                    "datetime",
                    "A date, an RFC 3339 date-time or an interval `start/end` (`..` open), matched against each \
                     feature's `datetime`, `date` or `updated`; 400 on a collection none of whose features has one. \
                     Any parameter not listed here is 400.",
                    json!({"type": "string"}),
                    false,
                ),
            ]
            .into_iter()
            .chain(super::spatial::feature_filters(facts))
            .chain([query(
                "f",
                "`json` answers as application/json.",
                json!({"type": "string", "enum": FORMATS}),
                false,
            )]),
        )
        .errors(&[BadRequest, NotFound])
}

/// `GET /api/ogc/collections/{name}/items/{slug}`.
pub fn item(_: &Facts) -> Description {
    Description::ok(content("The feature, with its links.", media::GEOJSON, schema("Feature")))
        .params([
            collection_id(),
            path(
                "slug",
                "The feature's id (its own `id`, else one derived from its properties), percent-encoded.",
                json!({"type": "string"}),
            ),
            query("f", "GeoJSON whichever is asked.", json!({"type": "string", "enum": FORMATS}), false),
        ])
        .errors(&[BadRequest, NotFound])
}
