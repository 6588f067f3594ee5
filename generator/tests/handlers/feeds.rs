//! Built feeds and data (docs/spec/api-spec.md#rss, #snapshots, #spatial): the RSS feed, dashboard
//! snapshots, the deprecated pageview counter, and spatial data with its filters as JSON and CSV,
//! and as OGC API - Features (#ogc).

use serde_json::{json, Value};

use crate::{json, problem, text, Site};

#[test]
fn the_rss_feed_has_the_newest_items_and_no_drafts() {
    let response = Site::new().get("/api/rss");
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("application/rss+xml; charset=utf-8"));
    let feed = text(&response);
    assert!(feed.contains("<title>Fixture Portal news</title>"), "{feed}");
    let first = feed.find("Water points reopen in Zone B").expect("the newest item");
    let second = feed.find("Clinic hours extended").expect("the next");
    assert!(first < second, "newest first");
    assert_eq!(feed.matches("<item>").count(), 2, "rss.items: 2");
    assert!(feed.contains("<link>https://fixture.example.org/news/water-points-reopen</link>"));
    assert!(!feed.contains("Unpublished draft"));
}

/// The channel names its own address (`atom:link rel="self"`, in the Atom namespace), as feed
/// validators ask, though `rss` is built without its Atom support (see the workspace Cargo.toml).
#[test]
fn the_rss_feed_links_to_itself_in_the_atom_namespace() {
    let feed = text(&Site::new().get("/api/rss"));
    assert!(feed.contains(r#"xmlns:atom="http://www.w3.org/2005/Atom""#), "{feed}");
    let link = r#"<atom:link href="https://fixture.example.org/api/rss" rel="self" type="application/rss+xml""#;
    assert_eq!(feed.matches(link).count(), 1, "{feed}");
    let at = feed.find(link).expect("the self link");
    assert!(feed.find("<channel>") < Some(at) && Some(at) < feed.find("<item>"), "in the channel, before the items");
}

#[test]
fn snapshots_have_the_envelope_and_their_date() {
    let site = Site::new();
    for name in ["alerts", "population", "finance", "charts"] {
        let body = json(&site.get(&format!("/api/{name}")));
        assert_eq!(body["status"], "success", "{name}");
        assert!(body.get("data").is_some() && body["updatedAt"].as_str().is_some_and(|d| !d.is_empty()), "{name}");
    }
    assert_eq!(json(&site.get("/api/alerts"))["updatedAt"], "2026-11-20");
    assert_eq!(json(&site.get("/api/population"))["updatedAt"], "2026-11-01T00:00:00Z");
    assert_eq!(json(&site.get("/api/charts"))["data"][0]["id"], "arrivals");
}

#[test]
fn a_snapshot_of_the_sites_own_has_its_json_and_every_snapshot_a_page() {
    let site = Site::new();
    let own = json(&site.get("/api/data/school-results"));
    assert_eq!(own["status"], "success");
    assert_eq!(own["data"]["date"], "2026-07-15", "updatedAt reads only `updatedAt` or `updated` (api-spec#snapshots)");
    assert_eq!(own["data"]["change"], -3);
    assert_eq!(site.get("/api/data/population").status, 404, "the four of the spec stay at /api/<name>");
    problem(&site.get("/api/data/no-such-snapshot"), 404, "not_found");
    for path in ["/data", "/data/population", "/data/finance", "/data/charts", "/data/school-results", "/alerts"] {
        let page = site.get(path);
        assert_eq!(page.status, 200, "{path}");
        assert!(page.header("content-type").unwrap_or_default().starts_with("text/html"), "{path}");
    }
    for path in ["/data/alerts", "/data/weather-fallback"] {
        assert_eq!(site.get(path).status, 404, "{path}");
    }
}

#[test]
fn pageviews_is_deprecated_with_a_sunset() {
    let response = Site::new().get("/api/analytics/pageviews");
    assert_eq!(json(&response), json!({"status": "success", "data": {"pageviews": 0}}));
    assert!(response.header("deprecation").is_some_and(|d| d.starts_with('@')));
    assert_eq!(response.header("sunset"), Some("Mon, 01 Mar 2027 00:00:00 GMT"));
    assert!(response.header("link").unwrap_or_default().contains("</api/deprecation-policy>; rel=\"deprecation\""));
}

fn feature_ids(body: &Value) -> Vec<String> {
    body["features"]
        .as_array()
        .expect("features")
        .iter()
        .map(|f| f["properties"]["id"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn spatial_json_is_a_feature_collection_filtered_by_query() {
    let site = Site::new();
    let all = site.get("/api/v1/spatial.json");
    assert!(all.header("content-type").unwrap_or_default().starts_with("application/geo+json"));
    let doc = json(&all);
    assert_eq!(doc["type"], "FeatureCollection");
    let protocols: std::collections::BTreeSet<&str> = doc["features"]
        .as_array()
        .expect("features")
        .iter()
        .filter_map(|f| f["properties"]["protocol"].as_str())
        .collect();
    assert_eq!(protocols.into_iter().collect::<Vec<_>>(), ["places", "public-art", "site-register"]);
    for (query, expected) in [
        ("category=WATER", &["bh-1"][..]),
        ("zone=zone-b", &["sch-1", "mural-1", "rd-1"]),
        ("protocol=site-register", &["blk-a", "rd-1"]),
        ("zone=zone-a&category=health", &["hc-1"]),
    ] {
        let response = site.get(&format!("/api/v1/spatial.json?{query}"));
        assert_eq!(response.status, 200, "{query}");
        assert_eq!(feature_ids(&json(&response)), expected, "{query}");
    }
}

#[test]
fn a_bad_spatial_filter_lists_the_allowed_values() {
    let site = Site::new();
    for (query, word) in
        [("category=lava", "school"), ("zone=zone-z", "zone-a"), ("protocol=x", "places"), ("format=csv", "json")]
    {
        let doc = problem(&site.get(&format!("/api/v1/spatial.json?{query}")), 400, "bad_request");
        assert!(doc["detail"].as_str().unwrap_or_default().contains(word), "{query}: {doc}");
    }
}

#[test]
fn spatial_csv_has_the_same_features_and_defuses_formulas() {
    let site = Site::new();
    let response = site.get("/api/v1/spatial.csv");
    assert!(response.header("content-type").unwrap_or_default().starts_with("text/csv"));
    let csv = text(&response);
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    assert_eq!(header[..7], ["id", "name", "category", "zone", "protocol", "latitude", "longitude"]);
    let ids: Vec<&str> = lines.map(|line| line.split(',').next().unwrap_or_default()).collect();
    assert_eq!(ids, feature_ids(&json(&site.get("/api/v1/spatial.json"))));
    assert!(csv.contains("'=HYPERLINK("), "a text cell starting with = is quoted");
    let filtered = text(&site.get("/api/v1/spatial.csv?zone=zone-a&category=water"));
    assert_eq!(filtered.lines().skip(1).map(|l| l.split(',').next().unwrap_or_default()).collect::<Vec<_>>(), ["bh-1"]);
    problem(&site.get("/api/v1/spatial.csv?zone=nowhere"), 400, "bad_request");
}

#[test]
fn ogc_items_are_paged_filtered_and_found_one_by_one() {
    let site = Site::new();
    let built = json(&site.get("/api/ogc/collections/places/items"));
    let asked = json(&site.get("/api/ogc/collections/places/items?limit=2&offset=1&zone=zone-a"));
    assert_eq!((built["numberMatched"].as_u64(), built["numberReturned"].as_u64()), (Some(3), Some(3)));
    assert_eq!(feature_ids(&asked), ["hc-1"], "zone-a is bh-1 and hc-1; the page starts at the second");
    assert_eq!(asked["numberMatched"], 2);
    let road = json(&site.get("/api/ogc/collections/site-register/items?bbox=30.86,-1.32,30.87,-1.31"));
    assert_eq!(feature_ids(&road), ["rd-1"], "the road's box meets the query's, no vertex inside");
    let one = site.get("/api/ogc/collections/places/items/%62h-1");
    assert_eq!((one.status, one.header("content-type")), (200, Some("application/geo+json")));
    assert_eq!(json(&one)["id"], "bh-1");
    problem(&site.get("/api/ogc/collections/places/items/none"), 404, "not_found");
    problem(&site.get("/api/ogc/collections/places/items?bbox=1,2,3"), 400, "bad_request");
}

#[test]
fn ogc_documents_refuse_unknown_parameters_and_items_answer_datetime() {
    let site = Site::new();
    for path in ["/api/ogc", "/api/ogc/openapi", "/api/ogc/collections/places", "/api/ogc/collections/places/items"] {
        let refused = problem(&site.get(&format!("{path}?colour=red")), 400, "bad_request");
        assert!(refused["detail"].as_str().is_some_and(|d| d.contains("`colour`")), "{path}: {refused}");
    }
    assert_eq!(site.get("/api/ogc?f=json").status, 200);
    assert_eq!(site.get("/api/ogc.json?f=json").status, 200, "the file's own path answers alike");
    let dated = json(&site.get("/api/ogc/collections/site-register/items?datetime=2026-03-01/.."));
    assert_eq!(feature_ids(&dated), ["blk-a"]);
    problem(&site.get("/api/ogc/collections/site-register/items?datetime=soon"), 400, "bad_request");
    problem(&site.get("/api/ogc/collections/places/items?datetime=2026-03-01"), 400, "bad_request");
    let landing = json(&site.get("/api/ogc"));
    let described = landing["links"].as_array().and_then(|links| links.iter().find(|l| l["rel"] == "service-desc"));
    assert_eq!(described.map(|l| l["type"].clone()), Some(json!("application/vnd.oai.openapi+json;version=3.0")));
    let openapi = site.get("/api/ogc/openapi");
    assert_eq!(openapi.header("content-type"), Some("application/vnd.oai.openapi+json;version=3.0"));
    assert_eq!(json(&openapi)["openapi"], "3.0.3");
}
