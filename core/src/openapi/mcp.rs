//! The `mcp` section: the MCP endpoint's discovery document and JSON-RPC calls.

use crate::media;
use serde_json::{json, Value};

use super::describe::{content, json_content, Description};
use super::schemas::schema;
use super::Facts;
use crate::problem::ErrorCode::*;

/// `GET /mcp` (and `/.well-known/mcp`).
pub fn discovery(_: &Facts) -> Description {
    Description::ok(content(
        "The MCP discovery document.",
        media::JSON,
        json!({"type": "object", "required": ["name", "version", "protocolVersion", "transport", "endpoint", "tools"], "properties": {
            "name": {"type": "string"},
            "version": {"type": "string"},
            "protocolVersion": {"type": "string", "description": "The MCP revision the server prefers."},
            "transport": {"type": "string", "enum": ["streamable-http"]},
            "endpoint": {"type": "string", "format": "uri"},
            "tools": {"type": "array", "items": {"type": "object", "required": ["name", "description"],
                "properties": {"name": {"type": "string"}, "description": {"type": "string"}}}},
            "serverCard": {"type": "string", "format": "uri"},
        }}),
    ))
    .errors(&[MethodNotAllowed])
}

/// `POST /mcp` (and `/.well-known/mcp`).
pub fn call(_: &Facts) -> Description {
    Description::ok(json_content(
        "The JSON-RPC response (a JSON-RPC error for unknown methods or bad params).",
        "JsonRpcResponse",
    ))
    .respond("202", json!({"description": "A notification or a response was accepted; no body."}))
    .respond(
        "400",
        json!({"description": "Unparsable JSON (-32700), an invalid request (-32600), or an unsupported MCP-Protocol-Version header.",
            "content": {media::JSON: {"schema": schema("JsonRpcResponse")}, "application/problem+json": {"schema": schema("Problem")}}}),
    )
    .params([json!({"name": "MCP-Protocol-Version", "in": "header", "required": false,
        "schema": {"type": "string", "enum": crate::mcp::SUPPORTED_VERSIONS}})])
    .body(schema("JsonRpcMessage"), true)
    .errors(&[PayloadTooLarge, UnsupportedMediaType, RateLimited])
}

/// The JSON-RPC schemas.
pub fn schemas() -> Value {
    let string = json!({"type": "string"});
    json!({
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
