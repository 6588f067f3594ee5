"""OGC API - Features Part 1: Core under /api/ogc (docs/spec/api-spec.md#ogc), driven by OWSLib's
client and GDAL's `ogrinfo` (Debian gdal-bin; skipped where it is not installed) as GIS tools would,
plus plain requests for paging links, limits, problems and media types."""

import json
import shutil
import subprocess

import pytest
from owslib.ogcapi.features import Features

import spec
from conftest import problem

CORE = "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core"
GEOJSON = spec.GEOJSON
OPENAPI_30 = "application/vnd.oai.openapi+json;version=3.0"


@pytest.fixture
def api(base_url):
    return Features(f"{base_url}/api/ogc")


def links(doc):
    return {link["rel"]: link for link in doc["links"]}


def ids(doc):
    return [f["id"] for f in doc["features"]]


def test_the_landing_page_links_the_description_conformance_and_data(api):
    rels = {link["rel"]: link for link in api.links}
    assert {"self", "service-desc", "conformance", "data"} <= set(rels)
    assert rels["service-desc"]["href"].endswith("/api/ogc/openapi")
    assert rels["service-desc"]["type"] == OPENAPI_30
    assert rels["data"]["href"].endswith("/api/ogc/collections")


def test_owslib_reads_the_openapi_30_description_with_each_collections_own_categories(api, client):
    doc = api.api()
    assert doc["openapi"].startswith("3.0.")
    assert client.get("/api/ogc/openapi").headers["Content-Type"] == OPENAPI_30

    def enum(collection, name):
        parameters = doc["paths"][f"/api/ogc/collections/{collection}/items"]["get"]["parameters"]
        return next(p["schema"]["enum"] for p in parameters if p.get("name") == name)

    assert enum("places", "category") == ["health", "school", "water"]
    assert enum("site-register", "category") == ["road", "shelter"]
    assert "/api/ogc/collections/public-art/items/{featureId}" in doc["paths"]


def test_a_local_preview_links_to_itself(base_url, client):
    """The build names https://fixture.example.org; the documents a GIS client follows name the
    address it asked (docs/spec/api-spec.md#ogc)."""
    for path in ["/api/ogc", "/api/ogc/collections", "/api/ogc/collections/places/items",
                 "/api/ogc/collections/places/items?limit=1", "/api/ogc/collections/places/items/bh-1"]:
        hrefs = [link["href"] for link in client.get(path).json()["links"]]
        assert hrefs and all(h.startswith(base_url + "/") for h in hrefs), (path, hrefs)
    assert client.get("/api/ogc/openapi").json()["servers"] == [{"url": base_url}]
    # Documents outside the OGC API keep the site's own address.
    assert "fixture.example.org" in client.get("/api/hsds").json()["openapi_url"]


def test_conformance_lists_core_geojson_and_oas30(api):
    classes = api.conformance()["conformsTo"]
    assert CORE in classes
    assert {c.rsplit("/", 1)[1] for c in classes} == {"core", "geojson", "oas30"}


def test_one_collection_per_register_with_its_extent(api):
    collections = {c["id"]: c for c in api.collections()["collections"]}
    assert set(collections) == {"places", "public-art", "site-register"}
    assert api.feature_collections() == list(collections)
    places = api.collection("places")
    assert places["id"] == "places" and places["itemType"] == "feature"
    assert places["extent"]["spatial"]["bbox"] == [[30.81, -1.33, 30.85, -1.29]]
    assert {link["rel"] for link in places["links"]} >= {"self", "items"}


