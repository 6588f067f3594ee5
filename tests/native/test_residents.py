"""What a resident reads on pages of content the theme was never written against
(docs/content.md#facts): numbers to call are `tel:` links wherever they are written (an alert, a
place's properties, a record's facts, a body), and nothing else is; raw values read as words
(zones by name, languages by name, yes and no in the interface language, units from the key); a
table of three columns says each cell's column so it can stack on a phone; hostile text stays
text. The test writes its own site (`portal init` plus records, alerts and places with keys the
sample site does not use), builds it and asks `portal serve` for its pages."""

import json
import re
import subprocess
import tempfile
from pathlib import Path

import pytest
import requests

import servers

SITE_YAML = """
timezone: "+03:00"
labels:
  north-bank: North bank
"""
ALERTS = """
updated: 2026-11-20
items:
  - title: Water cut in block-7
    severity: severe
    zones: [north-bank, block-7]
    summary: "Call the water desk on 0800 100 200 or +254 711 000 222, not 2026-11-20 or USD 12,500,000. <script>alert(1)</script>"
"""
SNAPSHOT = """
title: Response plan
currency: EUR
appeal: 2500000
coverage_pct: 61.5
households:
  people: 48000
  families: 11900
  average_family_size: 4.1
clinics:
  - name: Riverside
    budget: 120000
    spent: 80000
    share_percent: 66.7
  - name: Hilltop
    budget: 90000
    spent: 30000
    share_percent: 33.3
"""
PLACES = {
    "type": "FeatureCollection",
    "features": [{
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [36.8, -1.29]},
        "properties": {"id": "clinic-9", "name": "Riverside clinic", "category": "health", "zone": "block-7",
                       "hotline": "Ring 0722 000 333 at night", "open_24h": False, "languages": ["so", "am"],
                       "leaflet_kb": 95, "code": "B-12", "note": "<img src=x onerror=alert(1)>"},
    }, {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [36.81, -1.295]},
        "properties": {"id": "tap-3", "name": "Tap 3", "category": "aa-water-tap"},
    }, {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [36.805, -1.30]},
        "properties": {"id": "hall-1", "name": "Hall", "category": "community"},
    }],
}
RECORDS = {
    "news/water-desk-opens.md": """---
title: The water desk opens
date: 2026-11-20
---
## Hours

The desk opens **08:00** & closes at [five](/alerts). <span>Bring</span> your card.

""" + "More to say. " * 80,
    "services/tap-care.md": """---
title: Tap care
summary: Repairs of the taps.
location: {latitude: -1.2951, longitude: 36.8101}
---
Report a broken tap.
""",
    "services/riverside-clinic.md": """---
title: Riverside clinic
summary: Care day and night.
sms_line: "0722 000 444"
spatial_id: clinic-9
on_call: true
spoken_languages: [ti, fr]
home_zone: north-bank
---
## Numbers

| | Number | Hours |
|---|---|---|
| Night nurse | 0722 000 333 | 18:00-06:00 |
""",
}


@pytest.fixture(scope="module")
def written_site():
    root = Path(tempfile.mkdtemp(prefix="residents-native-", dir=servers.ROOT / "target"))
    run = lambda *args: subprocess.run([str(servers.PORTAL), *args], cwd=root, check=True, capture_output=True)  # noqa: E731
    run("init", ".")
    content = root / "content"
    site = (content / "site.yaml").read_text(encoding="utf-8")
    site = re.sub(r"(?m)^base_url: .*$", "base_url: https://residents.test", site) + SITE_YAML
    (content / "site.yaml").write_text(site, encoding="utf-8")
    (content / "data").mkdir(exist_ok=True)
    (content / "data" / "alerts.yaml").write_text(ALERTS, encoding="utf-8")
    (content / "data" / "plan.yaml").write_text(SNAPSHOT, encoding="utf-8")
    (content / "spatial").mkdir(exist_ok=True)
    (content / "spatial" / "clinics.geojson").write_text(json.dumps(PLACES), encoding="utf-8")
    for name, text in RECORDS.items():
        (content / name).parent.mkdir(parents=True, exist_ok=True)
        (content / name).write_text(text, encoding="utf-8")
    run("build", "--content", "content", "--out", "dist")
    server = servers.start_portal(["serve", "--dist", str(root / "dist"), "--port", "0", "--rate-limit", "1000000",
                                   "--state", str(root / "state")], env={"PORTAL_SMTP_URL": ""})
    yield server.base_url
    server.stop()


