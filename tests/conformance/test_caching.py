"""Cache-Control (docs/spec/api-spec.md#caching): one policy on every server. Built files for site.yaml `cache:` (the
fixture sets max_age 600 and keeps the default stale-while-revalidate), answers computed per request
for 60 seconds, errors and answers to writes never stored; ETag revalidation keeps the policy."""

import re

BUILT = "public, max-age=600, stale-while-revalidate=86400"


def test_a_revalidation_keeps_the_policy(client):
    etag = client.get("/api/news").headers["ETag"]
    r = client.get("/api/news", headers={"If-None-Match": etag})
    assert r.status_code == 304 and r.headers["Cache-Control"] == BUILT


def test_an_accepted_write_is_never_stored(client):
    # Reads that fail are in tests/cases/requests.json ("errors are never stored").
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

