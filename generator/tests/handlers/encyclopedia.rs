//! The encyclopedia's query endpoints (docs/spec/api-spec.md#encyclopedia): the list with its
//! filters and pages, one entry, suggestions and facets.

use serde_json::{json, Value};

use crate::{json, problem, Site};

const TITLE_ORDER: [&str; 6] =
    ["asylum", "education", "etat-civil", "non-refoulement", "oral-rehydration", "water-trucking"];

fn listing(site: &Site, query: &str) -> Value {
    let response = site.get(&format!("/api/encyclopedia?{query}"));
    assert_eq!(response.status, 200, "{query}: {}", crate::text(&response));
    json(&response)
}

fn slugs(body: &Value) -> Vec<String> {
    body["data"]["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|entry| entry["slug"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn the_list_is_in_title_order_on_one_page() {
    let body = listing(&Site::new(), "");
    assert_eq!(body["status"], "success");
    let counts = ["total", "count", "page", "pageSize", "totalPages"].map(|k| body[k].as_u64().unwrap_or(0));
    assert_eq!(counts, [6, 6, 1, 20, 1]);
    assert_eq!(slugs(&body), TITLE_ORDER);
    assert!(body["data"]["entries"].as_array().expect("entries").iter().all(|e| e.get("body").is_none()));
    assert!(body["links"].get("next").is_none() && body["links"].get("prev").is_none());
}

#[test]
fn pages_link_to_each_other() {
    let site = Site::new();
    let second = listing(&site, "pageSize=2&page=2");
    assert_eq!(slugs(&second), ["etat-civil", "non-refoulement"]);
    assert_eq!(second["totalPages"], 3);
    let next = second["links"]["next"].as_str().unwrap_or_default();
    assert!(next.contains("page=3") && next.contains("pageSize=2"), "{next}");
    assert!(second["links"]["prev"].as_str().unwrap_or_default().contains("page=1"));
    let last = listing(&site, "pageSize=2&page=3");
    assert_eq!(slugs(&last), ["oral-rehydration", "water-trucking"]);
    assert!(last["links"].get("next").is_none());
}

#[test]
fn filters_alone_and_combined() {
    let site = Site::new();
    for (query, expected) in [
        ("category=LAW", &["asylum", "etat-civil", "non-refoulement"][..]),
        ("tag=rights", &["asylum", "education", "non-refoulement"]),
        ("letter=%C3%89", &["education", "etat-civil"]),
        ("category=law&letter=e", &["etat-civil"]),
        ("category=health&tag=water", &["oral-rehydration", "water-trucking"]),
        ("category=nothing", &[]),
    ] {
        assert_eq!(slugs(&listing(&site, query)), expected, "{query}");
    }
    assert_eq!(slugs(&listing(&site, "q=water"))[0], "water-trucking", "by relevance");
}

#[test]
fn an_entry_has_its_html_and_sources_and_a_draft_is_not_found() {
    let site = Site::new();
    let response = site.get("/api/encyclopedia/asylum");
    assert_eq!(response.status, 200);
    assert_eq!(response.header("ratelimit-remaining"), None, "a built file is not counted");
    let entry = &json(&response)["data"]["entry"];
    assert_eq!(entry["url"], "/encyclopedia/asylum");
    assert!(entry["html"].as_str().unwrap_or_default().contains("<strong>seek asylum</strong>"));
    assert_eq!(entry["sources"][0]["publisher"], "UNHCR");
    problem(&site.get("/api/encyclopedia/draft-topic"), 404, "not_found");
}

#[test]
fn suggestions_match_titles_and_aliases() {
    let site = Site::new();
    let suggest = |query: &str| {
        let body = json(&site.get(&format!("/api/encyclopedia/suggest?{query}")));
        body["suggestions"].as_array().expect("suggestions").clone()
    };
    let slugs = |query: &str| {
        suggest(query).iter().map(|s| s["slug"].as_str().unwrap_or_default().to_string()).collect::<Vec<_>>()
    };
    assert_eq!(slugs("q=e"), ["education", "etat-civil"]);
    assert_eq!(slugs("q=refu"), ["asylum"]);
    assert_eq!(slugs("q=e&limit=1"), ["education"]);
    assert_eq!(
        suggest("q=schoo")[0],
        json!({"slug": "education", "title": "Education for refugees", "url": "/encyclopedia/education", "alias": "Schooling"})
    );
    for query in ["", "q=%20", "q=a&limit=0", "q=a&limit=21"] {
        problem(&site.get(&format!("/api/encyclopedia/suggest?{query}")), 400, "bad_request");
    }
}

#[test]
fn facets_fold_letters_and_count_categories() {
    let response = Site::new().get("/api/encyclopedia/facets");
    assert!(response.header("ratelimit-remaining").is_some());
    let facets = &json(&response)["facets"];
    assert_eq!(facets["letter"], json!({"A": 1, "E": 2, "N": 1, "O": 1, "W": 1}));
    assert_eq!(facets["category"], json!({"culture": 1, "health": 2, "law": 3}));
    assert_eq!(facets["tags"]["rights"], 3);
}