def page(base_url, path):
    answer = requests.get(base_url + path, timeout=30)
    assert answer.status_code == 200, (path, answer.status_code)
    return answer.text


def tel_links(html):
    return re.findall(r'<a dir="ltr" href="(tel:[^"]*)">([^<]*)</a>', html)


def rows(html):
    body = re.search(r"<tbody>(.*?)</tbody>", html, re.S).group(1)
    return dict(re.findall(r'<th scope="row">(.*?)</th><td dir="auto">(.*?)</td>', body, re.S))


def test_numbers_in_alerts_can_be_tapped_on_the_alerts_page_and_the_home_page(written_site):
    for path in ["/alerts", "/"]:
        html = page(written_site, path)
        assert tel_links(html) == [("tel:0800100200", "0800 100 200"), ("tel:+254711000222", "+254 711 000 222")], path
        assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)" in html, path
    twin = requests.get(written_site + "/alerts", headers={"Accept": "text/markdown"}, timeout=30).text
    assert "[0800 100 200](tel:0800100200)" in twin


def test_alerts_name_their_zones(written_site):
    html = page(written_site, "/alerts")
    assert "North bank, Block 7" in html and "north-bank" not in html


def test_a_places_properties_read_in_words_and_its_numbers_can_be_tapped(written_site):
    html = page(written_site, "/places/clinic-9")
    shown = rows(html)
    assert shown["Hotline"] == 'Ring <a dir="ltr" href="tel:0722000333">0722 000 333</a> at night'
    assert shown["Open 24h"] == "no"
    assert shown["Zone"] == "Block 7"
    assert shown["Languages"] == "Somali, Amharic"
    assert shown["Leaflet"] == "95 KB"
    assert shown["Code"] == '<span class="nowrap">B-12</span>', "a code is never a number to call, and keeps to one line"
    assert "<img" not in shown["Note"] and "&lt;img" in shown["Note"]
    assert "Name" not in shown, "the name is the heading"


def test_a_records_facts_read_in_words(written_site):
    html = page(written_site, "/services/riverside-clinic")
    facts = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", re.search(r'<dl class="facts">(.*?)</dl>', html, re.S).group(1)))
    assert facts["Sms line"] == '<a dir="ltr" href="tel:0722000444">0722 000 444</a>'
    assert facts["On call"] == "yes"
    assert facts["Spoken languages"] == "Tigrinya, French"
    assert facts["Home zone"] == "North bank"


def test_a_table_of_three_columns_labels_its_cells_to_stack_on_a_phone(written_site):
    html = page(written_site, "/services/riverside-clinic")
    assert '<table class="stack">' in html
    assert '<td data-label="Number" dir="auto"><a dir="ltr" href="tel:0722000333">0722 000 333</a></td>' in html
    assert '<td data-label="Hours" dir="auto">18:00-06:00</td>' in html


def test_json_ld_describes_a_record_in_plain_text_never_its_raw_body(written_site):
    html = page(written_site, "/news/water-desk-opens")
    data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S).group(1))
    text = data["description"]
    assert text.startswith("Hours The desk opens 08:00 & closes at five. Bring your card."), text
    assert not re.search(r"[<>*#\[\]]|\]\(", text) and len(text) <= 301, text


ARABIC_RECORDS = {
    "events/open-day.md": """---
title: Open day at gate B-12
date: 2026-12-05
summary: Everyone is welcome at the gate.
start: 2026-12-05T09:00:00+03:00
venue: Gate B-12
---
Meet at gate B-12 and bring your card.
""",
    "news/gate-news.md": """---
title: أخبار البوابة
date: 2026-11-20
summary: The gate opens at nine.
---
تفتح البوابة B-12 صباحا.
""",
}


