"""Safe HTML and security headers (issue 17): what content may run on a page, and what every page
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
