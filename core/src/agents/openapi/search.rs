//! The `search` section: full-text search, the flat search index and the news feed.

use crate::http::media;
use serde_json::{json, Value};

use super::describe::{content, envelope, json_content, query, text, Description};
use super::schemas::schema;
use super::Facts;
use crate::content::collections::{COLLECTIONS, ENCYCLOPEDIA};
use crate::handlers::search::{DEFAULT_LIMIT, MAX_LIMIT};
use crate::http::problem::ErrorCode::*;
use crate::search::limits::{MAX_QUERY_CHARS, MAX_QUERY_WORDS, MIN_QUERY_CHARS};

/// The names a search may scope to: the collections and the encyclopedia.
fn scopes() -> Vec<&'static str> {
    COLLECTIONS.iter().copied().chain([ENCYCLOPEDIA]).collect()
}

/// What the `collections` parameter of a search accepts, as the handler reads it: names of the
/// search scope separated by commas, white space around them ignored, or nothing at all.
fn scope_pattern() -> String {
    let name = format!("({})", scopes().join("|"));
    format!("^\\s*({name}(\\s*,\\s*{name})*)?\\s*$")
}

/// `GET /api/search`.
pub fn search(_: &Facts) -> Description {
    Description::ok(json_content("Hits per collection, best first.", "SearchResponse"))
        .params([
            query(
                "q",
                &format!(
                    "Words to find: at least {MIN_QUERY_CHARS} characters besides surrounding white space, at most {MAX_QUERY_CHARS} characters and {MAX_QUERY_WORDS} different words (a repeated word counts once; more is 400). Every word must match; the last also as a prefix."
                ),
                json!({"type": "string", "minLength": MIN_QUERY_CHARS, "maxLength": MAX_QUERY_CHARS, "pattern": "\\S[\\s\\S]*\\S"}),
                true,
            ),
            query(
                "collections",
                "Comma-separated collection names; `entries` adds the encyclopedia. Absent or empty: the 19 collections.",
                json!({"type": "string", "pattern": scope_pattern()}),
                false,
            ),
            query(
                "limit",
                "Hits per collection.",
                json!({"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT}),
                false,
            ),
        ])
        .errors(&[BadRequest, RateLimited])
}

/// `GET /api/search-index.json`.
pub fn index(_: &Facts) -> Description {
    Description::ok(content(
        "Every published record and entry.",
        media::JSON,
        json!({"type": "array", "items": schema("SearchIndexEntry")}),
    ))
}

/// `GET /api/rss`.
pub fn feed(_: &Facts) -> Description {
    Description::ok(text("RSS 2.0 of the latest news.", media::RSS)).errors(&[NotFound])
}

/// The schemas of hits and answers.
pub fn schemas() -> Value {
    let string = json!({"type": "string"});
    json!({
        "SearchScope": {"type": "string", "enum": scopes()},
        "SearchHit": {
            "type": "object", "required": ["slug", "title", "collection", "url"],
            "properties": {"slug": string, "title": string, "collection": schema("SearchScope"), "url": string},
        },
        "SearchResponse": envelope(&["query", "totalResults", "results", "cached"], json!({
            "query": string,
            "totalResults": {"type": "integer", "description": "Hits returned."},
            "results": {"type": "object", "description": "Collections with at least one hit.", "additionalProperties": {"type": "array", "items": schema("SearchHit")}},
            "totals": {"type": "object", "description": "Matches per searched collection before the limit.", "additionalProperties": {"type": "integer"}},
            "cached": {"type": "boolean"},
        })),
        "SearchIndexEntry": {
            "type": "object", "required": ["slug", "title", "collection", "url"],
            "properties": {"slug": string, "title": string, "collection": schema("SearchScope"), "url": string,
                "summary": {"type": ["string", "null"]}, "tags": {"type": "array", "items": string}, "date": {"type": ["string", "null"]}},
        },
    })
}
