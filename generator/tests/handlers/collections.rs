//! Collection endpoints: the listing envelope, one record, paging, filters, sorting, fields and
//! POST options (docs/spec/api-spec.md#collection-endpoints, #collection-query).

use serde_json::json;

use crate::{ids, json, problem, text, Site};

#[test]
fn a_listing_has_the_envelope_and_every_published_record() {
    let site = Site::new();
    let response = site.get("/api/news");
    assert_eq!(response.status, 200);
    assert!(response.header("content-type").unwrap_or_default().starts_with("application/json"));
    let body = json(&response);
    assert_eq!(body["status"], "success");
    assert_eq!(body["data"].as_object().map(|d| d.keys().cloned().collect::<Vec<_>>()), Some(vec!["news".into()]));
    assert_eq!(ids(&body, "news"), ["pinned", "water-points-reopen", "clinic-hours", "undated-notice"]);
    assert_eq!(body["count"], 4);
    assert!(body.get("metadata").is_none() && body.get("stats").is_none());
    let first = &body["data"]["news"][1];
    assert_eq!(
        (first["collection"].as_str(), first["url"].as_str()),
        (Some("news"), Some("/news/water-points-reopen"))
    );
}

#[test]
fn an_empty_collection_still_answers_the_envelope() {
    let body = json(&Site::new().get("/api/photos"));
    assert_eq!(body["status"], "success");
    assert_eq!(body["count"], 0);
    assert_eq!(body["data"]["photos"], json!([]));
}

#[test]
fn one_record_adds_its_html() {
    let response = Site::new().get("/api/news/water-points-reopen");
    assert_eq!(response.status, 200);
    let body = json(&response);
    assert_eq!((body["status"].as_str(), body["count"].as_u64()), (Some("success"), Some(1)));
    let record = &body["data"]["news"][0];
    assert_eq!(record["slug"], "water-points-reopen");
    assert!(record["html"].as_str().unwrap_or_default().contains("<strong>Zone B</strong>"), "{record}");
}

#[test]
fn sort_orders_with_missing_values_last() {
    let site = Site::new();
    let news = |query: &str| ids(&json(&site.get(&format!("/api/news?{query}"))), "news");
    assert_eq!(news("sort=date"), ["clinic-hours", "water-points-reopen", "pinned", "undated-notice"]);
    assert_eq!(news("sort=-date"), ["water-points-reopen", "clinic-hours", "pinned", "undated-notice"]);
}

#[test]
fn fields_keep_only_those_and_the_identifying_members() {
    let body = json(&Site::new().get("/api/news?fields=title&filter[tags]=health"));
    assert_eq!(
        body["data"]["news"],
        json!([{"id": "clinic-hours", "collection": "news", "title": "Clinic hours extended",
                "slug": "clinic-hours", "url": "/news/clinic-hours"}])
    );
}

#[test]
fn post_adds_metadata_and_stats_on_request() {
    let site = Site::new();
    let plain = json(&site.post_json("/api/news", &json!({})));
    assert_eq!(plain["count"], 4);
    assert!(plain.get("metadata").is_none() && plain.get("stats").is_none());
    let response = site.post_json("/api/news", &json!({"options": {"includeMetadata": true, "includeStats": true}}));
    assert_eq!(response.status, 200, "{}", text(&response));
    let both = json(&response);
    assert_eq!(both["metadata"]["collections"], json!(["news"]));
    assert!(both["metadata"]["exportDate"].as_str().unwrap_or_default().ends_with('Z'));
    assert_eq!(both["stats"], json!({"totalItems": 4, "itemsPerCollection": {"news": 4}}));
}

#[test]
fn a_bad_post_body_is_invalid_body_listing_its_errors() {
    let site = Site::new();
    for raw in ["{", "[]", "null", r#"{"options": 3}"#, r#"{"options": {"includeStats": "yes"}}"#] {
        let response =
            site.send(portal_core::http::Method::Post, "/api/news", &[("content-type", "application/json")], raw);
        let doc = problem(&response, 400, "invalid_body");
        let errors = doc["errors"].as_array().cloned().unwrap_or_default();
        assert!(!errors.is_empty(), "{raw}: {doc}");
        assert!(errors.iter().all(|e| e.get("field").is_some() && e.get("message").is_some()), "{raw}: {doc}");
    }
}

#[test]
fn a_non_json_body_is_unsupported_media_type() {
    let site = Site::new();
    problem(&site.post_form("/api/news", "a=1"), 415, "unsupported_media_type");
}

#[test]
fn a_page_under_pages_redirects_to_its_canonical_url() {
    let response = Site::new().get("/pages/about/team");
    assert_eq!((response.status, response.header("location")), (301, Some("/about/team")));
}
