"""The MCP server over raw HTTP as a legacy (2025-06-18) client sees it: JSON-RPC framing, errors,
notifications, GET rules, rate limit (docs/spec/api-spec.md#mcp). The modern revision has its own
file (test_mcp_modern)."""

import json

import pytest

from conftest import RATE_LIMIT, problem

PATHS = ["/mcp", "/.well-known/mcp"]


def rpc(client, payload, path="/mcp", version="2025-06-18", **headers):
    """POSTs a message as a client that negotiated `version` (None: sends no MCP-Protocol-Version)."""
    data = payload if isinstance(payload, (str, bytes)) else json.dumps(payload)
    negotiated = {"MCP-Protocol-Version": version} if version else {}
    return client.post(path, data=data, headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream", **negotiated, **headers})


@pytest.mark.parametrize("path", PATHS)
def test_initialize_negotiates_the_protocol(client, path):
    r = rpc(client, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}, path)
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("application/json")
    body = r.json()
    assert body["jsonrpc"] == "2.0" and body["id"] == 1
    result = body["result"]
    assert result["protocolVersion"] == "2025-06-18"
    assert "tools" in result["capabilities"]
    assert result["serverInfo"]["name"] and result["serverInfo"]["version"]
    assert result["instructions"]


def test_an_unknown_client_version_gets_the_newest_handshake_revision(client):
    r = rpc(client, {"jsonrpc": "2.0", "id": "a", "method": "initialize", "params": {"protocolVersion": "1999-01-01", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}, version=None)
    assert r.json()["result"]["protocolVersion"] == "2025-11-25"
    assert r.json()["result"]["serverInfo"]["websiteUrl"] == "https://fixture.example.org"


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])
def test_every_handshake_revision_is_spoken(client, version):
    r = rpc(client, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}, version=None)
    result = r.json()["result"]
    assert result["protocolVersion"] == version
    assert ("icons" in result["serverInfo"]) == (version >= "2025-11-25")
    assert set(result["capabilities"]) >= {"tools", "resources", "prompts", "completions"}
    tools = rpc(client, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, version=version).json()["result"]["tools"]
    assert ("outputSchema" in tools[0]) == (version >= "2025-06-18")


