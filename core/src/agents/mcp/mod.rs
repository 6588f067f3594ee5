//! The read-only MCP server (docs/spec/api-spec.md#mcp): JSON-RPC 2.0 over Streamable HTTP,
//! answering `application/json`, with no sessions and no server-initiated streams.
//!
//! One endpoint speaks five revisions ([`version`]): legacy clients open with `initialize`; modern
//! ones (2026-07-28) send their revision with every request and may ask `server/discover` first.
//! It runs inside the same pipeline as the REST API, so it shares its rate limit, CORS and version
//! headers; its tools call the REST handlers ([`tools`]); records and encyclopedia entries are its
//! [`resources`], the site's agent skills its [`prompts`].

pub mod completion;
pub mod jsonrpc;
pub mod prompts;
pub mod resources;
pub mod server;
pub mod tools;
pub mod transport;
pub mod version;

use serde_json::{json, Value};

use self::jsonrpc::{Message, RpcError, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR};
use self::version::Revision;
use crate::handlers::Ctx;
use crate::http::body::BodyError;
use crate::http::problem::{ErrorCode, Problem};
use crate::http::{Method, Response};
use crate::platform::Platform;

/// Where the server card lives.
pub const SERVER_CARD: &str = "/.well-known/mcp/server-card.json";

/// Answers GET (the discovery document, or 405 to a client asking for a stream) and POST (JSON-RPC).
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    if !transport::origin_allowed(ctx.request, &ctx.state.manifest().site) {
        let error = RpcError::new(INVALID_REQUEST, "Forbidden: this Origin may not use the MCP endpoint (site.yaml mcp.allowed_origins lists the origins that may).");
        let mut body = error.response(Value::Null);
        if let Value::Object(members) = &mut body {
            members.remove("id");
        }
        return Ok(rpc(403, body));
    }
    if ctx.request.method != Method::Post {
        return discovery(ctx);
    }
    let value = match crate::http::body::json_value(ctx.request) {
        Ok(value) => value,
        Err(BodyError::Problem(problem)) => return Err(problem),
        Err(BodyError::NotJson(message)) => return Ok(rpc(400, jsonrpc::error(Value::Null, PARSE_ERROR, &message))),
    };
    match value {
        Value::Array(messages) => Ok(batch(ctx, messages).await),
        message => Ok(match answer(ctx, message, None).await {
            Some((status, body)) => rpc(status, body),
            None => Response::new(202),
        }),
    }
}

fn rpc(status: u16, body: Value) -> Response {
    Response::json(&body).with_status(status)
}

/// A JSON-RPC batch: allowed by 2025-03-26 and earlier (the header's revision, or no header).
/// Each message is answered as if sent alone; notifications only: 202.
async fn batch<P: Platform>(ctx: &Ctx<'_, P>, messages: Vec<Value>) -> Response {
    let header = ctx.request.header("mcp-protocol-version").map(str::trim);
    let revision = header.map_or(Some(version::WITHOUT_HEADER), Revision::parse);
    if messages.is_empty() || !revision.is_some_and(Revision::allows_batches) {
        let why = if messages.is_empty() {
            "An empty batch is not a JSON-RPC request.".to_string()
        } else {
            format!(
                "Batches are part of MCP 2025-03-26 and earlier; MCP {} sends one message per POST.",
                header.unwrap_or("")
            )
        };
        return rpc(400, jsonrpc::error(Value::Null, INVALID_REQUEST, &why));
    }
    let mut answers = Vec::new();
    for message in messages {
        if let Some((_, body)) = answer(ctx, message, revision).await {
            answers.push(body);
        }
    }
    if answers.is_empty() {
        Response::new(202)
    } else {
        rpc(200, Value::Array(answers))
    }
}

/// The HTTP status and body answering one message (`None`: a notification, 202). `within` is the
/// revision of the batch the message came in.
async fn answer<P: Platform>(ctx: &Ctx<'_, P>, message: Value, within: Option<Revision>) -> Option<(u16, Value)> {
    let (id, method, params) = match jsonrpc::classify(message) {
        Err(error) => return Some((400, error)),
        // A notification names no revision of its own, but the header it came with must be one, and
        // an `Mcp-Method` header sent with it must be its method.
        Ok(Message::Notification { method }) => {
            let error = unsupported_header(ctx).or_else(|| transport::check_method(ctx.request, &method, false).err());
            return error.map(|error| (400, error.response(Value::Null)));
        }
        Ok(Message::Accepted) => return unsupported_header(ctx).map(|error| (400, error.response(Value::Null))),
        Ok(Message::Request { id, method, params }) => (id, method, params),
    };
    let revision = match within.map_or_else(|| transport::revision(ctx.request, &method, &params), Ok) {
        Ok(revision) => revision,
        Err(error) => return Some((400, error.response(id))),
    };
    let stateless = revision.is_stateless();
    match dispatch(ctx, revision, &method, &params).await {
        Ok(mut result) => {
            if stateless {
                server::decorate(&mut result, &ctx.state.manifest().site, &method);
            }
            Some((200, jsonrpc::result(id, result)))
        }
        // A modern server answers an unknown method with 404 (Streamable HTTP, 2026-07-28).
        Err(error) if stateless && error.code == METHOD_NOT_FOUND => Some((404, error.response(id))),
        Err(error) => Some((200, error.response(id))),
    }
}

