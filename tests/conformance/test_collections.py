"""Collection endpoints (docs/spec/api-spec.md#collection-endpoints): the envelope and record shape;
paging, drafts and unknown records are cases of tests/cases/requests.json (test_cases.py)."""

import pytest

from conftest import problem

COLLECTIONS = [
    "services", "resources", "events", "photos", "jobs", "news", "courses", "community-voices",
    "profiles", "talents", "marketplace", "stores", "rights", "artists", "artworks", "poets",
    "dancers", "docs", "pages",
]


@pytest.mark.parametrize("name", COLLECTIONS)
def test_every_collection_answers_get_with_the_envelope(client, name):
    r = client.get(f"/api/{name}")
    assert r.status_code == 200
    assert r.headers["Content-Type"].startswith("application/json")
    body = r.json()
    assert body["status"] == "success"
    assert list(body["data"].keys()) == [name]
    assert body["count"] == len(body["data"][name])
    assert "metadata" not in body and "stats" not in body


def test_records_have_the_d2_shape(client):
    records = client.get("/api/news").json()["data"]["news"]
    assert [r["id"] for r in records] == ["pinned", "water-points-reopen", "clinic-hours", "undated-notice"]
    first = records[1]
    assert list(first)[:5] == ["id", "collection", "title", "slug", "url"]
    assert first["collection"] == "news" and first["url"] == "/news/water-points-reopen"
    assert list(first)[-1] == "body"


def test_a_record_detail_adds_html(client):
    r = client.get("/api/news/water-points-reopen")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "success" and body["count"] == 1
    record = body["data"]["news"][0]
    assert record["slug"] == "water-points-reopen"
    assert "<strong>Zone B</strong>" in record["html"]


@pytest.mark.parametrize(
    "body,metadata,stats",
    [
        (None, False, False),
        ({}, False, False),
        ({"options": {}}, False, False),
        ({"options": {"includeMetadata": True}}, True, False),
        ({"options": {"includeStats": True}}, False, True),
        ({"options": {"includeMetadata": True, "includeStats": True}}, True, True),
        ({"options": {"includeMetadata": False, "includeStats": False}, "extra": 1}, False, False),
    ],
)
def test_post_adds_metadata_and_stats_on_request(client, body, metadata, stats):
    r = client.post("/api/news", json=body) if body is not None else client.post("/api/news")
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["status"] == "success" and doc["count"] == 4
    assert ("metadata" in doc) == metadata
    assert ("stats" in doc) == stats
    if metadata:
        assert doc["metadata"]["totalCollections"] == 1
        assert doc["metadata"]["collections"] == ["news"]
        assert doc["metadata"]["exportDate"].endswith("Z")
    if stats:
        assert doc["stats"] == {"totalItems": 4, "itemsPerCollection": {"news": 4}}


@pytest.mark.parametrize(
    "raw",
    ["{", "[]", '"text"', "null", '{"options": []}', '{"options": 3}', '{"options": {"includeStats": "yes"}}'],
)
def test_a_bad_post_body_is_invalid_body(client, raw):
    r = client.post("/api/news", data=raw, headers={"Content-Type": "application/json"})
    doc = problem(r, 400, "invalid_body")
    assert doc["errors"] and all("field" in e and "message" in e for e in doc["errors"])


def test_a_non_json_body_is_unsupported_media_type(client):
    problem(client.post("/api/news", data="a=1", headers={"Content-Type": "application/x-www-form-urlencoded"}), 415, "unsupported_media_type")


def test_a_body_over_64_kib_is_payload_too_large(client):
    big = '{"pad": "' + "x" * (64 * 1024) + '"}'
    problem(client.post("/api/news", data=big, headers={"Content-Type": "application/json"}), 413, "payload_too_large")


def test_a_body_of_exactly_64_kib_is_accepted(client):
    pad = 64 * 1024 - len('{"pad": ""}')
    body = '{"pad": "' + "x" * pad + '"}'
    assert len(body) == 64 * 1024
    assert client.post("/api/news", data=body, headers={"Content-Type": "application/json"}).status_code == 200


def test_pages_redirect_to_their_canonical_url(client):
    r = client.get("/pages/about/team")
    assert r.status_code == 301
    assert r.headers["Location"] == "/about/team"
