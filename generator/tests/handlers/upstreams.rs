//! The upstream proxies (docs/spec/api-spec.md#weather, #weather-alerts, #geolocation) over
//! scripted answers: the fixture's `site.yaml` names the loopback mock of tests/mock_upstream.py,
//! whose URLs are scripted here instead. A URL with no script is a network failure.

use serde_json::json;

use crate::{json, problem, text, Site, PEER};

const WEATHER: &str = "http://127.0.0.1:18931/weather";
const ALERTS: &str = "http://127.0.0.1:18931/alerts";
const GEO: &str = "http://127.0.0.1:18931/geo/";

const CAP: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2"><channel><title>Alerts</title>
<item><title>Heavy rain &amp; flooding</title><link>https://alerts.example.org/1</link><pubDate>Sun, 22 Nov 2026 06:00:00 GMT</pubDate>
<cap:event>Flood</cap:event><cap:severity>Severe</cap:severity><cap:urgency>Expected</cap:urgency><cap:areaDesc>Zone A; Zone B</cap:areaDesc></item>
<item><title>Heat advisory</title><link>https://alerts.example.org/2</link><cap:severity>Moderate</cap:severity></item>
</channel></rss>"#;

#[test]
fn weather_comes_from_the_upstream() {
    let site = Site::new();
    let forecast = json!({
        "latitude": -1.3, "longitude": 30.8, "timezone": "Africa/Kampala",
        "current": {"time": "2026-11-22T10:00", "temperature_2m": 24.5, "precipitation": 0.0},
        "daily": {"time": ["2026-11-22", "2026-11-23"], "temperature_2m_max": [29.0, 30.5], "temperature_2m_min": [17.0, 18.2]},
    });
    site.platform.with_upstream_now(WEATHER, 200, forecast.to_string());
    let body = json(&site.get("/api/weather"));
    assert_eq!((body["status"].as_str(), body["source"].as_str()), (Some("success"), Some("upstream")));
    assert_eq!(body["current"]["temperature_2m"], 24.5);
    assert_eq!(body["daily"][1], json!({"date": "2026-11-23", "temperature_2m_max": 30.5, "temperature_2m_min": 18.2}));
    let fetched = site.platform.fetched.borrow();
    assert_eq!(fetched.len(), 1);
    assert!(fetched[0].url.starts_with(WEATHER), "{}", fetched[0].url);
}

#[test]
fn failing_weather_falls_back_to_the_season() {
    for (status, body) in [(500, "down"), (200, "<html>not what you expected")] {
        let site = Site::new();
        site.platform.with_upstream_now(WEATHER, status, body);
        let response = site.get("/api/weather");
        assert_eq!(response.status, 200, "{status}");
        let answer = json(&response);
        assert_eq!(answer["source"], "fallback");
        assert!(answer["summary"].as_str().unwrap_or_default().starts_with("Month 9 "), "the fake clock's month");
        assert_eq!(answer["location"]["name"], "Fixture settlement");
    }
    let unscripted = Site::new();
    assert_eq!(json(&unscripted.get("/api/weather"))["source"], "fallback", "a network failure too");
}

#[test]
fn weather_alerts_are_read_from_a_cap_feed() {
    let site = Site::new();
    site.platform.with_upstream_now(ALERTS, 200, CAP);
    let body = json(&site.get("/api/weather-alerts"));
    assert_eq!(body["source"], "upstream");
    let alerts = body["data"]["alerts"].as_array().expect("alerts");
    assert_eq!(
        alerts[0],
        json!({"title": "Heavy rain & flooding", "link": "https://alerts.example.org/1",
               "published": "Sun, 22 Nov 2026 06:00:00 GMT", "severity": "Severe", "urgency": "Expected",
               "event": "Flood", "areas": ["Zone A", "Zone B"]})
    );
    assert_eq!((alerts[1]["severity"].as_str(), alerts[1]["areas"].clone()), (Some("Moderate"), json!([])));
}

