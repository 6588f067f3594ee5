//! Request parsing and routing: any method, path, query and headers (`API-Version`, `Accept`,
//! `x-forwarded-for`, `If-None-Match`, ...) through the whole pipeline of the core.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use portal_core::http::{Method, Request};

#[path = "harness.rs"]
mod harness;

#[derive(Debug, Arbitrary)]
struct Input {
    method: u8,
    path: String,
    query: Option<String>,
    headers: Vec<(u8, String)>,
    body: Vec<u8>,
}

const METHODS: [&str; 6] = ["GET", "HEAD", "POST", "OPTIONS", "PUT", "DELETE"];
const HEADERS: [&str; 8] =
    ["api-version", "accept", "x-forwarded-for", "if-none-match", "content-type", "mcp-protocol-version", "accept-encoding", "cf-connecting-ip"];

fuzz_target!(|input: Input| {
    let path = if input.path.starts_with('/') { input.path } else { format!("/{}", input.path) };
    let mut request = Request::new(Method::parse(METHODS[usize::from(input.method) % METHODS.len()]), &path);
    request.query = input.query;
    for (name, value) in &input.headers {
        request = request.with_header(HEADERS[usize::from(*name) % HEADERS.len()], value);
    }
    request = request.with_body(input.body);
    harness::check(request);
});
