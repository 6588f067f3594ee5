"""Safe HTML and security headers (SECURITY.md): what content may run on a page, and what every page
tells the browser, the same on every server."""

import re

import pytest

PAGES = ["/", "/news", "/about/team", "/search?q=water", "/visit", "/community-voices/new", "/no-such-page"]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_carries_the_security_headers(client, path):
    r = client.get(path)
    assert r.headers["Content-Type"].startswith("text/html")
    csp = r.headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["script-src"] == "'self'" and "unsafe-inline" not in csp
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"
    assert directives["form-action"] == "'self'"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert "camera=()" in r.headers["Permissions-Policy"]


def test_every_answer_forbids_type_sniffing(client):
    for path in ["/api/news", "/api/openapi.json", "/api/nope", "/llms.txt"]:
        assert client.get(path).headers["X-Content-Type-Options"] == "nosniff", path


def test_pages_run_no_inline_script(client):
    for path in PAGES:
        body = client.get(path).text
        for script in re.findall(r"<script\b[^>]*>", body):
            assert "src=" in script or "application/ld+json" in script, f"{path}: {script}"
        assert not re.search(r"\son[a-z]+\s*=", body), path
        assert " style=" not in body, path


def test_raw_html_in_content_is_cleaned(client):
    page = client.get("/about/team").text
    record = client.get("/api/pages/about/team").json()["data"]["pages"][0]
    for html in [page, record["html"]]:
        assert "document.title" not in html and "onclick" not in html and "onerror" not in html
        assert "javascript:" not in html and "evil.example" not in html
        assert 'alt="the office"' in html
    assert "<script>" in record["body"], "the markdown source is kept as written"


def csp_directives(response):
    return [d.strip() for d in response.headers["Content-Security-Policy"].split(";")]


def test_a_static_svg_is_sandboxed_so_its_script_never_runs(client):
    r = client.get("/media/badge.svg")
    assert r.status_code == 200 and r.headers["Content-Type"] == "image/svg+xml"
    assert "<script>" in r.text, "the fixture SVG holds a script"
    assert "sandbox" in csp_directives(r)
    assert "default-src 'self'" in csp_directives(r), "the site's policy holds too"
    assert r.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("path", ["/media/pump.jpg", "/_img/480/media/pump.jpg", "/files/plan.pdf", "/files/checklist.txt"])
def test_static_files_carry_the_security_headers_of_pages(client, path):
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert "frame-ancestors 'none'" in csp_directives(r) and "sandbox" not in csp_directives(r)


@pytest.mark.parametrize("path", ["/about/team", "/news"])
def test_markdown_twins_publish_no_raw_html_or_script_urls(client, path):
    twin = client.get(path, headers={"Accept": "text/markdown"})
    assert twin.headers["Content-Type"].startswith("text/markdown")
    for bad in ["<script", "document.title", "onclick", "onerror", "javascript:", "evil.example", "<iframe"]:
        assert bad not in twin.text, f"{bad} in {path}'s twin"