#[test]
fn a_failing_alert_feed_is_503_naming_the_feed_by_its_role_only() {
    let failing: [Option<(u16, &str)>; 3] = [Some((500, "down")), Some((200, "<html>not a feed")), None];
    for script in failing {
        let site = Site::new();
        if let Some((status, body)) = script {
            site.platform.with_upstream_now(ALERTS, status, body);
        }
        let doc = problem(&site.get("/api/weather-alerts"), 503, "upstream_unavailable");
        let detail = doc["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("weather-alert feed"), "{detail}");
        assert!(!detail.contains("127.0.0.1") && !detail.contains("http"), "{detail}");
        assert!(site.platform.reports.borrow().is_empty(), "an upstream failure is no internal error");
    }
}

#[test]
fn geolocation_asks_for_the_peer_and_answers_coarsely_and_privately() {
    let site = Site::new();
    let geo = json!({"country_name": "Uganda", "region": "Western", "city": "Fixture", "latitude": -1.3456, "longitude": 30.8123});
    site.platform.with_upstream_now(&format!("{GEO}{PEER}"), 200, geo.to_string());
    let response = site.get("/api/geolocation");
    assert_eq!(response.status, 200);
    assert_eq!(response.header("cache-control"), Some("private, no-store"));
    let body = json(&response);
    assert_eq!(body["source"], "upstream");
    assert_eq!(
        body["data"],
        json!({"country": "Uganda", "region": "Western", "city": "Fixture", "latitude": -1.3, "longitude": 30.8})
    );
}

#[test]
fn geolocation_unavailable_is_503() {
    let site = Site::new();
    site.platform.with_upstream_now(&format!("{GEO}{PEER}"), 500, "down");
    problem(&site.get("/api/geolocation"), 503, "upstream_unavailable");
}

#[test]
fn the_weather_page_says_it_shows_the_season_and_survives_a_failing_alert_feed() {
    let site = Site::new();
    site.platform.with_upstream_now(WEATHER, 500, "down");
    site.platform.with_upstream_now(ALERTS, 500, "down");
    let response = site.get("/weather");
    assert_eq!(response.status, 200);
    let page = text(&response);
    assert!(page.contains("The live forecast is unavailable right now"), "{page}");
    assert!(page.contains("Month 9 "), "the season's summary: {page}");
    assert!(page.contains("weather-alert feed cannot be reached"), "{page}");
    assert!(!page.contains("127.0.0.1"), "no upstream's URL on the page");
}

#[test]
fn the_weather_page_draws_the_upstream_forecast_and_lists_the_alerts() {
    let site = Site::new();
    let forecast = json!({"current": {"time": "2026-11-22T10:00", "temperature_2m": 24.5},
        "daily": {"time": ["2026-11-22", "2026-11-23"], "temperature_2m_max": [29.0, 30.5], "temperature_2m_min": [17.0, 18.2],
                  "precipitation_sum": [3.0, 0.0]}});
    site.platform.with_upstream_now(WEATHER, 200, forecast.to_string());
    site.platform.with_upstream_now(ALERTS, 200, CAP);
    let page = text(&site.get("/weather"));
    assert!(page.contains("<svg class=\"weather-chart\"") && page.contains("<td>30.5</td>"), "{page}");
    assert!(page.contains("Heavy rain &amp; flooding") && !page.contains("The live forecast is unavailable"), "{page}");
}

#[test]
fn an_upstream_redirect_is_a_failure_with_each_endpoints_fallback() {
    let site = Site::new();
    for url in [WEATHER.to_string(), ALERTS.to_string(), format!("{GEO}{PEER}")] {
        site.platform.with_upstream_now(&url, 302, "");
    }
    assert_eq!(json(&site.get("/api/weather"))["source"], "fallback");
    problem(&site.get("/api/weather-alerts"), 503, "upstream_unavailable");
    problem(&site.get("/api/geolocation"), 503, "upstream_unavailable");
}

#[test]
fn the_weather_page_draws_a_finite_chart_whatever_figures_the_upstream_sends() {
    let site = Site::new();
    let forecast = r#"{"current": {"time": "2026-11-22T10:00", "temperature_2m": 1e308},
        "daily": {"time": ["2026-11-22", "2026-11-23", "2026-11-24"], "temperature_2m_max": [1e308, 30.5, "NaN"],
                  "temperature_2m_min": [-1e308, 18.2, 17.0], "precipitation_sum": [1e308, 3.0, -1e308]}}"#;
    site.platform.with_upstream_now(WEATHER, 200, forecast);
    let response = site.get("/weather");
    assert_eq!(response.status, 200);
    let page = text(&response);
    let start = page.find("<svg class=\"weather-chart\"").expect("a chart");
    let svg = &page[start..start + page[start..].find("</svg>").expect("its end")];
    assert!(svg.contains(">30.5°</text>") && svg.contains(">17°</text>") && svg.contains(">3 mm</text>"), "{svg}");
    assert!(!svg.contains("00000000") && !svg.contains("inf") && !svg.contains("NaN"), "{svg}");
}

#[test]
fn alert_links_other_than_web_addresses_never_reach_clients() {
    let site = Site::new();
    let feed = r#"<rss version="2.0"><channel><title>Alerts</title>
        <item><title>Script</title><link>javascript:alert(document.domain)</link></item>
        <item><title>Data</title><link>data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==</link></item>
        <item><title>Web</title><link>https://alerts.example.org/3</link></item>
        </channel></rss>"#;
    site.platform.with_upstream_now(ALERTS, 200, feed);
    let body = json(&site.get("/api/weather-alerts"));
    let links: Vec<serde_json::Value> =
        body["data"]["alerts"].as_array().expect("alerts").iter().map(|a| a["link"].clone()).collect();
    assert_eq!(links, [json!(null), json!(null), json!("https://alerts.example.org/3")]);
    let page = text(&site.get("/weather"));
    assert!(!page.contains("javascript:") && !page.contains("data:text"), "{page}");
}
