"""The site without scripts (docs/spec/api-spec.md#forms): the search results page and the two forms, posted the way a
browser posts them (application/x-www-form-urlencoded), answered the same by every server."""

import re
import uuid
from datetime import date, timedelta
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

from conftest import problem


class Controls(HTMLParser):
    """The labels, controls and options of a page."""

    def __init__(self):
        super().__init__()
        self.labels, self.controls, self.options, self._select = set(), {}, {}, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "label":
            self.labels.add(a.get("for"))
        if tag in ("input", "select", "textarea") and a.get("name"):
            self.controls[a["name"]] = {"tag": tag, **a}
        if tag == "select":
            self._select = a.get("name")
            self.options[self._select] = []
        if tag == "option" and self._select:
            self.options[self._select].append(a.get("value"))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def controls(html):
    parser = Controls()
    parser.feed(html)
    return parser


def html(r, status=200):
    assert r.status_code == status, r.text[:500]
    assert r.headers["Content-Type"] == "text/html; charset=utf-8"
    return r.text


def form_post(client, path, data, **kwargs):
    return client.post(path, data=data, headers={"Content-Type": "application/x-www-form-urlencoded"}, **kwargs)


def visit(**changes):
    """A valid booking, to an address of its own (one address gets at most 3 confirmations a day)."""
    fields = {"name": "Amina Yusuf", "email": f"amina.{uuid.uuid4().hex[:12]}@example.org", "visitDate": str(date.today() + timedelta(days=30)),
              "visitTime": "10:30", "groupSize": "1-5", "tourType": "community-walk", "website": ""}
    fields.update(changes)
    return fields


# --- search -------------------------------------------------------------------------------------

def test_the_search_page_groups_hits_by_collection_with_links(client):
    page = html(client.get("/search?q=water"))
    assert '<h1>Search</h1>' in page
    assert re.search(r'<h2 id="results-news">News</h2>', page)
    assert '<a href="/news/water-points-reopen">' in page
    assert 'value="water"' in page


def test_the_search_page_includes_the_encyclopedia(client):
    page = html(client.get("/search?q=trucking"))
    assert '<h2 id="results-entries">' in page
    assert '<a href="/encyclopedia/water-trucking">' in page


def test_a_short_or_empty_query_answers_a_page_with_a_message(client):
    for query in ["", "?q=a", "?q=%20x%20"]:
        page = html(client.get("/search" + query))
        assert "at least 2 characters" in page
        assert 'name="q"' in page


def test_the_query_is_escaped_and_the_json_search_is_unchanged(client):
    page = html(client.get("/search", params={"q": "<script>alert(1)</script>"}))
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    assert client.get("/api/search?q=boreholes+repairs").headers["Content-Type"].startswith("application/json")
    problem(client.get("/api/search?q=a"), 400, "bad_request")


def test_every_page_searches_through_the_search_page(client):
    home = client.get("/").text
    assert re.search(r'<form[^>]*action="search"[^>]*method="get"', home), "a relative action on the home page"
    record = client.get("/news/water-points-reopen").text
    assert re.search(r'<form[^>]*action="\.\./search"', record), "relative to the page's folder"


# --- forms --------------------------------------------------------------------------------------

def test_the_voice_form_has_its_labelled_fields_and_a_honeypot(client):
    page = controls(html(client.get("/community-voices/new")))
    assert {"title", "author", "content", "website"} <= set(page.controls)
    assert page.controls["content"]["tag"] == "textarea"
    assert all(f"f-{name}" in page.labels for name in ["title", "author", "content", "website"])


def test_the_visit_form_offers_the_choices_of_the_site(client):
    page = controls(html(client.get("/visit")))
    assert {"name", "email", "visitDate", "visitTime", "groupSize", "tourType", "meetingPoint", "paymentMethod"} <= set(page.controls)
    assert page.controls["visitDate"]["type"] == "date" and page.controls["visitTime"]["type"] == "time"
    assert page.options["groupSize"] == ["", "1-5", "6-10"]
    assert page.options["tourType"] == ["", "community-walk", "market-and-crafts"]
    assert page.options["paymentMethod"] == ["", "cash", "mobile-money"]


