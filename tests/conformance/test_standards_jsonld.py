"""schema.org JSON-LD on record pages (docs/standards.md#json-ld): one `<script type="application/ld+json">`
on the page of every job, event, news item, course and service, with the properties search engines
require whenever the record has the data, on both servers."""

import json
import re

import pytest

SCRIPT = re.compile(r'<script type="application/ld\+json">(.*?)</script>', re.S)
TYPES = {"jobs": "JobPosting", "events": "Event", "news": "NewsArticle", "courses": "Course", "services": "Service"}
BASE = "https://fixture.example.org"


def records(client, collection):
    body = client.get(f"/api/{collection}").json()
    return body["data"][collection]


def json_ld(html):
    found = SCRIPT.findall(html)
    assert len(found) == 1, f"one JSON-LD script, not {len(found)}"
    return json.loads(found[0])


@pytest.mark.parametrize("collection", list(TYPES))
def test_every_record_page_has_its_schema_org_type(client, collection):
    items = records(client, collection)
    assert items, f"the fixture has {collection}"
    for record in items:
        r = client.get(record["url"])
        assert r.status_code == 200, record["url"]
        data = json_ld(r.text)
        assert data["@context"] == "https://schema.org" and data["@type"] == TYPES[collection], record["url"]
        assert data["url"] == BASE + record["url"]
        check = globals()[f"check_{collection}"]
        check(data, record)


def present(data, *keys):
    for key in keys:
        assert data.get(key) not in (None, "", [], {}), f"{key} in {data}"


def check_jobs(data, record):
    present(data, "title", "description", "datePosted", "hiringOrganization")
    assert data["title"] == record["title"]
    assert data["hiringOrganization"]["@type"] == "Organization"
    assert "jobLocation" in data or "applicantLocationRequirements" in data
    place = data.get("jobLocation")
    if place:
        assert place["@type"] == "Place" and place["address"]["@type"] == "PostalAddress"
    if "deadline" in record:
        assert data["validThrough"] == record["deadline"]


def check_events(data, record):
    present(data, "name", "startDate", "eventStatus", "eventAttendanceMode")
    if record.get("venue") or record.get("location"):
        assert data["location"]["@type"] == "Place" and data["location"]["address"]["@type"] == "PostalAddress"
    if record.get("end"):
        present(data, "endDate")


def check_news(data, record):
    present(data, "headline", "author", "publisher")
    if record.get("date"):
        assert data["datePublished"] == record["date"]
        present(data, "dateModified")


def check_courses(data, record):
    present(data, "name", "provider")
    assert data["provider"]["@type"] == "Organization"


def check_services(data, record):
    present(data, "name", "provider", "areaServed")


def test_an_event_carries_its_times_and_place(client):
    data = json_ld(client.get("/events/market-day").text)
    assert data["startDate"] == "2026-12-05T08:00:00+03:00" and data["endDate"] == "2026-12-05T13:30:00+03:00"
    assert data["location"]["name"] == "Market square"
    assert data["eventStatus"] == "https://schema.org/EventScheduled"
    harvest = json_ld(client.get("/events/harvest-fair").text)
    assert harvest["startDate"] == "2026-08-15" and harvest["organizer"]["name"] == "Farmers' group"
    assert harvest["image"] == f"{BASE}/media/pump.jpg", "the published picture, as an absolute URL"


def test_a_job_without_a_place_is_at_the_settlement(client):
    data = json_ld(client.get("/jobs/translator").text)
    assert data["jobLocation"]["address"] == {"@type": "PostalAddress", "addressLocality": "Fixture Town",
                                              "addressCountry": "KE"}
    assert data["hiringOrganization"]["name"] == "Fixture Portal", "the site hires when no employer is named"
    assert data["employmentType"] == "FULL_TIME"


def test_a_title_that_closes_the_script_stays_inside_it(client):
    html = client.get("/jobs/script-title").text
    assert "<script>alert(1)" not in html
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert scripts.count('<script type="application/ld+json">') == 1
    data = json_ld(html)
    assert data["title"] == "</script><script>alert(1)</script>"
    assert data["hiringOrganization"]["name"] == "Fixture Employers & Partners"
    raw = SCRIPT.search(html).group(1)
    assert "<" not in raw and ">" not in raw and "&" not in raw and "\\u003c/script\\u003e" in raw


def test_encyclopedia_entries_keep_their_article_with_author_and_dates(client):
    data = json_ld(client.get("/encyclopedia/asylum").text)
    assert data["@type"] == "Article" and data["citation"]
    assert (data["datePublished"], data["dateModified"]) == ("2026-09-01", "2026-09-01")
    assert data["author"] == {"@type": "Organization", "name": "Fixture Portal", "url": BASE}
    assert data["publisher"]["@type"] == "Organization"


def test_a_byline_naming_an_organisation_is_an_organization(client):
    data = json_ld(client.get("/news/clinic-hours").text)
    assert data["author"] == {"@type": "Organization", "name": "Fixture Health Centre"}


def test_places_of_their_own_carry_a_structured_address_with_the_country(client):
    """A job or an event that names its place keeps the settlement's locality and country
    (fixtures/site/site.yaml `address`) in a structured PostalAddress."""
    job = json_ld(client.get("/jobs/script-title").text)["jobLocation"]["address"]
    assert job == {"@type": "PostalAddress", "streetAddress": "Community hall, Fixture Town",
                   "addressLocality": "Fixture Town", "addressCountry": "KE"}
    market = json_ld(client.get("/events/market-day").text)["location"]
    assert market["@type"] == "Place" and market["name"] == "Market square"
    assert market["address"]["@type"] == "PostalAddress" and market["address"]["addressCountry"] == "KE"
