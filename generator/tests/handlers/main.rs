//! Handler, MCP and OpenAPI behaviour in Rust, without a socket: the conformance fixture
//! (`fixtures/site`) is built once per test binary, every built file is loaded into the core's
//! in-memory platform, and each test sends requests straight to `App::handle`. A test gets its own
//! platform (fresh rate-limit windows, cache, clock and recorded submissions) over the shared
//! files, so tests never see each other's state.
//!
//! The Python suites (tests/conformance) stay the layer that checks both real servers agree and
//! that real clients work; a behaviour of core is tested here first, in seconds. See
//! docs/development.md for how to add a test.

mod actions;
mod cases;
mod cms_auth;
mod collections;
mod discovery;
mod encyclopedia;
mod feeds;
mod forms;
mod hsds;
mod http_rules;
mod mcp;
mod openapi;
mod rate_limit;
mod search;
mod upstreams;

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

use bytes::Bytes;
use portal_core::app::App;
use portal_core::http::{Method, Request, Response};
use portal_core::testing::{block_on, FakePlatform};
use serde_json::Value;

/// The build time of the fixture, as scripts/test builds it; the fake platform's clock starts here.
const SOURCE_DATE_EPOCH: &str = "1790000000";

/// The address every request of a test comes from (the socket's peer, as `portal serve` sees it).
pub const PEER: &str = "198.18.0.1";

/// Every file of the fixture's build, by its path in the build folder, built on first use.
fn built_files() -> &'static HashMap<String, Bytes> {
    static FILES: OnceLock<HashMap<String, Bytes>> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let out = dir.path().join("dist");
        let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/site");
        // The binary, not the library: the build time comes from the environment, which a test
        // process must not change under its other threads.
        let built = Command::new(env!("CARGO_BIN_EXE_portal"))
            .arg("build")
            .arg("--content")
            .arg(&content)
            .arg("--out")
            .arg(&out)
            .arg("--cache-dir")
            .arg(dir.path().join("cache"))
            .env("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
            .output()
            .expect("portal runs");
        assert!(built.status.success(), "the fixture builds: {}", String::from_utf8_lossy(&built.stderr));
        let mut files = HashMap::new();
        for entry in walkdir::WalkDir::new(&out).into_iter().filter_map(Result::ok) {
            if entry.file_type().is_file() {
                let relative = entry.path().strip_prefix(&out).expect("inside the build");
                let name = relative.to_string_lossy().replace('\\', "/");
                files.insert(name, Bytes::from(std::fs::read(entry.path()).expect("a built file reads")));
            }
        }
        files
    })
}

/// The built fixture behind a fresh platform, and the app over it.
pub struct Site {
    /// The platform: scripted upstreams, the clock, recorded submissions and reports.
    pub platform: FakePlatform,
    /// The app, loaded from the build's manifest.
    pub app: App,
}

impl Default for Site {
    fn default() -> Site {
        Site::new()
    }
}

impl Site {
    /// A site of its own over the shared build.
    pub fn new() -> Site {
        let platform = FakePlatform::default();
        platform.files.borrow_mut().clone_from(built_files());
        let app = block_on(App::load(&platform)).expect("the build has a manifest");
        Site { platform, app }
    }

    /// Answers one request, as a server would after reading it whole.
    pub fn oneshot(&self, request: Request) -> Response {
        block_on(self.app.handle(&self.platform, request))
    }

    /// A request from [`PEER`].
    pub fn request(method: Method, target: &str) -> Request {
        let mut request = Request::new(method, target);
        request.peer = Some(PEER.to_string());
        request
    }

    /// `GET target`.
    pub fn get(&self, target: &str) -> Response {
        self.oneshot(Site::request(Method::Get, target))
    }

    /// `GET target` with headers.
    pub fn get_with(&self, target: &str, headers: &[(&str, &str)]) -> Response {
        self.send(Method::Get, target, headers, "")
    }

    /// Any method, headers and body.
    pub fn send(&self, method: Method, target: &str, headers: &[(&str, &str)], body: &str) -> Response {
        let mut request = Site::request(method, target).with_body(body.to_string());
        for (name, value) in headers {
            request = request.with_header(name, value);
        }
        self.oneshot(request)
    }

    /// `POST target` with a JSON body.
    pub fn post_json(&self, target: &str, body: &Value) -> Response {
        self.send(Method::Post, target, &[("content-type", "application/json")], &body.to_string())
    }

    /// `POST target` with a form body, as a browser posts it.
    pub fn post_form(&self, target: &str, body: &str) -> Response {
        self.send(Method::Post, target, &[("content-type", "application/x-www-form-urlencoded")], body)
    }
}

/// The body as JSON (panics, naming the body, when it is not).
pub fn json(response: &Response) -> Value {
    serde_json::from_slice(&response.body)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&response.body)))
}

/// The body as text.
pub fn text(response: &Response) -> String {
    String::from_utf8_lossy(&response.body).into_owned()
}

/// Asserts `response` is a problem document with `status` and `code` (as tests/conformance's
/// `problem` does) and returns it.
pub fn problem(response: &Response, status: u16, code: &str) -> Value {
    assert_eq!(response.status, status, "{}", text(response));
    assert_eq!(response.header("content-type"), Some("application/problem+json"));
    let doc = json(response);
    for member in ["type", "title", "status", "code", "detail"] {
        assert!(doc.get(member).is_some(), "the problem lacks {member}: {doc}");
    }
    assert_eq!(doc["status"], status);
    assert_eq!(doc["code"], code, "{doc}");
    let kind = doc["type"].as_str().unwrap_or_default();
    assert!(kind.ends_with(&format!("/api-docs#error-{code}")), "{kind}");
    doc
}

/// The `id`s of a listing's records of `collection`.
pub fn ids(body: &Value, collection: &str) -> Vec<String> {
    body["data"][collection]
        .as_array()
        .unwrap_or_else(|| panic!("no {collection} in {body}"))
        .iter()
        .map(|record| record["id"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn the_build_loads_and_answers_its_home_page() {
    let site = Site::new();
    let home = site.get("/");
    assert_eq!(home.status, 200);
    assert_eq!(home.header("content-type"), Some("text/html; charset=utf-8"));
    assert!(text(&home).contains("Fixture Portal"));
    assert!(site.platform.reports.borrow().is_empty(), "{:?}", site.platform.reports.borrow());
}
