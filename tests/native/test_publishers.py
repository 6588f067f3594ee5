"""What a publisher writes, read the way they meant it (docs/content.md#events,
docs/content.md#no-silent-mistakes): a site this test writes itself (`portal init` plus records
written as people write them, one with Windows line endings and a byte-order mark) is built,
served by `portal serve`, and read as a client reads it: the event pages, `/events.ics` through
Python `icalendar`, the JSON-LD, and what `portal build` prints."""

import datetime
import json
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import icalendar
import pytest
import requests

import servers

SITE_YAML = """
timezone: Africa/Kampala
labels:
  zone-b: Zone B
cms: {repo: amani/site}
"""
RECORDS = {
    # Windows line endings and a byte-order mark: neither may move a line number.
    "events/open-day.md": "\ufeff---\r\ntitle: Open day\r\nsummary: Tours of the community hall.\r\n"
    "starts: 2026-12-03 14:00\r\nends: 2026-12-03T16:30\r\nvenue:\r\n  name: Community hall\r\n"
    "  address: Plot 4 Main Road\r\n  zone: zone-b\r\n---\r\nEveryone welcome.\r\n",
    "news/new-well.md": "---\ntitle: A new well\nsummary: Zone B has water.\n---\n\nThe well is open.\n\n"
    "![The new well](/media/new-well.jpg)\n",
    "events/film-night.md": "---\ntitle: Film night\nsummary: A film on the square.\nstart_date: 2026-12-04\n"
    "end_date: 2026-12-05\nvenue: Market square\n---\nBring a chair.\n",
}


def run(root, *args):
    return subprocess.run([str(servers.PORTAL), *args], cwd=root, capture_output=True, text=True)


@pytest.fixture(scope="module")
def written():
    """The written site's folder, what `portal build` printed, and `portal serve`'s base URL."""
    root = Path(tempfile.mkdtemp(prefix="publishers-", dir=servers.ROOT / "target"))
    assert run(root, "init", ".").returncode == 0
    content = root / "content"
    with open(content / "site.yaml", "a", encoding="utf-8") as site:
        site.write(SITE_YAML)
    for name, text in RECORDS.items():
        (content / name).parent.mkdir(parents=True, exist_ok=True)
        (content / name).write_bytes(text.encode("utf-8"))
    built = run(root, "build", "--content", "content", "--out", "dist")
    assert built.returncode == 0, built.stderr
    server = servers.start_portal(["serve", "--dist", str(root / "dist"), "--port", "0", "--rate-limit", "1000000",
                                   "--state", str(root / "state")], env={"PORTAL_SMTP_URL": ""})
    yield {"root": root, "build": built, "base": server.base_url}
    server.stop()


def get(written, path):
    response = requests.get(written["base"] + path, timeout=30)
    assert response.status_code == 200, path
    return response


def facts(page):
    block = re.search(r'<dl class="facts">(.*?)</dl>', page, re.S).group(1)
    return dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", block, re.S))


def json_ld(page):
    return json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S).group(1))


def test_starts_and_ends_are_the_start_and_end_and_read_in_the_site_zone(written):
    page = get(written, "/events/open-day").text
    assert facts(page)["When"] == "<bdi>3 December 2026, 14:00-16:30</bdi>", facts(page)
    shown = re.sub(r"<script.*?</script>", "", page, flags=re.S)
    assert "2026-12-03" not in shown, "no raw time on the page"
    record = get(written, "/api/events/open-day").json()["data"]["events"][0]
    assert (record["start"], record["end"]) == ("2026-12-03 14:00", "2026-12-03T16:30")
    assert "starts" not in record and "ends" not in record
    film = facts(get(written, "/events/film-night").text)
    assert film["When"] == "<bdi>4 December 2026 - 5 December 2026</bdi>", film


def test_a_venue_mapping_or_text_is_the_place_on_the_page_and_in_listings(written):
    page = get(written, "/events/open-day").text
    assert "Community hall" in facts(page)["Venue"] and "Zone B" in facts(page)["Venue"]
    listing = get(written, "/events").text
    assert "Community hall, Plot 4 Main Road, Zone B" in listing
    assert "Market square" in listing


