//! The MCP JSON-RPC dispatcher: any bytes POSTed to /mcp. Never panics; the answer is a JSON-RPC
//! message or a batch of them (or an empty 202 for notifications and responses), or a problem for
//! HTTP-level faults.
#![no_main]

use libfuzzer_sys::fuzz_target;
use portal_core::http::{Method, Request};

#[path = "harness.rs"]
mod harness;

fuzz_target!(|body: &[u8]| {
    let request = Request::new(Method::Post, "/mcp")
        .with_header("content-type", "application/json")
        .with_header("accept", "application/json, text/event-stream")
        .with_body(body.to_vec());
    let response = harness::check(request);
    match response.status {
        202 => assert!(response.body.is_empty()),
        200 | 400 if response.header("content-type") == Some("application/json") => {
            let answer: serde_json::Value = serde_json::from_slice(&response.body).expect("a JSON-RPC answer is JSON");
            // One message, or (for a batch of MCP 2025-03-26) an array of them.
            let messages = match answer {
                serde_json::Value::Array(messages) => messages,
                message => vec![message],
            };
            assert!(!messages.is_empty());
            for message in messages {
                assert_eq!(message["jsonrpc"], "2.0");
            }
        }
        _ => assert!(response.status < 500),
    }
});
