//! The OpenAPI 3.1 document, generated from the route table and the error codes (never written by
//! hand), with enums filled from the build (booking choices, spatial categories and zones).
//!
//! HTML pages are left out: they are documented on `/api-docs`, and their catch-all path cannot be
//! expressed as an OpenAPI path template.

mod operations;
mod schemas;

use serde_json::{json, Map, Value};

use crate::collections::{COLLECTIONS, ENCYCLOPEDIA};
use crate::content::{Booking, SiteConfig};
use crate::deprecation;
use crate::problem::ErrorCode;
use crate::routes::ROUTES;
use crate::{API_VERSION, SUPPORTED_API_VERSIONS};

pub use operations::describe;

/// What the build knows that the document's enums need.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    /// The booking form's choices.
    pub booking: Booking,
    /// Spatial feature categories.
    pub spatial_categories: Vec<String>,
    /// Spatial zones.
    pub spatial_zones: Vec<String>,
    /// Spatial registers.
    pub spatial_protocols: Vec<String>,
}

/// An OpenAPI path for a route pattern: `{slug+}` becomes `{slug}`, `{name}` stays.
pub fn openapi_path(pattern: &str) -> String {
    let path = pattern.replace("{slug+}", "{slug}");
    if path.starts_with("/api/encyclopedia/{name}") {
        path.replace("{name}", "{slug}")
    } else {
        path
    }
}

/// The whole document.
pub fn document(site: &SiteConfig, facts: &Facts) -> Value {
    let mut paths = Map::new();
    for route in ROUTES.iter().filter(|r| r.tag != "pages") {
        let mut item = Map::new();
        for op in route.operations {
            let Some((mut parameters, request_body, ok, errors)) = describe(op.operation_id, facts) else { continue };
            parameters.push(json!({"$ref": "#/components/parameters/ApiVersion"}));
            let mut responses = Map::new();
            for (status, response) in ok {
                responses.insert(status.to_string(), with_common_headers(response, op.rate_limited, route.pattern));
            }
            for (status, reference) in operations::error_refs(&errors) {
                responses.entry(status).or_insert(reference);
            }
            let mut operation = json!({
                "operationId": op.operation_id,
                "summary": op.summary,
                "tags": [route.tag],
                "parameters": parameters,
                "responses": responses,
            });
            if let Some(body) = request_body {
                operation["requestBody"] = body;
            }
            if op.rate_limited {
                operation["description"] = json!("Counts against the client's budget of 60 requests per 60 seconds.");
            }
            if deprecation::find(route.pattern).is_some() {
                operation["deprecated"] = json!(true);
            }
            item.insert(op.method.to_ascii_lowercase(), operation);
        }
        if route.pattern == "/api/{collection}" {
            item.insert("options".into(), preflight());
        }
        paths.insert(openapi_path(route.pattern), Value::Object(item));
    }
    let mut scopes: Vec<&str> = COLLECTIONS.to_vec();
    scopes.push(ENCYCLOPEDIA);
    let mut component_headers = schemas::headers();
    if let Value::Object(map) = &mut component_headers {
        for (_, header) in map.iter_mut() {
            header["required"] = json!(false);
        }
    }
    json!({
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
        "info": {
            "title": format!("{} API", if site.title.is_empty() { "portal" } else { &site.title }),
            "version": API_VERSION,
            "description": format!(
                "{}\n\nPublic, read-mostly content and data API. No authentication. Errors are RFC 9457 problem documents \
                 whose `type` is `{base}/api-docs#error-<code>`. Rate limit: 60 requests per 60 s per client address on \
                 collection, search, encyclopedia query, action and MCP endpoints. Request bodies: at most 64 KiB of JSON. \
                 Every built file also answers at its own file path (`/api/news.json` like `/api/news`), the form the \
                 HTML pages link to so that they read the same from an unpacked copy.",
                site.description,
                base = site.base()
            ),
            "license": {"name": "CC BY-SA 4.0", "identifier": "CC-BY-SA-4.0"},
            "contact": {"email": site.contact.email, "url": site.contact.url},
        },
        "servers": [{"url": site.base()}],
        "tags": TAGS.iter().map(|t| json!({"name": t})).collect::<Vec<_>>(),
        "paths": paths,
        "components": {
            "schemas": schemas::schemas(&scopes),
            "responses": schemas::error_responses(),
            "headers": component_headers,
            "parameters": {"ApiVersion": {
                "name": "API-Version", "in": "header", "required": false,
                "description": "Pin the API version; `1.0.0`, `1.0` and `1` select 1.0.0. Any other value is 400 bad_request.",
                "schema": {"type": "string", "enum": SUPPORTED_API_VERSIONS},
            }},
        },
    })
}

/// The document's sections, in reading order.
const TAGS: [&str; 8] = ["collections", "search", "encyclopedia", "actions", "data", "spatial", "discovery", "mcp"];

fn preflight() -> Value {
    let cors = json!({"description": "CORS preflight: Access-Control-Allow-* headers and Access-Control-Max-Age."});
    json!({
        "operationId": "preflightCollection",
        "summary": "CORS preflight (any /api path answers it).",
        "tags": ["collections"],
        "parameters": [{"name": "collection", "in": "path", "required": true, "description": "Any segment: every /api path answers a preflight.", "schema": {"type": "string"}}],
        "responses": {"204": cors, "200": cors},
    })
}

/// Adds the version header, and the rate-limit headers where they apply, to a success response.
fn with_common_headers(mut response: Value, limited: bool, pattern: &str) -> Value {
    let mut names = vec!["API-Version"];
    if limited {
        names.extend([
            "RateLimit-Limit",
            "RateLimit-Remaining",
            "RateLimit-Reset",
            "RateLimit-Policy",
            "X-RateLimit-Limit",
            "X-RateLimit-Remaining",
            "X-RateLimit-Reset",
        ]);
    }
    if deprecation::find(pattern).is_some() {
        names.extend(["Deprecation", "Sunset", "Link"]);
    }
    let headers: Map<String, Value> =
        names.iter().map(|n| (n.to_string(), json!({"$ref": format!("#/components/headers/{n}")}))).collect();
    response["headers"] = Value::Object(headers);
    response
}

/// Every error code with its status, for the docs page's anchors.
pub fn error_codes() -> Vec<(ErrorCode, u16)> {
    ErrorCode::ALL.iter().map(|c| (*c, c.status())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_api_operation_is_described_once() {
        let doc = document(&SiteConfig::default(), &Facts::default());
        let mut ids = Vec::new();
        for route in ROUTES.iter().filter(|r| r.tag != "pages") {
            for op in route.operations {
                assert!(describe(op.operation_id, &Facts::default()).is_some(), "{} is not described", op.operation_id);
                let path = &doc["paths"][openapi_path(route.pattern)];
                assert_eq!(path[op.method.to_ascii_lowercase()]["operationId"], op.operation_id);
                ids.push(op.operation_id);
            }
        }
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), count, "operationIds are unique");
    }

    #[test]
    fn every_error_code_has_a_response() {
        let doc = document(&SiteConfig::default(), &Facts::default());
        for code in ErrorCode::ALL {
            assert!(doc["components"]["responses"][schemas::response_name(code)].is_object(), "{code:?}");
        }
    }
}
