"""Query power on collection listings (docs/spec/api-spec.md#collection-query): filters, sorting and
field selection, composed with paging and POST options; the same answers on every server."""

from conftest import problem


def ids(r):
    assert r.status_code == 200, r.text
    return [record["id"] for record in r.json()["data"]["news"]]


def test_a_filter_matches_scalars_ignoring_case_and_lists_by_membership(client):
    assert ids(client.get("/api/news?filter[category]=INFRASTRUCTURE")) == ["water-points-reopen"]
    assert ids(client.get("/api/news?filter[tags]=health")) == ["clinic-hours"]
    assert ids(client.get("/api/news?filter%5Btags%5D=Zone-B")) == ["water-points-reopen"]


def test_commas_are_alternatives_and_several_filters_must_all_match(client):
    assert ids(client.get("/api/news?filter[tags]=health,water")) == ["water-points-reopen", "clinic-hours"]
    assert ids(client.get("/api/news?filter[tags]=health,water&filter[category]=infrastructure")) == ["water-points-reopen"]


def test_bounds_compare_dates(client):
    assert ids(client.get("/api/news?filter[date][gte]=2026-11-01")) == ["water-points-reopen"]
    assert ids(client.get("/api/news?filter[date][lte]=2026-10-31")) == ["clinic-hours"]
    problem(client.get("/api/news?filter[date][gte]=soon"), 400, "bad_request")


def test_total_counts_the_matches_and_paging_applies_after_filtering(client):
    body = client.get("/api/news?filter[tags]=health,water&limit=1&offset=1").json()
    assert (body["total"], body["count"]) == (2, 1)
    assert body["data"]["news"][0]["id"] == "clinic-hours"


def test_an_unknown_field_is_a_bad_request_that_suggests_the_nearest(client):
    r = client.get("/api/news?filter[catgory]=x")
    problem(r, 400, "bad_request")
    assert "`category`" in r.json()["detail"]
    problem(client.get("/api/news?sort=-dat"), 400, "bad_request")
    problem(client.get("/api/news?fields=title,nope"), 400, "bad_request")


def test_sort_orders_by_fields_with_missing_values_last(client):
    assert ids(client.get("/api/news?sort=date")) == ["clinic-hours", "water-points-reopen", "pinned", "undated-notice"]
    assert ids(client.get("/api/news?sort=-date")) == ["water-points-reopen", "clinic-hours", "pinned", "undated-notice"]
    assert ids(client.get("/api/news?sort=title")) == ["clinic-hours", "undated-notice", "pinned", "water-points-reopen"]


def test_fields_keep_only_those_and_the_identifying_members(client):
    records = client.get("/api/news?fields=title&filter[tags]=health").json()["data"]["news"]
    assert records == [{"id": "clinic-hours", "collection": "news", "title": "Clinic hours extended",
                        "slug": "clinic-hours", "url": "/news/clinic-hours"}]


def test_post_options_compose_with_the_query(client):
    r = client.post("/api/news?filter[tags]=water&fields=title", json={"options": {"includeStats": True}})
    body = r.json()
    assert r.status_code == 200 and body["total"] == 1 and body["stats"]["totalItems"] == 1
    assert set(body["data"]["news"][0]) == {"id", "collection", "title", "slug", "url"}
