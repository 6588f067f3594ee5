"""The Open Referral HSDS 3.0 API (docs/spec/api-spec.md#hsds): every list (with paging and each
filter) and every item validates against the HSDS 3.0 compiled schemas, ids are the same on
another build, and bad parameters and unknown ids are problem documents.

The schemas are the copies in `tests/standards/hsds-3.0/` (or `$HSDS_SCHEMAS`)."""

import json
import os
import subprocess
import tempfile
from pathlib import Path

import pytest

import servers
from conftest import problem
from hsds_schemas import valid

KINDS = ["services", "organizations", "service_at_locations", "taxonomies", "taxonomy_terms"]


ENVELOPE = {"total_items", "total_pages", "page_number", "size", "first_page", "last_page", "empty", "contents"}


def page(client, kind, query=""):
    response = client.get(f"/api/hsds/{kind}{query}")
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == ENVELOPE, body.keys()
    assert body["size"] == len(body["contents"])
    assert body["empty"] == (not body["contents"])
    for item in body["contents"]:
        valid(kind, item, listed=True)
    return body


def every(client, kind, query=""):
    """Every item of a list, page by page (two at a time, to cross pages)."""
    items, n = [], 1
    sep = "&" if query else "?"
    while True:
        body = page(client, kind, f"{query}{sep}per_page=2&page={n}" if query else f"?per_page=2&page={n}")
        items.extend(body["contents"])
        if body["last_page"]:
            return items
        n += 1


def test_the_root_names_the_version_and_the_openapi_document(client):
    body = client.get("/api/hsds").json()
    assert body["version"] == "3.0"
    assert body["profile"].startswith("https://")
    assert body["openapi_url"].endswith("/api/openapi.json")


@pytest.mark.parametrize("kind", KINDS)
def test_every_list_and_every_item_meets_the_hsds_schemas(client, kind):
    first = page(client, kind)
    assert first["page_number"] == 1 and first["first_page"]
    items = every(client, kind)
    assert len(items) == first["total_items"]
    assert [i["id"] for i in items][:50] == [i["id"] for i in first["contents"]]
    for listed in items:
        response = client.get(f"/api/hsds/{kind}/{listed['id']}")
        assert response.status_code == 200, response.text
        item = response.json()
        assert item["id"] == listed["id"]
        valid(kind, item, listed=False)


def test_services_map_the_front_matter(client):
    services = every(client, "services")
    assert services, "the fixture site has services"
    legal = next(s for s in services if s["name"] == "Legal aid desk")
    full = client.get(f"/api/hsds/services/{legal['id']}").json()
    assert full["status"] == "active"
    assert full["email"] == "desk@legal.example.org"
    assert full["url"].endswith("/services/legal-aid")
    numbers = {p["number"] for p in full["phones"]}
    assert {"+256700000104", "+256700000105", "0700000106"} <= numbers
    assert [(s["byday"], s["opens_at"], s["closes_at"]) for s in full["schedules"]] == [
        ("MO,TU,WE,TH,FR", "09:00:00", "16:00:00")]
    legal_address = full["service_at_locations"][0]["location"]["addresses"][0]
    # fixtures/site/site.yaml `address` stands in for what the record does not say.
    assert (legal_address["city"], legal_address["country"]) == ("Fixture Town", "KE")
    cafe = next(s for s in services if s["name"].startswith("Café Amani"))
    full = client.get(f"/api/hsds/services/{cafe['id']}").json()
    assert [lang["code"] for lang in full["languages"]] == ["fr", "sw", "ar"]
    location = full["service_at_locations"][0]["location"]
    assert (location["latitude"], location["longitude"]) == (-1.2921, 36.8219)
    address = location["addresses"][0]
    assert (address["address_1"], address["city"], address["postal_code"], address["country"]) == (
        "Plot 7, Moi Avenue", "Nairobi", "00100", "KE")
    assert full["description"].endswith("Ouvert tous les jours.\n\nThé offert le vendredi."), full["description"]


def test_a_first_page_with_no_parameters_equals_the_handlers_answer(client):
    for kind in KINDS:
        built = client.get(f"/api/hsds/{kind}").json()
        handled = client.get(f"/api/hsds/{kind}?page=1").json()
        assert built == handled, kind


def test_paging_splits_the_list(client):
    whole = page(client, "services", "?per_page=500")
    assert whole["total_pages"] == 1 and whole["last_page"]
    one = page(client, "services", "?per_page=1&page=2")
    assert one["page_number"] == 2 and one["size"] == 1 and not one["first_page"]
    assert one["contents"][0]["id"] == whole["contents"][1]["id"]
    assert one["total_pages"] == whole["total_items"]
    past = page(client, "services", f"?per_page=1&page={whole['total_items'] + 5}")
    assert past["empty"] and past["size"] == 0


