//! The HSDS 3.0 API (docs/spec/api-spec.md#hsds) over the built fixture: built first pages,
//! paging, filters, items by id and the problems of bad requests.

use crate::{json, problem, Site};

#[test]
fn the_built_first_page_and_the_handler_agree() {
    let site = Site::new();
    for kind in ["services", "organizations", "service_at_locations", "taxonomies", "taxonomy_terms"] {
        let built = json(&site.get(&format!("/api/hsds/{kind}")));
        let handled = json(&site.get(&format!("/api/hsds/{kind}?page=1&per_page=50")));
        assert_eq!(built, handled, "{kind}");
        assert_eq!(built["page_number"], 1);
    }
    assert_eq!(json(&site.get("/api/hsds"))["version"], "3.0");
}

#[test]
fn items_are_found_by_id_and_unknown_ids_are_not_found() {
    let site = Site::new();
    let page = json(&site.get("/api/hsds/services?per_page=1&page=2"));
    assert_eq!((page["size"].as_u64(), page["first_page"].as_bool()), (Some(1), Some(false)));
    let id = page["contents"][0]["id"].as_str().unwrap_or_default().to_string();
    let service = json(&site.get(&format!("/api/hsds/services/{id}")));
    assert_eq!(service["id"], id.as_str());
    assert!(service["organization"]["name"].is_string());
    let missing = site.get("/api/hsds/services/00000000-0000-0000-0000-000000000000");
    assert_eq!(missing.status, 404);
    assert_eq!(json(&missing)["code"], "not_found");
}

#[test]
fn filters_narrow_the_services_and_bad_values_are_bad_requests() {
    let site = Site::new();
    let all = json(&site.get("/api/hsds/services?per_page=500"));
    let total = all["total_items"].as_u64().unwrap_or_default();
    assert!(total >= 2, "the fixture has services");
    let found = json(&site.get("/api/hsds/services?search=legal"));
    assert!(found["contents"].as_array().into_iter().flatten().any(|s| s["name"] == "Legal aid desk"));
    let later = json(&site.get("/api/hsds/services?modified_after=2999-01-01"));
    assert_eq!(later["total_items"], 0);
    for bad in ["page=0", "per_page=501", "modified_after=soon", "search=a"] {
        let response = site.get(&format!("/api/hsds/services?{bad}"));
        assert_eq!(response.status, 400, "{bad}");
    }
}

#[test]
fn modified_after_is_on_or_after_and_a_filter_a_list_does_not_take_is_refused() {
    let site = Site::new();
    let on_the_day = json(&site.get("/api/hsds/services?modified_after=2026-10-28"));
    assert_eq!(on_the_day["total_items"], 1, "updated 2026-10-28 counts as on or after that day");
    let at_midnight = json(&site.get("/api/hsds/service_at_locations?modified_after=2026-10-28T00:00:00Z"));
    assert_eq!(at_midnight["total_items"], 1);
    for (path, name) in [
        ("/api/hsds/services?format=ndjson", "format"),
        ("/api/hsds/organizations?full=true", "full"),
        ("/api/hsds/service_at_locations?postcode=1", "postcode"),
        ("/api/hsds/taxonomies?page=1&colour=red", "colour"),
    ] {
        let doc = problem(&site.get(path), 400, "bad_request");
        assert!(doc["detail"].as_str().is_some_and(|d| d.contains(&format!("`{name}`"))), "{path}: {doc}");
    }
    let terms = json(&site.get("/api/hsds/taxonomy_terms?top_only=true"));
    assert_eq!(terms["total_items"], json(&site.get("/api/hsds/taxonomy_terms"))["total_items"]);
    assert_eq!(json(&site.get("/api/hsds/taxonomy_terms?parent_id=x"))["total_items"], 0);
}

#[test]
fn a_search_over_the_limits_is_a_bad_request_and_every_search_is_counted() {
    let site = Site::new();
    let query = vec!["a"; 8_000].join("+");
    let doc = problem(&site.get(&format!("/api/hsds/services?search={query}")), 400, "bad_request");
    let detail = doc["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("`search`") && detail.contains("at most 256 characters"), "{doc}");
    // docs/spec/api-spec.md#rate-limit: the services list runs the search engine, so it counts.
    let found = site.get("/api/hsds/services?search=water");
    assert_eq!(found.status, 200);
    assert_eq!(found.header("ratelimit-remaining"), Some("58"));
    assert_eq!(site.get("/api/hsds/services").header("ratelimit-remaining"), Some("57"));
    assert_eq!(site.get("/api/hsds/organizations").header("ratelimit-remaining"), None, "no search there");
}
