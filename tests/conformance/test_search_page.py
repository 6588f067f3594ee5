"""GET /search?q=: the search page forgives what /api/search does not (word forms, typos, partial
matches) and shows each hit's collection, date and an excerpt with the matched words marked. The
API's own rules are tested, unchanged, in test_search.py."""

import json
import re

import pytest


def page(client, q, **params):
    r = client.get("/search", params={"q": q, **params})
    assert r.status_code == 200, r.text
    assert r.headers["Content-Type"].startswith("text/html")
    return r.text


def api_slugs(client, q, collection):
    body = client.get("/api/search", params={"q": q, "collections": collection}).json()
    return [hit["slug"] for hit in body["results"].get(collection, [])]


@pytest.mark.parametrize("q, link, collection", [
    ("clinics", "/news/clinic-hours", "news"),
    ("Écoles", "/services/cafe-amani", "services"),
    ("borehole repairs", "/news/water-points-reopen", "news"),
])
def test_a_word_finds_its_other_forms_where_the_api_does_not(client, q, link, collection):
    assert f'<a href="{link}">' in page(client, q)
    assert api_slugs(client, q, collection) == [], "the API matches words as written"


def test_a_typo_offers_its_correction_as_a_link_and_shows_its_results(client):
    html = page(client, "truking")
    assert re.search(r'Did you mean <a href="/search\?q=trucking">trucking</a>\?', html), html
    assert '<a href="/encyclopedia/water-trucking">' in html
    assert "Showing results for “trucking”." in html


def test_a_word_far_from_every_other_suggests_nothing(client):
    html = page(client, "qqqqxxxx")
    assert "Did you mean" not in html and "Nothing matches" in html


def test_no_record_with_every_word_shows_those_with_some_under_a_notice(client):
    html = page(client, "clinic zone")
    assert "No page has all of these words; showing pages with some of them" in html
    assert '<a href="/news/clinic-hours">' in html and '<a href="/news/water-points-reopen">' in html
    assert "No page has all" not in page(client, "water zone")
    assert client.get("/api/search", params={"q": "clinic zone"}).json()["totalResults"] == 0


def test_a_hit_shows_its_collection_date_and_an_excerpt_with_marks(client):
    html = page(client, "boreholes", collections="news")
    item = html[html.index('<a href="/news/water-points-reopen">'):]
    item = item[:item.index("</li>")]
    assert '<span class="hit-collection">News</span>' in item
    assert '<time datetime="2026-11-20">' in item
    excerpt = re.search(r'<p class="excerpt" dir="auto">(.*?)</p>', item).group(1)
    assert "<mark>boreholes</mark>" in excerpt and "Three" in excerpt
    assert "**" not in excerpt and "#" not in excerpt, "markdown is shown as text"


def test_an_arabic_excerpt_marks_its_words_in_order(client):
    html = page(client, "نقاش")
    assert '<a href="/events/film-evening-ar">' in html
    assert re.search(r'<p class="excerpt" dir="auto">[^<]*يليه <mark>نقاش</mark>', html), html



@pytest.mark.parametrize("q", ["fri", "society"])
def test_the_page_finds_front_matter_text_the_api_does_not(client, q):
    # The legal aid desk says `Fri` only in its `hours`, `Society` only in `organization.name`.
    assert '<a href="/services/legal-aid' in page(client, q, collections="services")
    assert api_slugs(client, q, "services") == [], "the API searches titles, summaries, tags and bodies"


@pytest.mark.parametrize("q", ["هواء", "والهواء", "نِقَاش", "نقـاش"])
def test_arabic_letter_forms_marks_and_the_article_are_folded_on_both(client, q):
    # The event says الهواء ("the air") and نقاش ("discussion").
    assert '<a href="/events/film-evening-ar">' in page(client, q, collections="events")
    assert api_slugs(client, q, "events") == ["film-evening-ar"]


@pytest.mark.parametrize("q, link, collection", [
    ("maji", "/news/water-points-reopen", "news"),
    ("عيادة", "/news/clinic-hours", "news"),
    ("kliniki", "/news/clinic-hours", "news"),
    ("dispensaires", "/news/clinic-hours", "news"),
    ("visima", "/news/water-points-reopen", "news"),  # the site's own group (fixtures/site/site.yaml)
])
def test_another_word_for_the_same_thing_finds_the_page_where_the_api_does_not(client, q, link, collection):
    # docs/spec/api-spec.md#search-page-ranking: the built-in groups, in four languages.
    html = page(client, q, collections=collection)
    assert f'<a href="{link}">' in html, html
    if collection == "news" and "water" in link:
        assert "<mark>" in html, "the excerpt marks the word it matched through"
    assert api_slugs(client, q, collection) == [], "the API matches words as written"


@pytest.mark.parametrize("q", ["my husband beats me", "viol", "mtoto amepotea", "طفل مفقود", "I want to KILL myself"])
def test_a_query_asking_for_help_shows_the_help_page_first_with_its_numbers(client, q):
    html = page(client, q)
    main = html[html.index("<main"):]
    assert '<section class="help-first" role="alert">' in main, main
    help_at = main.index('<a href="/urgent-help">')
    assert all(help_at < at.start() for at in re.finditer(r'class="search-group"', main)), main
    assert '<a href="tel:+256700000100">+256 700 000 100</a>' in main
    assert "Did you mean" not in main


def test_a_search_that_finds_nothing_links_the_help_page_and_the_services(client):
    html = page(client, "qqqqxxxx")
    links = re.search(r'<p class="help-links">(.*?)</p>', html).group(1)
    assert '<a href="/urgent-help">' in links and '<a href="/services">' in links
    assert "help-first" not in html


def test_a_correct_word_is_never_rewritten_and_a_question_keeps_its_answer(client):
    assert "Showing results for" not in page(client, "beats")
    assert '<a href="/news/water-points-reopen">' in page(client, "where are the boreholes")


def test_the_mcp_search_tool_forgives_on_request(client):
    def call(arguments):
        message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "search_portal", "arguments": arguments}}
        r = client.post("/mcp", data=json.dumps(message), headers={
            "Content-Type": "application/json", "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"})
        return r.json()["result"]["structuredContent"]

    strict = call({"query": "clinics", "collections": ["news"]})
    assert strict["totalResults"] == 0 and "partial" not in strict
    forgiven = call({"query": "clinics", "collections": ["news"], "forgiving": True})
    assert [h["slug"] for h in forgiven["results"]["news"]] == ["clinic-hours"]
    assert forgiven["partial"] is False and "suggestion" not in forgiven
    typo = call({"query": "truking", "collections": ["entries"], "forgiving": True})
    assert typo["suggestion"] == "trucking" and typo["corrected"] is True
    assert [h["slug"] for h in typo["results"]["entries"]] == ["water-trucking"]
    assert "help" not in typo
    crisis = call({"query": "husband beats me", "forgiving": True})
    assert crisis["help"]["url"] == "/urgent-help"
    assert {"text": "+256 700 000 100", "tel": "+256700000100"} in crisis["help"]["phones"]
