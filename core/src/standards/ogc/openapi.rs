//! The OpenAPI 3.0 document of the OGC API (docs/spec/api-spec.md#ogc), which the landing page
//! links as its `service-desc`: the conformance class `oas30` asks for OpenAPI 3.0, which the site's
//! own document (`/api/openapi.json`, 3.1) is not. Each collection has paths of its own, so the
//! values its `category`, `zone` and `protocol` filters take are its own features' values.

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};

use super::datetime::DATE_PROPERTIES;
use super::{
    collection_path, items_path, Register, CONFORMANCE, CRS84, DEFAULT_LIMIT, DOCUMENT_PARAMETERS, FORMATS, GEOJSON,
    JSON, MAX_LIMIT, ROOT,
};
use crate::content::scalar_text;
use crate::http::media::PROBLEM_JSON;
use crate::queries::spatial::FILTERS;

/// Where the document is published.
pub const OPENAPI_PATH: &str = "/api/ogc/openapi";

/// The whole document for the collections `registers` of the site at `base`.
pub fn openapi(base: &str, title: &str, registers: &[Register]) -> Value {
    let mut paths = Map::new();
    paths.insert(ROOT.into(), document("getLandingPage", "The landing page.", "Landing"));
    paths.insert(format!("{ROOT}/conformance"), document("getConformance", "The conformance classes.", "Conformance"));
    paths.insert(format!("{ROOT}/collections"), document("getCollections", "The feature collections.", "Collections"));
    for (n, register) in registers.iter().enumerate() {
        let about = format!("The collection `{}`.", register.id);
        paths.insert(collection_path(register.id), document(&format!("getCollection{n}"), &about, "Collection"));
        paths.insert(items_path(register.id), items(n, register));
        paths.insert(format!("{}/{{featureId}}", items_path(register.id)), feature(n, register));
    }
    json!({
        "openapi": "3.0.3",
        "info": {
            "title": format!("{title}: OGC API - Features"),
            "version": "1.0.0",
            "description": "The places of the site as OGC API - Features Part 1: Core, with GeoJSON. A query \
                parameter not listed for a resource is 400.",
        },
        "servers": [{"url": if base.is_empty() { "/" } else { base }}],
        // A public API: no operation needs credentials.
        "security": [],
        "tags": [
            {"name": "Capabilities", "description": "What the API is and offers."},
            {"name": "Data", "description": "The collections and their features."},
        ],
        "paths": paths,
        "components": {"schemas": schemas(), "responses": {
            "Problem": {"description": "An RFC 9457 problem document.",
                "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}}},
        }},
    })
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

fn format_parameter() -> Value {
    let values: Vec<&str> = FORMATS.iter().copied().filter(|f| !f.contains("geo")).collect();
    json!({"name": DOCUMENT_PARAMETERS[0], "in": "query", "required": false, "description": "Only JSON.",
        "schema": {"type": "string", "enum": values}})
}

fn errors(mut responses: Value, codes: &[&str]) -> Value {
    for code in codes {
        responses[*code] = json!({"$ref": "#/components/responses/Problem"});
    }
    responses
}

/// A JSON document with only `f` for a parameter.
fn document(id: &str, summary: &str, schema: &str) -> Value {
    let ok = json!({"200": {"description": summary, "content": {JSON: {"schema": reference(schema)}}}});
    let tag = if schema == "Collection" { "Data" } else { "Capabilities" };
    json!({"get": {"operationId": id, "summary": summary, "tags": [tag], "parameters": [format_parameter()],
        "responses": errors(ok, &["400", "404"])}})
}

/// The values the features of `register` have for property `name`, sorted.
fn values(register: &Register, name: &str) -> Vec<String> {
    let found: BTreeSet<String> =
        register.features.iter().filter_map(|f| scalar_text(&f["properties"][name])).collect();
    found.into_iter().collect()
}

fn query(name: &str, description: &str, schema: Value) -> Value {
    json!({"name": name, "in": "query", "required": false, "description": description, "schema": schema})
}

/// `GET .../items` of one collection, its filters enumerating its own features' values.
fn items(n: usize, register: &Register) -> Value {
    let mut parameters = vec![
        query(
            "limit",
            &format!("Features a page holds (default {DEFAULT_LIMIT}; above {MAX_LIMIT} served as {MAX_LIMIT})."),
            json!({"type": "integer", "minimum": 1, "default": DEFAULT_LIMIT}),
        ),
        query("offset", "Features skipped before the page.", json!({"type": "integer", "minimum": 0})),
        json!({"name": "bbox", "in": "query", "required": false, "style": "form", "explode": false,
            "description": "minLon,minLat,maxLon,maxLat (or 6 numbers with heights), CRS84.",
            "schema": {"type": "array", "items": {"type": "number", "minimum": -180, "maximum": 180},
                "oneOf": [{"minItems": 4, "maxItems": 4}, {"minItems": 6, "maxItems": 6}]}}),
        query("bbox-crs", "Only CRS84.", json!({"type": "string", "enum": [CRS84]})),
    ];
    // Only where it can choose: on a collection without dated features `datetime` is 400.
    if register.features.iter().any(|f| super::datetime::of_feature(f).is_some()) {
        parameters.push(query(
            "datetime",
            &format!(
                "A date, an RFC 3339 date-time or an interval `start/end` of two (`..` or nothing for open), \
                 matched against each feature's {}; a date is its whole day (UTC). Anything else is 400.",
                DATE_PROPERTIES.map(|p| format!("`{p}`")).join(", ")
            ),
            json!({"type": "string", "minLength": 1}),
        ));
    }
    for name in FILTERS {
        let found = values(register, name);
        if !found.is_empty() {
            let about = format!("Only features with this {name} (case-insensitive).");
            parameters.push(query(name, &about, json!({"type": "string", "enum": found})));
        }
    }
    parameters.push(query("f", "`json` answers as application/json.", json!({"type": "string", "enum": FORMATS})));
    let page = reference("FeatureCollection");
    let ok = json!({"200": {"description": "A page of features with `next`/`prev` links.",
        "content": {GEOJSON: {"schema": page}, JSON: {"schema": page}}}});
    json!({"get": {"operationId": format!("getItems{n}"), "summary": format!("The features of `{}`.", register.id),
        "tags": ["Data"],
        "parameters": parameters, "responses": errors(ok, &["400", "404"])}})
}

/// `GET .../items/{featureId}` of one collection.
fn feature(n: usize, register: &Register) -> Value {
    let ok = json!({"200": {"description": "The feature.", "content": {GEOJSON: {"schema": reference("Feature")}}}});
    json!({"get": {"operationId": format!("getItem{n}"), "summary": format!("One feature of `{}`.", register.id),
        "tags": ["Data"],
        "parameters": [
            {"name": "featureId", "in": "path", "required": true, "description": "The feature's id.",
                "schema": {"type": "string"}},
            query("f", "GeoJSON, whichever is asked.", json!({"type": "string", "enum": FORMATS})),
        ],
        "responses": errors(ok, &["400", "404"])}})
}

fn schemas() -> Value {
    let link = json!({"type": "object", "required": ["href", "rel"], "properties": {
        "href": {"type": "string"}, "rel": {"type": "string"}, "type": {"type": "string"}, "title": {"type": "string"}}});
    let links = json!({"type": "array", "items": reference("Link")});
    json!({
        "Link": link,
        "Landing": {"type": "object", "required": ["links"], "properties": {
            "title": {"type": "string"}, "description": {"type": "string"}, "links": links}},
        "Conformance": {"type": "object", "required": ["conformsTo"], "properties": {
            "conformsTo": {"type": "array", "items": {"type": "string", "enum": CONFORMANCE}}}},
        "Collection": {"type": "object", "required": ["id", "links"], "properties": {
            "id": {"type": "string"}, "title": {"type": "string"}, "description": {"type": "string"},
            "itemType": {"type": "string"}, "crs": {"type": "array", "items": {"type": "string"}},
            "extent": {"type": "object"}, "links": links}},
        "Collections": {"type": "object", "required": ["links", "collections"], "properties": {
            "links": links, "collections": {"type": "array", "items": reference("Collection")}}},
        "Feature": {"type": "object", "required": ["type", "geometry", "properties"], "properties": {
            "type": {"type": "string", "enum": ["Feature"]},
            "id": {"oneOf": [{"type": "string"}, {"type": "number"}]},
            "geometry": {"type": "object", "nullable": true, "required": ["type"], "properties": {"type": {"type": "string"}}},
            "properties": {"type": "object", "nullable": true},
            "links": links}},
        "FeatureCollection": {"type": "object", "required": ["type", "features"], "properties": {
            "type": {"type": "string", "enum": ["FeatureCollection"]},
            "features": {"type": "array", "items": reference("Feature")},
            "numberMatched": {"type": "integer", "minimum": 0}, "numberReturned": {"type": "integer", "minimum": 0},
            "timeStamp": {"type": "string", "format": "date-time"},
            "links": links}},
        "Problem": {"type": "object", "required": ["type", "title", "status"], "properties": {
            "type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"},
            "detail": {"type": "string"}, "code": {"type": "string"}}},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_collection_lists_its_own_filter_values() {
        let water = [json!({"type": "Feature", "properties": {"category": "water"}, "geometry": null})];
        let art = [json!({"type": "Feature", "properties": {"category": "mural", "zone": "a"}, "geometry": null})];
        let registers = [
            Register { id: "places", title: "Places", features: &water },
            Register { id: "public art", title: "Art", features: &art },
        ];
        let doc = openapi("https://x.example", "X", &registers);
        assert_eq!(doc["openapi"], "3.0.3");
        let enum_of = |path: &str, name: &str| {
            doc["paths"][path]["get"]["parameters"]
                .as_array()
                .and_then(|ps| ps.iter().find(|p| p["name"] == name))
                .map(|p| p["schema"]["enum"].clone())
        };
        assert_eq!(enum_of("/api/ogc/collections/places/items", "category"), Some(json!(["water"])));
        assert_eq!(enum_of("/api/ogc/collections/public%20art/items", "category"), Some(json!(["mural"])));
        assert_eq!(enum_of("/api/ogc/collections/places/items", "zone"), None, "no feature has a zone");
        assert!(doc["paths"]["/api/ogc/collections/places/items/{featureId}"]["get"].is_object());
        assert_eq!(enum_of("/api/ogc/collections/places/items", "datetime"), None, "no dated feature, no datetime");
    }
}
