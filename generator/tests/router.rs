//! The native router without a socket (`tower::ServiceExt::oneshot`): what `portal serve` answers
//! for a request, including the answers its adapter decides before core sees the request.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::header::HOST;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use portal::build::{build, BuildOptions};
use portal::progress::Progress;
use portal::serve::{router, ServerState};
use portal_core::http::client_identity::{TrustedProxies, LOOPBACK};
use portal_core::http::ratelimit::RateLimit;
use serde_json::Value;
use tower::ServiceExt;

/// A build of the fixture site and a server state over it (with its own state folder).
async fn state(dir: &Path) -> Arc<ServerState> {
    let out = dir.join("dist");
    let options = BuildOptions {
        content: Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/site"),
        templates: None,
        out: out.clone(),
        base_url: None,
        drafts: false,
        layout: portal::build::hosting::upload::Layout::default(),
        cache_dir: Some(dir.join("cache")),
        offline: false,
    };
    build(&options, &Progress::hidden(), false).expect("the fixture builds");
    ServerState::open(out, &dir.join("state"), RateLimit::default(), TrustedProxies::parse(LOOPBACK).expect("valid"))
        .await
        .expect("the build opens")
}

async fn send(state: &Arc<ServerState>, request: Request<Body>) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    let mut request = request;
    request.extensions_mut().insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
    // Every HTTP/1.1 client names the host (a request without one is refused, as tested below).
    if !request.headers().contains_key(HOST) {
        request.headers_mut().insert(HOST, "localhost".parse().expect("a header value"));
    }
    let response = router(Arc::clone(state)).oneshot(request).await.expect("the router answers");
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.map(|b| b.to_bytes().to_vec()).unwrap_or_default();
    (parts.status, parts.headers, bytes)
}

fn get(path: &str) -> Request<Body> {
    Request::get(path).body(Body::empty()).expect("a request")
}

#[tokio::test]
async fn a_built_listing_is_served_with_the_shared_headers() {
    let dir = tempfile::tempdir().expect("temp dir");
    let state = state(dir.path()).await;
    let (status, headers, body) = send(&state, get("/api/news")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["api-version"], "1.0.0");
    assert_eq!(headers["access-control-allow-origin"], "*");
    assert_eq!(headers["ratelimit-remaining"], "59");
    let listing: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(listing["status"], "success");
}

#[tokio::test]
async fn a_declared_body_over_the_limit_is_refused_by_the_core_answer() {
    let dir = tempfile::tempdir().expect("temp dir");
    let state = state(dir.path()).await;
    let request = Request::post("/api/submit-voice")
        .header("content-type", "application/json")
        .header("content-length", "70000")
        .body(Body::empty())
        .expect("a request");
    let (status, headers, body) = send(&state, request).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(headers["content-type"], "application/problem+json");
    assert_eq!(headers["api-version"], "1.0.0");
    let problem: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(problem["code"], "payload_too_large");
    assert_eq!(problem["instance"], "/api/submit-voice");
}

#[tokio::test]
async fn unknown_api_paths_are_problems_and_unknown_pages_the_404_page() {
    let dir = tempfile::tempdir().expect("temp dir");
    let state = state(dir.path()).await;
    let (status, headers, _) = send(&state, get("/api/servics")).await;
    assert_eq!(
        (status, &headers["content-type"]),
        (StatusCode::NOT_FOUND, &"application/problem+json".parse().expect("value"))
    );
    let (status, headers, body) = send(&state, get("/no/such/page")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(headers["content-type"].to_str().unwrap_or_default().starts_with("text/html"));
    assert!(String::from_utf8_lossy(&body).contains("<html"));
}

#[tokio::test]
async fn an_http_1_1_request_with_two_hosts_is_refused_by_the_core_answer() {
    let dir = tempfile::tempdir().expect("temp dir");
    let state = state(dir.path()).await;
    let request = Request::get("/api/news")
        .header(HOST, "a.example")
        .header(HOST, "b.example")
        .body(Body::empty())
        .expect("a request");
    let (status, headers, body) = send(&state, request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(headers["api-version"], "1.0.0");
    let problem: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(problem["code"], "bad_request");
}
