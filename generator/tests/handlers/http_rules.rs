//! The rules every endpoint shares: CORS, `API-Version`, methods, unknown paths, ETags, HEAD and
//! Cache-Control (docs/spec/api-spec.md#conventions, #cors, #errors, #versioning, #caching).

use portal_core::http::Method;

use crate::{json, problem, text, Site};

const ALLOW_HEADERS: &str =
    "Content-Type, API-Version, Accept, Idempotency-Key, MCP-Protocol-Version, Mcp-Session-Id, \
                             Last-Event-ID, Mcp-Method, Mcp-Name, Mcp-Param-Collection";
const BUILT: &str = "public, max-age=600, stale-while-revalidate=86400";

#[test]
fn every_api_answer_carries_cors_and_the_version() {
    let site = Site::new();
    for (method, path) in [
        (Method::Get, "/api/news"),
        (Method::Post, "/api/news"),
        (Method::Get, "/api/nope"),
        (Method::Get, "/api/news/x"),
        (Method::Other("DELETE".into()), "/api/news"),
    ] {
        let response = site.send(method, path, &[], "");
        assert_eq!(response.header("access-control-allow-origin"), Some("*"), "{path}");
        assert_eq!(response.header("access-control-allow-methods"), Some("GET, POST, OPTIONS"), "{path}");
        assert_eq!(response.header("access-control-allow-headers"), Some(ALLOW_HEADERS), "{path}");
        assert_eq!(response.header("api-version"), Some("1.0.0"), "{path}");
        let exposed = response.header("access-control-expose-headers").unwrap_or_default();
        for name in ["API-Version", "RateLimit-Remaining", "Retry-After", "Deprecation", "Sunset", "Link"] {
            assert!(exposed.contains(name), "{path}: {name} in {exposed}");
        }
    }
}

#[test]
fn a_preflight_is_an_empty_204_with_cors_on_any_api_path() {
    let site = Site::new();
    for path in ["/api/news", "/api/search", "/api/anything/at/all", "/api/submit-voice"] {
        let headers = [("origin", "https://app.example"), ("access-control-request-method", "POST")];
        let response = site.send(Method::Options, path, &headers, "");
        assert_eq!(response.status, 204, "{path}");
        assert!(response.body.is_empty(), "{path}");
        assert_eq!(response.header("access-control-allow-headers"), Some(ALLOW_HEADERS), "{path}");
        let max_age: u64 = response.header("access-control-max-age").and_then(|v| v.parse().ok()).unwrap_or(0);
        assert!(max_age > 0, "{path}");
        assert_eq!(response.header("ratelimit-remaining"), None, "a preflight is never counted");
    }
}

#[test]
fn supported_api_versions_are_accepted() {
    let site = Site::new();
    for pin in ["1.0.0", "1.0", "1"] {
        let response = site.get_with("/api/news", &[("api-version", pin)]);
        assert_eq!(response.status, 200, "{pin}");
        assert_eq!(response.header("api-version"), Some("1.0.0"));
    }
}

