"""Query limits (docs/spec/api-spec.md#query-limits): whatever its text, one query's work is
bounded on every entry that searches, and every such entry counts against the client's budget
(docs/spec/api-spec.md#rate-limit)."""

import json

import pytest

import spec
from conftest import RATE_LIMIT, problem

# One short word 8,000 times: inside the URL limit, and once 21 s of CPU for one request.
REPEATED = " ".join(["a"] * 8000)
TOO_MANY_WORDS = " ".join(f"w{n}" for n in range(spec.MAX_QUERY_WORDS + 1))
# Each query over one limit, with the words of the message that names it.
OVER_LIMITS = [(REPEATED, f"at most {spec.MAX_QUERY_CHARS} characters"),
               (TOO_MANY_WORDS, f"at most {spec.MAX_QUERY_WORDS} different words")]
# Far above what a refusal takes, far below what the query took before it was bounded.
FAST_SECONDS = 5


def mcp_call(client, name, arguments):
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    r = client.post("/mcp", data=json.dumps(message), headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-06-18"})
    assert r.status_code == 200, r.text
    assert r.elapsed.total_seconds() < FAST_SECONDS
    return r.json()["result"]


@pytest.mark.parametrize("path, name", [("/api/search", "q"), ("/api/hsds/services", "search"),
                                        ("/api/encyclopedia", "q")])
@pytest.mark.parametrize("query, limit", OVER_LIMITS)
def test_a_query_over_the_limits_is_a_fast_400_naming_the_limit(client, path, name, query, limit):
    r = client.get(path, params={name: query})
    assert r.elapsed.total_seconds() < FAST_SECONDS
    doc = problem(r, 400, "bad_request")
    assert f"`{name}`" in doc["detail"] and limit in doc["detail"], doc


@pytest.mark.parametrize("query, limit", OVER_LIMITS)
def test_the_search_page_answers_its_form_with_the_limit(client, query, limit):
    r = client.get("/search", params={"q": query})
    assert r.elapsed.total_seconds() < FAST_SECONDS
    assert r.status_code == 200
    assert limit in r.text and 'class="search"' in r.text


@pytest.mark.parametrize("forgiving", [False, True])
def test_the_mcp_search_tool_answers_a_tool_error_naming_the_limit(client, forgiving):
    for query, limit in OVER_LIMITS:
        result = mcp_call(client, "search_portal", {"query": query, "forgiving": forgiving})
        assert result["isError"] is True
        assert "`query`" in result["content"][0]["text"] and limit in result["content"][0]["text"]


def test_a_repeated_word_counts_once(client):
    once = client.get("/api/search", params={"q": "water", "collections": "news"}).json()
    forty = client.get("/api/search", params={"q": " ".join(["water"] * 40), "collections": "news"})
    assert forty.status_code == 200 and forty.elapsed.total_seconds() < FAST_SECONDS
    assert forty.json()["totals"] == once["totals"] and forty.json()["results"] == once["results"]


def test_sixteen_words_at_the_limits_are_searched_quickly(client):
    words = " ".join(f"{n:02d}" + "x" * 13 for n in range(spec.MAX_QUERY_WORDS))  # 16 words, 255 characters
    assert len(words) <= spec.MAX_QUERY_CHARS
    for path, name in [("/api/search", "q"), ("/search", "q"), ("/api/hsds/services", "search")]:
        r = client.get(path, params={name: words})
        assert r.status_code == 200, (path, r.text[:300])
        assert r.elapsed.total_seconds() < FAST_SECONDS


def test_the_hsds_services_search_counts_against_the_budget(client):
    for n in range(RATE_LIMIT):
        r = client.get("/api/hsds/services", params={"search": "water"})
        assert r.status_code == 200
        assert r.headers["RateLimit-Remaining"] == str(RATE_LIMIT - 1 - n)
    refused = client.get("/api/hsds/services", params={"search": "water"})
    problem(refused, 429, "rate_limited")
    assert int(refused.headers["Retry-After"]) > 0


def test_every_search_entry_shares_one_budget(client):
    client.get("/api/search", params={"q": "budget"})
    client.get("/search", params={"q": "budget"})
    client.get("/api/hsds/services", params={"search": "budget"})
    client.get("/api/encyclopedia", params={"q": "budget"})
    r = client.get("/api/hsds/services", params={"search": REPEATED})
    assert r.status_code == 400 and r.headers["RateLimit-Remaining"] == str(RATE_LIMIT - 5)
