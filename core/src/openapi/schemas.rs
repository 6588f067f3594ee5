//! The reusable pieces of the OpenAPI document: schemas of every envelope and record, the problem
//! document, the shared headers and the error responses. Each mirrors what the handlers send.

use serde_json::{json, Value};

use crate::collections::{COLLECTIONS, ENCYCLOPEDIA};
use crate::problem::ErrorCode;

/// A `$ref` to a component schema.
pub fn schema(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

/// A `$ref` to a component response.
pub fn response(name: &str) -> Value {
    json!({"$ref": format!("#/components/responses/{name}")})
}

/// The name of the response component of an error code, e.g. `NotFound`.
pub fn response_name(code: ErrorCode) -> String {
    code.as_str().split('_').map(|w| w[..1].to_uppercase() + &w[1..]).collect()
}

fn header(description: &str, kind: &str) -> Value {
    json!({"description": description, "schema": {"type": kind}})
}

/// The shared response headers.
pub fn headers() -> Value {
    json!({
        "API-Version": header("The API version that served the response (always 1.0.0).", "string"),
        "RateLimit-Limit": header("Requests allowed per window.", "integer"),
        "RateLimit-Remaining": header("Requests left in the current window.", "integer"),
        "RateLimit-Reset": header("Seconds until the window resets.", "integer"),
        "RateLimit-Policy": header("The policy, e.g. `60;w=60`.", "string"),
        "X-RateLimit-Limit": header("Legacy form of RateLimit-Limit.", "integer"),
        "X-RateLimit-Remaining": header("Legacy form of RateLimit-Remaining.", "integer"),
        "X-RateLimit-Reset": header("Legacy: the Unix time (seconds) at which the window resets.", "integer"),
        "Retry-After": header("Seconds to wait before retrying.", "integer"),
        "Allow": header("The methods the path supports.", "string"),
        "Deprecation": header("RFC 9745: `@<unix seconds>` when the endpoint was deprecated.", "string"),
        "Sunset": header("RFC 8594: when the endpoint will be removed (IMF-fixdate).", "string"),
        "Link": header("Related resources (deprecation policy, successor).", "string"),
    })
}

/// The error responses, one per code, each a problem document.
pub fn error_responses() -> Value {
    let mut responses = serde_json::Map::new();
    for code in ErrorCode::ALL {
        let problem = match code {
            ErrorCode::InvalidBody => "InvalidBodyProblem",
            ErrorCode::RateLimited => "RateLimitedProblem",
            _ => "Problem",
        };
        let mut headers = json!({"API-Version": {"$ref": "#/components/headers/API-Version"}});
        match code {
            ErrorCode::RateLimited => {
                for name in ["Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"] {
                    headers[name] = json!({"$ref": format!("#/components/headers/{name}")});
                }
            }
            ErrorCode::MethodNotAllowed => headers["Allow"] = json!({"$ref": "#/components/headers/Allow"}),
            _ => {}
        }
        responses.insert(
            response_name(code),
            json!({
                "description": format!("{} (`{}`). {}", code.title(), code.as_str(), code.resolution()),
                "headers": headers,
                "content": {"application/problem+json": {"schema": schema(problem)}},
            }),
        );
    }
    Value::Object(responses)
}

/// Every component schema.
pub fn schemas(scopes: &[&str]) -> Value {
    let codes: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    let string = json!({"type": "string"});
    let strings = json!({"type": "array", "items": {"type": "string"}});
    json!({
        "Problem": {
            "type": "object",
            "description": "RFC 9457 problem document.",
            "required": ["type", "title", "status", "code", "detail"],
            "properties": {
                "type": {"type": "string", "format": "uri", "description": "{base_url}/api-docs#error-<code>"},
                "title": string, "status": {"type": "integer"},
                "code": {"type": "string", "enum": codes},
                "detail": string, "resolution": string, "instance": string,
            },
        },
        "InvalidBodyProblem": {
            "allOf": [schema("Problem"), {"type": "object", "properties": {"errors": {
                "type": "array", "description": "One entry per failing field (`body` when the body as a whole is wrong).",
                "items": {"type": "object", "required": ["field", "message"], "properties": {"field": string, "message": string}},
            }}}],
        },
        "RateLimitedProblem": {
            "allOf": [schema("Problem"), {"type": "object", "properties": {"retryAfter": {"type": "integer", "description": "Legacy member: seconds to wait."}}}],
        },
        "CollectionName": {"type": "string", "enum": COLLECTIONS},
        "SearchScope": {"type": "string", "enum": scopes},
        "Record": {
            "type": "object",
            "description": "A published record: these members, then the front-matter keys in file order, then `body` (markdown).",
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
        "CollectionResponse": {
            "type": "object",
            "required": ["status", "count", "data"],
            "properties": {
                "status": {"type": "string", "enum": ["success"]},
                "count": {"type": "integer", "description": "Records in this response."},
                "total": {"type": "integer", "description": "Records in the collection."},
                "data": {"type": "object", "description": "One key, the collection name.", "additionalProperties": {"type": "array", "items": schema("Record")}},
                "metadata": schema("ExportMetadata"),
                "stats": schema("ExportStats"),
            },
        },
        "RecordResponse": {
            "type": "object",
            "required": ["status", "count", "data"],
            "properties": {
                "status": {"type": "string", "enum": ["success"]}, "count": {"type": "integer", "enum": [1]},
                "data": {"type": "object", "additionalProperties": {"type": "array", "items": schema("RecordDetail"), "minItems": 1, "maxItems": 1}},
            },
        },
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
        "ExportResponse": {
            "type": "object", "required": ["status", "data"],
            "properties": {
                "status": {"type": "string", "enum": ["success"]},
                "data": {"type": "object", "additionalProperties": {"type": "array", "items": schema("Record")}},
                "metadata": schema("ExportMetadata"), "stats": schema("ExportStats"),
            },
        },
        "SearchHit": {
            "type": "object", "required": ["slug", "title", "collection", "url"],
            "properties": {"slug": string, "title": string, "collection": schema("SearchScope"), "url": string},
        },
        "SearchResponse": {
            "type": "object", "required": ["status", "query", "totalResults", "results", "cached"],
            "properties": {
                "status": {"type": "string", "enum": ["success"]}, "query": string,
                "totalResults": {"type": "integer", "description": "Hits returned."},
                "results": {"type": "object", "description": "Collections with at least one hit.", "additionalProperties": {"type": "array", "items": schema("SearchHit")}},
                "totals": {"type": "object", "description": "Matches per searched collection before the limit.", "additionalProperties": {"type": "integer"}},
                "cached": {"type": "boolean"},
            },
        },
        "SearchIndexEntry": {
            "type": "object", "required": ["slug", "title", "collection", "url"],
            "properties": {"slug": string, "title": string, "collection": schema("SearchScope"), "url": string,
                "summary": {"type": ["string", "null"]}, "tags": strings, "date": {"type": ["string", "null"]}},
        },
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
        "EntryResponse": {
            "type": "object", "required": ["status", "data"],
            "properties": {"status": {"type": "string", "enum": ["success"]}, "data": {"type": "object", "required": ["entry"], "properties": {"entry": schema("EntryDetail")}}},
        },
        "EntryList": {
            "type": "object",
            "required": ["status", "count", "total", "page", "pageSize", "totalPages", "data", "links"],
            "properties": {
                "status": {"type": "string", "enum": ["success"]}, "count": {"type": "integer"}, "total": {"type": "integer"},
                "page": {"type": "integer"}, "pageSize": {"type": "integer"}, "totalPages": {"type": "integer"},
                "data": {"type": "object", "required": ["entries"], "properties": {"entries": {"type": "array", "items": schema("Entry")}}},
                "links": {"type": "object", "required": ["self"], "properties": {"self": string, "next": string, "prev": string}},
            },
        },
        "Suggestions": {
            "type": "object", "required": ["status", "query", "suggestions"],
            "properties": {"status": {"type": "string", "enum": ["success"]}, "query": string, "suggestions": {"type": "array", "items": {
                "type": "object", "required": ["slug", "title", "url"], "properties": {"slug": string, "title": string, "url": string, "alias": string}}}},
        },
        "Facets": {
            "type": "object", "required": ["status", "facets"],
            "properties": {"status": {"type": "string", "enum": ["success"]}, "facets": {"type": "object", "required": ["category", "tags", "letter"], "properties": {
                "category": {"type": "object", "additionalProperties": {"type": "integer"}},
                "tags": {"type": "object", "additionalProperties": {"type": "integer"}},
                "letter": {"type": "object", "additionalProperties": {"type": "integer"}}}}},
        },
        "Snapshot": {
            "type": "object", "required": ["status", "updatedAt", "data"],
            "properties": {"status": {"type": "string", "enum": ["success"]}, "updatedAt": string, "data": {"description": "The authored content of the snapshot."}},
        },
        "JsonRpcMessage": {
            "type": "object", "required": ["jsonrpc", "method"],
            "properties": {"jsonrpc": {"type": "string", "enum": ["2.0"]}, "method": string, "params": {"type": "object"},
                "id": {"description": "A string or an integer; leave it out for a notification.", "type": ["string", "integer"]}},
        },
        "JsonRpcResponse": {
            "type": "object", "required": ["jsonrpc"],
            "properties": {"jsonrpc": {"type": "string", "enum": ["2.0"]}, "id": {"type": ["string", "integer", "null"]}, "result": {"type": "object"},
                "error": {"type": "object", "required": ["code", "message"], "properties": {"code": {"type": "integer"}, "message": string}}},
        },
    })
}
