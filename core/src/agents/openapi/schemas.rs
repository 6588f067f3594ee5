//! The reusable pieces of the OpenAPI document: schemas of every envelope and record, the problem
//! document, the shared headers and the error responses. Each mirrors what the handlers send.

use serde_json::{json, Map, Value};

use super::{actions, collections, data, encyclopedia, hsds, mcp, search, spatial};
use crate::http::problem::ErrorCode;

/// A `$ref` to a component schema.
pub(crate) fn schema(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

/// A `$ref` to a component response.
pub(crate) fn response(name: &str) -> Value {
    json!({"$ref": format!("#/components/responses/{name}")})
}

/// The name of the response component of an error code, e.g. `NotFound`.
pub(crate) fn response_name(code: ErrorCode) -> String {
    code.as_str().split('_').map(|w| w[..1].to_uppercase() + &w[1..]).collect()
}

fn header(description: &str, kind: &str) -> Value {
    json!({"description": description, "schema": {"type": kind}})
}

/// The shared response headers.
pub(crate) fn headers() -> Value {
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
pub(crate) fn error_responses() -> Value {
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

/// The problem documents.
fn problems() -> Value {
    let codes: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    let string = json!({"type": "string"});
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
    })
}

/// Every component schema: the problem documents and each section's own.
pub(crate) fn schemas() -> Value {
    let sections = [
        problems(),
        collections::schemas(),
        search::schemas(),
        encyclopedia::schemas(),
        actions::schemas(),
        data::schemas(),
        mcp::schemas(),
        spatial::schemas(),
        hsds::schemas(),
    ];
    let mut all = Map::new();
    for section in sections {
        if let Value::Object(members) = section {
            all.extend(members);
        }
    }
    Value::Object(all)
}
