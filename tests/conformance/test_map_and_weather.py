"""The map of places, a page per place and the weather page (docs/spec/api-spec.md#map-pages,
#weather-page), on both servers: the fixture's places (fixtures/site/spatial/) each listed on /map
and on a page of their own, the category and zone filters as plain pages, and a weather page that
says so when it shows the seasonal fallback and never fails because an upstream does."""

import json
import re

import pytest

# Every feature of fixtures/site/spatial/: (id, name, category).
PLACES = [
    ("bh-1", "Borehole 1", "water"),
    ("sch-1", "École de la Paix", "school"),
    ("hc-1", "Health centre", "health"),
    ("mural-1", "Unity mural", "mural"),
    ("blk-a", "Block A", "shelter"),
    ("rd-1", "Main road", "road"),
]


def html_text(html):
    """The text of a page's HTML, entities decoded enough for names with accents."""
    import html as entities  # noqa: PLC0415

    return entities.unescape(html)


def test_the_map_lists_every_place_by_category_with_a_drawing(client):
    r = client.get("/map")
    assert r.status_code == 200 and r.headers["Content-Type"] == "text/html; charset=utf-8"
    page = html_text(r.text)
    # Its markers are links, so the drawing is a group of them rather than an image.
    assert '<svg class="map"' in page and 'role="group"' in page
    for place_id, name, _ in PLACES[:4]:  # the points; a shelter block and a road have no marker
        assert re.search(rf'<a href="[^"]*places/{place_id}(\.html)?" aria-label="{re.escape(name)}">', page), place_id
    assert "<script>" not in page.split("</main>")[0].split("<main")[1]
    for place_id, name, category in PLACES:
        assert re.search(rf'href="[^"]*places/{place_id}(\.html)?">{re.escape(name)}</a>', page), place_id
        assert re.search(rf'href="[^"]*map/category/{category}(\.html)?"', page), category
    assert re.search(r'<link rel="alternate" type="application/geo\+json" title="places" href="[^"]*api/ogc/collections/places/items', page)


@pytest.mark.parametrize(("place_id", "name", "category"), PLACES)
def test_every_place_has_a_page_with_its_properties_and_map_links(client, place_id, name, category):
    r = client.get(f"/places/{place_id}")
    assert r.status_code == 200
    page = html_text(r.text)
    assert f"<h1>{name}</h1>" in page
    assert re.search(rf'<th scope="row">Category</th><td dir="auto">{category}</td>', page)
    assert re.search(r'href="geo:-?\d+(\.\d+)?,-?\d+(\.\d+)?"', page), "a geo: link phones open"
    assert "https://www.openstreetmap.org/?mlat=" in page
    assert re.search(rf'href="[^"]*map/category/{category}(\.html)?"', page)


def test_a_place_opens_at_its_point_on_a_phone(client):
    page = client.get("/places/bh-1").text
    assert 'href="geo:-1.31,30.81"' in page
    assert "mlat=-1.31&amp;mlon=30.81" in page


def test_a_place_has_a_markdown_twin_with_every_property(client):
    r = client.get("/places/mural-1", headers={"Accept": "text/markdown"})
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/markdown")
    assert r.text.startswith("# Unity mural\n")
    assert "| Artist | Amani youth |" in r.text
    assert "`geo:-1.3,30.82`" in r.text


def test_a_category_filter_is_a_page_of_that_category_only(client):
    r = client.get("/map/category/water")
    assert r.status_code == 200
    page = html_text(r.text)
    assert "Borehole 1" in page and "École de la Paix" not in page
    assert re.search(r'href="[^"]*api/ogc/collections/places/items(\.json)?\?category=water"', page)
    assert client.get("/map/category/lava").status_code == 404


def test_a_zone_filter_is_a_page_of_that_zone_only(client):
    page = html_text(client.get("/map/zone/zone-b").text)
    assert "École de la Paix" in page and "Main road" in page and "Borehole 1" not in page
    assert 'aria-current="page"' in page


def test_the_map_pages_are_in_the_sitemap(client):
    sitemap = client.get("/sitemap.xml").text
    for path in ["/map", "/map/category/water", "/map/zone/zone-a", "/places/bh-1", "/weather"]:
        assert f"{path}</loc>" in sitemap, path


def test_the_weather_page_shows_the_upstream_forecast_as_a_chart_and_a_table(client, upstream_mode):
    upstream_mode("weather", "ok")
    upstream_mode("alerts", "ok")
    r = client.get("/weather")
    assert r.status_code == 200 and r.headers["Content-Type"] == "text/html; charset=utf-8"
    page = html_text(r.text)
    assert '<svg class="weather-chart"' in page and "<table>" in page
    assert '<time datetime="2026-11-23">' in page and "<td>30.5</td>" in page
    assert "usual weather" not in page.lower()
    assert "Heavy rain & flooding" in page and "Severe" in page


def test_the_weather_page_draws_a_finite_chart_whatever_figures_the_upstream_sends(client, upstream_mode):
    upstream_mode("weather", "absurd")
    r = client.get("/weather")
    assert r.status_code == 200
    svg = re.search(r'<svg class="weather-chart".*?</svg>', r.text, re.S)
    assert svg, "a chart of the plausible figures"
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?", svg.group(0))]
    assert numbers and all(abs(n) <= 1000 for n in numbers), svg.group(0)
    assert "30.5°" in svg.group(0) and "17°" in svg.group(0) and "3 mm" in svg.group(0)


@pytest.mark.parametrize("mode", ["fail", "garbage"])
def test_the_weather_page_says_when_it_shows_the_seasonal_fallback(client, upstream_mode, mode):
    upstream_mode("weather", mode)
    r = client.get("/weather")
    assert r.status_code == 200
    page = html_text(r.text)
    assert "The live forecast is unavailable right now" in page
    assert "usual weather for this month" in page
    assert "is usually dry" in page or "Month" in page


def test_a_failing_alert_feed_is_a_sentence_on_the_weather_page_not_an_error(client, upstream_mode):
    upstream_mode("weather", "fail")
    upstream_mode("alerts", "fail")
    r = client.get("/weather")
    assert r.status_code == 200
    page = html_text(r.text)
    assert "weather-alert feed cannot be reached" in page
    assert "127.0.0.1" not in page


def test_the_weather_page_has_a_markdown_twin(client, upstream_mode):
    upstream_mode("weather", "fail")
    r = client.get("/weather", headers={"Accept": "text/markdown"})
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/markdown")
    assert r.text.startswith("# Weather\n") and "> The live forecast is unavailable" in r.text



def test_llms_txt_points_people_at_the_map_and_the_weather(client):
    text = client.get("/llms.txt").text
    assert re.search(r"^- \[Map\]\(https?://[^)]+/map\)", text, flags=re.M)
    assert re.search(r"^- \[Weather\]\(https?://[^)]+/weather\)", text, flags=re.M)