def test_notifications_get_202_and_no_body(client):
    r = rpc(client, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert r.status_code == 202 and r.content == b""


def test_a_notification_under_an_unsupported_revision_is_refused(client):
    # Found by Schemathesis: the header was checked for requests only.
    r = rpc(client, {"jsonrpc": "2.0", "method": "notifications/initialized"}, version="1999-01-01")
    assert r.status_code == 400 and r.json()["error"]["code"] == -32022


@pytest.mark.parametrize("params", [None, [1], "x"])
def test_a_notification_with_unstructured_params_is_refused(client, params):
    # Found by Schemathesis: a notification's params went unread, so `null` was accepted.
    r = rpc(client, {"jsonrpc": "2.0", "method": "notifications/initialized", "params": params})
    assert r.status_code == 400 and r.json()["error"]["code"] == -32600 and r.json()["id"] is None


def test_a_notification_whose_mcp_method_header_disagrees_is_refused(client):
    message = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert rpc(client, message, **{"Mcp-Method": "notifications/cancelled"}).status_code == 400
    assert rpc(client, message, **{"Mcp-Method": "notifications/initialized"}).status_code == 202


def test_ping(client):
    assert rpc(client, {"jsonrpc": "2.0", "id": 7, "method": "ping"}).json() == {"jsonrpc": "2.0", "id": 7, "result": {}}


def test_tools_list_names_four_read_only_tools(client):
    tools = rpc(client, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).json()["result"]["tools"]
    assert [t["name"] for t in tools] == ["search_portal", "list_portal_collection", "search_portal_encyclopedia", "get_portal_encyclopedia_entry"]
    for tool in tools:
        assert tool["inputSchema"]["type"] == "object" and tool["outputSchema"]["type"] == "object"
        assert tool["annotations"]["readOnlyHint"] is True


def test_unparsable_json_is_32700(client):
    r = rpc(client, "{not json")
    assert r.json()["error"]["code"] == -32700 and r.json()["id"] is None


@pytest.mark.parametrize("payload", [[], [{"jsonrpc": "2.0", "id": 1, "method": "ping"}], {"id": 1, "method": "ping"}, {"jsonrpc": "2.0", "id": 1}, {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": [1]}])
def test_invalid_requests_are_32600(client, payload):
    r = rpc(client, payload)
    assert r.status_code == 400 and r.json()["error"]["code"] == -32600


def test_2025_03_26_clients_may_send_batches(client):
    batch = [{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": "b", "method": "nope"}]
    for version in ["2025-03-26", None]:
        r = rpc(client, batch, version=version)
        assert r.status_code == 200
        assert [(m["id"], "result" in m) for m in r.json()] == [(1, True), ("b", False)]
    r = rpc(client, [{"jsonrpc": "2.0", "method": "notifications/initialized"}], version="2025-03-26")
    assert r.status_code == 202 and r.content == b""


def test_an_unknown_method_is_32601(client):
    body = rpc(client, {"jsonrpc": "2.0", "id": 3, "method": "sampling/createMessage"}).json()
    assert body["error"]["code"] == -32601 and body["id"] == 3


@pytest.mark.parametrize("params", [{}, {"name": 3}, {"name": "search_portal", "arguments": []}, {"name": "no_such_tool"}])
def test_bad_call_params_are_32602(client, params):
    assert rpc(client, {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": params}).json()["error"]["code"] == -32602


def call(client, name, arguments):
    body = rpc(client, {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": name, "arguments": arguments}}).json()
    return body["result"]


def test_a_tool_result_has_text_and_structured_content(client):
    result = call(client, "search_portal", {"query": "water", "collections": ["resources"]})
    assert result["isError"] is False
    assert json.loads(result["content"][0]["text"]) == result["structuredContent"]
    assert [h["slug"] for h in result["structuredContent"]["results"]["resources"]] == ["water-safety", "hygiene-kit"]


@pytest.mark.parametrize(
    "name,arguments",
    [
        ("search_portal", {"query": "a"}),
        ("search_portal", {}),
        ("search_portal", {"query": "water", "limit": "ten"}),
        ("search_portal", {"query": "water", "collections": ["nope"]}),
        ("list_portal_collection", {"collection": "unicorns"}),
        ("list_portal_collection", {"collection": "news", "limit": 0}),
        ("search_portal_encyclopedia", {"pageSize": 500}),
        ("search_portal_encyclopedia", {"colour": "red"}),
        ("get_portal_encyclopedia_entry", {"slug": "no-such-entry"}),
        ("get_portal_encyclopedia_entry", {}),
    ],
)
def test_bad_arguments_are_tool_errors(client, name, arguments):
    result = call(client, name, arguments)
    assert result["isError"] is True
    assert result["content"][0]["text"]


def test_an_unknown_entry_says_how_to_find_one(client):
    text = call(client, "get_portal_encyclopedia_entry", {"slug": "atlantis"})["content"][0]["text"]
    assert "atlantis" in text and "search_portal_encyclopedia" in text


@pytest.mark.parametrize("path", PATHS)
def test_get_answers_the_discovery_document(client, path):
    r = client.get(path, headers={"Accept": "application/json"})
    assert r.status_code == 200
    doc = r.json()
    assert doc["protocolVersion"] == "2026-07-28" and doc["transport"] == "streamable-http"
    assert doc["protocolVersions"] == ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    assert doc["endpoint"].endswith("/mcp") and doc["serverCard"].endswith("/.well-known/mcp/server-card.json")
    assert [t["name"] for t in doc["tools"]][0] == "search_portal"
    assert "RateLimit-Remaining" not in r.headers


def test_get_asking_for_a_stream_is_405(client):
    r = client.get("/mcp", headers={"Accept": "text/event-stream"})
    problem(r, 405, "method_not_allowed")
    assert "POST" in r.headers["Allow"]


def test_an_unsupported_protocol_header_is_a_json_rpc_error_listing_the_supported(client):
    r = rpc(client, {"jsonrpc": "2.0", "id": 1, "method": "ping"}, version="1999-01-01")
    assert r.status_code == 400
    error = r.json()["error"]
    assert r.json()["id"] == 1 and error["code"] == -32022
    assert error["data"] == {"requested": "1999-01-01",
                             "supported": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]}


def test_mcp_shares_the_rest_budget_and_429_is_a_problem_document(client):
    for _ in range(RATE_LIMIT // 2):
        client.get("/api/news")
    for _ in range(RATE_LIMIT - RATE_LIMIT // 2):
        assert rpc(client, {"jsonrpc": "2.0", "id": 1, "method": "ping"}).status_code == 200
    r = rpc(client, {"jsonrpc": "2.0", "id": 1, "method": "ping"})
    problem(r, 429, "rate_limited")
    assert int(r.headers["Retry-After"]) > 0
