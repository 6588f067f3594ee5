"""The MCP server driven by the official MCP Python SDK client over Streamable HTTP."""

import asyncio

import jsonschema
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client  # noqa: the SDK 1.x name

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


async def session_run(base_url, body):
    async with streamablehttp_client(base_url + "/mcp", headers={"X-Forwarded-For": fresh_address()}) as (read, write, _):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            return await body(session, init)


def run(base_url, body):
    return asyncio.run(session_run(base_url, body))


def test_the_sdk_initializes_and_lists_four_tools(base_url):
    async def body(session, init):
        assert init.protocolVersion == "2025-06-18"
        assert init.capabilities.tools is not None
        return (await session.list_tools()).tools

    tools = run(base_url, body)
    assert sorted(t.name for t in tools) == sorted(GOOD)
    for tool in tools:
        assert tool.annotations.readOnlyHint is True
        jsonschema.Draft202012Validator.check_schema(tool.inputSchema)
        jsonschema.Draft202012Validator.check_schema(tool.outputSchema)


@pytest.mark.parametrize("name", sorted(GOOD))
def test_each_tool_answers_with_structured_content_matching_its_schema(base_url, name):
    async def body(session, init):
        schemas = {t.name: t.outputSchema for t in (await session.list_tools()).tools}
        result = await session.call_tool(name, GOOD[name])
        return schemas[name], result

    schema, result = run(base_url, body)
    assert result.isError is False
    jsonschema.validate(result.structuredContent, schema)
    assert result.content[0].type == "text"


def test_tool_results_carry_the_data(base_url):
    async def body(session, init):
        listing = await session.call_tool("list_portal_collection", GOOD["list_portal_collection"])
        entry = await session.call_tool("get_portal_encyclopedia_entry", GOOD["get_portal_encyclopedia_entry"])
        return listing.structuredContent, entry.structuredContent

    listing, entry = run(base_url, body)
    assert [r["id"] for r in listing["records"]] == ["water-points-reopen", "clinic-hours"]
    assert listing["total"] == 4 and listing["offset"] == 1
    assert entry["entry"]["sources"][0]["publisher"] == "UNHCR"


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_arguments_come_back_as_tool_errors(base_url, name):
    async def body(session, init):
        return await session.call_tool(name, BAD[name])

    result = run(base_url, body)
    assert result.isError is True
    assert result.content[0].text