#[test]
fn an_unsupported_api_version_is_a_bad_request_listing_the_supported() {
    let site = Site::new();
    for pin in ["2", "1.1", "0.9", "latest"] {
        let response = site.get_with("/api/news", &[("api-version", pin)]);
        let doc = problem(&response, 400, "bad_request");
        let detail = doc["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("1.0.0") && detail.contains("1.0"), "{pin}: {detail}");
        assert_eq!(response.header("api-version"), Some("1.0.0"));
    }
}

#[test]
fn a_wrong_method_is_405_with_allow() {
    let site = Site::new();
    for method in ["PUT", "DELETE", "PATCH"] {
        let response = site.send(Method::Other(method.into()), "/api/news", &[], "");
        problem(&response, 405, "method_not_allowed");
        assert_eq!(response.header("allow"), Some("GET, HEAD, POST, OPTIONS"), "{method}");
    }
    let response = site.post_json("/api/news/water-points-reopen", &serde_json::json!({}));
    problem(&response, 405, "method_not_allowed");
    let allow = response.header("allow").unwrap_or_default();
    assert!(allow.contains("GET") && !allow.contains("POST"), "{allow}");
}

#[test]
fn an_unknown_collection_is_a_problem_suggesting_the_nearest() {
    let site = Site::new();
    let doc = problem(&site.get("/api/servics"), 404, "collection_not_found");
    assert!(doc["detail"].as_str().unwrap_or_default().contains("services"), "{doc}");
    assert_eq!(doc["instance"], "/api/servics");
    problem(&site.get("/api/not/a/route"), 404, "not_found");
}

#[test]
fn an_unknown_page_is_the_404_page_and_a_page_error_a_problem_when_json_is_asked_for() {
    let site = Site::new();
    let page = site.get("/no/such/page");
    assert_eq!(page.status, 404);
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    assert!(text(&page).contains("<html"));
    let refused = site.get("/visit/sent");
    assert_eq!((refused.status, refused.header("content-type")), (404, Some("text/html; charset=utf-8")));
    problem(&site.get_with("/visit/sent", &[("accept", "application/json")]), 404, "not_found");
}

#[test]
fn a_matching_if_none_match_is_an_empty_304_with_the_etag() {
    let site = Site::new();
    let first = site.get("/api/news/pinned");
    let etag = first.header("etag").expect("an ETag").to_string();
    let again = site.get_with("/api/news/pinned", &[("if-none-match", &etag)]);
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_eq!(again.header("etag"), Some(etag.as_str()));
    assert_eq!(again.header("cache-control"), Some(BUILT), "a revalidation keeps the policy");
    let other = site.get_with("/api/news/pinned", &[("if-none-match", "\"something-else\"")]);
    assert_eq!(other.status, 200);
}

#[test]
fn head_answers_the_headers_of_get_without_a_body() {
    let site = Site::new();
    let get = site.get("/api/news/pinned");
    let head = site.send(Method::Head, "/api/news/pinned", &[], "");
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    assert_eq!(head.header("content-type"), get.header("content-type"));
    assert_eq!(head.header("etag"), get.header("etag"));
    assert_eq!(head.header("content-length"), Some(get.body.len().to_string().as_str()));
    assert_eq!(head.header("vary"), get.header("vary"));
}

#[test]
fn cache_control_follows_where_the_answer_comes_from() {
    let site = Site::new();
    for path in ["/api/news", "/news", "/api/news/water-points-reopen", "/api/rss", "/", "/api/openapi.json"] {
        let response = site.get(path);
        assert_eq!((response.status, response.header("cache-control")), (200, Some(BUILT)), "{path}");
    }
    for path in ["/api/search?q=cachingprobe", "/api/news?filter[tags]=health", "/api/news?limit=1"] {
        let response = site.get(path);
        assert_eq!((response.status, response.header("cache-control")), (200, Some("public, max-age=60")), "{path}");
    }
    for path in ["/api/no-such-collection", "/api/news/no-such-record", "/api/search?q=", "/no/such/page"] {
        assert_eq!(site.get(path).header("cache-control"), Some("no-store"), "{path}");
    }
}

#[test]
fn the_offline_files_are_served_with_their_types_and_the_worker_is_always_revalidated() {
    // docs/spec/api-spec.md#offline-files
    let site = Site::new();
    let worker = site.get("/sw.js");
    assert_eq!(worker.status, 200);
    assert_eq!(worker.header("content-type"), Some("text/javascript; charset=utf-8"));
    assert_eq!(worker.header("cache-control"), Some("no-cache"));
    assert!(text(&worker).contains("self.PORTAL_OFFLINE = {"));
    let manifest = site.get("/manifest.webmanifest");
    assert_eq!((manifest.status, manifest.header("content-type")), (200, Some("application/manifest+json")));
    assert_eq!(json(&manifest)["start_url"], ".");
    for path in ["/assets/icon-192.png", "/assets/icon-512.png", "/offline", "/offline/news.json"] {
        let response = site.get(path);
        assert_eq!((response.status, response.header("cache-control")), (200, Some(BUILT)), "{path}");
    }
}

#[test]
fn a_built_file_also_answers_at_its_own_path() {
    let site = Site::new();
    let by_route = json(&site.get("/api/news"));
    let by_file = site.get("/api/news.json");
    assert_eq!(by_file.status, 200);
    assert_eq!(json(&by_file), by_route);
}
