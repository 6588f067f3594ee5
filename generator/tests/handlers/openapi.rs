//! The OpenAPI document as served (`/api/openapi.json`): it parses, and it describes exactly the
//! operations of the route table (HTML pages aside, which `/api-docs` documents).

use std::collections::BTreeSet;

use portal_core::agents::openapi::openapi_path;
use portal_core::routing::ROUTES;
use serde_json::Value;

use crate::{json, Site};

fn document() -> Value {
    let response = Site::new().get("/api/openapi.json");
    assert_eq!(response.status, 200);
    assert!(response.header("content-type").unwrap_or_default().contains("openapi+json"), "{:?}", response.headers);
    json(&response)
}

#[test]
fn the_document_is_openapi_3_1_of_this_site() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["title"], "Fixture Portal API");
    assert_eq!(doc["info"]["version"], "1.0.0");
    assert_eq!(doc["servers"][0]["url"], "https://fixture.example.org");
}

#[test]
fn every_api_operation_of_the_route_table_has_its_path_and_id() {
    let doc = document();
    let paths = doc["paths"].as_object().expect("paths");
    let mut expected = BTreeSet::new();
    for route in ROUTES {
        for operation in route.operations.iter().filter(|_| route.tag != "pages") {
            let path = openapi_path(route.pattern);
            let method = operation.method.to_ascii_lowercase();
            let described = &paths.get(&path).unwrap_or_else(|| panic!("{path} is missing"))[&method];
            assert_eq!(described["operationId"], operation.operation_id, "{method} {path}");
            assert!(described["responses"].as_object().is_some_and(|r| !r.is_empty()), "{method} {path}");
            expected.insert(path);
        }
    }
    let documented: BTreeSet<String> = paths.keys().cloned().collect();
    assert_eq!(documented, expected, "no path beyond the route table's");
}

#[test]
fn every_reference_resolves_inside_the_document() {
    fn refs<'a>(value: &'a Value, found: &mut Vec<&'a str>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(target)) = map.get("$ref") {
                    found.push(target);
                }
                map.values().for_each(|v| refs(v, found));
            }
            Value::Array(items) => items.iter().for_each(|v| refs(v, found)),
            _ => {}
        }
    }
    let doc = document();
    let mut found = Vec::new();
    refs(&doc, &mut found);
    assert!(!found.is_empty());
    for target in found {
        let pointer = target.strip_prefix('#').unwrap_or_else(|| panic!("an outside reference: {target}"));
        assert!(doc.pointer(pointer).is_some(), "{target} resolves to nothing");
    }
}

#[test]
fn every_search_query_says_its_limits_and_every_search_its_rate_limit() {
    // docs/spec/api-spec.md#query-limits: the length in `maxLength`, the words in the description.
    let doc = document();
    for (path, name) in [
        ("/api/search", "q"),
        ("/api/hsds/services", "search"),
        ("/api/encyclopedia", "q"),
        ("/api/encyclopedia/facets", "q"),
    ] {
        let operation = &doc["paths"][path]["get"];
        let parameters = operation["parameters"].as_array().expect("parameters");
        let query = parameters.iter().find(|p| p["name"] == name).unwrap_or_else(|| panic!("{path} {name}"));
        assert_eq!(query["schema"]["maxLength"], 256, "{path}");
        assert!(query["description"].as_str().is_some_and(|d| d.contains("16 different words")), "{path}");
        assert!(operation["responses"].get("429").is_some(), "{path} is rate limited");
    }
}
