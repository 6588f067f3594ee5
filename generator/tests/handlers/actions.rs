//! The read actions (docs/spec/api-spec.md#actions): export and match-category, and the body rules
//! every action shares.

use portal_core::http::Method;
use serde_json::json;

use crate::{json, problem, Site};

const ACTIONS: [&str; 4] =
    ["/api/export", "/api/match-category", "/api/submit-voice", "/api/send-booking-confirmation"];

/// The fields an `invalid_body` problem names, in order.
fn invalid_fields(response: &portal_core::http::Response) -> Vec<String> {
    let doc = problem(response, 400, "invalid_body");
    doc["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| e["field"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn get_export_describes_the_endpoint() {
    let doc = json(&Site::new().get("/api/export"));
    assert_eq!(doc["method"], "POST");
    assert_eq!(doc["supportedCollections"].as_array().map(Vec::len), Some(19));
    assert_eq!(doc["supportedCollections"][0], "services");
}

#[test]
fn export_answers_one_array_per_collection_as_listed() {
    let site = Site::new();
    let response = site.post_json("/api/export", &json!({"collections": ["news", "events"]}));
    assert_eq!(response.status, 200);
    let doc = json(&response);
    let names: Vec<&String> = doc["data"].as_object().expect("data").keys().collect();
    assert_eq!(names, ["news", "events"]);
    assert_eq!(doc["data"]["news"], json(&site.get("/api/news"))["data"]["news"]);
    assert!(doc.get("metadata").is_none() && doc.get("stats").is_none());
}

#[test]
fn export_options_add_metadata_and_stats_dated_by_the_request() {
    let site = Site::new();
    let body = json!({"collections": ["news", "profiles"], "options": {"includeMetadata": true, "includeStats": true}});
    let doc = json(&site.post_json("/api/export", &body));
    assert_eq!(doc["metadata"]["collections"], json!(["news", "profiles"]));
    assert_eq!(doc["metadata"]["totalCollections"], 2);
    assert!(doc["metadata"]["exportDate"].as_str().unwrap_or_default().starts_with("2026-09-21T14:13:20"), "{doc}");
    let per = |name: &str| doc["data"][name].as_array().map_or(0, Vec::len);
    assert_eq!(
        doc["stats"],
        json!({"totalItems": per("news") + per("profiles"), "itemsPerCollection": {"news": per("news"), "profiles": per("profiles")}})
    );
}

#[test]
fn export_lists_every_bad_field_together() {
    let site = Site::new();
    let unknown = site.post_json("/api/export", &json!({"collections": ["news", "nonsense"]}));
    let doc = problem(&unknown, 400, "invalid_body");
    assert!(doc["errors"][0]["message"].as_str().unwrap_or_default().contains("nonsense"), "{doc}");
    for body in [json!({}), json!({"collections": []}), json!({"collections": "news"}), json!({"collections": [1]})] {
        assert_eq!(invalid_fields(&site.post_json("/api/export", &body)), ["collections"], "{body}");
    }
    let both = site.post_json("/api/export", &json!({"collections": ["nope"], "options": {"includeMetadata": 1}}));
    assert_eq!(invalid_fields(&both), ["collections", "options.includeMetadata"]);
}

#[test]
fn match_category_counts_published_profiles_ignoring_case() {
    let site = Site::new();
    let found = json(&site.post_json("/api/match-category", &json!({"category": "TAILORING"})));
    assert_eq!(found, json!({"status": "success", "category": "TAILORING", "matched": true, "profiles": 2}));
    let draft_only = json(&site.post_json("/api/match-category", &json!({"category": "welding"})));
    assert_eq!((draft_only["matched"].as_bool(), draft_only["profiles"].as_u64()), (Some(false), Some(0)));
    for body in [json!({}), json!({"category": "   "}), json!({"category": 7})] {
        assert_eq!(invalid_fields(&site.post_json("/api/match-category", &body)), ["category"], "{body}");
    }
}

#[test]
fn every_action_takes_a_json_object_and_counts_against_the_budget() {
    let site = Site::new();
    for path in ACTIONS {
        for raw in ["", "{not json", "[1, 2]"] {
            let response = site.send(Method::Post, path, &[("content-type", "application/json")], raw);
            assert_eq!(invalid_fields(&response), ["body"], "{path} {raw:?}");
        }
        let plain = site.send(Method::Post, path, &[("content-type", "text/plain")], "title=x");
        problem(&plain, 415, "unsupported_media_type");
    }
    let first = site.post_json("/api/export", &json!({}));
    let second = site.post_json("/api/match-category", &json!({}));
    let remaining =
        |r: &portal_core::http::Response| r.header("ratelimit-remaining").and_then(|v| v.parse::<u32>().ok());
    assert_eq!(remaining(&second), remaining(&first).map(|n| n - 1));
}
