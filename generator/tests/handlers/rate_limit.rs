//! The per-client fixed window (docs/spec/api-spec.md#rate-limit), on the fake clock.

use portal_core::http::Method;

use crate::{json, problem, Site};

const LIMIT: u64 = 60;

#[test]
fn exactly_the_limit_is_admitted_then_429_until_the_window_resets() {
    let site = Site::new();
    for expected in (0..LIMIT).rev() {
        let response = site.get("/api/news");
        assert_eq!(response.status, 200);
        assert_eq!(response.header("ratelimit-remaining"), Some(expected.to_string().as_str()));
        assert_eq!(response.header("ratelimit-limit"), Some("60"));
        assert_eq!(response.header("ratelimit-policy"), Some("60;w=60"));
        assert_eq!(response.header("x-ratelimit-remaining"), response.header("ratelimit-remaining"));
    }
    let refused = site.get("/api/news");
    let doc = problem(&refused, 429, "rate_limited");
    let retry: u64 = refused.header("retry-after").and_then(|v| v.parse().ok()).expect("Retry-After");
    assert!(retry > 0 && retry <= 60, "{retry}");
    assert_eq!(doc["retryAfter"], retry);
    assert_eq!(refused.header("ratelimit-remaining"), Some("0"));
    assert_eq!(refused.header("cache-control"), Some("no-store"));

    site.platform.advance(retry * 1000 - 1);
    assert_eq!(site.get("/api/news").status, 429, "not before the reset");
    site.platform.advance(1);
    let again = site.get("/api/news");
    assert_eq!(again.status, 200);
    assert_eq!(again.header("ratelimit-remaining"), Some("59"));
}

#[test]
fn get_post_search_and_mcp_share_one_budget() {
    let site = Site::new();
    site.get("/api/news");
    site.post_json("/api/news", &serde_json::json!({}));
    site.get("/api/search?q=water");
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let mcp = site.send(Method::Post, "/mcp", &[("content-type", "application/json")], ping);
    assert_eq!(mcp.header("ratelimit-remaining"), Some("56"));
}

#[test]
fn built_details_and_preflights_are_not_counted_past_the_limit() {
    let site = Site::new();
    for _ in 0..LIMIT {
        site.get("/api/news");
    }
    assert_eq!(site.get("/api/news").status, 429);
    let detail = site.get("/api/news/pinned");
    assert_eq!(detail.status, 200);
    assert_eq!(detail.header("ratelimit-remaining"), None);
    assert_eq!(site.send(Method::Options, "/api/news", &[], "").status, 204);
}

#[test]
fn another_client_has_its_own_budget() {
    let site = Site::new();
    for _ in 0..=LIMIT {
        site.get("/api/news");
    }
    let mut other = Site::request(Method::Get, "/api/news");
    other.peer = Some("198.18.0.2".into());
    let response = site.oneshot(other);
    assert_eq!((response.status, response.header("ratelimit-remaining")), (200, Some("59")));
}

#[test]
fn an_mcp_batch_costs_one_per_message_and_one_too_big_is_refused_whole() {
    let site = Site::new();
    let batch = |n: usize| {
        let messages: Vec<String> =
            (0..n).map(|i| format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"ping"}}"#)).collect();
        let headers = [("content-type", "application/json"), ("mcp-protocol-version", "2025-03-26")];
        site.send(Method::Post, "/mcp", &headers, &format!("[{}]", messages.join(",")))
    };
    let first = batch(55);
    assert_eq!(first.status, 200);
    assert_eq!(json(&first).as_array().map(Vec::len), Some(55));
    let refused = batch(6);
    problem(&refused, 429, "rate_limited");
    assert_eq!(refused.header("ratelimit-remaining"), Some("5"), "a refused batch takes nothing");
    assert_eq!(batch(5).header("ratelimit-remaining"), Some("0"));
}