/// The error for an `MCP-Protocol-Version` header naming a revision this server does not speak.
fn unsupported_header<P>(ctx: &Ctx<'_, P>) -> Option<RpcError> {
    let header = ctx.request.header("mcp-protocol-version").map(str::trim)?;
    Revision::parse(header).is_none().then(|| transport::unsupported(header))
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
    let site = &ctx.state.manifest().site;
    let base = site.base();
    let mut document = json!({
        "name": server::title(site),
        "version": env!("CARGO_PKG_VERSION"),
        "transport": "streamable-http",
        "endpoint": format!("{base}/mcp"),
        "tools": tools::definitions().iter().map(|t| json!({"name": t["name"], "description": t["description"]})).collect::<Vec<_>>(),
        "serverCard": format!("{base}{SERVER_CARD}"),
    });
    if let (Value::Object(document), Value::Object(protocol)) = (&mut document, server::protocol_fields()) {
        document.extend(protocol);
    }
    Ok(Response::json(&document))
}

/// Runs one method.
async fn dispatch<P: Platform>(
    ctx: &Ctx<'_, P>,
    revision: Revision,
    method: &str,
    params: &Value,
) -> Result<Value, RpcError> {
    let site = &ctx.state.manifest().site;
    let string = |member: &str| {
        params
            .get(member)
            .and_then(Value::as_str)
            .ok_or_else(|| RpcError::new(INVALID_PARAMS, format!("{method} needs a string `{member}`.")))
    };
    let legacy = !revision.is_stateless();
    match method {
        // The handshake, ping and log levels are gone from 2026-07-28 (removed methods are 404s).
        "initialize" if legacy => Ok(server::initialize(site, params).1),
        "ping" if legacy => Ok(json!({})),
        // No log messages are ever sent, so any level is accepted and changes nothing.
        "logging/setLevel" if legacy => Ok(json!({})),
        "server/discover" => Ok(server::discover(site)),
        "tools/list" => Ok(json!({"tools": tools::listed(revision)})),
        "tools/call" => call_tool(ctx, revision, string("name")?, params).await,
        "resources/list" => resources::list(ctx, params.get("cursor").and_then(Value::as_str)).await,
        "resources/templates/list" => Ok(resources::templates(ctx)),
        "resources/read" => resources::read(ctx, revision, string("uri")?).await,
        "prompts/list" => prompts::list(ctx).await,
        "prompts/get" => prompts::get(ctx, string("name")?).await,
        "completion/complete" => completion::complete(ctx, params).await,
        _ => Err(RpcError::new(
            METHOD_NOT_FOUND,
            format!("Method `{method}` is not supported by this read-only server."),
        )),
    }
}

/// `tools/call`: the tool's structured answer, its text, and (2025-06-18 on) a `resource_link` to
/// every record or entry it names. A tool's own failure is a result with `isError`.
async fn call_tool<P: Platform>(
    ctx: &Ctx<'_, P>,
    revision: Revision,
    name: &str,
    params: &Value,
) -> Result<Value, RpcError> {
    let empty = serde_json::Map::new();
    let args = match params.get("arguments") {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(args)) => args,
        Some(_) => return Err(RpcError::new(INVALID_PARAMS, "`arguments` must be an object.")),
    };
    match tools::call(ctx, name, args).await {
        Ok(Some(structured)) => {
            let mut content = vec![json!({"type": "text", "text": structured.to_string()})];
            if !revision.has_structured_output() {
                return Ok(json!({"content": content, "isError": false}));
            }
            let base = resources::base(ctx);
            for item in tools::linked_items(&structured) {
                if let Some(mut link) = resources::describe(&base, item) {
                    link["type"] = json!("resource_link");
                    content.push(link);
                }
            }
            Ok(json!({"content": content, "structuredContent": structured, "isError": false}))
        }
        Ok(None) => Err(RpcError::new(INVALID_PARAMS, format!("Unknown tool `{name}`; tools/list names the tools."))),
        Err(tools::ToolError(message)) => Ok(json!({"content": [{"type": "text", "text": message}], "isError": true})),
    }
}
