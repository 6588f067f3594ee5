//! Discovery documents (docs/spec/api-spec.md#discovery): the status, the API catalog, llms.txt,
//! the deprecation policy and the MCP server card.

use portal_core::http::Method;

use crate::{json, text, Site};

#[test]
fn the_status_reports_counts_and_the_build_time() {
    let doc = json(&Site::new().get("/api/status"));
    assert_eq!((doc["status"].as_str(), doc["apiVersion"].as_str()), (Some("ok"), Some("1.0.0")));
    assert_eq!(doc["generatedAt"], "2026-09-21T14:13:20Z", "SOURCE_DATE_EPOCH");
    assert_eq!(doc["collections"]["news"], 4);
    assert_eq!(doc["collections"].as_object().map(|c| c.len()), Some(19));
}

#[test]
fn the_api_catalog_is_a_linkset_that_head_links_to_itself() {
    let site = Site::new();
    let response = site.get("/.well-known/api-catalog");
    assert_eq!(
        response.header("content-type"),
        Some("application/linkset+json; profile=\"https://www.rfc-editor.org/info/rfc9727\"")
    );
    let contexts = json(&response)["linkset"].as_array().expect("a linkset").clone();
    let api =
        contexts.iter().find(|c| c["anchor"].as_str().is_some_and(|a| a.ends_with("/api"))).expect("the API's context");
    assert_eq!(api["service-desc"][0]["href"], "https://fixture.example.org/api/openapi.json");
    let head = site.send(Method::Head, "/.well-known/api-catalog", &[], "");
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    assert!(head.header("link").unwrap_or_default().contains("</.well-known/api-catalog>; rel=\"api-catalog\""));
}

#[test]
fn llms_txt_names_the_site_and_links_the_openapi_document() {
    let response = Site::new().get("/llms.txt");
    assert!(response.header("content-type").unwrap_or_default().starts_with("text/plain"));
    let body = text(&response);
    assert_eq!(body.lines().next(), Some("# Fixture Portal"));
    assert!(body.lines().any(|l| l == "## API") && body.lines().any(|l| l == "## Optional"));
    assert!(body.contains("(https://fixture.example.org/api/openapi.json)"));
}

#[test]
fn the_deprecation_policy_lists_pageviews() {
    let doc = json(&Site::new().get("/api/deprecation-policy"));
    assert_eq!(doc["policy"]["minimumNotice"], "P6M");
    let deprecations = doc["deprecations"].as_array().expect("deprecations");
    let pageviews = deprecations.iter().find(|d| d["path"] == "/api/analytics/pageviews").expect("pageviews");
    assert!(pageviews["sunset"].as_str().unwrap_or_default().starts_with("2027-03-01"));
}

#[test]
fn the_server_card_is_served_at_both_paths() {
    let site = Site::new();
    let card = json(&site.get("/.well-known/mcp/server-card.json"));
    assert_eq!(card, json(&site.get("/mcp/server-card")));
    assert_eq!(card["protocolVersion"], "2026-07-28");
    assert!(card["protocolVersions"].as_array().expect("versions").iter().any(|v| v == "2025-06-18"));
}