def test_items_page_filter_and_match_by_bbox(api):
    page = api.collection_items("places", limit=2)
    assert (page["numberMatched"], page["numberReturned"], ids(page)) == (3, 2, ["bh-1", "sch-1"])
    everything = api.collection_items("places")
    assert ids(everything) == ["bh-1", "sch-1", "hc-1"] and "next" not in links(everything)
    near_school = api.collection_items("places", bbox=[30.82, -1.30, 30.84, -1.28])
    assert ids(near_school) == ["sch-1"]
    # No vertex of the road is in this box, but the road's own box meets it.
    assert ids(api.collection_items("site-register", bbox=[30.86, -1.32, 30.87, -1.31])) == ["rd-1"]
    assert ids(api.collection_items("places", category="HEALTH")) == ["hc-1"]
    assert ids(api.collection_items("places", zone="zone-a", bbox=[30.0, -2.0, 30.82, -1.0])) == ["bh-1"]


def test_one_feature_by_its_id(api):
    feature = api.collection_item("places", "sch-1")
    assert feature["type"] == "Feature" and feature["id"] == "sch-1"
    assert feature["properties"]["name"] == "École de la Paix"
    assert links(feature)["collection"]["href"].endswith("/api/ogc/collections/places")


def test_paging_links_keep_the_query_and_walk_every_feature(client):
    seen, url = [], "/api/ogc/collections/places/items?zone=zone-a&limit=1"
    while url:
        r = client.get(url)
        assert r.status_code == 200 and r.headers["Content-Type"].startswith(GEOJSON)
        doc = r.json()
        assert doc["numberMatched"] == 2 and doc["numberReturned"] == 1
        seen += ids(doc)
        rels = links(doc)
        assert rels["self"]["type"] == GEOJSON and rels["alternate"]["type"] == "application/json"
        assert "zone=zone-a" in rels["self"]["href"]
        url = rels["next"]["href"].removeprefix(client.base_url) if "next" in rels else None
        if seen == ["bh-1"]:
            assert "prev" not in rels
    assert seen == ["bh-1", "hc-1"]
    last = client.get("/api/ogc/collections/places/items?zone=zone-a&limit=1&offset=1").json()
    assert links(last)["prev"]["href"].endswith("limit=1&offset=0")


def test_a_limit_over_10000_is_served_as_10000(client):
    r = client.get("/api/ogc/collections/places/items", params={"limit": "50000"})
    assert r.status_code == 200
    assert "limit=10000" in links(r.json())["self"]["href"]
    assert r.json()["numberReturned"] == 3


def test_the_json_alternate_is_the_same_page(client):
    r = client.get("/api/ogc/collections/places/items", params={"f": "json", "limit": 1})
    assert r.headers["Content-Type"].startswith("application/json")
    assert ids(r.json()) == ["bh-1"]


@pytest.mark.parametrize(
    "params",
    [{"limit": "0"}, {"limit": "ten"}, {"offset": "-1"}, {"bbox": "30,-2,31"}, {"bbox": "30,-95,31,-1"},
     {"bbox": "a,b,c,d"}, {"bbox-crs": "http://www.opengis.net/def/crs/EPSG/0/4326"}, {"category": "lava"},
     {"f": "html"}, {"colour": "red"}, {"limit": "2", "sortby": "name"}, {"datetime": "yesterday"},
     {"datetime": "2026-03-01/2026-01-01"}],
)
def test_bad_parameters_are_400_problems(client, params):
    problem(client.get("/api/ogc/collections/places/items", params=params), 400, "bad_request")


@pytest.mark.parametrize(
    "path", ["/api/ogc", "/api/ogc/conformance", "/api/ogc/collections", "/api/ogc/collections/places",
             "/api/ogc/openapi", "/api/ogc/collections/places/items/bh-1"],
)
def test_an_unknown_parameter_is_400_on_every_document_and_f_json_is_the_document(client, path):
    """OGC API - Features Part 1 refuses a query parameter its API definition does not name."""
    doc = problem(client.get(path, params={"colour": "red"}), 400, "bad_request")
    assert "colour" in doc["detail"]
    asked = client.get(path, params={"f": "json"})
    assert asked.status_code == 200 and asked.json() == client.get(path).json()


