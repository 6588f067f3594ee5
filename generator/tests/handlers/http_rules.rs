//! The rules every endpoint shares that a table of single requests cannot say: ETag revalidation and
//! HEAD against GET (docs/spec/api-spec.md#conventions, #caching). CORS, versions, methods, unknown
//! paths and Cache-Control are cases of tests/cases/requests.json (`cases.rs`).

use portal_core::http::Method;

use crate::{json, Site};

const BUILT: &str = "public, max-age=600, stale-while-revalidate=86400";

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
fn a_built_file_also_answers_at_its_own_path() {
    let site = Site::new();
    let by_route = json(&site.get("/api/news"));
    let by_file = site.get("/api/news.json");
    assert_eq!(by_file.status, 200);
    assert_eq!(json(&by_file), by_route);
}