@pytest.fixture(scope="module")
def arabic_site():
    """A site whose interface is Arabic, with records written in English among Arabic ones."""
    root = Path(tempfile.mkdtemp(prefix="residents-ar-", dir=servers.ROOT / "target"))
    run = lambda *args: subprocess.run([str(servers.PORTAL), *args], cwd=root, check=True, capture_output=True)  # noqa: E731
    run("init", ".")
    content = root / "content"
    site = (content / "site.yaml").read_text(encoding="utf-8")
    site = re.sub(r"(?m)^base_url: .*$", "base_url: https://ar.residents.test", site)
    site = re.sub(r"(?m)^language: .*$", "language: ar", site)
    (content / "site.yaml").write_text(site, encoding="utf-8")
    for name, text in ARABIC_RECORDS.items():
        (content / name).parent.mkdir(parents=True, exist_ok=True)
        (content / name).write_text(text, encoding="utf-8")
    run("build", "--content", "content", "--out", "dist")
    server = servers.start_portal(["serve", "--dist", str(root / "dist"), "--port", "0", "--rate-limit", "1000000",
                                   "--state", str(root / "state")], env={"PORTAL_SMTP_URL": ""})
    yield server.base_url
    server.stop()


def test_an_arabic_interface_calls_a_venue_a_place_not_a_hall(arabic_site):
    html = page(arabic_site, "/events/open-day")
    assert "<dt>المكان</dt>" in html and "القاعة" not in html


def test_left_to_right_sentences_keep_their_punctuation_and_codes_their_line(arabic_site):
    html = page(arabic_site, "/events/open-day")
    assert '<h1 dir="auto">Open day at gate <span class="nowrap">B-12</span></h1>' in html
    assert '<p class="lead" dir="auto">Everyone is welcome at the gate.</p>' in html
    assert 'Meet at gate <span class="nowrap">B-12</span> and bring your card.' in html
    listing = page(arabic_site, "/events")
    assert '<p dir="auto">Everyone is welcome at the gate.</p>' in listing
    news = page(arabic_site, "/news")
    assert re.search(r'<p class="meta"><bdi><time datetime="2026-11-20">[^<]+</time></bdi></p>', news), news
    body = page(arabic_site, "/news/gate-news")
    assert '<span class="nowrap">B-12</span>' in body


def test_a_chart_never_puts_two_units_on_one_scale_and_every_number_says_its_unit(written_site):
    html = page(written_site, "/data/plan")
    figures = dict(re.findall(r'<dt>([^<]*)</dt><dd><span dir="ltr">([^<]*)</span></dd>', html))
    assert figures["Appeal"] == "EUR 2,500,000" and figures["Coverage pct"] == "61.5%", figures
    assert figures["Average family size"] == "4.1", "a size beside counts is a figure, not a bar"
    charts = re.findall(r'<caption>([^<]*)</caption>', html)
    assert "Clinics · Budget, Spent" in charts and "Clinics · Share percent" in charts, charts
    assert '<td class="num" dir="ltr" data-label="Budget">EUR 120,000</td>' in html
    assert 'data-label="Share percent">66.7%</td>' in html
    assert html.count("<svg") == 2, "one chart per unit"


def test_each_marker_is_a_named_link_and_water_is_never_a_health_cross(written_site):
    html = page(written_site, "/map")
    assert re.search(r'<a href="[^"]*places/clinic-9(\.html)?" aria-label="Riverside clinic"><path class="[^"]*map-marker"', html)
    assert 'role="group"' in html
    marker = lambda place: re.search(rf'places/{place}(?:\.html)?" aria-label="[^"]*"><path class="[^"]*" d="([^"]*)"', html).group(1)  # noqa: E731
    cross = "h4v-5h4v5h4v4h-4v5h-4v-5h-4Z"
    assert cross in marker("clinic-9"), "health is the cross"
    assert cross not in marker("tap-3") and cross not in marker("hall-1"), "nothing else is"


def test_a_service_at_a_place_links_it_and_the_place_lists_it(written_site):
    clinic = page(written_site, "/services/riverside-clinic")
    assert re.search(r'<dt>On the map</dt><dd><a href="[^"]*places/clinic-9(\.html)?">Riverside clinic</a> · '
                     r'<a href="[^"]*map(\.html)?">Map</a></dd>', clinic), "by its spatial_id"
    assert re.search(r'<a href="[^"]*places/tap-3(\.html)?">Tap 3</a>', page(written_site, "/services/tap-care")), \
        "by its location's coordinates"
    here = re.search(r'<h2 id="here">Here</h2>\s*<ul class="here">(.*?)</ul>', page(written_site, "/places/clinic-9"), re.S)
    assert here and re.search(r'<a href="[^"]*services/riverside-clinic(\.html)?">Riverside clinic</a>', here.group(1))
    assert "Tap care" in page(written_site, "/places/tap-3")