def test_each_service_filter_keeps_what_it_names(client):
    services = [client.get(f"/api/hsds/services/{s['id']}").json() for s in every(client, "services")]
    term = services[0]["attributes"][0]["taxonomy_term"] if services[0]["attributes"] else None
    terms = every(client, "taxonomy_terms")
    if term is None:
        term = terms[0]
    with_term = {s["id"] for s in services if any(a["taxonomy_term_id"] == term["id"] for a in s["attributes"])}
    assert {s["id"] for s in every(client, "services", f"?taxonomy_term_id={term['id']}")} == with_term
    with_taxonomy = {s["id"] for s in services
                     if any(a["taxonomy_term"]["taxonomy_id"] == term["taxonomy_id"] for a in s["attributes"])}
    assert {s["id"] for s in every(client, "services", f"?taxonomy_id={term['taxonomy_id']}")} == with_taxonomy
    organization = services[0]["organization_id"]
    assert {s["id"] for s in every(client, "services", f"?organization_id={organization}")} == {
        s["id"] for s in services if s["organization_id"] == organization}
    assert every(client, "services", "?organization_id=00000000-0000-0000-0000-000000000000") == []
    dated = sorted(s["last_modified"] for s in services if "last_modified" in s)
    if dated:
        after = {s["id"] for s in services if s.get("last_modified", "") >= dated[0]}
        assert {s["id"] for s in every(client, "services", f"?modified_after={dated[0]}")} == after
    assert {t["id"] for t in every(client, "taxonomy_terms", f"?taxonomy_id={term['taxonomy_id']}")} == {
        t["id"] for t in terms if t["taxonomy_id"] == term["taxonomy_id"]}


def test_modified_after_is_on_or_after(client):
    """Open Referral's API reference: "modified on or after this datetime"; the legal aid desk was
    updated on 2026-10-28 (midnight UTC), so a daily sync asking from that day gets it."""
    legal = {"Legal aid desk"}
    for moment in ["2026-10-28", "2026-10-28T00:00:00Z", "2026-10-28T03:00:00%2B03:00"]:
        assert {s["name"] for s in every(client, "services", f"?modified_after={moment}")} == legal, moment
        located = every(client, "service_at_locations", f"?modified_after={moment}")
        assert {at["service"]["name"] for at in located} == legal, moment
    assert every(client, "services", "?modified_after=2026-10-28T00:00:01Z") == []
    assert every(client, "services", "?modified_after=2026-10-29") == []


def test_the_reference_filters_of_every_list_are_implemented(client):
    services = {s["name"]: s for s in every(client, "services")}
    legal = services["Legal aid desk"]
    located = every(client, "service_at_locations", f"?organization_id={legal['organization_id']}")
    assert {at["service"]["id"] for at in located} == {legal["id"]}
    assert every(client, "service_at_locations", "?organization_id=00000000-0000-0000-0000-000000000000") == []
    assert {at["service"]["name"] for at in every(client, "service_at_locations", "?search=market")} == {
        "Café Amani — École des langues"}
    assert {o["name"] for o in every(client, "organizations", "?search=legal")} == {"Legal Aid Society"}
    assert [t["name"] for t in every(client, "taxonomies", "?search=tags")] == ["tags"]
    terms = every(client, "taxonomy_terms")
    assert {t["code"] for t in every(client, "taxonomy_terms", "?search=legal")} == {"legal", "legal-aid"}
    assert every(client, "taxonomy_terms", "?top_only=true") == terms, "the site's terms have no parent"
    assert every(client, "taxonomy_terms", f"?parent_id={terms[0]['id']}") == []


@pytest.mark.parametrize("kind,query", [
    ("services", "format=ndjson"), ("services", "minimal=true"), ("services", "full=true"),
    ("organizations", "full_service=true"), ("organizations", "colour=red"), ("taxonomies", "taxonomy_id=x"),
    ("service_at_locations", "postcode=00100"), ("service_at_locations", "proximity=500"),
    ("taxonomy_terms", "organization_id=x"), ("taxonomy_terms", "top_only=maybe")])
def test_a_filter_a_list_does_not_take_is_400_naming_it(client, kind, query):
    doc = problem(client.get(f"/api/hsds/{kind}?{query}"), 400, "bad_request")
    assert query.split("=")[0] in doc["detail"], doc["detail"]


def test_search_goes_through_the_sites_search(client):
    found = every(client, "services", "?search=legal")
    assert "Legal aid desk" in {s["name"] for s in found}
    assert every(client, "services", "?search=zzzqqqxxy") == []


@pytest.mark.parametrize("query", ["page=0", "page=x", "per_page=0", "per_page=501", "per_page=-3",
                                   "modified_after=yesterday", "search=a"])
def test_bad_parameters_are_bad_requests(client, query):
    problem(client.get(f"/api/hsds/services?{query}"), 400, "bad_request")


@pytest.mark.parametrize("kind", KINDS)
def test_an_unknown_id_is_not_found(client, kind):
    problem(client.get(f"/api/hsds/{kind}/00000000-0000-0000-0000-000000000000"), 404, "not_found")


def test_ids_are_the_same_on_another_build(client):
    served = {kind: [i["id"] for i in every(client, kind)] for kind in KINDS}
    with tempfile.TemporaryDirectory(dir=servers.ROOT / "target") as out:
        env = {**os.environ, "SOURCE_DATE_EPOCH": "1800000000"}
        subprocess.run(
            [str(servers.PORTAL), "build", "--content", str(servers.ROOT / "fixtures" / "site"), "--out", out,
             "--cache-dir", str(Path(out) / ".cache")],
            check=True, env=env, capture_output=True)
        data = json.loads((Path(out) / "_portal" / "hsds.json").read_text(encoding="utf-8"))
    for kind in KINDS:
        assert [i["id"] for i in data[kind]] == served[kind], kind
