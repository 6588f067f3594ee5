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


def sandbox_of(response):
    """The tokens of the `sandbox` directive of a response's policy, or None without one."""
    for directive in csp_directives(response):
        if directive == "sandbox" or directive.startswith("sandbox "):
            return directive.split()[1:]
    return None


@pytest.mark.parametrize("path,media_type", [
    ("/media/badge.svg", "image/svg+xml"),
    ("/files/leaflet.html", "text/html; charset=utf-8"),
])
def test_a_static_document_is_sandboxed_so_its_script_never_runs_on_the_origin(client, path, media_type):
    r = client.get(path)
    assert r.status_code == 200 and r.headers["Content-Type"] == media_type, path
    assert "<script" in r.text, "the fixture document holds a script"
    tokens = sandbox_of(r)
    assert tokens is not None and "allow-scripts" not in tokens and "allow-same-origin" not in tokens, tokens
    assert "script-src 'none'" in csp_directives(r) and "default-src 'self'" in csp_directives(r)
    assert "frame-ancestors 'none'" in csp_directives(r)
    assert r.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("path", ["/media/pump.jpg", "/_img/480/media/pump.jpg", "/files/plan.pdf",
                                  "/files/checklist.txt", "/files/widget.js"])
def test_static_files_carry_the_security_headers_of_pages(client, path):
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert "frame-ancestors 'none'" in csp_directives(r) and sandbox_of(r) is None


@pytest.mark.parametrize("path", ["/about/team", "/news"])
def test_markdown_twins_publish_no_raw_html_or_script_urls(client, path):
    twin = client.get(path, headers={"Accept": "text/markdown"})
    assert twin.headers["Content-Type"].startswith("text/markdown")
    for bad in ["<script", "document.title", "onclick", "onerror", "javascript:", "evil.example", "<iframe"]:
        assert bad not in twin.text, f"{bad} in {path}'s twin"
