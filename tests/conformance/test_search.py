"""GET /api/search (docs/spec/api-spec.md#search)."""

import pytest

from conftest import problem


def search(client, **params):
    r = client.get("/api/search", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def slugs(body, collection):
    return [hit["slug"] for hit in body["results"].get(collection, [])]


def test_the_response_has_the_spec_shape(client):
    body = search(client, q="water")
    assert body["status"] == "success" and body["query"] == "water" and body["cached"] is False
    assert body["totalResults"] == sum(len(hits) for hits in body["results"].values())
    assert set(body["totals"]) == {
        "services", "resources", "events", "photos", "jobs", "news", "courses", "community-voices", "profiles",
        "talents", "marketplace", "stores", "rights", "artists", "artworks", "poets", "dancers", "docs", "pages",
    }
    for collection, hits in body["results"].items():
        assert hits, "only collections with hits are listed"
        for hit in hits:
            assert set(hit) >= {"slug", "title", "collection", "url"}
            assert hit["collection"] == collection
            assert hit["url"] == f"/{collection}/{hit['slug']}"


@pytest.mark.parametrize("q", ["cafe", "CAFÉ", "école", "Ecole"])
def test_matching_ignores_case_and_accents(client, q):
    assert slugs(search(client, q=q), "services") == ["cafe-amani"]


def test_the_last_word_matches_as_a_prefix(client):
    assert slugs(search(client, q="clin", collections="news"), "news") == ["clinic-hours"]
    assert slugs(search(client, q="clin hours", collections="news"), "news") == []


def test_every_word_must_match(client):
    assert slugs(search(client, q="water zone", collections="news"), "news") == ["water-points-reopen"]
    assert search(client, q="clinic zone", collections="news")["totalResults"] == 0


def test_a_title_match_ranks_above_a_body_match(client):
    assert slugs(search(client, q="water", collections="resources"), "resources") == ["water-safety", "hygiene-kit"]


def test_collections_restricts_the_scope(client):
    body = search(client, q="water", collections="services,docs")
    assert set(body["totals"]) == {"services", "docs"}
    assert "resources" not in body["results"]


def test_entries_adds_the_encyclopedia_to_the_scope(client):
    body = search(client, q="water", collections="entries")
    assert set(body["totals"]) == {"entries"}


def test_limit_caps_hits_per_collection_and_totals_count_all(client):
    body = search(client, q="water", collections="resources", limit=1)
    assert len(body["results"]["resources"]) == 1
    assert body["totals"]["resources"] == 2


def test_drafts_are_never_found(client):
    assert search(client, q="unpublished")["totalResults"] == 0
    assert search(client, q="never appear")["totalResults"] == 0


def test_a_second_identical_query_is_cached(client, new_client):
    first = search(client, q="hygiene kits")
    assert first["cached"] is False
    second = search(new_client(), q="hygiene kits")
    assert second["cached"] is True
    assert {k: v for k, v in second.items() if k != "cached"} == {k: v for k, v in first.items() if k != "cached"}


def test_search_is_rate_limited(client):
    r = client.get("/api/search", params={"q": "water"})
    assert r.headers["RateLimit-Limit"] == "60"
    assert int(r.headers["RateLimit-Remaining"]) == 59


def test_the_flat_index_lists_every_published_record(client):
    r = client.get("/api/search-index.json")
    assert r.status_code == 200
    entries = r.json()
    assert {"slug", "title", "collection", "url", "summary", "tags", "date"} <= set(entries[0])
    urls = {e["url"] for e in entries}
    assert "/news/water-points-reopen" in urls and "/about/team" in urls
    assert not any("secret-plan" in u for u in urls)


def test_an_empty_collections_parameter_means_the_default_scope(client):
    body = search(client, q="water", collections="")
    assert len(body["totals"]) == 19 and "entries" not in body["totals"]
    problem(client.get("/api/search", params={"q": "water", "collections": "news,,docs"}), 400, "bad_request")