def test_datetime_selects_the_features_of_a_dated_collection_and_is_refused_on_an_undated_one(api, client):
    assert ids(api.collection_items("site-register", datetime_="2026-03-01")) == ["blk-a"]
    assert ids(api.collection_items("site-register", datetime_="../2025-12-31")) == ["rd-1"]
    assert ids(api.collection_items("site-register", datetime_="2025-11-20T08:00:00Z/..")) == ["blk-a", "rd-1"]
    assert ids(api.collection_items("site-register", datetime_="2024-01-01/2024-12-31")) == []
    extent = api.collection("site-register")["extent"]["temporal"]["interval"]
    assert extent == [["2025-11-20T08:00:00Z", "2026-03-01T23:59:59Z"]]
    refused = problem(client.get("/api/ogc/collections/places/items", params={"datetime": "2026-03-01"}), 400,
                      "bad_request")
    assert "date" in refused["detail"]


def test_polygons_are_published_counter_clockwise(client):
    """fixtures/site writes Block A clockwise; RFC 7946 wants exterior rings counter-clockwise."""
    block = client.get("/api/ogc/collections/site-register/items/blk-a").json()
    ring = block["geometry"]["coordinates"][0]
    area = sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(ring, ring[1:]))
    assert area > 0 and ring[0] == ring[-1]
    spatial = {f["id"]: f for f in client.get("/api/v1/spatial.json").json()["features"]}
    assert spatial["blk-a"]["geometry"] == block["geometry"]


def ogrinfo(*args):
    if shutil.which("ogrinfo") is None:
        pytest.skip("GDAL's ogrinfo is not installed (Debian gdal-bin)")
    run = subprocess.run(["ogrinfo", "-ro", *args], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_gdal_lists_the_collections_and_reads_every_feature(base_url):
    listed = ogrinfo(f"OAPIF:{base_url}/api/ogc")
    for collection in ["places", "public-art", "site-register"]:
        assert collection in listed
    places = ogrinfo("-al", "-so", f"OAPIF:{base_url}/api/ogc", "places")
    assert "Feature Count: 3" in places, places
    features = ogrinfo("-al", "-oo", "PAGE_SIZE=1", f"OAPIF:{base_url}/api/ogc", "places")
    assert all(f"id (String) = {fid}" in features for fid in ["bh-1", "sch-1", "hc-1"]), features
    box = ogrinfo("-al", "-spat", "30.82", "-1.30", "30.84", "-1.28", f"OAPIF:{base_url}/api/ogc", "places")
    assert "sch-1" in box and "bh-1" not in box, box


def test_unknown_collections_and_features_are_404_problems(client):
    problem(client.get("/api/ogc/collections/nowhere"), 404, "not_found")
    problem(client.get("/api/ogc/collections/nowhere/items"), 404, "not_found")
    problem(client.get("/api/ogc/collections/nowhere/items", params={"limit": 1}), 404, "not_found")
    problem(client.get("/api/ogc/collections/places/items/no-such-feature"), 404, "not_found")


def test_percent_encoded_feature_ids_are_decoded(client):
    r = client.get("/api/ogc/collections/places/items/%62h%2D1")
    assert r.status_code == 200 and r.json()["id"] == "bh-1"


@pytest.mark.parametrize(
    "path,media",
    [("/api/ogc", "application/json"), ("/api/ogc/conformance", "application/json"),
     ("/api/ogc/collections", "application/json"), ("/api/ogc/collections/places", "application/json"),
     ("/api/ogc/collections/places/items", GEOJSON), ("/api/ogc/collections/places/items?limit=1", GEOJSON),
     ("/api/ogc/collections/places/items/bh-1", GEOJSON)],
)
def test_media_types_and_cors(client, path, media):
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["Content-Type"].startswith(media)
    assert r.headers["Access-Control-Allow-Origin"] == "*"


def test_the_built_first_page_equals_the_answer_to_the_same_query(client):
    built = client.get("/api/ogc/collections/site-register/items").json()
    asked = client.get("/api/ogc/collections/site-register/items", params={"offset": 0}).json()
    assert ids(built) == ids(asked) and built["numberMatched"] == asked["numberMatched"] == 2
