//! The `mcp` section: the MCP endpoint's discovery document and JSON-RPC calls.

use crate::http::media;
use serde_json::{json, Value};

use super::describe::{content, json_content, Description};
use super::schemas::schema;
use super::Facts;
use crate::http::problem::ErrorCode::*;

/// `GET /mcp` (and `/.well-known/mcp`).
pub fn discovery(_: &Facts) -> Description {
    Description::ok(content(
        "The MCP discovery document.",
        media::JSON,
        json!({"type": "object", "required": ["name", "version", "protocolVersion", "protocolVersions", "transport", "endpoint", "tools"], "properties": {
            "name": {"type": "string"},
            "version": {"type": "string"},
            "protocolVersion": {"type": "string", "description": "The newest MCP revision the server speaks."},
            "protocolVersions": {"type": "array", "items": {"type": "string"}, "description": "Every MCP revision the server speaks, newest first."},
            "capabilities": {"type": "object", "description": "The MCP server capabilities (tools, resources, prompts, completions)."},
            "toolCount": {"type": "integer"},
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
    let header = |name: &str, description: &str| json!({"name": name, "in": "header", "required": false, "description": description, "schema": {"type": "string"}});
    let rpc_or_problem = |description: &str| {
        json!({"description": description,
            "content": {media::JSON: {"schema": schema("JsonRpcResponse")}, "application/problem+json": {"schema": schema("Problem")}}})
    };
    Description::ok(json_content(
        "The JSON-RPC response (a JSON-RPC error for bad params; an array for a batch of MCP 2025-03-26 and earlier). A batch costs one request of the client's rate limit per message, and one larger than what remains is refused whole (429) without running any of it.",
        "JsonRpcResponse",
    ))
    .respond("202", json!({"description": "A notification or a response was accepted; no body."}))
    .respond(
        "400",
        rpc_or_problem("Unparsable JSON (-32700), an invalid request (-32600), a revision this server does not speak (-32022, `data.supported` lists those it does), or headers that differ from the body (-32020)."),
    )
    .respond("403", json!({"description": "The request's Origin is neither the site's own nor listed in site.yaml mcp.allowed_origins (a JSON-RPC error without id).",
        "content": {media::JSON: {"schema": schema("JsonRpcResponse")}}}))
    .respond("404", json!({"description": "A modern (2026-07-28) request for a method this server does not have (-32601).",
        "content": {media::JSON: {"schema": schema("JsonRpcResponse")}}}))
    .params([
        json!({"name": "MCP-Protocol-Version", "in": "header", "required": false,
            "description": "The revision of the request; required by 2026-07-28 and equal to `params._meta[\"io.modelcontextprotocol/protocolVersion\"]`. Absent: 2025-03-26.",
            "schema": {"type": "string", "enum": crate::agents::mcp::version::supported_names()}}),
        header("Mcp-Method", "The JSON-RPC method (required by 2026-07-28; checked against the body when sent)."),
        header("Mcp-Name", "The tool, prompt or resource URI of tools/call, prompts/get and resources/read (required by 2026-07-28; `=?base64?…?=` for values that are not plain ASCII)."),
    ])
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
