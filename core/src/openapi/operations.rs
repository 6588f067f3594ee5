//! What each operation of the route table takes and answers, keyed by `operationId`. A unit test
//! makes sure no operation of [`crate::routes::ROUTES`] is left undescribed.

use serde_json::{json, Value};

use super::schemas::{response, response_name, schema};
use super::Facts;
use crate::collections::{COLLECTIONS, ENCYCLOPEDIA};
use crate::handlers::{bookings, collections, encyclopedia, match_category, search, voices};
use crate::problem::ErrorCode;
use crate::validate::Use;

/// The characters `validate::check_text` refuses in any text: control characters but tab and line
/// breaks (as regular-expression escapes).
const CONTROL: &str = "\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F";

/// A text field of an action body as `validate::Fields::text` accepts it: at most `max`
/// characters, at least one that is not white space, no control characters, and no line break
/// where the value ends up in a mail header.
fn text_field(max: usize, usage: Use, description: &str) -> Value {
    let refused = match usage {
        Use::Body => CONTROL.to_string(),
        Use::Header => format!("{CONTROL}\\u000A\\u000D"),
    };
    json!({"type": "string", "minLength": 1, "maxLength": max, "description": description,
           "pattern": format!("^[^{refused}]*[^\\s{refused}][^{refused}]*$")})
}

/// An optional body field: leaving it out and sending `null` mean the same.
fn nullable(schema_value: Value) -> Value {
    json!({"anyOf": [schema_value, {"type": "null"}]})
}

fn query(name: &str, description: &str, schema: Value, required: bool) -> Value {
    json!({"name": name, "in": "query", "required": required, "description": description, "schema": schema})
}

fn path(name: &str, description: &str, schema: Value) -> Value {
    json!({"name": name, "in": "path", "required": true, "description": description, "schema": schema})
}

fn slug() -> Value {
    path(
        "slug",
        "The record's slug; nested slugs contain `/` (send it percent-encoded as %2F or as path segments).",
        json!({"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*(/[a-z0-9][a-z0-9-]*)*$"}),
    )
}

/// A body's choice field: one of the values `site.yaml` lists, or, when it lists none, the short
/// text `validate::Fields::choice` then accepts.
fn choice(values: &[String]) -> Value {
    if values.is_empty() {
        text_field(crate::validate::MAX_CHOICE, Use::Body, "Any short text: the site lists no choices.")
    } else {
        one_of(values)
    }
}

/// A string schema limited to the values the build found, or any string when it found none.
fn one_of(values: &[String]) -> Value {
    if values.is_empty() {
        json!({"type": "string"})
    } else {
        json!({"type": "string", "enum": values})
    }
}

fn ok(description: &str, media: &str, body_schema: Value) -> Value {
    json!({"description": description, "content": {media: {"schema": body_schema}}})
}

fn json_ok(description: &str, name: &str) -> Value {
    ok(description, "application/json", schema(name))
}

fn body(schema_value: Value, required: bool) -> Value {
    json!({"required": required, "content": {"application/json": {"schema": schema_value}}})
}

