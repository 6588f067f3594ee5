"""Cache-Control (docs/spec/api-spec.md#caching): one policy on every server. Built files for site.yaml `cache:` (the
fixture sets max_age 600 and keeps the default stale-while-revalidate), answers computed per request
for 60 seconds, errors and answers to writes never stored; ETag revalidation keeps the policy."""

import re

BUILT = "public, max-age=600, stale-while-revalidate=86400"
DYNAMIC = "public, max-age=60"


def test_built_json_pages_and_feeds_follow_the_site_setting(client):
    for path in ["/api/news", "/news", "/api/news/water-points-reopen", "/api/rss", "/", "/api/openapi.json"]:
        r = client.get(path)
        assert r.status_code == 200, path
        assert r.headers["Cache-Control"] == BUILT, path


def test_a_revalidation_keeps_the_policy(client):
    etag = client.get("/api/news").headers["ETag"]
    r = client.get("/api/news", headers={"If-None-Match": etag})
    assert r.status_code == 304 and r.headers["Cache-Control"] == BUILT


def test_answers_computed_per_request_are_kept_briefly(client):
    for path in ["/api/search?q=cachingprobe", "/api/news?filter[tags]=health", "/api/news?limit=1", "/search?q=cachingprobe"]:
        r = client.get(path)
        assert r.status_code == 200, path
        assert r.headers["Cache-Control"] == DYNAMIC, path


def test_errors_and_writes_are_never_stored(client):
    for path in ["/api/no-such-collection", "/api/news/no-such-record", "/api/search?q=", "/no/such/page"]:
        r = client.get(path)
        assert r.status_code >= 400, path
        assert r.headers["Cache-Control"] == "no-store", path
    r = client.post("/api/submit-voice", json={"title": "x"})
    assert r.status_code == 400 and r.headers["Cache-Control"] == "no-store"
    r = client.post("/api/submit-voice", json={"title": "Cache test", "author": "Tester", "content": "A voice about caching."})
    assert r.status_code == 202 and r.headers["Cache-Control"] == "no-store"


def test_the_theme_links_assets_whose_name_carries_their_hash_and_caches_keep_them_for_ever(client):
    page = client.get("/news").text
    links = re.findall(r'(?:href|src)="((?:\.\./)*assets/[a-z]+\.[0-9a-f]{16}\.(?:css|js))"', page)
    assert len(links) >= 3, page[:2000]  # the styles, webmcp.js, offline.js (and any script added since)
    for link in links:
        r = client.get("/" + link.lstrip("./"))
        assert r.status_code == 200
        assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        plain = client.get("/assets/" + re.sub(r"\.[0-9a-f]{16}\.", ".", link.rsplit("/", 1)[1]))
        assert plain.content == r.content and plain.headers["Cache-Control"] == BUILT


def test_the_service_worker_is_revalidated_on_every_visit(client):
    # docs/offline.md#updates: a new build's worker reaches readers on their next visit.
    r = client.get("/sw.js")
    assert r.status_code == 200 and r.headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert r.headers["Cache-Control"] == "no-cache"
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200 and r.headers["Content-Type"] == "application/manifest+json"
    assert r.headers["Cache-Control"] == BUILT
