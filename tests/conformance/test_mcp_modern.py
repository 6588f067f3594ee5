"""The MCP server as a 2026-07-28 client sees it over raw HTTP: no handshake, the revision and
client capabilities in every request's `_meta`, headers that mirror the body, cache hints and
`resultType` on results, 404 for removed methods; and, for every revision, the Origin check
(DNS-rebinding protection) and the CORS headers a browser client needs."""

import base64
import json

import pytest

MODERN = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"}}


def modern(client, method, params=None, name=None, **headers):
    """A 2026-07-28 request with the mirrored headers a conforming client sends."""
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**(params or {}), "_meta": META}}
    mirrored = {"MCP-Protocol-Version": MODERN, "Mcp-Method": method}
    if name is not None:
        mirrored["Mcp-Name"] = name
    return client.post("/mcp", data=json.dumps(body), headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream", **mirrored, **headers})


def test_discover_lists_every_revision_and_what_the_server_offers(client):
    r = modern(client, "server/discover")
    assert r.status_code == 200
    result = r.json()["result"]
    assert result["supportedVersions"] == [MODERN, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    assert set(result["capabilities"]) == {"tools", "resources", "prompts", "completions"}
    assert result["resultType"] == "complete" and result["instructions"]
    info = result["_meta"]["io.modelcontextprotocol/serverInfo"]
    assert info["websiteUrl"] == "https://fixture.example.org" and info["icons"][0]["src"].startswith("data:image/svg+xml")


@pytest.mark.parametrize("method", ["tools/list", "prompts/list", "resources/list", "resources/templates/list"])
def test_lists_carry_cache_hints_from_the_site_cache_setting(client, method):
    result = modern(client, method).json()["result"]
    assert result["ttlMs"] == 600_000 and result["cacheScope"] == "public" and result["resultType"] == "complete"


@pytest.mark.parametrize("method", ["initialize", "ping", "logging/setLevel", "resources/subscribe", "nope"])
def test_removed_and_unknown_methods_are_404_with_32601(client, method):
    r = modern(client, method)
    assert r.status_code == 404 and r.json()["error"]["code"] == -32601 and r.json()["id"] == 1


@pytest.mark.parametrize("headers", [
    {"Mcp-Method": "tools/list"},
    {"Mcp-Name": "get_portal_encyclopedia_entry"},
    {"MCP-Protocol-Version": "2025-06-18"},
    {"Mcp-Name": "=?base64?" + base64.b64encode(b"other").decode() + "?="},
])
def test_headers_that_differ_from_the_body_are_400_with_32020(client, headers):
    r = modern(client, "tools/call", {"name": "search_portal", "arguments": {"query": "water"}}, name="search_portal", **headers)
    assert r.status_code == 400 and r.json()["error"]["code"] == -32020


def test_mirrored_headers_may_be_base64_and_tool_parameters_are_mirrored_too(client):
    encoded = "=?base64?" + base64.b64encode(b"list_portal_collection").decode() + "?="
    call = {"name": "list_portal_collection", "arguments": {"collection": "news", "limit": 1}}
    r = modern(client, "tools/call", call, name=encoded, **{"Mcp-Param-Collection": "news"})
    assert r.status_code == 200 and r.json()["result"]["isError"] is False
    assert modern(client, "tools/call", call, name="list_portal_collection").json()["error"]["code"] == -32020
    r = modern(client, "tools/call", call, name="list_portal_collection", **{"Mcp-Param-Collection": "events"})
    assert r.status_code == 400 and r.json()["error"]["code"] == -32020


def test_a_request_without_its_meta_is_400_with_32602(client):
    r = client.post("/mcp", json={"jsonrpc": "2.0", "id": 9, "method": "tools/list"},
                    headers={"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/list"})
    assert r.status_code == 400 and r.json()["error"]["code"] == -32602 and r.json()["id"] == 9


def test_a_missing_resource_is_invalid_params_naming_the_uri(client):
    uri = "https://fixture.example.org/news/atlantis"
    error = modern(client, "resources/read", {"uri": uri}, name=uri).json()["error"]
    assert error["code"] == -32602 and error["data"] == {"uri": uri}
    legacy = client.post("/mcp", json={"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": uri}},
                         headers={"MCP-Protocol-Version": "2025-06-18"}).json()
    assert legacy["error"]["code"] == -32002


def test_a_read_returns_the_records_json_and_its_markdown(client):
    uri = "https://fixture.example.org/encyclopedia/asylum"
    result = modern(client, "resources/read", {"uri": uri}, name=uri).json()["result"]
    record, markdown = result["contents"]
    assert json.loads(record["text"])["slug"] == "asylum" and record["mimeType"] == "application/json"
    assert markdown["mimeType"] == "text/markdown" and "Asylum" in markdown["text"]
    assert result["ttlMs"] == 600_000


@pytest.mark.parametrize("origin", ["http://evil.example.com", "null", "https://fixture.example.org.evil.example.com"])
def test_a_foreign_origin_is_403(client, origin):
    r = client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers={"Origin": origin})
    assert r.status_code == 403 and r.json()["error"]["code"] == -32600 and "id" not in r.json()


@pytest.mark.parametrize("origin", ["https://fixture.example.org", "https://assistant.example.net"])
def test_the_sites_own_and_listed_origins_pass(client, origin):
    r = client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers={"Origin": origin})
    assert r.status_code == 200


def test_the_address_the_server_is_reached_at_passes_when_it_cannot_be_rebound(client, base_url):
    assert client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers={"Origin": base_url}).status_code == 200


def test_a_browser_client_may_send_the_mcp_headers(client):
    r = client.request("OPTIONS", "/mcp", headers={"Origin": "https://assistant.example.net", "Access-Control-Request-Method": "POST",
                                                   "Access-Control-Request-Headers": "mcp-protocol-version, mcp-method, mcp-name"})
    assert r.status_code == 204
    allowed = r.headers["Access-Control-Allow-Headers"].lower()
    for name in ["mcp-protocol-version", "mcp-session-id", "last-event-id", "mcp-method", "mcp-name", "mcp-param-collection"]:
        assert name in allowed
    assert "mcp-protocol-version" in r.headers["Access-Control-Expose-Headers"].lower()