fn encyclopedia_filters(facts: &Facts) -> Vec<Value> {
    let _ = facts;
    vec![
        query("q", "Words to find (ranked by relevance).", json!({"type": "string"}), false),
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

/// What the `collections` parameter of a search accepts, as the handler reads it: names of the
/// search scope separated by commas, white space around them ignored, or nothing at all.
fn search_scope_pattern() -> String {
    let names: Vec<&str> = COLLECTIONS.iter().copied().chain([ENCYCLOPEDIA]).collect();
    let name = format!("({})", names.join("|"));
    format!("^\\s*({name}(\\s*,\\s*{name})*)?\\s*$")
}

/// An operation's parameters, request body, success responses (status, response) and the error
/// codes it may answer.
pub type Description = (Vec<Value>, Option<Value>, Vec<(&'static str, Value)>, Vec<ErrorCode>);

/// The description of one operation (besides 400 for a bad `API-Version` and 500, which every
/// operation may answer).
pub fn describe(operation_id: &str, facts: &Facts) -> Option<Description> {
    use ErrorCode::*;
    let none = Vec::new;
    let text = |description: &str, media: &str| ok(description, media, json!({"type": "string"}));
    Some(match operation_id {
        "searchPortal" => (
            vec![
                query(
                    "q",
                    "Words to find; at least 2 characters besides surrounding white space. Every word must match; the last also as a prefix.",
                    json!({"type": "string", "minLength": 2, "pattern": "\\S[\\s\\S]*\\S"}),
                    true,
                ),
                query(
                    "collections",
                    "Comma-separated collection names; `entries` adds the encyclopedia. Absent or empty: the 19 collections.",
                    json!({"type": "string", "pattern": search_scope_pattern()}),
                    false,
                ),
                query(
                    "limit",
                    "Hits per collection.",
                    json!({"type": "integer", "minimum": 1, "maximum": search::MAX_LIMIT, "default": search::DEFAULT_LIMIT}),
                    false,
                ),
            ],
            None,
            vec![("200", json_ok("Hits per collection, best first.", "SearchResponse"))],
            vec![BadRequest, RateLimited],
        ),
        "getSearchIndex" => (
            none(),
            None,
            vec![(
                "200",
                ok(
                    "Every published record and entry.",
                    "application/json",
                    json!({"type": "array", "items": schema("SearchIndexEntry")}),
                ),
            )],
            vec![],
        ),
        "getNewsFeed" => {
            (none(), None, vec![("200", text("RSS 2.0 of the latest news.", "application/rss+xml"))], vec![NotFound])
        }
        "listEncyclopediaEntries" => {
            let mut params = encyclopedia_filters(facts);
            params.push(query(
                "page",
                "Page number, from 1; a page past the end is empty.",
                json!({"type": "integer", "minimum": 1, "maximum": i64::MAX, "default": 1}),
                false,
            ));
            params.push(query("pageSize", "Entries per page.", json!({"type": "integer", "minimum": 1, "maximum": encyclopedia::PAGE_SIZE.1, "default": encyclopedia::PAGE_SIZE.0}), false));
            params.push(query(
                "sort",
                "`title` (default without q), `updated` (newest first) or `relevance` (default with q); empty means the default.",
                json!({"type": "string", "enum": ["title", "updated", "relevance", ""]}),
                false,
            ));
            (
                params,
                None,
                vec![("200", json_ok("A page of entries (no body).", "EntryList"))],
                vec![BadRequest, RateLimited],
            )
        }
        "suggestEncyclopediaEntries" => (
            vec![
                query(
                    "q",
                    "The beginning of a title or alias.",
                    json!({"type": "string", "minLength": 1, "pattern": "\\S"}),
                    true,
                ),
                query(
                    "limit",
                    "Suggestions.",
                    json!({"type": "integer", "minimum": 1, "maximum": encyclopedia::SUGGEST_LIMIT.1, "default": encyclopedia::SUGGEST_LIMIT.0}),
                    false,
                ),
            ],
            None,
            vec![("200", json_ok("Titles first, then aliases.", "Suggestions"))],
            vec![BadRequest, RateLimited],
        ),
        "getEncyclopediaFacets" => (
            encyclopedia_filters(facts),
            None,
            vec![("200", json_ok("Counts under the filters.", "Facets"))],
            vec![BadRequest, RateLimited],
        ),
        "getEncyclopediaEntryJsonLd" => (
            vec![path("slug", "The entry's slug.", json!({"type": "string"}))],
            None,
            vec![(
                "200",
                ok("A schema.org Article citing its sources.", "application/ld+json", json!({"type": "object"})),
            )],
            vec![NotFound],
        ),
        "getEncyclopediaEntry" => (
            vec![path("slug", "The entry's slug.", json!({"type": "string"}))],
            None,
            vec![("200", json_ok("The entry with body, html and sources.", "EntryResponse"))],
            vec![NotFound],
        ),
        "describeExport" => (
            none(),
            None,
            vec![(
                "200",
                ok(
                    "Method, body schema, options and supported collections.",
                    "application/json",
                    json!({"type": "object"}),
                ),
            )],
            vec![],
        ),
        "exportCollections" => (
            none(),
            Some(body(
                json!({"type": "object", "required": ["collections"], "properties": {
                "collections": {"type": "array", "minItems": 1, "items": schema("CollectionName")},
                "options": nullable(schema("Options"))}}),
                true,
            )),
            vec![("200", json_ok("One array of records per collection.", "ExportResponse"))],
            vec![InvalidBody, PayloadTooLarge, UnsupportedMediaType, RateLimited],
        ),
        "matchCategory" => (
            none(),
            Some(body(
                json!({"type": "object", "required": ["category"], "properties": {
                "category": text_field(match_category::MAX_CATEGORY, Use::Body, "A skills category, e.g. `tailoring`.")}}),
                true,
            )),
            vec![(
                "200",
                ok(
                    "Whether published profiles exist in the category.",
                    "application/json",
                    json!({"type": "object", "required": ["status", "category", "matched", "profiles"], "properties": {
                "status": {"type": "string", "enum": ["success"]}, "category": {"type": "string"}, "matched": {"type": "boolean"}, "profiles": {"type": "integer"}}}),
                ),
            )],
            vec![InvalidBody, PayloadTooLarge, UnsupportedMediaType, RateLimited],
        ),
        "submitVoice" => (
            none(),
            Some(body(
                json!({"type": "object", "required": ["title", "author", "content"], "properties": {
                "title": text_field(voices::MAX_TITLE, Use::Header, "No line breaks."),
                "author": text_field(voices::MAX_AUTHOR, Use::Header, "No line breaks."),
                "content": text_field(voices::MAX_CONTENT, Use::Body, "The story; line breaks allowed.")}}),
                true,
            )),
            vec![(
                "202",
                ok(
                    "Stored for review; the editors are notified.",
                    "application/json",
                    json!({"type": "object", "required": ["status", "id", "receivedAt", "message"], "properties": {
                "status": {"type": "string", "enum": ["success"]}, "id": {"type": "string"}, "receivedAt": {"type": "string", "format": "date-time"}, "message": {"type": "string"}}}),
                ),
            )],
            vec![InvalidBody, PayloadTooLarge, UnsupportedMediaType, RateLimited],
        ),
        "sendBookingConfirmation" => {
            let b = &facts.booking;
            (
                none(),
                Some(body(
                    json!({"type": "object", "required": ["name", "email", "visitDate", "visitTime", "groupSize", "tourType"], "properties": {
                    "name": text_field(bookings::MAX_NAME, Use::Header, "No line breaks."),
                    "email": {"type": "string", "format": "email", "maxLength": 254},
                    "visitDate": {"type": "string", "format": "date", "description": "YYYY-MM-DD, today or later."},
                    "visitTime": {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"},
                    "groupSize": choice(&b.group_size), "tourType": choice(&b.tour_type),
                    "meetingPoint": nullable(choice(&b.meeting_point)), "paymentMethod": nullable(choice(&b.payment_method))}}),
                    true,
                )),
                vec![(
                    "202",
                    ok(
                        "Stored; the confirmation is sent to the visitor and the site.",
                        "application/json",
                        json!({"type": "object", "required": ["status", "reference", "message", "booking"], "properties": {
                    "status": {"type": "string", "enum": ["success"]}, "reference": {"type": "string"}, "message": {"type": "string"}, "booking": {"type": "object"}}}),
                    ),
                )],
                vec![InvalidBody, PayloadTooLarge, UnsupportedMediaType, RateLimited],
            )
        }
        "getAlerts" | "getPopulation" | "getFinance" | "getCharts" => {
            (none(), None, vec![("200", json_ok("The snapshot.", "Snapshot"))], vec![NotFound])
        }
        "getWeather" => (
            none(),
            None,
            vec![(
                "200",
                ok(
                    "Current weather and forecast; `source` says upstream or seasonal fallback.",
                    "application/json",
                    json!({"type": "object", "required": ["status", "source"], "properties": {"status": {"type": "string"}, "source": {"type": "string", "enum": ["upstream", "fallback"]}}}),
                ),
            )],
            vec![NotFound, UpstreamUnavailable],
        ),
        "getWeatherAlerts" => (
            none(),
            None,
            vec![(
                "200",
                ok(
                    "Alerts from the upstream CAP feed (empty when none is configured).",
                    "application/json",
                    json!({"type": "object", "required": ["status", "source", "data"], "properties": {"status": {"type": "string"}, "source": {"type": "string", "enum": ["upstream", "none"]}, "updatedAt": {"type": "string"}, "data": {"type": "object"}}}),
                ),
            )],
            vec![UpstreamUnavailable],
        ),
        "getGeolocation" => (
            none(),
            None,
            vec![(
                "200",
                ok(
                    "Coarse location of the client.",
                    "application/json",
                    json!({"type": "object", "required": ["status", "source", "data"], "properties": {"status": {"type": "string"}, "source": {"type": "string", "enum": ["edge", "upstream"]}, "data": {"type": "object"}}}),
                ),
            )],
            vec![UpstreamUnavailable],
        ),
        "getPageviews" => (
            none(),
            None,
            vec![(
                "200",
                ok(
                    "Always zero.",
                    "application/json",
                    json!({"type": "object", "required": ["status", "data"], "properties": {"status": {"type": "string"}, "data": {"type": "object", "properties": {"pageviews": {"type": "integer", "enum": [0]}}}}}),
                ),
            )],
            vec![],
        ),
        "getSpatialGeoJson" => (
            vec![
                query(
                    "category",
                    "Only features of this category (exact, case-insensitive).",
                    one_of(&facts.spatial_categories),
                    false,
                ),
                query("zone", "Only features in this zone.", one_of(&facts.spatial_zones), false),
                query("protocol", "Only features of this register.", one_of(&facts.spatial_protocols), false),
                query("format", "Only `json`.", json!({"type": "string", "enum": ["json"]}), false),
            ],
            None,
            vec![(
                "200",
                ok(
                    "An RFC 7946 FeatureCollection.",
                    "application/geo+json",
                    json!({"type": "object", "required": ["type", "features"], "properties": {"type": {"type": "string", "enum": ["FeatureCollection"]}, "features": {"type": "array"}}}),
                ),
            )],
            vec![BadRequest, NotFound],
        ),
        "getSpatialCsv" => (
            vec![
                query("category", "Only rows of this category.", one_of(&facts.spatial_categories), false),
                query("zone", "Only rows in this zone.", one_of(&facts.spatial_zones), false),
            ],
            None,
            vec![(
                "200",
                text("id,name,category,zone,protocol,latitude,longitude, then other properties.", "text/csv"),
            )],
            vec![BadRequest, NotFound],
        ),
        "getOpenApi" => (
            none(),
            None,
            vec![("200", ok("This document.", "application/openapi+json", json!({"type": "object"})))],
            vec![],
        ),
        "getDeprecationPolicy" | "getStatus" | "getMcpServerCard" | "getMcpServerCardAlias" | "getAgentSkills" => (
            none(),
            None,
            vec![("200", ok("The document.", "application/json", json!({"type": "object"})))],
            vec![NotFound],
        ),
        "getApiCatalog" => (
            none(),
            None,
            vec![("200", ok("RFC 9727 API catalog.", "application/linkset+json", json!({"type": "object"})))],
            vec![NotFound],
        ),
        "getAgentSkill" => (
            vec![path("name", "The skill's name.", json!({"type": "string"}))],
            None,
            vec![("200", text("The skill (SKILL.md).", "text/markdown"))],
            vec![NotFound],
        ),
        "getLlmsTxt" => {
            (none(), None, vec![("200", text("Summary for language models.", "text/plain"))], vec![NotFound])
        }
        "listCollection" => (
            vec![
                path("collection", "The collection.", schema("CollectionName")),
                query(
                    "limit",
                    "Records to return.",
                    json!({"type": "integer", "minimum": 1, "maximum": collections::MAX_LIMIT}),
                    false,
                ),
                query("offset", "Records to skip.", json!({"type": "integer", "minimum": 0, "maximum": i64::MAX}), false),
            ],
            None,
            vec![("200", json_ok("The collection's records in order.", "CollectionResponse"))],
            vec![BadRequest, CollectionNotFound, RateLimited],
        ),
        "queryCollection" => (
            vec![path("collection", "The collection.", schema("CollectionName"))],
            Some(body(json!({"type": "object", "properties": {"options": nullable(schema("Options"))}}), false)),
            vec![("200", json_ok("The collection, with metadata and stats when asked.", "CollectionResponse"))],
            vec![InvalidBody, CollectionNotFound, PayloadTooLarge, UnsupportedMediaType, RateLimited],
        ),
        "getRecord" => (
            vec![path("collection", "The collection.", schema("CollectionName")), slug()],
            None,
            vec![("200", json_ok("One record with its rendered HTML.", "RecordResponse"))],
            vec![NotFound],
        ),
        "getMcpDiscovery" | "getWellKnownMcpDiscovery" => (
            none(),
            None,
            vec![(
                "200",
                ok(
                    "The MCP discovery document.",
                    "application/json",
                    json!({"type": "object", "required": ["name", "version", "protocolVersion", "transport", "endpoint", "tools"]}),
                ),
            )],
            vec![MethodNotAllowed],
        ),
        "callMcp" | "callWellKnownMcp" => (
            vec![
                json!({"name": "MCP-Protocol-Version", "in": "header", "required": false, "schema": {"type": "string", "enum": crate::mcp::SUPPORTED_VERSIONS}}),
            ],
            Some(body(schema("JsonRpcMessage"), true)),
            vec![
                (
                    "200",
                    json_ok(
                        "The JSON-RPC response (a JSON-RPC error for unknown methods or bad params).",
                        "JsonRpcResponse",
                    ),
                ),
                ("202", json!({"description": "A notification or a response was accepted; no body."})),
                (
                    "400",
                    json!({"description": "Unparsable JSON (-32700), an invalid request (-32600), or an unsupported MCP-Protocol-Version header.",
                    "content": {"application/json": {"schema": schema("JsonRpcResponse")}, "application/problem+json": {"schema": schema("Problem")}}}),
                ),
            ],
            vec![PayloadTooLarge, UnsupportedMediaType, RateLimited],
        ),
        _ => return None,
    })
}

/// The error responses of an operation as `(status, $ref)`, merging codes that share a status.
pub fn error_refs(codes: &[ErrorCode]) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = Vec::new();
    for code in codes.iter().chain(&[ErrorCode::BadRequest, ErrorCode::InternalError]) {
        let status = code.status().to_string();
        if out.iter().any(|(s, _)| *s == status) {
            continue;
        }
        out.push((status, response(&response_name(*code))));
    }
    out
}
