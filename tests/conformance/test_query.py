"""Query power on collection listings (docs/spec/api-spec.md#collection-query): filters, sorting and
field selection, composed with paging and POST options; the same answers on every server."""

# Filters, sorting, fields and paging by the query string alone: tests/cases/requests.json.


def test_post_options_compose_with_the_query(client):
    r = client.post("/api/news?filter[tags]=water&fields=title", json={"options": {"includeStats": True}})
    body = r.json()
    assert r.status_code == 200 and body["total"] == 1 and body["stats"]["totalItems"] == 1
    assert set(body["data"]["news"][0]) == {"id", "collection", "title", "slug", "url"}