def test_the_calendar_has_the_times_in_utc_and_the_venue_as_location(written):
    calendar = icalendar.Calendar.from_ical(get(written, "/events.ics").content)
    events = {str(e["SUMMARY"]): e for e in calendar.walk("VEVENT")}
    day = events["Open day"]
    assert day["DTSTART"].dt == datetime.datetime(2026, 12, 3, 11, 0, tzinfo=datetime.timezone.utc)
    assert day["DTEND"].dt == datetime.datetime(2026, 12, 3, 13, 30, tzinfo=datetime.timezone.utc)
    assert str(day["LOCATION"]) == "Community hall, Plot 4 Main Road, Zone B"
    film = events["Film night"]
    assert film["DTSTART"].dt == datetime.date(2026, 12, 4) and film["DTEND"].dt == datetime.date(2026, 12, 6)
    assert str(film["LOCATION"]) == "Market square"


def test_the_json_ld_has_the_start_in_the_site_zone_and_the_venue_as_location(written):
    data = json_ld(get(written, "/events/open-day").text)
    assert data["startDate"] == "2026-12-03T14:00:00+03:00" and data["endDate"] == "2026-12-03T16:30:00+03:00"
    assert data["location"]["name"] == "Community hall"
    assert data["location"]["address"]["streetAddress"] == "Plot 4 Main Road"
    assert json_ld(get(written, "/events/film-night").text)["location"]["name"] == "Market square"


def test_a_missing_body_image_is_left_out_with_a_warning_naming_its_line(written):
    assert "new-well.md:8: warning: image `/media/new-well.jpg` not found" in written["build"].stderr
    page = get(written, "/news/new-well").text
    assert "The well is open." in page and "new-well.jpg" not in page, "no broken image"


def test_serve_watch_prints_each_rebuilds_warnings(written, tmp_path):
    content = tmp_path / "content"
    shutil.copytree(written["root"] / "content", content)
    server = servers.start_portal(["serve", "--content", str(content), "--out", str(tmp_path / "dist"), "--port", "0",
                                   "--state", str(tmp_path / "state"), "--watch"], env={"PORTAL_SMTP_URL": ""})
    try:
        (content / "news" / "gone.md").write_text("---\ntitle: Gone\n---\n\n![Nothing](/media/gone.png)\n")
        deadline = time.monotonic() + 30
        while "rebuilt in" not in server.output() and time.monotonic() < deadline:
            time.sleep(0.1)
        output = server.output()
        assert "gone.md:5: warning: image `/media/gone.png` not found" in output, output
        assert "warning(s)" in output.split("listening on", 1)[1], output
    finally:
        server.stop()


def test_the_admin_page_says_plainly_when_the_cms_script_cannot_load(written):
    page = get(written, "/admin").text
    status = re.search(r'<div class="cms-status" role="status">(.*?)</div>', page, re.S).group(1)
    assert "could not be loaded from https://unpkg.com" in status and "reload" in status
    assert "body:has(> script ~ :not(script, style, link)) > .cms-status { display: none }" in page


def test_a_preview_links_the_per_request_pages_on_the_server_being_used(written):
    page = get(written, "/news/new-well").text
    assert 'href="/community-voices/new"' in page, "the story form on this server"
    assert 'href="https://portal.example.org/' not in page
    assert "href='https://portal.example.org/news/new-well'" in page, "the canonical link still names the site"
    story = get(written, "/community-voices/new").text
    assert 'href="https://portal.example.org/' not in story, "a page rendered per request links this server too"


def test_the_example_base_url_is_flagged_and_a_new_site_takes_no_bookings(written):
    assert "site.yaml:8: warning: `base_url` is still the example address of `portal init`" in written["build"].stderr
    home = get(written, "/").text
    assert "/visit" not in home, "no booking form is linked"
    assert "/visit</loc>" not in get(written, "/sitemap.xml").text
    assert requests.get(written["base"] + "/visit", timeout=30).status_code == 404
    booking = requests.post(written["base"] + "/api/send-booking-confirmation", timeout=30,
                            json={"name": "Ana", "email": "ana@example.org", "visitDate": "2099-01-01",
                                  "visitTime": "09:00", "groupSize": "1-5", "tourType": "walk"})
    assert booking.status_code == 404 and "takes no bookings" in booking.json()["detail"]
