//! `GET /api/search` (docs/spec/api-spec.md#search) and the HTML search page `/search`.

use serde_json::Value;

use crate::{json, problem, Site};

fn search(site: &Site, query: &str) -> Value {
    let response = site.get(&format!("/api/search?{query}"));
    assert_eq!(response.status, 200, "{query}: {}", crate::text(&response));
    json(&response)
}

fn slugs(body: &Value, collection: &str) -> Vec<String> {
    body["results"][collection]
        .as_array()
        .map(|hits| hits.iter().map(|hit| hit["slug"].as_str().unwrap_or_default().to_string()).collect())
        .unwrap_or_default()
}

#[test]
fn an_answer_has_the_spec_shape() {
    let body = search(&Site::new(), "q=water");
    assert_eq!((body["status"].as_str(), body["query"].as_str()), (Some("success"), Some("water")));
    assert_eq!(body["cached"], false);
    let results = body["results"].as_object().expect("results by collection");
    let hits: usize = results.values().map(|hits| hits.as_array().map_or(0, Vec::len)).sum();
    assert!(hits > 0);
    assert_eq!(body["totalResults"], hits);
    assert_eq!(body["totals"].as_object().map(|t| t.len()), Some(19), "every collection, not the encyclopedia");
    for (collection, hits) in results {
        for hit in hits.as_array().expect("hits") {
            assert_eq!(hit["collection"], collection.as_str());
            assert_eq!(hit["url"], format!("/{collection}/{}", hit["slug"].as_str().unwrap_or_default()));
        }
    }
}

#[test]
fn matching_ignores_case_and_accents() {
    let site = Site::new();
    for q in ["cafe", "CAF%C3%89", "%C3%A9cole", "Ecole"] {
        assert_eq!(slugs(&search(&site, &format!("q={q}")), "services"), ["cafe-amani"], "{q}");
    }
}

#[test]
fn every_word_must_match_and_the_last_is_a_prefix() {
    let site = Site::new();
    assert_eq!(slugs(&search(&site, "q=clin&collections=news"), "news"), ["clinic-hours"]);
    assert_eq!(slugs(&search(&site, "q=water+zone&collections=news"), "news"), ["water-points-reopen"]);
    assert_eq!(search(&site, "q=clinic+zone&collections=news")["totalResults"], 0);
}

#[test]
fn a_title_match_ranks_above_a_body_match() {
    let body = search(&Site::new(), "q=water&collections=resources");
    assert_eq!(slugs(&body, "resources"), ["water-safety", "hygiene-kit"]);
}

#[test]
fn collections_and_limit_restrict_the_answer() {
    let site = Site::new();
    let body = search(&site, "q=water&collections=services,docs");
    let totals: Vec<&String> = body["totals"].as_object().expect("totals").keys().collect();
    assert_eq!(totals, ["services", "docs"]);
    let entries = search(&site, "q=water&collections=entries");
    assert_eq!(
        entries["totals"].as_object().map(|t| t.keys().cloned().collect::<Vec<_>>()),
        Some(vec!["entries".into()])
    );
    let capped = search(&site, "q=water&collections=resources&limit=1");
    assert_eq!(slugs(&capped, "resources").len(), 1);
    assert_eq!(capped["totals"]["resources"], 2);
}

#[test]
fn drafts_are_never_found() {
    let site = Site::new();
    assert_eq!(search(&site, "q=unpublished")["totalResults"], 0);
    assert_eq!(search(&site, "q=never+appear")["totalResults"], 0);
}

#[test]
fn a_second_identical_query_is_answered_from_the_cache() {
    let site = Site::new();
    let mut first = search(&site, "q=hygiene+kits");
    let mut second = search(&site, "q=hygiene+kits");
    assert_eq!((first["cached"].as_bool(), second["cached"].as_bool()), (Some(false), Some(true)));
    first["cached"] = Value::Null;
    second["cached"] = Value::Null;
    assert_eq!(first, second);
}

#[test]
fn search_is_rate_limited() {
    let response = Site::new().get("/api/search?q=water");
    assert_eq!(response.header("ratelimit-limit"), Some("60"));
    assert_eq!(response.header("ratelimit-remaining"), Some("59"));
}

#[test]
fn the_search_page_lists_a_known_result() {
    // Only the status and a known title: how the page ranks, words and highlights its results
    // changes (the part of the title checked leaves out the word searched for).
    let response = Site::new().get("/search?q=water");
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("text/html; charset=utf-8"));
    assert!(crate::text(&response).contains("points reopen in Zone B"), "{}", crate::text(&response));
}

#[test]
fn the_search_page_shows_the_help_page_first_for_a_crisis_query() {
    let site = Site::new();
    let html = crate::text(&site.get("/search?q=my%20husband%20beats%20me"));
    let main = &html[html.find("<main").unwrap_or(0)..];
    let help = main.find("href=\"/urgent-help\"").unwrap_or_else(|| panic!("no help link: {main}"));
    let first_result = main.find("class=\"search-group\"").unwrap_or(usize::MAX);
    assert!(help < first_result, "the help page comes before every result: {main}");
    assert!(main.contains("<a href=\"tel:+256700000100\">+256 700 000 100</a>"), "{main}");
    assert!(!main.contains("did-you-mean"), "no correction of a crisis query: {main}");
    // A query that asks for nothing urgent has no help box.
    assert!(!crate::text(&site.get("/search?q=water")).contains("help-first"));
}

