"""The MCP server driven by the official MCP Python SDK (2.x) over Streamable HTTP: its default
client negotiates the newest revision (2026-07-28, stateless, `server/discover`), its legacy mode
the `initialize` handshake, and a client that asks for 2025-06-18 gets it."""

import asyncio

import jsonschema
import mcp_types as types
import pytest
from mcp import Client, ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from conftest import fresh_address

GOOD = {
    "search_portal": {"query": "water", "collections": ["resources", "entries"], "limit": 5},
    "list_portal_collection": {"collection": "news", "limit": 2, "offset": 1},
    "search_portal_encyclopedia": {"query": "rights", "category": "law"},
    "get_portal_encyclopedia_entry": {"slug": "asylum"},
}

BAD = {
    "search_portal": {"query": "x"},
    "list_portal_collection": {"collection": "unicorns"},
    "search_portal_encyclopedia": {"sort": "sideways"},
    "get_portal_encyclopedia_entry": {"slug": "atlantis"},
}


def transport(base_url):
    """Streamable HTTP as one fresh client address (the REST rate limit applies to MCP too)."""
    http = create_mcp_http_client(headers={"X-Forwarded-For": fresh_address()})
    return streamable_http_client(base_url + "/mcp", http_client=http)


def run(base_url, body, mode="auto"):
    async def go():
        async with Client(transport(base_url), mode=mode) as client:
            return await body(client)

    return asyncio.run(go())


def test_the_default_client_speaks_2026_07_28_and_lists_four_tools(base_url):
    async def body(client):
        return client.protocol_version, (await client.list_tools()).tools

    version, tools = run(base_url, body)
    assert version == "2026-07-28"
    assert sorted(t.name for t in tools) == sorted(GOOD)
    for tool in tools:
        assert tool.annotations.read_only_hint is True
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        jsonschema.Draft202012Validator.check_schema(tool.output_schema)


def test_the_legacy_handshake_gets_2025_11_25(base_url):
    async def body(client):
        return client.protocol_version, len((await client.list_tools()).tools)

    assert run(base_url, body, mode="legacy") == ("2025-11-25", 4)


def test_a_client_asking_for_2025_06_18_gets_it(base_url):
    async def go():
        async with transport(base_url) as (read, write), ClientSession(read, write) as session:
            params = types.InitializeRequestParams(
                protocol_version="2025-06-18", capabilities=types.ClientCapabilities(),
                client_info=types.Implementation(name="pinned", version="1"))
            result = await session.send_request(types.InitializeRequest(params=params), types.InitializeResult)
            session.adopt(result)
            return result, (await session.list_tools()).tools

    result, tools = asyncio.run(go())
    assert result.protocol_version == "2025-06-18"
    assert result.server_info.icons is None, "icons arrived in 2025-11-25"
    assert len(tools) == 4


@pytest.mark.parametrize("name", sorted(GOOD))
def test_each_tool_answers_with_structured_content_matching_its_schema(base_url, name):
    async def body(client):
        schemas = {t.name: t.output_schema for t in (await client.list_tools()).tools}
        return schemas[name], await client.call_tool(name, GOOD[name])

    schema, result = run(base_url, body)
    assert result.is_error is False
    jsonschema.validate(result.structured_content, schema)
    assert result.content[0].type == "text"
    links = [c for c in result.content if c.type == "resource_link"]
    assert links and all(str(link.uri).startswith("https://fixture.example.org/") for link in links)


def test_tool_results_carry_the_data_and_list_takes_filters(base_url):
    async def body(client):
        listing = await client.call_tool("list_portal_collection", GOOD["list_portal_collection"])
        entry = await client.call_tool("get_portal_encyclopedia_entry", GOOD["get_portal_encyclopedia_entry"])
        filtered = await client.call_tool("list_portal_collection", {
            "collection": "news", "filter": {"tags": ["health", "water"]}, "sort": "title", "fields": ["date"]})
        return listing.structured_content, entry.structured_content, filtered.structured_content

    listing, entry, filtered = run(base_url, body)
    assert [r["id"] for r in listing["records"]] == ["water-points-reopen", "clinic-hours"]
    assert listing["total"] == 4 and listing["offset"] == 1
    assert entry["entry"]["sources"][0]["publisher"] == "UNHCR"
    assert [r["id"] for r in filtered["records"]] == ["clinic-hours", "water-points-reopen"]
    assert set(filtered["records"][0]) == {"id", "collection", "slug", "url", "date"}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_arguments_come_back_as_tool_errors(base_url, name):
    async def body(client):
        return await client.call_tool(name, BAD[name])

    result = run(base_url, body)
    assert result.is_error is True
    assert result.content[0].text


def test_every_record_and_entry_is_a_resource_paged_by_cursor(base_url):
    async def body(client):
        uris, cursor, pages = [], None, 0
        while True:
            page = await client.list_resources(cursor=cursor)
            uris += [str(r.uri) for r in page.resources]
            pages += 1
            if not page.next_cursor:
                return uris, pages, await client.read_resource(uris[0])
            cursor = page.next_cursor

    uris, pages, read = run(base_url, body)
    assert len(uris) == len(set(uris)) and pages > 1
    assert "https://fixture.example.org/news/water-points-reopen" in uris
    assert "https://fixture.example.org/encyclopedia/asylum" in uris
    assert "https://fixture.example.org/about/team" in uris
    assert not any("secret-plan" in uri or "draft-topic" in uri for uri in uris), "drafts are not resources"
    assert [c.mime_type for c in read.contents] == ["application/json", "text/markdown"]


def test_templates_prompts_and_completion(base_url):
    async def body(client):
        templates = (await client.list_resource_templates()).resource_templates
        record = next(t for t in templates if "{collection}" in t.uri_template)
        ref = types.ResourceTemplateReference(type="ref/resource", uri=record.uri_template)
        collections = await client.complete(ref, {"name": "collection", "value": "ev"})
        slugs = await client.complete(ref, {"name": "slug", "value": "c"}, context_arguments={"collection": "news"})
        prompts = (await client.list_prompts()).prompts
        prompt = await client.get_prompt("finding-help")
        return collections.completion.values, slugs.completion.values, [p.name for p in prompts], prompt

    collections, slugs, prompts, prompt = run(base_url, body)
    assert collections == ["events"]
    assert slugs == ["clinic-hours"]
    assert prompts == ["finding-help", "using-the-api"]
    assert prompt.messages[0].role == "user" and "finding-help" in prompt.messages[0].content.text
