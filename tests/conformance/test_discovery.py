"""Discovery documents: OpenAPI, API catalog, llms.txt, status, deprecation policy, server card and
agent skills (docs/spec/api-spec.md#discovery, #versioning)."""

import hashlib
import re

from openapi_spec_validator import validate


def test_openapi_is_a_valid_3_1_document_with_unique_operation_ids(client):
    r = client.get("/api/openapi.json")
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("application/openapi+json")
    doc = r.json()
    validate(doc)
    assert doc["openapi"].startswith("3.1") and doc["jsonSchemaDialect"]
    assert doc["info"]["license"]["name"] == "CC BY-SA 4.0"
    ids = [op["operationId"] for item in doc["paths"].values() for method, op in item.items() if isinstance(op, dict) and "operationId" in op]
    assert len(ids) == len(set(ids))
    for path in ["/api/{collection}", "/api/search", "/api/encyclopedia", "/api/export", "/api/submit-voice", "/mcp", "/api/v1/spatial.json"]:
        assert path in doc["paths"], path
    booking = doc["paths"]["/api/send-booking-confirmation"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert booking["properties"]["tourType"]["enum"] == ["community-walk", "market-and-crafts"]
    assert doc["paths"]["/api/analytics/pageviews"]["get"]["deprecated"] is True
    codes = doc["components"]["schemas"]["Problem"]["properties"]["code"]["enum"]
    assert {"bad_request", "invalid_body", "not_found", "collection_not_found", "method_not_allowed", "rate_limited",
            "upstream_unavailable", "internal_error", "payload_too_large", "unsupported_media_type"} <= set(codes)


def test_the_api_catalog_is_an_rfc_9727_linkset(client):
    r = client.get("/.well-known/api-catalog")
    assert r.status_code == 200
    assert r.headers["Content-Type"] == 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"'
    contexts = r.json()["linkset"]
    anchors = {c["anchor"]: c for c in contexts}
    catalog = next(c for a, c in anchors.items() if a.endswith("/.well-known/api-catalog"))
    assert any(i["href"].endswith("/api/services") for i in catalog["item"])
    api = next(c for a, c in anchors.items() if a.endswith("/api"))
    assert api["service-desc"][0]["href"].endswith("/api/openapi.json")
    assert api["service-desc"][0]["type"] == "application/openapi+json"
    assert api["service-doc"][0]["href"].endswith("/api-docs")
    assert api["status"][0]["href"].endswith("/api/status")


def test_head_on_the_catalog_links_to_itself(client):
    r = client.request("HEAD", "/.well-known/api-catalog")
    assert r.status_code == 200 and r.content == b""
    assert '</.well-known/api-catalog>; rel="api-catalog"' in r.headers["Link"]


def test_llms_txt_follows_the_format(client):
    r = client.get("/llms.txt")
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/plain")
    lines = r.text.splitlines()
    assert lines[0].startswith("# ") and lines[0] == "# Fixture Portal"
    assert next(line for line in lines[1:] if line.strip()).startswith("> ")
    sections = [line for line in lines if line.startswith("## ")]
    assert "## API" in sections and "## Optional" in sections
    links = re.findall(r"^- \[([^\]]+)\]\((https?://[^)]+)\)", r.text, flags=re.M)
    assert any(url.endswith("/api/openapi.json") for _, url in links)


def test_status_reports_counts_and_build_time(client):
    doc = client.get("/api/status").json()
    assert doc["status"] == "ok" and doc["apiVersion"] == "1.0.0" and doc["version"]
    assert doc["generatedAt"].endswith("Z")
    assert doc["collections"]["news"] == 4 and len(doc["collections"]) == 19
    assert doc["links"]["openapi"].endswith("/api/openapi.json")


def test_the_deprecation_policy_lists_pageviews(client):
    doc = client.get("/api/deprecation-policy").json()
    assert doc["policy"]["minimumNotice"] == "P6M"
    [pageviews] = [d for d in doc["deprecations"] if d["path"] == "/api/analytics/pageviews"]
    assert pageviews["sunset"].startswith("2027-03-01")


def test_the_server_card_is_served_at_both_paths(client):
    card = client.get("/.well-known/mcp/server-card.json").json()
    assert card == client.get("/mcp/server-card").json()
    assert card["protocolVersion"] == "2026-07-28" and "2025-06-18" in card["protocolVersions"]
    assert set(card["capabilities"]) == {"tools", "resources", "prompts", "completions"}
    assert card["transport"]["endpoint"].endswith("/mcp")
    assert [t["name"] for t in card["tools"]][:1] == ["search_portal"]
    assert {t["name"] for t in card["browserTools"]} >= {"search_site", "search_services", "weather_summary",
        "urgent_help_contacts", "language_support_routes", "newcomer_first_steps"}


def test_the_skills_index_digests_match_the_served_files(client):
    index = client.get("/.well-known/agent-skills/index.json").json()
    assert index["$schema"] == "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
    names = sorted(s["name"] for s in index["skills"])
    assert names == ["finding-help", "using-the-api"]
    for skill in index["skills"]:
        assert skill["type"] == "skill-md" and skill["description"]
        path = "/" + skill["url"].split("/", 3)[3]
        assert path == f"/.well-known/agent-skills/{skill['name']}/SKILL.md"
        served = client.get(path)
        assert served.status_code == 200 and served.headers["Content-Type"].startswith("text/markdown")
        assert skill["digest"] == "sha256:" + hashlib.sha256(served.content).hexdigest()


def test_every_item_of_the_api_catalog_resolves(client):
    linkset = client.get("/.well-known/api-catalog").json()["linkset"]
    base = linkset[0]["anchor"].removesuffix("/.well-known/api-catalog")
    hrefs = [item["href"] for item in linkset[0]["item"]] + [linkset[1]["anchor"]]
    for href in hrefs:
        r = client.get(href.removeprefix(base), headers={"Accept": "application/json"})
        assert r.status_code == 200, href


def test_the_api_root_links_every_part_of_the_api(client):
    body = client.get("/api").json()
    assert body["status"] == "success" and body["apiVersion"] == "1.0.0"
    assert body["links"]["openapi"].endswith("/api/openapi.json")
    assert len(body["collections"]) == 19


def test_the_document_needs_no_credentials_and_names_the_site_license(client):
    doc = client.get("/api/openapi.json").json()
    assert doc["security"] == []
    assert doc["info"]["license"] == {"name": "CC BY-SA 4.0", "identifier": "CC-BY-SA-4.0"}
    preflight = doc["paths"]["/api/{collection}"]["options"]["responses"]
    assert list(preflight) == ["204"]
    spatial = doc["paths"]["/api/v1/spatial.json"]["get"]["responses"]["200"]["content"]["application/geo+json"]["schema"]
    assert spatial["properties"]["features"]["items"] == {"$ref": "#/components/schemas/Feature"}
    assert "408" in doc["paths"]["/api/submit-voice"]["post"]["responses"]


def test_the_catalog_links_each_collection_to_its_schema(client):
    contexts = {c["anchor"]: c for c in client.get("/.well-known/api-catalog").json()["linkset"]}
    news = next(c for a, c in contexts.items() if a.endswith("/api/news"))
    assert news["describedby"][0]["href"].endswith("/api/schemas/news.json")
    assert news["describedby"][0]["type"] == "application/schema+json"
