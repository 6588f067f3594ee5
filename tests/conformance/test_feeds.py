"""RSS, dashboard snapshots, the deprecated pageview counter, spatial data and the upstream proxies
(docs/spec/api-spec.md#rss, #snapshots, #spatial, #upstreams)."""

import csv
import io
import ipaddress
import re
import time
from concurrent.futures import ThreadPoolExecutor

import feedparser
import pytest

import mock_upstream
import spec
from conftest import problem


def test_the_rss_feed_parses_newest_first_without_drafts(client):
    r = client.get("/api/rss")
    assert r.status_code == 200
    assert r.headers["Content-Type"] == spec.RSS
    feed = feedparser.parse(r.content)
    assert not feed.bozo, feed.bozo_exception
    assert feed.version == "rss20"
    assert feed.feed.title == "Fixture Portal news" and feed.feed.language == "en"
    assert any(link.get("rel") == "self" and link["href"].endswith("/api/rss") for link in feed.feed.links)
    assert feed.feed.updated_parsed is not None
    titles = [e.title for e in feed.entries]
    assert titles == ["Water points reopen in Zone B", "Clinic hours extended"], "rss.items: 2, newest first"
    first = feed.entries[0]
    assert first.link == "https://fixture.example.org/news/water-points-reopen"
    assert first.id == first.link and first.guidislink is False
    assert first.published_parsed[:3] == (2026, 11, 20)
    assert first.summary == "Three boreholes are back in service after repairs."
    assert [t.term for t in first.tags] == ["water", "zone-b"]
    assert "Unpublished draft" not in r.text


CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\\u00[01][0-9a-f]|\\u007f|\\u00[89][0-9a-f]", re.I)


def test_control_characters_in_content_never_reach_the_feed_or_the_record(client):
    """The fixture's water-points record writes a vertical tab, NUL, ESC and BEL into its title,
    summary, tags and body (YAML escapes and raw bytes): the feed is still XML a reader parses,
    and no answer about the record carries one (docs/content.md#control-characters)."""
    r = client.get("/api/rss")
    assert not CONTROLS.search(r.content.decode("utf-8"))
    feed = feedparser.parse(r.content)
    assert not feed.bozo, feed.bozo_exception
    first = feed.entries[0]
    assert first.title == "Water points reopen in Zone B", "a vertical tab becomes a space"
    assert [t.term for t in first.tags] == ["water", "zone-b"]
    # The page's markdown twin is the same URL asked for `text/markdown` (api-spec.md#markdown-twins).
    for path, accept in [("/api/news/water-points-reopen", "*/*"), ("/news/water-points-reopen", "*/*"),
                         ("/news/water-points-reopen", "text/markdown"), ("/api/news", "*/*"), ("/news", "*/*"),
                         ("/tags/water", "*/*")]:
        answer = client.get(path, headers={"Accept": accept})
        assert answer.status_code == 200, path
        assert not CONTROLS.search(answer.text), path
    record = client.get("/api/news/water-points-reopen").json()["data"]["news"][0]
    assert record["summary"] == "Three boreholes are back in service after repairs."
    assert "Three boreholes in **Zone B** are working again." in record["body"]


@pytest.mark.parametrize("name", ["alerts", "population", "finance", "charts"])
def test_snapshots_have_the_d7_envelope(client, name):
    body = client.get(f"/api/{name}").json()
    assert body["status"] == "success" and "data" in body and body["updatedAt"]


def test_snapshot_updated_at_comes_from_the_snapshot_or_the_build(client):
    assert client.get("/api/alerts").json()["updatedAt"] == "2026-11-20"
    assert client.get("/api/population").json()["updatedAt"] == "2026-11-01T00:00:00Z"
    assert client.get("/api/charts").json()["data"][0]["id"] == "arrivals"


