"""Plain static hosting: Debian's nginx serving a build with the snippet `portal build` writes
(`_portal/nginx.conf`) sends every static URL with the bytes, media type and headers of `portal serve`."""

import re
import shutil

import pytest

import requests

import servers

pytestmark = pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed (scripts/test installs it)")


@pytest.fixture(scope="module")
def nginx():
    server = servers.start_nginx(servers.conformance_dist())
    yield server.base_url
    server.stop()


def built_routes():
    return servers.routes(servers.conformance_dist())


def test_every_static_url_has_the_bytes_and_media_type_of_the_build(nginx):
    routes = built_routes()
    assert len(routes) > 100
    wrong = []
    for route, asset in routes.items():
        r = requests.get(nginx + route, timeout=10)
        body = (servers.conformance_dist() / asset["file"]).read_bytes()
        if (r.status_code, r.headers.get("Content-Type"), r.content) != (200, asset["type"], body):
            wrong.append(f"{route}: {r.status_code} {r.headers.get('Content-Type')}")
    assert not wrong, "\n".join(wrong)


def test_files_answer_at_their_own_path_for_the_relative_links(nginx):
    for path, kind in [("/news.html", "text/html"), ("/api/news.json", "application/json"), ("/", "text/html"),
                       ("/news/water-points-reopen.md", "text/markdown"), ("/api/rss.xml", "application/rss+xml")]:
        r = requests.get(nginx + path, timeout=10)
        assert r.status_code == 200 and r.headers["Content-Type"].startswith(kind), path
    # Files of records, typed by locations the snippet derives from the routes' file rules.
    routes = built_routes()
    for suffix in ["/jsonld", ".ics"]:
        asset = next(a for route, a in routes.items() if route.endswith(suffix) and route != "/events.ics")
        r = requests.get(f"{nginx}/{asset['file']}", timeout=10)
        assert (r.status_code, r.headers["Content-Type"]) == (200, asset["type"]), asset["file"]


def test_shared_and_special_headers(nginx):
    api = requests.get(nginx + "/api/news", timeout=10)
    assert api.headers["Access-Control-Allow-Origin"] == "*" and api.headers["API-Version"] == "1.0.0"
    page = requests.get(nginx + "/news", timeout=10)
    assert 'rel="service-desc"' in page.headers["Link"] and page.headers["Access-Control-Allow-Origin"] == "*"
    deprecated = requests.get(nginx + "/api/analytics/pageviews", timeout=10)
    assert "Sunset" in deprecated.headers and deprecated.headers["API-Version"] == "1.0.0"


def test_static_files_carry_the_security_headers_and_static_documents_their_sandbox(nginx):
    for path in ["/media/badge.svg", "/files/leaflet.html"]:
        document = requests.get(nginx + path, timeout=10)
        directives = [d.strip() for d in document.headers["Content-Security-Policy"].split(";")]
        assert any(d.startswith("sandbox") for d in directives) and "script-src 'none'" in directives, path
        assert "allow-scripts" not in document.headers["Content-Security-Policy"], path
        assert document.headers["X-Content-Type-Options"] == "nosniff"
    image = requests.get(nginx + "/media/pump.jpg", timeout=10)
    assert "frame-ancestors 'none'" in image.headers["Content-Security-Policy"]
    assert "sandbox" not in image.headers["Content-Security-Policy"]
    assert image.headers["X-Content-Type-Options"] == "nosniff" and image.headers["Access-Control-Allow-Origin"] == "*"


def test_the_cache_policy_of_the_servers(nginx):
    built = "public, max-age=600, stale-while-revalidate=86400"
    for path in ["/api/news", "/news", "/news/water-points-reopen.md", "/api/rss"]:
        assert requests.get(nginx + path, timeout=10).headers["Cache-Control"] == built, path
    for path in ["/no/such/page", "/api/no/such/thing"]:
        assert requests.get(nginx + path, timeout=10).headers["Cache-Control"] == "no-store", path
    stylesheet = re.search(r'href="(assets/style\.[0-9a-f]{16}\.css)"', requests.get(nginx + "/", timeout=10).text)
    r = requests.get(f"{nginx}/{stylesheet.group(1)}", timeout=10)
    assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert r.headers["Content-Type"].startswith("text/css")


def test_internal_files_stay_private_and_misses_are_404s(nginx):
    for path in ["/_portal/manifest.json", "/_portal/nginx.conf", "/_headers", "/_portal/../_portal/manifest.json"]:
        assert requests.get(nginx + path, timeout=10).status_code == 404, path
    page = requests.get(nginx + "/no/such/page", timeout=10)
    assert page.status_code == 404 and "Page not found" in page.text
    api = requests.get(nginx + "/api/no/such/thing", timeout=10)
    assert api.status_code == 404 and api.headers["Content-Type"] == "application/problem+json"
    assert api.json()["code"] == "not_found"
