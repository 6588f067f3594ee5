"""The website people use, build side (docs/content.md): static files, record images and their variants,
paged listings, tags and categories, navigation, languages and accessible markup. The fixture
(fixtures/site) pages listings by 2 and is built at SOURCE_DATE_EPOCH=1790000000 (2026-09-21)."""

import re
import struct
import urllib.parse
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "site"
BASE = "https://fixture.example.org"


def jpeg_size(data):
    """(width, height) from a JPEG's start-of-frame segment."""
    at = 2
    while at < len(data):
        marker, length = data[at + 1], struct.unpack(">H", data[at + 2:at + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return width, height
        at += 2 + length
    raise AssertionError("no frame header")


def tags(html, name):
    return re.findall(rf"<{name}\b[^>]*>", html)


def attribute(tag, name):
    match = re.search(rf'\s{name}="([^"]*)"', tag)
    return match.group(1) if match else None


def listed(html):
    """The record URLs a listing page links from its items, in order (relative links resolved)."""
    items = re.search(r'<ul class="records">(.*?)</ul>', html, re.S)
    return [href for href in re.findall(r'<h2 dir="auto"><a href="([^"]+)"', items.group(1))] if items else []


@pytest.mark.parametrize("path,media_type,source", [
    ("/files/checklist.txt", "text/plain; charset=utf-8", "static/files/checklist.txt"),
    ("/files/plan.pdf", "application/pdf", "static/files/plan.pdf"),
    ("/media/pump.jpg", "image/jpeg", "static/media/pump.jpg"),
])
def test_static_files_are_served_as_they_are_with_the_type_of_their_extension(client, path, media_type, source):
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["Content-Type"] == media_type
    assert r.content == (FIXTURE / source).read_bytes()
    assert client.get(path, headers={"If-None-Match": r.headers["ETag"]}).status_code == 304


def test_local_images_get_smaller_variants_never_larger(client):
    original = jpeg_size(client.get("/media/pump.jpg").content)
    assert original == (1000, 667)
    for width in (480, 960):
        r = client.get(f"/_img/{width}/media/pump.jpg")
        assert r.status_code == 200 and r.headers["Content-Type"] == "image/jpeg"
        assert jpeg_size(r.content) == (width, round(667 * width / 1000))
    assert client.get("/_img/1920/media/pump.jpg").status_code == 404


def test_a_record_page_shows_its_image_with_alt_size_variants_and_lazy_loading(client):
    html = client.get("/events/harvest-fair").text
    figure = [t for t in tags(html, "img") if attribute(t, "alt") == "A blue hand pump with jerrycans beside it"]
    assert len(figure) == 1, tags(html, "img")
    img = figure[0]
    assert attribute(img, "src") == "../media/pump.jpg"
    assert (attribute(img, "width"), attribute(img, "height")) == ("1000", "667")
    assert attribute(img, "loading") == "lazy" and attribute(img, "sizes")
    assert attribute(img, "srcset") == "../_img/480/media/pump.jpg 480w, ../_img/960/media/pump.jpg 960w, ../media/pump.jpg 1000w"


def test_every_image_of_every_page_has_alt_text(client):
    for path in ["/events", "/events/page/2", "/events/harvest-fair", "/events/film-evening", "/tags/farming", "/"]:
        for img in tags(client.get(path).text, "img"):
            assert attribute(img, "alt"), f"{path}: {img}"


def test_the_alt_text_falls_back_to_image_alt_and_the_listing_shows_the_image(client):
    html = client.get("/events").text
    thumbs = [t for t in tags(html, "img") if 'class="thumb"' in t]
    assert [attribute(t, "alt") for t in thumbs] == ["The pump where the screen will stand"]
    assert attribute(thumbs[0], "srcset") and attribute(thumbs[0], "loading") == "lazy"


def test_markdown_images_with_local_paths_resolve_to_the_static_file(client):
    html = client.get("/events/harvest-fair").text
    body = [t for t in tags(html, "img") if attribute(t, "alt") == "The pump near the fair ground"]
    assert len(body) == 1
    assert attribute(body[0], "src") == "../media/pump.jpg" and attribute(body[0], "srcset")


def test_the_json_keeps_image_exactly_as_written(client):
    record = client.get("/api/events/harvest-fair").json()["data"]["events"][0]
    assert record["image"] == {"src": "/media/pump.jpg", "alt": "A blue hand pump with jerrycans beside it"}
    assert client.get("/api/events/film-evening").json()["data"]["events"][0]["image"] == "media/pump.jpg"


def test_listings_are_paged_with_prev_and_next_links(client):
    first, second, last = (client.get(p).text for p in ("/events", "/events/page/2", "/events/page/3"))
    assert '<link rel="next" href="events/page/2.html">' in first and 'rel="prev"' not in first
    assert '<a rel="next" href="events/page/2.html">' in first
    assert '<link rel="prev" href="../../events.html">' in second and '<link rel="next" href="3.html">' in second
    assert '<a rel="prev" href="../../events.html">' in second and '<a rel="next" href="3.html">' in second
    assert '<link rel="prev" href="2.html">' in last and 'rel="next"' not in last
    assert client.get("/events/page/4").status_code == 404


def test_every_item_is_on_exactly_one_page_upcoming_events_first_then_past_ones_marked(client):
    pages = [client.get(p).text for p in ("/events", "/events/page/2", "/events/page/3")]
    urls = [urllib.parse.urljoin(f"/events/page/{n}", href).replace(".html", "").replace("/events/page/events/", "/events/")
            for n, html in enumerate(pages, 1) for href in listed(html)]
    slugs = [u.rsplit("/", 1)[-1] for u in urls]
    assert slugs == ["film-evening", "film-evening-ar", "market-day", "harvest-fair", "old-gathering"]
    api = {r["slug"] for r in client.get("/api/events").json()["data"]["events"]}
    assert sorted(slugs) == sorted(api)
    assert pages[1].count('class="past"') == 1 and pages[2].count('class="past"') == 1
    assert pages[0].count('class="past"') == 0
    assert ">Past</span>" in pages[1]


def test_listing_pages_have_markdown_twins(client):
    r = client.get("/events/page/2", headers={"Accept": "text/markdown"})
    assert r.status_code == 200 and r.headers["Content-Type"] == "text/markdown; charset=utf-8"
    assert r.text.startswith("# Events") and "[Harvest fair](/events/harvest-fair) (Past)" in r.text
    assert "[Next page](/events/page/3)" in r.text
    for path in ["/tags", "/tags/farming", "/categories", "/categories/community-life"]:
        twin = client.get(path, headers={"Accept": "text/markdown"})
        assert twin.status_code == 200 and twin.text.startswith("# "), path


def test_paged_listings_tags_and_categories_are_in_the_sitemap(client):
    locs = re.findall(r"<loc>([^<]+)</loc>", client.get("/sitemap.xml").text)
    for path in ["/events/page/2", "/events/page/3", "/tags", "/tags/farming", "/categories",
                 "/categories/community-life", "/pages", "/tags/" + urllib.parse.quote("أفلام")]:
        assert BASE + path in locs, path


def test_tags_lists_every_tag_with_its_count(client):
    html = client.get("/tags").text
    terms = dict(re.findall(r'<li><a href="tags/([^"]+)\.html">[^<]*</a> <span class="count">(\d+)</span>', html))
    assert terms[urllib.parse.quote("santé-communautaire")] == "1"
    assert terms["farming"] == "2" and terms["films"] == "2" and terms["water"] == "4"
    assert terms[urllib.parse.quote("أفلام")] == "1"


def test_a_tag_page_lists_its_records_across_collections(client):
    html = client.get("/tags/water").text
    assert "<h1>Tagged “water”</h1>" in html
    first, second = listed(html), listed(client.get("/tags/water/page/2").text)
    assert first[0] == "../news/water-points-reopen.html", "newest first"
    found = {href.replace("../", "") for href in first + second}
    assert found == {"news/water-points-reopen.html", "resources/water-safety.html",
                     "encyclopedia/oral-rehydration.html", "encyclopedia/water-trucking.html"}
    both = listed(client.get("/tags/films").text)
    assert both == ["../events/film-evening.html", "../events/film-evening-ar.html"]


def test_tags_in_any_script_get_pages_of_their_own(client):
    for tag in ["santé-communautaire", "أفلام"]:
        r = client.get("/tags/" + urllib.parse.quote(tag))
        assert r.status_code == 200, tag
        assert r.headers["Content-Type"] == "text/html; charset=utf-8"


def test_categories_merge_spellings_that_slug_the_same(client):
    html = client.get("/categories").text
    assert '<a href="categories/community-life.html">Community life</a> <span class="count">2</span>' in html
    term = client.get("/categories/community-life").text
    assert "<h1>Category: Community life</h1>" in term
    assert listed(term) == ["../events/harvest-fair.html", "../events/old-gathering.html"]


def test_records_link_their_tags_and_category(client):
    html = client.get("/events/harvest-fair").text
    assert f'href="../tags/{urllib.parse.quote("santé-communautaire")}.html"' in html
    assert 'href="../categories/community-life.html">Community life</a>' in html


def test_the_navigation_lists_the_collections_that_have_records_then_the_site_pages(client):
    """Then the encyclopedia, the data pages, the alerts, the map (the site has places) and the
    weather (it has an upstream), which a server renders: the build links it on the live site, so an
    offline copy reaches it, and a server links its own (docs/cli.md)."""
    html = client.get("/").text
    nav = re.search(r'<nav aria-label="Main">(.*?)</nav>', html, re.S).group(1)
    links = re.findall(r'<a href="([^"]+)"', nav)
    assert links == ["services.html", "resources.html", "events.html", "jobs.html", "news.html", "courses.html",
                     "profiles.html", "docs.html", "pages.html", "encyclopedia.html", "data.html", "alerts.html",
                     "map.html", "/weather"]
    assert 'href="photos.html"' not in html, "an empty collection is not advertised"
    assert '<a href="events.html" aria-current="page">' in client.get("/events").text


def test_the_pages_collection_has_its_listing(client):
    html = client.get("/pages").text
    assert "<h1>Pages</h1>" in html and listed(html) == ["about/team.html", "urgent-help.html"]


def test_every_page_has_the_search_form_in_its_header(client):
    for path in ["/", "/events/page/2", "/tags/farming", "/encyclopedia/asylum", "/api-docs"]:
        header = re.search(r'<header class="site">(.*?)</header>', client.get(path).text, re.S).group(1)
        form = tags(header, "form")[0]
        assert attribute(form, "method") == "get" and attribute(form, "action").endswith("search")
        field = [t for t in tags(header, "input") if attribute(t, "name") == "q"][0]
        assert f'<label class="visually-hidden" for="{attribute(field, "id")}">' in header


def test_a_translated_record_sets_its_language_and_links_the_others(client):
    arabic = client.get("/events/film-evening-ar").text
    assert '<html lang="en">' in arabic
    assert '<article lang="ar" dir="rtl">' in arabic
    assert f"<link rel=\"alternate\" hreflang=\"en\" href='{BASE}/events/film-evening'>" in arabic
    assert f"<link rel=\"alternate\" hreflang=\"ar\" href='{BASE}/events/film-evening-ar'>" in arabic
    english = client.get("/events/film-evening").text
    assert '<a href="film-evening-ar.html" hreflang="ar" lang="ar">العربية</a>' in english
    assert "<article>" in english


HEADING = re.compile(r"<h([1-6])\b")


@pytest.mark.parametrize("path", ["/news/water-points-reopen", "/events/harvest-fair", "/docs/api/getting-started",
                                  "/encyclopedia/asylum", "/events", "/tags/farming", "/tags", "/", "/api-docs"])
def test_heading_levels_never_skip(client, path):
    levels = [int(level) for level in HEADING.findall(client.get(path).text)]
    assert levels[0] == 1 and levels.count(1) == 1
    for before, after in zip(levels, levels[1:]):
        assert after <= before + 1, f"{path}: h{before} then h{after} in {levels}"


def test_task_boxes_are_labelled_and_table_headers_are_not_empty(client):
    html = client.get("/events/harvest-fair").text
    boxes = [t for t in tags(html, "input") if attribute(t, "type") == "checkbox"]
    assert [attribute(t, "aria-label") for t in boxes] == ["done", "not done yet"]
    assert not re.search(r"<th\b[^>]*>\s*</th>", html)
    assert "style=" not in html
