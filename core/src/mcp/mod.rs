//! The read-only MCP server (spec 4.8, decision D8): JSON-RPC 2.0 over Streamable HTTP, protocol
//! 2025-06-18, answering `application/json` (no server-initiated streams, no sessions).
//!
//! It runs inside the same pipeline as the REST API, so it shares its rate limit, CORS and version
//! headers; its tools call the REST handlers ([`tools`]).

pub mod jsonrpc;
pub mod tools;

use serde_json::{json, Value};

use self::jsonrpc::{Message, INVALID_PARAMS, METHOD_NOT_FOUND, PARSE_ERROR};
use crate::body::BodyError;
use crate::handlers::Ctx;
use crate::http::{Method, Response};
use crate::platform::Platform;
use crate::problem::{ErrorCode, Problem};

/// The protocol version this server speaks.
pub const PROTOCOL_VERSION: &str = "2025-06-18";
/// Versions a client may negotiate (newest first).
pub const SUPPORTED_VERSIONS: &[&str] = &["2025-06-18", "2025-03-26", "2024-11-05"];
/// Where the server card lives.
pub const SERVER_CARD: &str = "/.well-known/mcp/server-card.json";

/// Answers GET (the discovery document, or 405 to a client asking for a stream) and POST (JSON-RPC).
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    if ctx.request.method != Method::Post {
        return discovery(ctx);
    }
    if let Some(version) = ctx.request.header("mcp-protocol-version").map(str::trim) {
        if !SUPPORTED_VERSIONS.contains(&version) {
            return Err(Problem::bad_request(format!(
                "MCP-Protocol-Version `{version}` is not supported; supported: {}.",
                SUPPORTED_VERSIONS.join(", ")
            )));
        }
    }
    let body = crate::body::json_value(ctx.request);
    let value = match body {
        Ok(value) => value,
        Err(BodyError::Problem(problem)) => return Err(problem),
        Err(BodyError::NotJson(message)) => return Ok(rpc(400, jsonrpc::error(Value::Null, PARSE_ERROR, &message))),
    };
    match jsonrpc::classify(value) {
        Err(error) => Ok(rpc(400, error)),
        Ok(Message::Accepted) => Ok(Response::new(202)),
        Ok(Message::Request { id, method, params }) => Ok(rpc(200, dispatch(ctx, id, &method, &params).await)),
    }
}

fn rpc(status: u16, body: Value) -> Response {
    Response::json(&body).with_status(status)
}

fn discovery<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let accept = ctx.request.header("accept").unwrap_or_default();
    if accept.contains("text/event-stream") && !accept.contains("application/json") {
        return Err(Problem::new(
            ErrorCode::MethodNotAllowed,
            "This MCP server sends no server-initiated stream: POST JSON-RPC requests to this endpoint.",
        )
        .with_header("allow", "GET, HEAD, POST, OPTIONS"));
    }
    let site = &ctx.app.manifest().site;
    let base = site.base();
    Ok(Response::json(&json!({
        "name": server_name(ctx),
        "version": env!("CARGO_PKG_VERSION"),
        "protocolVersion": PROTOCOL_VERSION,
        "transport": "streamable-http",
        "endpoint": format!("{base}/mcp"),
        "tools": tools::definitions().iter().map(|t| json!({"name": t["name"], "description": t["description"]})).collect::<Vec<_>>(),
        "serverCard": format!("{base}{SERVER_CARD}"),
    })))
}

fn server_name<P>(ctx: &Ctx<'_, P>) -> String {
    let title = &ctx.app.manifest().site.title;
    if title.is_empty() {
        "portal".to_string()
    } else {
        title.clone()
    }
}

async fn dispatch<P: Platform>(ctx: &Ctx<'_, P>, id: Value, method: &str, params: &Value) -> Value {
    match method {
        "initialize" => {
            let requested = params.get("protocolVersion").and_then(Value::as_str).unwrap_or(PROTOCOL_VERSION);
            let version = if SUPPORTED_VERSIONS.contains(&requested) { requested } else { PROTOCOL_VERSION };
            let site = &ctx.app.manifest().site;
            jsonrpc::result(
                id,
                json!({
                    "protocolVersion": version,
                    "capabilities": {"tools": {"listChanged": false}},
                    "serverInfo": {"name": "portal", "title": server_name(ctx), "version": env!("CARGO_PKG_VERSION")},
                    "instructions": format!(
                        "Read-only access to {}: {} Use search_portal to find services, events, jobs, news and rights guidance; \
                         list_portal_collection to page through one collection; search_portal_encyclopedia and \
                         get_portal_encyclopedia_entry for sourced background articles. Cite record URLs (relative to {}).",
                        server_name(ctx), site.description, site.base()
                    ),
                }),
            )
        }
        "ping" => jsonrpc::result(id, json!({})),
        "tools/list" => jsonrpc::result(id, json!({"tools": tools::definitions()})),
        "tools/call" => {
            let Some(name) = params.get("name").and_then(Value::as_str) else {
                return jsonrpc::error(id, INVALID_PARAMS, "tools/call needs a string `name`.");
            };
            let empty = serde_json::Map::new();
            let args = match params.get("arguments") {
                None | Some(Value::Null) => &empty,
                Some(Value::Object(args)) => args,
                Some(_) => return jsonrpc::error(id, INVALID_PARAMS, "`arguments` must be an object."),
            };
            match tools::call(ctx, name, args).await {
                Ok(Some(structured)) => jsonrpc::result(
                    id,
                    json!({
                        "content": [{"type": "text", "text": structured.to_string()}],
                        "structuredContent": structured,
                        "isError": false,
                    }),
                ),
                Ok(None) => {
                    jsonrpc::error(id, INVALID_PARAMS, &format!("Unknown tool `{name}`; tools/list names the tools."))
                }
                Err(tools::ToolError(message)) => jsonrpc::result(
                    id,
                    json!({
                        "content": [{"type": "text", "text": message}],
                        "isError": true,
                    }),
                ),
            }
        }
        _ => jsonrpc::error(
            id,
            METHOD_NOT_FOUND,
            &format!("Method `{method}` is not supported by this read-only server."),
        ),
    }
}
