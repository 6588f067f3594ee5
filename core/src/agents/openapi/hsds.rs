//! The `hsds` section: the Open Referral HSDS 3.0 API (docs/spec/api-spec.md#hsds). Items are
//! described by the HSDS compiled schemas, which the document names rather than copies.

use serde_json::{json, Value};

use super::describe::{content, path, query, Description};
use super::schemas::schema;
use super::Facts;
use crate::http::media;
use crate::http::problem::ErrorCode::*;
use crate::search::limits::{MAX_QUERY_CHARS, MAX_QUERY_WORDS, MIN_QUERY_CHARS};
use crate::standards::hsds::{DEFAULT_PER_PAGE, MAX_PER_PAGE};

/// Where the HSDS 3.0 compiled schemas are published.
const SCHEMAS: &str = "https://github.com/openreferral/specification/tree/3.0/schema/compiled";

/// `GET /api/hsds`.
pub fn root(_: &Facts) -> Description {
    Description::ok(content("The HSDS version, profile and this OpenAPI document.", media::JSON, schema("HsdsRoot")))
}

/// A paged list of items that `item` describes in words.
fn page(item: &str, filters: Vec<Value>) -> Description {
    let body = json!({"allOf": [schema("HsdsPage"), {"type": "object", "properties": {"contents": {"type": "array",
        "items": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string", "format": "uuid"}}, "description": format!("An HSDS 3.0 {item} ({SCHEMAS}).")}}}}]});
    Description::ok(content(
        &format!("A page of {item} items. A parameter not listed here is 400 naming it."),
        media::JSON,
        body,
    ))
    .params(
        [
            query(
                "page",
                "The page, from 1 (past the last page, an empty page).",
                json!({"type": "integer", "minimum": 1, "maximum": u32::MAX, "default": 1}),
                false,
            ),
            query(
                "per_page",
                "Items per page.",
                json!({"type": "integer", "minimum": 1, "maximum": MAX_PER_PAGE, "default": DEFAULT_PER_PAGE}),
                false,
            ),
        ]
        .into_iter()
        .chain(filters),
    )
    .errors(&[BadRequest])
}

fn id_filter(name: &str, description: &str) -> Value {
    query(name, description, json!({"type": "string"}), false)
}

/// `search` where it runs the site's search engine (services) or matches the items' own words.
fn search(engine: bool) -> Value {
    let how = if engine {
        "Words the site's search finds in the service"
    } else {
        "Words every item kept has in its name, description or code (the last word also as a word's start)"
    };
    query(
        "search",
        &format!("{how}: at least {MIN_QUERY_CHARS} characters besides surrounding white space, at most {MAX_QUERY_CHARS} characters and {MAX_QUERY_WORDS} different words (a repeated word counts once; more is 400)."),
        json!({"type": "string", "minLength": MIN_QUERY_CHARS, "maxLength": MAX_QUERY_CHARS}),
        false,
    )
}

/// The filters of services, also those of services at locations (by their service).
fn service_filters(what: &str) -> Vec<Value> {
    vec![
        id_filter("taxonomy_term_id", &format!("Only {what} with this taxonomy term.")),
        id_filter("taxonomy_id", &format!("Only {what} with a term of this taxonomy.")),
        id_filter("organization_id", &format!("Only {what} of this organization.")),
        query(
            "modified_after",
            &format!("Only {what} modified on or after this date (from its midnight, UTC) or RFC 3339 time."),
            json!({"type": "string", "anyOf": [{"format": "date"}, {"format": "date-time"}]}),
            false,
        ),
    ]
}

/// `GET /api/hsds/services`.
pub fn services(_: &Facts) -> Description {
    page("service_list", [search(true)].into_iter().chain(service_filters("services")).collect())
        // Rate limited (docs/spec/api-spec.md#rate-limit): its `search` runs the search engine.
        .errors(&[RateLimited])
}

/// `GET /api/hsds/organizations`.
pub fn organizations(_: &Facts) -> Description {
    page("organization_list", vec![search(false)])
}

/// `GET /api/hsds/service_at_locations`.
pub fn service_at_locations(_: &Facts) -> Description {
    let filters = [search(false)].into_iter().chain(service_filters("services at locations whose service is one"));
    page("service_at_location_list", filters.collect())
}

/// `GET /api/hsds/taxonomies`.
pub fn taxonomies(_: &Facts) -> Description {
    page("taxonomy", vec![search(false)])
}

/// `GET /api/hsds/taxonomy_terms`.
pub fn taxonomy_terms(_: &Facts) -> Description {
    page(
        "taxonomy_term",
        vec![
            search(false),
            id_filter("taxonomy_id", "Only terms of this taxonomy."),
            id_filter("parent_id", "Only terms whose parent is this term (the site's terms have none)."),
            query("top_only", "Only terms without a parent.", json!({"type": "boolean"}), false),
        ],
    )
}

/// `GET /api/hsds/<kind>/{name}`: one item by id.
pub fn item(_: &Facts) -> Description {
    let body = json!({"type": "object", "required": ["id"], "properties": {"id": {"type": "string", "format": "uuid"}},
        "description": format!("The item, fully nested, as the HSDS 3.0 compiled schema of its kind says ({SCHEMAS}).")});
    Description::ok(content("One HSDS item.", media::JSON, body))
        .params([path("name", "The item's id (a UUID, stable across builds).", json!({"type": "string"}))])
        .errors(&[NotFound])
}

/// The HSDS section's component schemas.
pub fn schemas() -> Value {
    json!({
        "HsdsRoot": {
            "type": "object",
            "required": ["version", "profile", "openapi_url"],
            "properties": {
                "version": {"type": "string", "enum": [crate::standards::hsds::VERSION]},
                "profile": {"type": "string", "format": "uri"},
                "openapi_url": {"type": "string"},
            },
        },
        "HsdsPage": {
            "type": "object",
            "description": "The HSDS 3.0 page envelope.",
            "required": ["total_items", "total_pages", "page_number", "size", "first_page", "last_page", "empty", "contents"],
            "properties": {
                "total_items": {"type": "integer"}, "total_pages": {"type": "integer"}, "page_number": {"type": "integer"},
                "size": {"type": "integer"}, "first_page": {"type": "boolean"}, "last_page": {"type": "boolean"},
                "empty": {"type": "boolean"}, "contents": {"type": "array", "items": {"type": "object"}},
            },
        },
    })
}