def test_pageviews_is_deprecated_and_zero(client):
    r = client.get("/api/analytics/pageviews")
    assert r.json() == {"status": "success", "data": {"pageviews": 0}}
    assert r.headers["Deprecation"].startswith("@") and int(r.headers["Deprecation"][1:]) > 0
    assert r.headers["Sunset"] == "Mon, 01 Mar 2027 00:00:00 GMT"
    assert '</api/deprecation-policy>; rel="deprecation"' in r.headers["Link"]


def valid_position(p):
    return -180 <= p[0] <= 180 and -90 <= p[1] <= 90


def check_rfc7946(doc):
    assert doc["type"] == "FeatureCollection" and "crs" not in doc
    for f in doc["features"]:
        assert f["type"] == "Feature" and isinstance(f["properties"], dict)
        g = f["geometry"]
        if g["type"] == "Point":
            assert valid_position(g["coordinates"])
        elif g["type"] == "LineString":
            assert len(g["coordinates"]) >= 2 and all(valid_position(p) for p in g["coordinates"])
        elif g["type"] == "Polygon":
            for ring in g["coordinates"]:
                assert len(ring) >= 4 and ring[0] == ring[-1] and all(valid_position(p) for p in ring)
        for key in ["id", "name", "category", "zone", "protocol"]:
            assert key in f["properties"]


def test_spatial_json_is_rfc_7946_with_cors(client):
    r = client.get("/api/v1/spatial.json")
    assert r.headers["Content-Type"].startswith("application/geo+json")
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    doc = r.json()
    check_rfc7946(doc)
    assert {f["properties"]["protocol"] for f in doc["features"]} == {"places", "site-register", "public-art"}


@pytest.mark.parametrize(
    "params,ids",
    [
        ({"category": "water"}, ["bh-1"]),
        ({"category": "WATER"}, ["bh-1"]),
        ({"zone": "zone-b"}, ["sch-1", "mural-1", "rd-1"]),
        ({"protocol": "site-register"}, ["blk-a", "rd-1"]),
        ({"zone": "zone-a", "category": "health"}, ["hc-1"]),
        ({"zone": "zone-b", "protocol": "public-art", "format": "json"}, ["mural-1"]),
    ],
)
def test_spatial_filters(client, params, ids):
    r = client.get("/api/v1/spatial.json", params=params)
    assert r.status_code == 200
    doc = r.json()
    check_rfc7946(doc)
    assert [f["properties"]["id"] for f in doc["features"]] == ids


@pytest.mark.parametrize("params,word", [({"category": "lava"}, "school"), ({"zone": "zone-z"}, "zone-a"), ({"protocol": "x"}, "places"), ({"format": "csv"}, "json")])
def test_bad_spatial_filters_list_the_allowed_values(client, params, word):
    doc = problem(client.get("/api/v1/spatial.json", params=params), 400, "bad_request")
    assert word in doc["detail"]


