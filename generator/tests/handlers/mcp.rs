//! The MCP server at `POST /mcp` (docs/spec/api-spec.md#mcp), as a client of the 2025-06-18
//! revision speaks to it: the handshake, tools, resources, errors and batches.

use portal_core::http::{Method, Response};
use serde_json::{json, Value};

use crate::{json, problem, Site};

const REVISION: &str = "2025-06-18";
const SUPPORTED: [&str; 5] = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// POSTs `payload` to `/mcp` as a client that negotiated `version` (`None`: no header).
fn send(site: &Site, payload: &str, version: Option<&str>) -> Response {
    let mut headers = vec![("content-type", "application/json"), ("accept", "application/json, text/event-stream")];
    if let Some(version) = version {
        headers.push(("mcp-protocol-version", version));
    }
    site.send(Method::Post, "/mcp", &headers, payload)
}

/// A request's answer, checked to be one JSON-RPC message for `id`.
fn rpc(site: &Site, id: u64, method: &str, params: Value) -> Value {
    let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let response = send(site, &message.to_string(), Some(REVISION));
    assert!(response.header("content-type").unwrap_or_default().starts_with("application/json"));
    let body = json(&response);
    assert_eq!((body["jsonrpc"].as_str(), body["id"].as_u64()), (Some("2.0"), Some(id)), "{body}");
    body
}

fn call(site: &Site, name: &str, arguments: Value) -> Value {
    rpc(site, 5, "tools/call", json!({"name": name, "arguments": arguments}))["result"].clone()
}

#[test]
fn initialize_negotiates_the_clients_revision_or_the_newest_handshake() {
    let site = Site::new();
    let client = json!({"capabilities": {}, "clientInfo": {"name": "test", "version": "1"}});
    for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let mut params = client.clone();
        params["protocolVersion"] = json!(version);
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params});
        let response = send(&site, &message.to_string(), None);
        assert_eq!(response.status, 200);
        let result = &json(&response)["result"];
        assert_eq!(result["protocolVersion"], version);
        let capabilities = result["capabilities"].as_object().expect("capabilities");
        assert!(["tools", "resources", "prompts", "completions"].iter().all(|c| capabilities.contains_key(*c)));
        assert!(result["serverInfo"]["name"].as_str().is_some_and(|n| !n.is_empty()));
        assert!(result["instructions"].as_str().is_some_and(|i| !i.is_empty()));
        assert_eq!(result["serverInfo"].get("icons").is_some(), version >= "2025-11-25", "{version}");
    }
    let mut params = client;
    params["protocolVersion"] = json!("1999-01-01");
    let message = json!({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": params});
    let result = &json(&send(&site, &message.to_string(), None))["result"];
    assert_eq!(result["protocolVersion"], "2025-11-25");
    assert_eq!(result["serverInfo"]["websiteUrl"], "https://fixture.example.org");
}

#[test]
fn ping_answers_an_empty_result() {
    let site = Site::new();
    assert_eq!(rpc(&site, 7, "ping", json!({})), json!({"jsonrpc": "2.0", "id": 7, "result": {}}));
}

#[test]
fn tools_list_names_the_four_read_only_tools() {
    let site = Site::new();
    let tools = rpc(&site, 2, "tools/list", json!({}))["result"]["tools"].as_array().expect("tools").clone();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap_or_default()).collect();
    assert_eq!(
        names,
        ["search_portal", "list_portal_collection", "search_portal_encyclopedia", "get_portal_encyclopedia_entry"]
    );
    for tool in &tools {
        assert_eq!(tool["inputSchema"]["type"], "object");
        assert_eq!(tool["outputSchema"]["type"], "object");
        assert_eq!(tool["annotations"]["readOnlyHint"], true);
    }
}

