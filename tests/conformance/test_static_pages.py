"""Static pages of listings and the JSON Schemas of collections (docs/spec/api-spec.md#static-pages,
#schemas): files a plain CDN or an offline copy serves, answered the same by every server."""

import jsonschema

COLLECTIONS = [
    "services", "resources", "events", "photos", "jobs", "news", "courses", "community-voices",
    "profiles", "talents", "marketplace", "stores", "rights", "artists", "artworks", "poets",
    "dancers", "docs", "pages",
]


def test_every_record_is_on_exactly_one_static_page_in_order(client):
    listing = client.get("/api/news").json()["data"]["news"]
    seen, url = [], "/api/news/_page/1"
    while url:
        r = client.get(url)
        assert r.status_code == 200 and r.headers["Content-Type"].startswith("application/json")
        page = r.json()
        assert page["status"] == "success" and page["total"] == len(listing) and page["pageSize"] == 2
        assert page["count"] == len(page["data"]["news"]) <= 2
        assert page["links"]["self"] == url and page["links"]["first"] == "/api/news/_page/1"
        assert page["links"]["last"] == f"/api/news/_page/{page['totalPages']}"
        seen += page["data"]["news"]
        url = page["links"].get("next")
    assert seen == listing


def test_pages_link_back_and_a_page_past_the_end_is_not_found(client):
    second = client.get("/api/news/_page/2").json()
    assert second["links"]["prev"] == "/api/news/_page/1"
    assert client.get("/api/news/_page/99").status_code == 404
    assert client.get("/api/news/_page/1.json").status_code == 200


def test_an_empty_collection_has_one_empty_page(client):
    page = client.get("/api/poets/_page/1").json()
    assert (page["count"], page["total"], page["totalPages"]) == (0, 0, 1)


def test_every_record_validates_against_its_collection_schema(client):
    for name in COLLECTIONS:
        r = client.get(f"/api/schemas/{name}.json")
        assert r.status_code == 200 and r.headers["Content-Type"].startswith("application/schema+json")
        schema = r.json()
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
        for record in client.get(f"/api/{name}").json()["data"][name]:
            validator.validate(record)
            validator.validate(client.get(f"/api/{name}/{record['slug']}").json()["data"][name][0])


def test_schemas_say_what_records_share(client):
    schema = client.get("/api/schemas/news.json").json()
    assert schema["properties"]["collection"] == {"const": "news"}
    assert {"id", "title", "slug", "url", "summary"} <= set(schema["required"])
    assert schema["properties"]["tags"]["type"] == "array"