#[test]
fn a_search_that_finds_nothing_links_the_help_page_and_the_services() {
    let html = crate::text(&Site::new().get("/search?q=zqxwvy"));
    assert!(html.contains("class=\"help-links\""), "{html}");
    assert!(html.contains("href=\"/urgent-help\"") && html.contains("href=\"/services\""), "{html}");
}

#[test]
fn a_correct_word_is_never_rewritten_and_stop_words_do_not_count() {
    let site = Site::new();
    // "beans" is not in the index; "beats" is an English word: no automatic correction.
    let html = crate::text(&site.get("/search?q=beats"));
    assert!(!html.contains("Showing results for"), "{html}");
    // A question finds what its meaningful words find.
    let question = crate::text(&site.get("/search?q=where%20is%20the%20water"));
    assert!(question.contains("points reopen in Zone B"), "{question}");
}

#[test]
fn the_search_page_finds_front_matter_text_the_api_does_not() {
    let site = Site::new();
    // The legal aid desk says `Fri` only in its `hours`, `Society` only in `organization.name`.
    for q in ["fri", "society"] {
        let page = crate::text(&site.get(&format!("/search?q={q}&collections=services")));
        assert!(page.contains("href=\"/services/legal-aid"), "{q}: {page}");
        // docs/spec/api-spec.md#search-matching: titles, summaries, tags and bodies only.
        assert_eq!(search(&site, &format!("q={q}&collections=services"))["totalResults"], 0, "{q}");
    }
}

#[test]
fn arabic_letter_forms_marks_and_the_article_are_folded() {
    let site = Site::new();
    // The event says الهواء ("the air") and نقاش ("discussion").
    for q in [
        "%D9%87%D9%88%D8%A7%D8%A1",
        "%D9%86%D9%90%D9%82%D9%8E%D8%A7%D8%B4",
        "%D9%88%D8%A7%D9%84%D9%87%D9%88%D8%A7%D8%A1",
    ] {
        assert_eq!(slugs(&search(&site, &format!("q={q}&collections=events")), "events"), ["film-evening-ar"], "{q}");
        let page = crate::text(&site.get(&format!("/search?q={q}&collections=events")));
        assert!(page.contains("href=\"/events/film-evening-ar\""), "{q}: {page}");
    }
}

/// A query as a URL carries it: `word` `times` times, separated by `+`.
fn repeated(word: &str, times: usize) -> String {
    vec![word; times].join("+")
}

#[test]
fn a_query_over_the_limits_is_a_bad_request_naming_the_limit() {
    // docs/spec/api-spec.md#limits: 256 characters, 16 different words.
    let site = Site::new();
    let doc = problem(&site.get(&format!("/api/search?q={}", repeated("a", 8_000))), 400, "bad_request");
    let detail = doc["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("`q`") && detail.contains("at most 256 characters"), "{doc}");
    let words: Vec<String> = (0..17).map(|n| format!("w{n}")).collect();
    let doc = problem(&site.get(&format!("/api/search?q={}", words.join("+"))), 400, "bad_request");
    assert!(doc["detail"].as_str().unwrap_or_default().contains("at most 16 different words"), "{doc}");
}

#[test]
fn a_repeated_word_counts_once() {
    let site = Site::new();
    // 40 times one word: under the length limit, one word of sixteen.
    let body = search(&site, &format!("q={}&collections=news", repeated("water", 40)));
    assert_eq!(body["totals"], search(&site, "q=water&collections=news")["totals"]);
    let sixteen: Vec<String> = (0..16).map(|n| format!("w{n}")).collect();
    let with_repeats = format!("q={}+{}", sixteen.join("+"), sixteen.join("+"));
    assert_eq!(search(&site, &with_repeats)["totalResults"], 0);
}

#[test]
fn the_search_page_says_when_a_query_is_over_the_limits() {
    let site = Site::new();
    let long = site.get(&format!("/search?q={}", repeated("a", 8_000)));
    assert_eq!(long.status, 200);
    let html = crate::text(&long);
    assert!(html.contains("at most 256 characters"), "{html}");
    assert!(html.contains("<form class=\"search\""), "the form stays");
    let words: Vec<String> = (0..17).map(|n| format!("w{n}")).collect();
    let many = crate::text(&site.get(&format!("/search?q={}", words.join("+"))));
    assert!(many.contains("at most 16 different words"), "{many}");
}

#[test]
fn the_encyclopedia_query_has_the_same_limits() {
    let site = Site::new();
    for path in ["/api/encyclopedia", "/api/encyclopedia/facets"] {
        let doc = problem(&site.get(&format!("{path}?q={}", repeated("a", 8_000))), 400, "bad_request");
        assert!(doc["detail"].as_str().unwrap_or_default().contains("at most 256 characters"), "{path}: {doc}");
    }
    assert_eq!(site.get("/api/encyclopedia?q=a").status, 200, "one character is still a query there");
}
