"""The per-client fixed window (docs/spec/api-spec.md#rate-limit)."""

import time

from conftest import RATE_LIMIT, problem


def test_exactly_the_limit_is_admitted_then_429(client, rate_window):
    remaining = []
    for _ in range(RATE_LIMIT):
        r = client.get("/api/news")
        assert r.status_code == 200
        remaining.append(int(r.headers["RateLimit-Remaining"]))
        assert r.headers["RateLimit-Limit"] == str(RATE_LIMIT)
        assert r.headers["RateLimit-Policy"] == f"{RATE_LIMIT};w={rate_window}"
        assert r.headers["X-RateLimit-Limit"] == str(RATE_LIMIT)
        assert r.headers["X-RateLimit-Remaining"] == r.headers["RateLimit-Remaining"]
        assert 0 < int(r.headers["RateLimit-Reset"]) <= rate_window
        assert int(r.headers["X-RateLimit-Reset"]) > time.time() - 5
    assert remaining == list(range(RATE_LIMIT - 1, -1, -1))
    refused = client.get("/api/news")
    doc = problem(refused, 429, "rate_limited")
    retry = int(refused.headers["Retry-After"])
    assert 0 < retry <= rate_window
    assert doc["retryAfter"] == retry
    assert refused.headers["RateLimit-Remaining"] == "0"
    assert refused.headers["RateLimit-Limit"] == str(RATE_LIMIT)


def test_another_address_has_its_own_budget(new_client):
    a, b = new_client(), new_client()
    for _ in range(RATE_LIMIT):
        a.get("/api/news")
    assert a.get("/api/news").status_code == 429
    r = b.get("/api/news")
    assert r.status_code == 200
    assert r.headers["RateLimit-Remaining"] == str(RATE_LIMIT - 1)


def test_a_new_window_opens_after_the_reset(client, rate_window):
    for _ in range(RATE_LIMIT):
        client.get("/api/news")
    refused = client.get("/api/news")
    assert refused.status_code == 429
    time.sleep(int(refused.headers["Retry-After"]) + 0.2)
    r = client.get("/api/news")
    assert r.status_code == 200
    assert r.headers["RateLimit-Remaining"] == str(RATE_LIMIT - 1)


def test_post_and_get_share_one_budget(client):
    for _ in range(RATE_LIMIT // 2):
        client.get("/api/news")
    r = client.post("/api/news", json={})
    assert r.headers["RateLimit-Remaining"] == str(RATE_LIMIT // 2 - 1)


def test_detail_files_and_preflight_are_not_limited(client):
    for _ in range(RATE_LIMIT):
        client.get("/api/news")
    assert client.get("/api/news").status_code == 429
    detail = client.get("/api/news/pinned")
    assert detail.status_code == 200
    assert "RateLimit-Remaining" not in detail.headers
    assert client.request("OPTIONS", "/api/news").status_code == 204


def mcp_batch(client, messages):
    """POSTs a 2025-03-26 JSON-RPC batch of `messages` pings to /mcp."""
    batch = [{"jsonrpc": "2.0", "id": n, "method": "ping"} for n in range(messages)]
    return client.post("/mcp", json=batch, headers={"MCP-Protocol-Version": "2025-03-26",
                                                    "Accept": "application/json, text/event-stream"})


def test_an_mcp_batch_costs_one_request_per_message(client):
    r = mcp_batch(client, 10)
    assert r.status_code == 200 and len(r.json()) == 10
    assert r.headers["RateLimit-Remaining"] == str(RATE_LIMIT - 10)


def test_a_batch_larger_than_the_remaining_budget_is_refused_whole_and_takes_nothing(client):
    assert mcp_batch(client, RATE_LIMIT - 5).status_code == 200
    refused = mcp_batch(client, 6)
    doc = problem(refused, 429, "rate_limited")
    assert int(refused.headers["Retry-After"]) > 0 and doc["retryAfter"] == int(refused.headers["Retry-After"])
    assert refused.headers["RateLimit-Remaining"] == "5", "a refused batch consumes nothing"
    r = mcp_batch(client, 5)
    assert r.status_code == 200 and r.headers["RateLimit-Remaining"] == "0"