def test_a_valid_voice_is_stored_and_answered_with_a_confirmation(client):
    r = form_post(client, "/community-voices/new", {"title": "Beans", "author": "Ana", "content": "We grew beans.", "website": ""})
    assert r.status_code == 303
    location = r.headers["Location"]
    assert location.startswith("/community-voices/new/sent?id=v-")
    voice_id = parse_qs(urlsplit(location).query)["id"][0]
    page = html(client.get(location))
    assert voice_id in page


def test_a_valid_booking_is_answered_with_its_reference(client):
    r = form_post(client, "/visit", visit())
    assert r.status_code == 303 and r.headers["Location"].startswith("/visit/sent?reference=BK-")
    reference = parse_qs(urlsplit(r.headers["Location"]).query)["reference"][0]
    assert reference in html(client.get(r.headers["Location"]))


def test_a_fourth_booking_form_to_one_address_is_confirmed_exactly_like_a_new_one(new_client):
    address = f"amina.{uuid.uuid4().hex[:12]}@example.org"
    for spelling in [address, address.replace("@", "+x@"), address.upper()]:
        assert form_post(new_client(), "/visit", visit(email=spelling)).status_code == 303
    seen, new = form_post(new_client(), "/visit", visit(email=address)), form_post(new_client(), "/visit", visit())
    assert (seen.status_code, new.status_code) == (303, 303) and "Retry-After" not in seen.headers
    pages = []
    for answer in (seen, new):
        location = answer.headers["Location"]
        reference = parse_qs(urlsplit(location).query)["reference"][0]
        assert location == f"/visit/sent?reference={reference}"
        pages.append(html(new_client().get(location)).replace(reference, "REF"))
    assert pages[0] == pages[1]


def test_an_invalid_form_comes_back_with_messages_and_what_was_typed(client):
    typed = visit(name='Ana "<b>"', email="not-an-address", visitDate="2020-01-01", groupSize="99")
    page = html(form_post(client, "/visit", typed), 400)
    assert 'role="alert"' in page
    for field in ["email", "visitDate", "groupSize"]:
        assert f'id="f-{field}-error"' in page and f'aria-describedby="f-{field}-error"' in page
    assert "f-name-error" not in page
    assert 'value="Ana &quot;&lt;b&gt;&quot;"' in page and "<b>" not in page.split("<main")[1]
    assert 'value="not-an-address"' in page


def test_a_filled_honeypot_stores_nothing(client):
    page = html(form_post(client, "/community-voices/new", {"title": "Buy", "author": "Bot", "content": "spam", "website": "http://spam.example"}), 400)
    assert 'href="#f-website"' in page


def test_a_form_takes_only_what_a_browser_posts(client):
    r = client.post("/visit", json=visit())
    assert r.status_code == 415 and r.headers["Content-Type"].startswith("text/html")
    problem(client.post("/visit", json=visit(), headers={"Accept": "application/json"}), 415, "unsupported_media_type")


def test_the_json_actions_still_refuse_form_bodies(client):
    problem(form_post(client, "/api/submit-voice", {"title": "a", "author": "b", "content": "c"}), 415, "unsupported_media_type")


def test_a_confirmation_echoes_only_ids_the_server_makes(client):
    assert client.get("/community-voices/new/sent?id=<script>").status_code == 404
    assert client.get("/visit/sent").status_code == 404


def test_posting_forms_counts_against_the_rate_limit(client):
    r = form_post(client, "/community-voices/new", {"title": "", "author": "", "content": ""})
    assert r.status_code == 400 and r.headers["RateLimit-Limit"] == "60"
    assert "RateLimit-Limit" not in client.get("/community-voices/new").headers
