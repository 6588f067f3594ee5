"""HTML pages and their markdown twins (docs/spec/api-spec.md#pages, #markdown-twins)."""

import math
import re
import xml.etree.ElementTree as ET

import pytest

from conftest import problem

PAGES = ["/", "/news", "/news/water-points-reopen", "/docs/api/getting-started", "/about/team", "/encyclopedia",
         "/encyclopedia/asylum", "/api-docs"]
RELATIONS = {"describedby": "text/plain", "api-catalog": "application/linkset+json", "service-desc": "application/openapi+json",
             "service-doc": "text/html", "status": "application/json"}


def link_relations(header):
    found = {}
    for part in header.split(","):
        rel = re.search(r'rel="([^"]+)"', part)
        kind = re.search(r'type="([^"]+)"', part)
        if rel:
            found[rel.group(1)] = kind.group(1) if kind else None
    return found


@pytest.mark.parametrize("path", PAGES)
def test_pages_are_html_with_the_five_discovery_links(client, path):
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["Content-Type"] == "text/html; charset=utf-8"
    assert "Accept" in r.headers["Vary"]
    assert link_relations(r.headers["Link"]) == RELATIONS
    html = r.text
    assert html.startswith("<!doctype html>") and '<html lang="en">' in html
    assert "<main" in html and "<nav" in html and html.count("<h1") == 1


@pytest.mark.parametrize("path", PAGES)
def test_every_page_has_a_markdown_twin(client, path):
    r = client.get(path, headers={"Accept": "text/markdown"})
    assert r.status_code == 200
    assert r.headers["Content-Type"] == "text/markdown; charset=utf-8"
    assert "Accept" in r.headers["Vary"]
    assert int(r.headers["x-markdown-tokens"]) == math.ceil(len(r.content.decode("utf-8")) / 4)
    assert r.text.startswith("# ")


def test_html_stays_the_default(client):
    for accept in [None, "*/*", "text/html", "text/html, text/markdown;q=0.5"]:
        headers = {"Accept": accept} if accept else {}
        assert client.get("/news", headers=headers).headers["Content-Type"].startswith("text/html")


def test_a_record_page_shows_its_content_and_links_its_json(client):
    html = client.get("/news/water-points-reopen").text
    assert "<h1 dir=\"auto\">Water points reopen in Zone B</h1>" in html
    assert "<strong>Zone B</strong>" in html
    assert "/api/news/water-points-reopen" in html


def test_an_entry_page_embeds_its_json_ld(client):
    html = client.get("/encyclopedia/asylum").text
    assert '<script type="application/ld+json">' in html
    assert '"@type":"Article"' in html and "Sources" in html


def test_the_docs_page_has_an_anchor_for_every_error_code(client):
    html = client.get("/api-docs").text
    for code in ["bad_request", "invalid_body", "not_found", "collection_not_found", "method_not_allowed",
                 "payload_too_large", "unsupported_media_type", "rate_limited", "internal_error", "upstream_unavailable"]:
        assert f'id="error-{code}"' in html, code


def test_an_unknown_page_is_a_404_page_but_an_unknown_api_path_a_problem(client):
    r = client.get("/no/such/page")
    assert r.status_code == 404 and r.headers["Content-Type"].startswith("text/html")
    assert "Page not found" in r.text
    problem(client.get("/api/no/such/thing"), 404, "not_found")


def test_sitemap_and_robots(client):
    sitemap = client.get("/sitemap.xml")
    assert sitemap.status_code == 200
    locs = [e.text for e in ET.fromstring(sitemap.content).iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert "https://fixture.example.org/news/water-points-reopen" in locs
    assert not any("secret-plan" in loc for loc in locs)
    robots = client.get("/robots.txt").text
    assert "Sitemap: https://fixture.example.org/sitemap.xml" in robots


def test_assets_load(client):
    assert client.get("/assets/style.css").headers["Content-Type"].startswith("text/css")
    assert "modelContext" in client.get("/assets/webmcp.js").text


@pytest.mark.parametrize("url,file_path", [
    ("/", "/index.html"), ("/news", "/news.html"), ("/docs/api/getting-started", "/docs/api/getting-started.html"),
    ("/encyclopedia/asylum", "/encyclopedia/asylum.html"), ("/api/news", "/api/news.json"),
    ("/api/news/water-points-reopen", "/api/news/water-points-reopen.json"),
])
def test_a_built_file_also_answers_at_its_own_path_for_relative_links(client, url, file_path):
    canonical, by_file = client.get(url), client.get(file_path)
    assert by_file.status_code == 200
    assert by_file.content == canonical.content
    assert by_file.headers["Content-Type"] == canonical.headers["Content-Type"]


def test_pages_link_relatively_and_name_their_canonical_url(client):
    html = client.get("/docs/api/getting-started").text
    assert 'href="../../news.html"' in html
    assert re.search(r'href="../../assets/style\.[0-9a-f]{16}\.css"', html), "the theme's fingerprinted stylesheet"
    assert "<link rel=\"canonical\" href='https://fixture.example.org/docs/api/getting-started'>" in html
    assert 'action="search"' in client.get("/").text
    assert 'action="../../search"' in html, "the site header's search form, relative to the page"



def test_a_served_page_links_the_per_request_pages_on_the_server_it_came_from(client):
    # The build writes links to what it does not write (forms, weather) on the site's base URL, so
    # an offline copy reaches the live site; a server makes them root-relative (src/app.rs).
    html = client.get("/news").text
    assert 'href="/visit"' in html and 'href="/community-voices/new"' in html, "the per-request pages, local"
    assert 'href="https://fixture.example.org/' not in html, "no double-quoted link is left on the base URL"
    assert "<link rel=\"canonical\" href='https://fixture.example.org/news'>" in html, "the canonical URL names the site"

def test_a_page_with_a_trailing_slash_redirects_to_its_url(client):
    r = client.get("/news/?page=2")
    assert r.status_code == 301 and r.headers["Location"] == "/news?page=2"
    location = client.get("//evil.example/").headers.get("Location", "/")
    assert location.startswith("/") and not location.startswith("//"), "never a redirect off the site"
    assert client.get("/api/news/").status_code == 200
