//! The `encyclopedia` section: queries, suggestions, facets and entries.

use crate::http::media;
use serde_json::{json, Value};

use super::describe::{content, envelope, json_content, path, query, Description};
use super::schemas::schema;
use super::Facts;
use crate::content::collections::ENCYCLOPEDIA;
use crate::handlers::encyclopedia::{PAGE_SIZE, SUGGEST_LIMIT};
use crate::http::problem::ErrorCode::*;
use crate::search::limits::{MAX_QUERY_CHARS, MAX_QUERY_WORDS};

/// The list filters shared by the query and the facets.
fn filters() -> Vec<Value> {
    vec![
        query(
            "q",
            &format!("Words to find (ranked by relevance): at most {MAX_QUERY_CHARS} characters and {MAX_QUERY_WORDS} different words (a repeated word counts once; more is 400)."),
            json!({"type": "string", "maxLength": MAX_QUERY_CHARS}),
            false,
        ),
        query("category", "Only entries of this category (case-insensitive).", json!({"type": "string"}), false),
        query("tag", "Only entries with this tag (case-insensitive).", json!({"type": "string"}), false),
        query(
            "letter",
            "Only titles starting with this letter (accents folded: e, É and E are the same).",
            json!({"type": "string", "maxLength": 1, "description": "One character; empty means no filter."}),
            false,
        ),
    ]
}

fn entry_slug() -> Value {
    path("slug", "The entry's slug.", json!({"type": "string"}))
}

/// `GET /api/encyclopedia`.
pub fn list(_: &Facts) -> Description {
    Description::ok(json_content("A page of entries (no body).", "EntryList"))
        .params(filters())
        .params([
            query(
                "page",
                "Page number, from 1; a page past the end is empty.",
                json!({"type": "integer", "minimum": 1, "maximum": i64::MAX, "default": 1}),
                false,
            ),
            query(
                "pageSize",
                "Entries per page.",
                json!({"type": "integer", "minimum": 1, "maximum": PAGE_SIZE.1, "default": PAGE_SIZE.0}),
                false,
            ),
            query(
                "sort",
                "`title` (default without q), `updated` (newest first) or `relevance` (default with q); empty means the default.",
                json!({"type": "string", "enum": ["title", "updated", "relevance", ""]}),
                false,
            ),
        ])
        .errors(&[BadRequest, RateLimited])
}

/// `GET /api/encyclopedia/suggest`.
pub fn suggest(_: &Facts) -> Description {
    Description::ok(json_content("Titles first, then aliases.", "Suggestions"))
        .params([
            query(
                "q",
                "The beginning of a title or alias.",
                json!({"type": "string", "minLength": 1, "pattern": "\\S"}),
                true,
            ),
            query(
                "limit",
                "Suggestions.",
                json!({"type": "integer", "minimum": 1, "maximum": SUGGEST_LIMIT.1, "default": SUGGEST_LIMIT.0}),
                false,
            ),
        ])
        .errors(&[BadRequest, RateLimited])
}

/// `GET /api/encyclopedia/facets`.
pub fn facets(_: &Facts) -> Description {
    Description::ok(json_content("Counts under the filters.", "Facets"))
        .params(filters())
        .errors(&[BadRequest, RateLimited])
}

/// `GET /api/encyclopedia/{slug}/jsonld`.
pub fn json_ld(_: &Facts) -> Description {
    Description::ok(content("A schema.org Article citing its sources.", media::JSON_LD, json!({"type": "object"})))
        .params([entry_slug()])
        .errors(&[NotFound])
}

/// `GET /api/encyclopedia/{slug}`.
pub fn entry(_: &Facts) -> Description {
    Description::ok(json_content("The entry with body, html and sources.", "EntryResponse"))
        .params([entry_slug()])
        .errors(&[NotFound])
}

/// The schemas of entries and the answers about them.
pub fn schemas() -> Value {
    let string = json!({"type": "string"});
    let strings = json!({"type": "array", "items": {"type": "string"}});
    let counts = json!({"type": "object", "additionalProperties": {"type": "integer"}});
    json!({
        "Source": {
            "type": "object", "required": ["title", "url"],
            "properties": {"title": string, "url": {"type": "string", "format": "uri"}, "publisher": string, "date": string},
        },
        "Entry": {
            "type": "object", "required": ["id", "collection", "title", "slug", "url"],
            "properties": {
                "id": string, "collection": {"type": "string", "enum": [ENCYCLOPEDIA]}, "title": string, "slug": string,
                "url": string, "summary": string, "category": string, "tags": strings, "aliases": strings,
                "language": string, "updated": string, "related": strings, "sources": {"type": "array", "items": schema("Source")},
            },
            "additionalProperties": true,
        },
        "EntryDetail": {"allOf": [schema("Entry"), {"type": "object", "required": ["html", "sources"], "properties": {"body": string, "html": string}}]},
        "EntryResponse": envelope(&["data"], json!({
            "data": {"type": "object", "required": ["entry"], "properties": {"entry": schema("EntryDetail")}},
        })),
        "EntryList": envelope(&["count", "total", "page", "pageSize", "totalPages", "data", "links"], json!({
            "count": {"type": "integer"}, "total": {"type": "integer"},
            "page": {"type": "integer"}, "pageSize": {"type": "integer"}, "totalPages": {"type": "integer"},
            "data": {"type": "object", "required": ["entries"], "properties": {"entries": {"type": "array", "items": schema("Entry")}}},
            "links": {"type": "object", "required": ["self"], "properties": {"self": string, "next": string, "prev": string}},
        })),
        "Suggestions": envelope(&["query", "suggestions"], json!({
            "query": string,
            "suggestions": {"type": "array", "items": {
                "type": "object", "required": ["slug", "title", "url"], "properties": {"slug": string, "title": string, "url": string, "alias": string}}},
        })),
        "Facets": envelope(&["facets"], json!({
            "facets": {"type": "object", "required": ["category", "tags", "letter"], "properties": {
                "category": counts, "tags": counts, "letter": counts}},
        })),
    })
}
