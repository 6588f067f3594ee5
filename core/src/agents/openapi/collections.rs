//! The `collections` section: listing, querying and reading records, and their schemas.

use serde_json::{json, Value};

use super::describe::{
    collection, envelope, json_content, nullable, object, path, query, slug, Description, BODY_ERRORS,
};
use super::schemas::schema;
use super::Facts;
use crate::content::collections::COLLECTIONS;
use crate::handlers::collections::MAX_LIMIT;
use crate::http::problem::ErrorCode::*;

/// A comma-separated list of field names (`-` before a name sorts it descending).
const FIELD_LIST: &str = "^-?[^,\\s-][^,]*(,-?[^,\\s-][^,]*)*$";

/// The query parameters of a listing: paging, filters, sorting and field selection (`listing`).
fn listing_parameters() -> Vec<Value> {
    vec![
        query("limit", "Records to return.", json!({"type": "integer", "minimum": 1, "maximum": MAX_LIMIT}), false),
        query("offset", "Records to skip.", json!({"type": "integer", "minimum": 0, "maximum": i64::MAX}), false),
        json!({
            "name": "filter", "in": "query", "required": false, "style": "deepObject", "explode": true,
            "description": "`filter[<field>]=<value>`: records whose field equals the value (strings ignore case) or, \
                for a list field, contains it; `a,b` matches either; several filters must all match. \
                `filter[<field>][gte]=` and `[lte]=` compare dates (YYYY-MM-DD or RFC 3339) and numbers. \
                A field no record of the collection has is 400 bad_request with the nearest field.",
            "schema": {"type": "object", "additionalProperties": {"type": "string"}},
        }),
        query(
            "sort",
            "Field names separated by commas, `-` before a name for descending order; records without the field come last. Without it: weight, newest first, id.",
            json!({"type": "string", "pattern": FIELD_LIST}),
            false,
        ),
        query(
            "fields",
            "Only these fields, plus id, collection, slug and url.",
            json!({"type": "string", "pattern": FIELD_LIST}),
            false,
        ),
    ]
}

/// `GET /api/{collection}`.
pub fn list(_: &Facts) -> Description {
    Description::ok(json_content(
        "The collection's records in order; `total` counts the records that match the filters.",
        "CollectionResponse",
    ))
    .params([collection()])
    .params(listing_parameters())
    .errors(&[BadRequest, CollectionNotFound, RateLimited])
}

/// `POST /api/{collection}`.
pub fn query_options(_: &Facts) -> Description {
    Description::ok(json_content("The collection, with metadata and stats when asked.", "CollectionResponse"))
        .params([collection()])
        .params(listing_parameters())
        .body(json!({"type": "object", "properties": {"options": nullable(schema("Options"))}}), false)
        .errors(&[CollectionNotFound])
        .errors(&BODY_ERRORS)
}

/// `GET /api/{collection}/_page/{n}`.
pub fn page(_: &Facts) -> Description {
    Description::ok(json_content(
        "A page of the listing (the site's `api.page_size` records, 100 by default) with links to the others.",
        "CollectionPage",
    ))
    .params([
        collection(),
        path("name", "The page number, from 1.", json!({"type": "string", "pattern": "^[1-9][0-9]*$"})),
    ])
    .errors(&[NotFound])
}

/// `GET /api/schemas/{collection}.json`.
pub fn record_schema(_: &Facts) -> Description {
    Description::ok(object(
        "A JSON Schema 2020-12 of the collection's records, derived from the published records.",
        crate::content::record_schema::MEDIA_TYPE,
    ))
    .params([path(
        "name",
        "The collection's name followed by `.json`.",
        json!({"type": "string", "enum": COLLECTIONS.iter().map(|c| format!("{c}.json")).collect::<Vec<_>>()}),
    )])
    .errors(&[NotFound])
}

/// `GET /api/{collection}/{slug}`.
pub fn record(_: &Facts) -> Description {
    Description::ok(json_content("One record with its rendered HTML.", "RecordResponse"))
        .params([collection(), slug()])
        .errors(&[NotFound])
}

/// The `{collection}` path parameter of every other route (`/api/{collection}` answers a preflight).
pub fn preflight_parameter() -> Value {
    path("collection", "Any segment: every /api path answers a preflight.", json!({"type": "string"}))
}

/// The schemas of records and their envelopes.
pub fn schemas() -> Value {
    let string = json!({"type": "string"});
    let strings = json!({"type": "array", "items": {"type": "string"}});
    json!({
        "CollectionName": {"type": "string", "enum": COLLECTIONS},
        "Record": {
            "type": "object",
            "description": "A published record: these members, then the front-matter keys in file order, then `body` (markdown). \
                The JSON Schema of each collection's records, derived from what they use, is at /api/schemas/<collection>.json.",
            "required": ["id", "collection", "title", "slug", "url"],
            "properties": {
                "id": string, "collection": schema("CollectionName"), "title": string, "slug": string,
                "url": {"type": "string", "description": "/<collection>/<slug>; pages: /<slug>"},
                "date": string, "updated": string, "summary": string, "tags": strings, "category": string,
                "weight": {"type": "integer"}, "body": string,
            },
            "additionalProperties": true,
        },
        "RecordDetail": {"allOf": [schema("Record"), {"type": "object", "required": ["html"], "properties": {"html": string}}]},
        "CollectionResponse": envelope(&["count", "data"], json!({
            "count": {"type": "integer", "description": "Records in this response."},
            "total": {"type": "integer", "description": "Records in the collection that match the filters."},
            "data": {"type": "object", "description": "One key, the collection name.", "additionalProperties": {"type": "array", "items": schema("Record")}},
            "metadata": schema("ExportMetadata"),
            "stats": schema("ExportStats"),
        })),
        "CollectionPage": envelope(&["count", "total", "page", "pageSize", "totalPages", "data", "links"], json!({
            "count": {"type": "integer", "description": "Records on this page."},
            "total": {"type": "integer", "description": "Records in the collection."},
            "page": {"type": "integer"}, "pageSize": {"type": "integer"}, "totalPages": {"type": "integer"},
            "data": {"type": "object", "description": "One key, the collection name.", "additionalProperties": {"type": "array", "items": schema("Record")}},
            "links": {"type": "object", "required": ["self", "first", "last"], "properties": {
                "self": {"type": "string"}, "first": {"type": "string"}, "last": {"type": "string"},
                "next": {"type": "string"}, "prev": {"type": "string"}}},
        })),
        "RecordResponse": envelope(&["count", "data"], json!({
            "count": {"type": "integer", "enum": [1]},
            "data": {"type": "object", "additionalProperties": {"type": "array", "items": schema("RecordDetail"), "minItems": 1, "maxItems": 1}},
        })),
        "Options": {
            "type": "object",
            "description": "Leaving an option out and sending `null` mean the same: false.",
            "properties": {"includeMetadata": {"type": ["boolean", "null"]}, "includeStats": {"type": ["boolean", "null"]}},
        },
        "ExportMetadata": {
            "type": "object", "required": ["exportDate", "totalCollections", "collections"],
            "properties": {"exportDate": {"type": "string", "format": "date-time"}, "totalCollections": {"type": "integer"}, "collections": {"type": "array", "items": schema("CollectionName")}},
        },
        "ExportStats": {
            "type": "object", "required": ["totalItems", "itemsPerCollection"],
            "properties": {"totalItems": {"type": "integer"}, "itemsPerCollection": {"type": "object", "additionalProperties": {"type": "integer"}}},
        },
    })
}