#[test]
fn the_search_tool_answers_text_and_structured_content() {
    let site = Site::new();
    let result = call(&site, "search_portal", json!({"query": "water", "collections": ["resources"]}));
    assert_eq!(result["isError"], false);
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().expect("text")).expect("JSON text");
    assert_eq!(text, result["structuredContent"]);
    let slugs: Vec<&str> = result["structuredContent"]["results"]["resources"]
        .as_array()
        .expect("hits")
        .iter()
        .map(|hit| hit["slug"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(slugs, ["water-safety", "hygiene-kit"]);
}

#[test]
fn bad_tool_arguments_are_tool_errors_and_bad_call_params_32602() {
    let site = Site::new();
    for (name, arguments) in [
        ("search_portal", json!({"query": "a"})),
        ("search_portal", json!({"query": "water", "collections": ["nope"]})),
        ("list_portal_collection", json!({"collection": "unicorns"})),
        ("get_portal_encyclopedia_entry", json!({"slug": "atlantis"})),
    ] {
        let result = call(&site, name, arguments.clone());
        assert_eq!(result["isError"], true, "{name} {arguments}");
        assert!(result["content"][0]["text"].as_str().is_some_and(|t| !t.is_empty()));
    }
    let text = call(&site, "get_portal_encyclopedia_entry", json!({"slug": "atlantis"}))["content"][0]["text"].clone();
    assert!(text.as_str().is_some_and(|t| t.contains("atlantis") && t.contains("search_portal_encyclopedia")));
    let unknown = rpc(&site, 4, "tools/call", json!({"name": "no_such_tool"}));
    assert_eq!(unknown["error"]["code"], -32602);
}

#[test]
fn resources_list_a_page_at_a_time_with_a_cursor() {
    let site = Site::new();
    let first = rpc(&site, 3, "resources/list", json!({}))["result"].clone();
    let uris = |result: &Value| {
        let mut uris: Vec<String> = result["resources"]
            .as_array()
            .expect("resources")
            .iter()
            .map(|r| r["uri"].as_str().unwrap_or_default().to_string())
            .collect();
        uris.sort();
        uris
    };
    assert_eq!(
        uris(&first),
        ["https://fixture.example.org/services/cafe-amani", "https://fixture.example.org/services/legal-aid"]
    );
    assert_eq!(first["resources"][0]["mimeType"], "application/json");
    let cursor = first["nextCursor"].as_str().expect("a next cursor");
    let second = rpc(&site, 4, "resources/list", json!({"cursor": cursor}))["result"].clone();
    assert_eq!(
        uris(&second),
        ["https://fixture.example.org/resources/hygiene-kit", "https://fixture.example.org/resources/water-safety"]
    );
    let bad = rpc(&site, 5, "resources/list", json!({"cursor": "nowhere"}));
    assert_eq!(bad["error"]["code"], -32602);
}

#[test]
fn an_unknown_method_is_32601() {
    let site = Site::new();
    let body = rpc(&site, 3, "sampling/createMessage", json!({}));
    assert_eq!(body["error"]["code"], -32601);
}

#[test]
fn malformed_messages_are_32700_and_32600() {
    let site = Site::new();
    let unparsable = json(&send(&site, "{not json", Some(REVISION)));
    assert_eq!((unparsable["error"]["code"].as_i64(), unparsable["id"].clone()), (Some(-32700), Value::Null));
    for payload in [r#"{"id": 1, "method": "ping"}"#, r#"{"jsonrpc": "2.0", "id": 1}"#, "[]"] {
        let response = send(&site, payload, Some(REVISION));
        assert_eq!(response.status, 400, "{payload}");
        assert_eq!(json(&response)["error"]["code"], -32600, "{payload}");
    }
}

#[test]
fn an_unsupported_revision_header_lists_the_supported() {
    let site = Site::new();
    let response = send(&site, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, Some("1999-01-01"));
    assert_eq!(response.status, 400);
    let body = json(&response);
    assert_eq!(body["error"]["code"], -32022);
    assert_eq!(body["error"]["data"], json!({"requested": "1999-01-01", "supported": SUPPORTED}));
}

#[test]
fn a_notification_is_202_without_a_body() {
    let site = Site::new();
    let response = send(&site, r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, Some(REVISION));
    assert_eq!(response.status, 202);
    assert!(response.body.is_empty());
}

#[test]
fn a_batch_answers_its_requests_in_order_and_skips_notifications() {
    let site = Site::new();
    let batch = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": "b", "method": "nope"},
    ]);
    for version in [Some("2025-03-26"), None] {
        let response = send(&site, &batch.to_string(), version);
        assert_eq!(response.status, 200);
        let answers = json(&response);
        let shape: Vec<(Value, bool)> = answers
            .as_array()
            .expect("an array")
            .iter()
            .map(|m| (m["id"].clone(), m.get("result").is_some()))
            .collect();
        assert_eq!(shape, [(json!(1), true), (json!("b"), false)]);
    }
    let only_notifications = json!([{"jsonrpc": "2.0", "method": "notifications/initialized"}]);
    let response = send(&site, &only_notifications.to_string(), Some("2025-03-26"));
    assert_eq!((response.status, response.body.is_empty()), (202, true));
}

#[test]
fn get_answers_the_discovery_document_and_a_stream_request_405() {
    let site = Site::new();
    let response = site.get_with("/mcp", &[("accept", "application/json")]);
    assert_eq!(response.status, 200);
    assert_eq!(response.header("ratelimit-remaining"), None);
    let doc = json(&response);
    assert_eq!(
        (doc["protocolVersion"].as_str(), doc["transport"].as_str()),
        (Some("2026-07-28"), Some("streamable-http"))
    );
    assert_eq!(doc["protocolVersions"], json!(SUPPORTED));
    assert_eq!(doc["tools"][0]["name"], "search_portal");
    let stream = site.get_with("/mcp", &[("accept", "text/event-stream")]);
    problem(&stream, 405, "method_not_allowed");
    assert!(stream.header("allow").unwrap_or_default().contains("POST"));
}

