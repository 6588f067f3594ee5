"""The data pages and the alerts page (docs/content.md#data-pages), checked against the fixture's
own numbers (fixtures/site/data/): `/data` lists each snapshot with its headline figures,
`/data/<name>` draws each part as an inline SVG chart with the same numbers in a table, `/alerts`
lists current alerts first and marks ended ones; the home page shows current high alerts first.
Each page has a markdown twin and is in the sitemap and the navigation."""

import re
import xml.etree.ElementTree as ET

import pytest


def page(client, path):
    r = client.get(path)
    assert r.status_code == 200, (path, r.status_code)
    assert r.headers["Content-Type"].startswith("text/html")
    return r.text


def main_of(text):
    return re.search(r"<main[^>]*>(.*)</main>", text, re.S).group(1)


def section(text, heading):
    """The `<section>` whose `<h2>` is `heading`."""
    for part in re.findall(r"<section[^>]*>(.*?)</section>", text, re.S):
        if re.search(rf"<h2[^>]*>{re.escape(heading)}</h2>", part):
            return part
    raise AssertionError(f"no section {heading!r}")


def test_the_index_lists_each_snapshot_with_its_headline_figures_and_date(client):
    main = main_of(page(client, "/data"))
    for name in ["population", "finance", "charts"]:
        assert f'href="data/{name}.html"' in main or f'href="/data/{name}"' in main, name
    assert "41,250" in main, "the population's headline total"
    assert "12,000,000" in main and "4,800,000" in main, "the finance figures"
    assert 'datetime="2026-11-01T00:00:00Z"' in main and "1 November 2026" in main
    assert "alerts" not in re.findall(r'href="[^"]*data/([^".]+)', main)
    assert "weather-fallback" not in main


def test_population_has_its_total_and_a_table_row_and_a_bar_per_nationality(client):
    text = page(client, "/data/population")
    main = main_of(text)
    assert "<h1>Population</h1>" in main
    assert "41,250" in main
    part = section(main, "By nationality")
    svg = re.search(r"<svg[^>]*>.*?</svg>", part, re.S).group(0)
    assert 'role="img"' in svg and "<title" in svg and "<desc" in svg
    assert len(re.findall(r'<rect class="bar', svg)) == 3
    rows = re.findall(r"<tr><th scope=\"row\">(\w+)</th><td class=\"num\"[^>]*>([\d,]+)</td></tr>", part)
    assert rows == [("SS", "21,000"), ("CD", "12,000"), ("BI", "8,250")]
    assert 'href="/api/population"' in main or 'href="api/population.json"' in main or "api/population" in main


def test_charts_draw_a_bar_per_point_with_the_same_numbers_in_the_table(client):
    part = section(main_of(page(client, "/data/charts")), "Arrivals")
    svg = re.search(r"<svg[^>]*>.*?</svg>", part, re.S).group(0)
    bars = re.findall(r'<rect class="bar[^"]*"[^>]*><title>([^<]*)</title>', svg)
    assert bars == ["Jul: 310", "Aug: 420", "Sep: 380"]
    cells = re.findall(r'<td class="num"[^>]*>([\d,]+)</td>', part)
    assert cells == ["310", "420", "380"]


def test_finance_figures_are_headlines(client):
    main = main_of(page(client, "/data/finance"))
    # The unit comes from the key (docs/content.md#units) and is written with the number.
    assert re.search(r"<dt>Required usd</dt><dd>(<span[^>]*>)?USD 12,000,000(</span>)?</dd>", main)
    assert re.search(r"<dt>Funded usd</dt><dd>(<span[^>]*>)?USD 4,800,000(</span>)?</dd>", main)


def test_each_data_page_has_a_markdown_twin_with_its_numbers(client):
    r = client.get("/data/population", headers={"Accept": "text/markdown"})
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/markdown")
    assert "# Population" in r.text and "41,250" in r.text
    assert "| SS | 21,000 |" in r.text
    index = client.get("/data", headers={"Accept": "text/markdown"}).text
    assert "41,250" in index and "data/population" in index


def test_alerts_come_current_first_and_ended_ones_are_marked(client):
    main = main_of(page(client, "/alerts"))
    current, ended = main.index("Cholera vaccination campaign"), main.index("Flood warning for the low crossing")
    assert current < ended, "current alerts come first"
    flood = re.search(r'<li class="alert ended[^"]*" id="alert-flood-warning-2026-08">(.*?)</li>', main, re.S)
    assert flood, "the ended alert is marked"
    assert "Ended" in flood.group(1)
    assert "31 August 2026" in flood.group(1)
    cholera = re.search(r'<li class="alert( high)?">(.*?)</li>', main, re.S)
    assert cholera and "Cholera" in cholera.group(2) and "Ended" not in cholera.group(2)
    twin = client.get("/alerts", headers={"Accept": "text/markdown"}).text
    assert "(Ended) **severe**" in twin and "Cholera" in twin


def test_the_home_page_shows_current_high_alerts_above_everything_else(client):
    main = main_of(page(client, "/"))
    banner = re.search(r'<aside class="alert-banner"[^>]*>(.*?)</aside>', main, re.S)
    assert banner and main.index(banner.group(0)) < main.index("<h1>")
    assert "Cholera vaccination campaign" in banner.group(1)
    assert "Flood warning" not in banner.group(1), "an ended alert is not on the home page"


def test_data_pages_are_in_the_sitemap_and_the_navigation(client):
    sitemap = client.get("/sitemap.xml")
    locs = [e.text for e in ET.fromstring(sitemap.content).iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    for path in ["/data", "/data/population", "/data/finance", "/data/charts", "/alerts"]:
        assert f"https://fixture.example.org{path}" in locs, path
    nav = re.search(r"<nav[^>]*>(.*?)</nav>", page(client, "/news"), re.S).group(1)
    assert ">Data</a>" in nav and ">Alerts</a>" in nav


@pytest.mark.parametrize("path", ["/data/alerts", "/data/weather-fallback", "/data/nothing"])
def test_no_chart_page_for_the_alerts_the_weather_fallback_or_a_missing_snapshot(client, path):
    assert client.get(path).status_code == 404


def test_a_snapshot_of_the_sites_own_gets_a_page_and_json_and_its_text_stays_text(client):
    """fixtures/site/data/school-results.yaml: hostile text, a negative number, zero, a huge
    number, a list of text with "NaN", nested maps."""
    text = page(client, "/data/school-results")
    assert "<script>alert(1)" not in text and "&lt;script&gt;alert(1)&lt;&#x2F;script&gt;" in text or \
        "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "<b>Umoja</b>" not in text and "&lt;b&gt;Umoja&lt;/b&gt; Secondary" in text
    main = main_of(text)
    assert re.search(r"<dt>Change</dt><dd>(<span[^>]*>)?-3(</span>)?</dd>", main)
    assert re.search(r"<dt>Pass rate</dt><dd>(<span[^>]*>)?0.82(</span>)?</dd>", main)
    part = section(main, "By school")
    assert len(re.findall(r"<rect class=\"bar", part)) == 4, "a bar per school and series, a zero one too"
    assert "1e300" in section(main, "Single")
    notes = section(main, "Notes")
    assert "NaN" in notes and "Term 2 results" in notes
    assert "Amina" in main
    body = client.get("/api/data/school-results")
    assert body.status_code == 200 and body.json()["data"]["change"] == -3
    assert body.json()["updatedAt"] == "2026-07-15" or body.json()["updatedAt"]
    assert 'api/data/school-results' in main