def test_the_csv_parses_back_to_the_same_features(client):
    r = client.get("/api/v1/spatial.csv")
    assert r.headers["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    header = r.text.splitlines()[0].split(",")
    assert header[:7] == ["id", "name", "category", "zone", "protocol", "latitude", "longitude"]
    assert header[7:] == sorted(header[7:])
    features = client.get("/api/v1/spatial.json").json()["features"]
    assert [row["id"] for row in rows] == [f["properties"]["id"] for f in features]
    by_id = {row["id"]: row for row in rows}
    assert by_id["sch-1"]["name"] == "École de la Paix"
    assert (float(by_id["bh-1"]["longitude"]), float(by_id["bh-1"]["latitude"])) == (30.81, -1.31)
    assert abs(float(by_id["blk-a"]["longitude"]) - 30.81) < 1e-9 and abs(float(by_id["blk-a"]["latitude"]) + 1.29) < 1e-9
    assert by_id["bh-1"]["depth_m"] == "60" and by_id["mural-1"]["artist"] == "Amani youth"
    filtered = list(csv.DictReader(io.StringIO(client.get("/api/v1/spatial.csv", params={"zone": "zone-a", "category": "water"}).text)))
    assert [row["id"] for row in filtered] == ["bh-1"]
    problem(client.get("/api/v1/spatial.csv", params={"zone": "nowhere"}), 400, "bad_request")


def test_csv_text_cannot_run_as_a_formula_but_numbers_stay_numbers(client):
    """A text cell starting with =, +, -, @, tab or CR gets a leading ' (OWASP); coordinates do not."""
    for params in [{}, {"protocol": "public-art"}]:
        rows = {row["id"]: row for row in csv.DictReader(io.StringIO(client.get("/api/v1/spatial.csv", params=params).text))}
        assert rows["mural-1"]["caption"] == "'=HYPERLINK(\"https://evil.example\",\"details\")"
        assert float(rows["mural-1"]["latitude"]) == -1.3
        for row in rows.values():
            for cell in row.values():
                assert not cell or cell[0] not in "=+@\t\r", row
                assert not cell.startswith("-") or float(cell) < 0, row


def test_weather_from_the_upstream(client, upstream_mode):
    upstream_mode("weather", "ok")
    body = client.get("/api/weather").json()
    assert body["source"] == "upstream" and body["status"] == "success"
    assert body["current"]["temperature_2m"] == 24.5
    assert body["daily"][1] == {"date": "2026-11-23", "temperature_2m_max": 30.5, "temperature_2m_min": 18.2}
    assert body["location"]["latitude"] == -1.3


@pytest.mark.parametrize("mode", ["fail", "hang", "garbage"])
def test_weather_falls_back_to_the_season_within_the_timeout(client, upstream_mode, mode):
    upstream_mode("weather", mode)
    started = time.monotonic()
    body = client.get("/api/weather").json()
    assert time.monotonic() - started < 2.5, "the 500 ms timeout bounds the wait"
    assert body["source"] == "fallback"
    month = time.gmtime().tm_mon
    assert body["summary"].startswith(f"Month {month} ")
    assert body["location"]["name"] == "Fixture settlement"


def test_weather_alerts_from_a_cap_feed(client, upstream_mode):
    upstream_mode("alerts", "ok")
    body = client.get("/api/weather-alerts").json()
    assert body["source"] == "upstream" and body["updatedAt"]
    first, second = body["data"]["alerts"]
    assert first == {"title": "Heavy rain & flooding", "link": "https://alerts.example.org/1", "published": "Sun, 22 Nov 2026 06:00:00 GMT",
                     "severity": "Severe", "urgency": "Expected", "event": "Flood", "areas": ["Zone A", "Zone B"]}
    assert second["severity"] == "Moderate" and second["areas"] == []


@pytest.mark.parametrize("mode", ["fail", "hang", "garbage", "big", "big-unsized"])
def test_a_failing_alert_feed_is_503_naming_the_feed_by_its_role(client, upstream_mode, mode):
    upstream_mode("alerts", mode)
    doc = problem(client.get("/api/weather-alerts"), 503, "upstream_unavailable")
    assert "weather-alert feed" in doc["detail"]
    assert "127.0.0.1" not in doc["detail"] and "http" not in doc["detail"], doc["detail"]


def test_alert_requests_at_the_same_time_share_one_fetch(new_client, upstream, upstream_mode, target):
    if target != "native":
        pytest.skip("the Workers runtime cancels a request that waits on another's fetch (see SECURITY.md)")
    upstream_mode("alerts", "slow")
    upstream.SEEN.clear()
    clients = [new_client() for _ in range(6)]
    with ThreadPoolExecutor(len(clients)) as pool:
        answers = list(pool.map(lambda c: c.get("/api/weather-alerts"), clients))
    assert [r.status_code for r in answers] == [200] * len(clients)
    assert [path for path in upstream.SEEN if path.startswith("/alerts")] == ["/alerts"]


def test_geolocation_is_coarse(client, upstream_mode, target):
    upstream_mode("geo", "ok")
    body = client.get("/api/geolocation").json()
    assert body["status"] == "success"
    data = body["data"]
    assert set(data) == {"country", "region", "city", "latitude", "longitude"}
    for key in ["latitude", "longitude"]:
        assert data[key] is None or round(data[key], 1) == data[key]
    if target == "native":
        assert body["source"] == "upstream"
        assert data == {"country": "Uganda", "region": "Western", "city": "Fixture", "latitude": -1.3, "longitude": 30.8}
    else:
        assert body["source"] == "edge"


def test_geolocation_unavailable_is_503_natively(client, upstream_mode, target):
    if target != "native":
        pytest.skip("on the edge the location comes from the platform, not the upstream")
    upstream_mode("geo", "fail")
    problem(client.get("/api/geolocation"), 503, "upstream_unavailable")


def test_the_client_address_is_passed_to_the_geolocation_upstream(client, upstream, target):
    if target != "native":
        pytest.skip("native only")
    client.get("/api/geolocation")
    assert upstream.SEEN[-1] == f"/geo/{client.address}"


def test_a_location_is_private_to_its_caller(client, upstream_mode):
    upstream_mode("geo", "ok")
    r = client.get("/api/geolocation")
    assert r.status_code == 200
    assert r.headers["Cache-Control"] == "private, no-store"
    varies = {name.strip().lower() for name in r.headers["Vary"].split(",")}
    assert {"x-forwarded-for", "x-real-ip", "cf-connecting-ip"} <= varies


def test_only_an_ip_address_is_ever_sent_to_the_geolocation_upstream(client, upstream, target):
    if target != "native":
        pytest.skip("on the edge the location comes from the platform, not the upstream")
    upstream.SEEN.clear()
    r = client.get("/api/geolocation", headers={"X-Forwarded-For": "garbage-1"})
    lookups = [path.removeprefix("/geo/") for path in upstream.SEEN if path.startswith("/geo/")]
    assert all(ipaddress.ip_address(address) for address in lookups), lookups
    if not lookups:
        problem(r, 503, "upstream_unavailable")


@pytest.mark.parametrize("mode", ["redirect", "redirect-307"])
def test_an_upstream_redirect_is_not_followed(client, upstream, upstream_mode, target, mode):
    """A 3xx from an upstream is a failure with the endpoint's fallback; what it points at (here
    an internal service on loopback) is never asked, and its body never reaches a client."""
    for endpoint in ["weather", "alerts", "geo"]:
        upstream_mode(endpoint, mode)
    upstream.SEEN.clear()
    weather = client.get("/api/weather")
    assert weather.status_code == 200 and weather.json()["source"] == "fallback", weather.text
    alerts = client.get("/api/weather-alerts")
    problem(alerts, 503, "upstream_unavailable")
    geo = client.get("/api/geolocation")
    if target == "native":
        problem(geo, 503, "upstream_unavailable")
    page = client.get("/weather")
    assert page.status_code == 200
    for answer in [weather, alerts, geo, page]:
        assert mock_upstream.SECRET not in answer.text, answer.request.url
    assert not [path for path in upstream.SEEN if path.startswith("/internal")], upstream.SEEN


def test_alert_links_other_than_web_addresses_never_reach_clients(client, upstream_mode):
    upstream_mode("alerts", "hostile")
    r = client.get("/api/weather-alerts")
    assert r.status_code == 200
    links = [alert["link"] for alert in r.json()["data"]["alerts"]]
    assert links == [None, None, "https://alerts.example.org/3"]
    page = client.get("/weather").text
    assert "javascript:" not in page and "data:text" not in page


def test_features_carry_their_id_and_csv_numbers_print_plainly(client):
    features = client.get("/api/v1/spatial.json").json()["features"]
    assert all(f["id"] == f["properties"]["id"] for f in features)
    for row in client.get("/api/v1/spatial.csv").text.splitlines()[1:]:
        for cell in row.split(",")[5:7]:
            assert len(cell.split(".")[-1]) <= 7, row