#[test]
fn a_foreign_origin_is_refused() {
    let site = Site::new();
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let from = |origin: &str| {
        let headers = [("content-type", "application/json"), ("origin", origin)];
        site.send(Method::Post, "/mcp", &headers, ping)
    };
    let refused = from("http://evil.example.com");
    assert_eq!(refused.status, 403);
    assert_eq!(json(&refused)["error"]["code"], -32600);
    assert_eq!(from("https://assistant.example.net").status, 200, "listed in site.yaml");
    assert_eq!(from("https://fixture.example.org").status, 200, "the site's own");
}

const MODERN: &str = "2026-07-28";

/// A 2026-07-28 request: no handshake, the revision in `_meta` and mirrored in headers.
fn modern(site: &Site, method: &str, params: Value, name: Option<&str>) -> Response {
    let meta = json!({"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {},
                      "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"}});
    let mut params = params;
    params["_meta"] = meta;
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let mut headers = vec![
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", MODERN),
        ("mcp-method", method),
    ];
    if let Some(name) = name {
        headers.push(("mcp-name", name));
    }
    site.send(Method::Post, "/mcp", &headers, &body.to_string())
}

#[test]
fn a_modern_client_discovers_the_server_and_gets_cache_hints() {
    let site = Site::new();
    let response = modern(&site, "server/discover", json!({}), None);
    assert_eq!(response.status, 200);
    let result = &json(&response)["result"];
    assert_eq!(result["supportedVersions"], json!(SUPPORTED));
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["_meta"]["io.modelcontextprotocol/serverInfo"]["websiteUrl"], "https://fixture.example.org");
    let listed = &json(&modern(&site, "tools/list", json!({}), None))["result"];
    assert_eq!((listed["ttlMs"].as_u64(), listed["cacheScope"].as_str()), (Some(600_000), Some("public")));
}

#[test]
fn a_modern_client_gets_404_for_removed_methods_and_400_for_headers_unlike_the_body() {
    let site = Site::new();
    for method in ["initialize", "ping", "nope"] {
        let response = modern(&site, method, json!({}), None);
        assert_eq!(response.status, 404, "{method}");
        assert_eq!(json(&response)["error"]["code"], -32601, "{method}");
    }
    let call = json!({"name": "search_portal", "arguments": {"query": "water"}});
    assert_eq!(modern(&site, "tools/call", call.clone(), Some("search_portal")).status, 200);
    let unlike = modern(&site, "tools/call", call, Some("get_portal_encyclopedia_entry"));
    assert_eq!(unlike.status, 400);
    assert_eq!(json(&unlike)["error"]["code"], -32020);
}

#[test]
fn a_resource_reads_as_the_records_json_and_its_markdown() {
    let site = Site::new();
    let uri = "https://fixture.example.org/encyclopedia/asylum";
    let result = json(&modern(&site, "resources/read", json!({"uri": uri}), Some(uri)))["result"].clone();
    let contents = result["contents"].as_array().expect("contents");
    let record: Value = serde_json::from_str(contents[0]["text"].as_str().expect("text")).expect("JSON");
    assert_eq!((record["slug"].as_str(), contents[0]["mimeType"].as_str()), (Some("asylum"), Some("application/json")));
    assert_eq!(contents[1]["mimeType"], "text/markdown");
    assert!(contents[1]["text"].as_str().unwrap_or_default().contains("Asylum"));
    let missing = "https://fixture.example.org/news/atlantis";
    let error = &json(&modern(&site, "resources/read", json!({"uri": missing}), Some(missing)))["error"];
    assert_eq!((error["code"].as_i64(), error["data"].clone()), (Some(-32602), json!({"uri": missing})));
}

#[test]
fn a_search_over_the_limits_is_a_tool_error_naming_the_limit() {
    // docs/spec/api-spec.md#limits, with the tool's argument named.
    let site = Site::new();
    let long = "a ".repeat(8_000);
    let many: Vec<String> = (0..17).map(|n| format!("w{n}")).collect();
    for (name, arguments, limit) in [
        ("search_portal", json!({"query": long}), "at most 256 characters"),
        ("search_portal", json!({"query": long, "forgiving": true}), "at most 256 characters"),
        ("search_portal", json!({"query": many.join(" ")}), "at most 16 different words"),
        ("search_portal_encyclopedia", json!({"query": long}), "at most 256 characters"),
    ] {
        let result = call(&site, name, arguments);
        assert_eq!(result["isError"], true, "{name}");
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        assert!(text.contains("`query`") && text.contains(limit), "{name}: {text}");
    }
    let schema = &rpc(&site, 2, "tools/list", json!({}))["result"]["tools"][0]["inputSchema"];
    assert_eq!(schema["properties"]["query"]["maxLength"], 256);
}
