"""The HTTP rules every endpoint shares: CORS, versions, methods, unknown paths, ETags, HEAD and
redirects (docs/spec/api-spec.md#conventions, #cors, #errors, #versioning)."""

import socket

import pytest

from conftest import problem

CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
    "Access-Control-Allow-Headers": "Content-Type, API-Version, Accept, Idempotency-Key, MCP-Protocol-Version, Mcp-Session-Id, "
                                    "Last-Event-ID, Mcp-Method, Mcp-Name, Mcp-Param-Collection",
}


@pytest.mark.parametrize("method,path", [("GET", "/api/news"), ("POST", "/api/news"), ("GET", "/api/nope"), ("GET", "/api/news/x"), ("DELETE", "/api/news")])
def test_every_api_response_carries_cors_and_the_version(client, method, path):
    r = client.request(method, path)
    for name, value in CORS.items():
        assert r.headers.get(name) == value, name
    assert r.headers["API-Version"] == "1.0.0"
    exposed = r.headers["Access-Control-Expose-Headers"]
    for name in ("API-Version", "RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After", "Deprecation", "Sunset", "Link"):
        assert name in exposed


@pytest.mark.parametrize("path", ["/api/news", "/api/search", "/api/anything/at/all", "/api/submit-voice"])
def test_preflight_is_204_with_cors(client, path):
    r = client.request("OPTIONS", path, headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST"})
    assert r.status_code == 204
    assert r.content == b""
    for name, value in CORS.items():
        assert r.headers.get(name) == value
    assert int(r.headers["Access-Control-Max-Age"]) > 0


@pytest.mark.parametrize("pin", ["1.0.0", "1.0", "1"])
def test_supported_versions_are_accepted(client, pin):
    r = client.get("/api/news", headers={"API-Version": pin})
    assert r.status_code == 200
    assert r.headers["API-Version"] == "1.0.0"


@pytest.mark.parametrize("pin", ["2", "1.1", "0.9", "latest"])
def test_an_unsupported_version_is_bad_request_listing_the_supported_ones(client, pin):
    r = client.get("/api/news", headers={"API-Version": pin})
    doc = problem(r, 400, "bad_request")
    assert "1.0.0" in doc["detail"] and "1.0" in doc["detail"]
    assert r.headers["API-Version"] == "1.0.0"


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
def test_a_wrong_method_is_405_with_allow(client, method):
    r = client.request(method, "/api/news")
    problem(r, 405, "method_not_allowed")
    assert r.headers["Allow"] == "GET, HEAD, POST, OPTIONS"


def test_post_on_a_get_only_route_is_405(client):
    r = client.post("/api/news/water-points-reopen", json={})
    problem(r, 405, "method_not_allowed")
    assert "POST" not in r.headers["Allow"] and "GET" in r.headers["Allow"]


def test_an_unknown_collection_suggests_the_nearest(client):
    doc = problem(client.get("/api/servics"), 404, "collection_not_found")
    assert "services" in doc["detail"]
    assert doc["instance"] == "/api/servics"


def test_an_unknown_deeper_api_path_is_not_found(client):
    problem(client.get("/api/not/a/route"), 404, "not_found")


def test_problem_documents_carry_resolution_and_instance(client):
    doc = problem(client.get("/api/news/missing"), 404, "not_found")
    assert doc["resolution"]
    assert doc["instance"] == "/api/news/missing"


def test_etag_and_if_none_match_give_304(client):
    first = client.get("/api/news/pinned")
    etag = first.headers["ETag"]
    again = client.get("/api/news/pinned", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["ETag"] == etag


def test_head_has_headers_and_no_body(client):
    r = client.request("HEAD", "/api/news/pinned")
    assert r.status_code == 200
    assert r.content == b""
    assert r.headers["Content-Type"].startswith("application/json")


def vary(response):
    return sorted(token.strip().lower() for token in response.headers.get("Vary", "").split(",") if token.strip())


@pytest.mark.parametrize("path", ["/news", "/api/news", "/assets/style.css"], ids=["a page", "a JSON listing", "a static file"])
def test_head_carries_the_same_vary_as_get(client, path):
    get, head = client.get(path), client.request("HEAD", path)
    assert get.status_code == head.status_code == 200
    # What GET varies on differs by server (portal serve compresses, so it adds Accept-Encoding);
    # the rule is that HEAD says the same.
    assert vary(head) == vary(get)
    assert head.content == b""


def redirect_location(base_url, target):
    """The `Location` of a raw `GET target`, sent as is (an HTTP client would encode it)."""
    host, port = base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as conn:
        conn.sendall(f"GET {target} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head = data.partition(b"\r\n\r\n")[0].decode("latin-1")
    assert head.startswith("HTTP/1.1 "), head
    return next((line.split(":", 1)[1].strip() for line in head.split("\r\n") if line.lower().startswith("location:")), "")


@pytest.mark.parametrize("target", ["/\\evil.example/", "/\\evil.example/news/", "/\\\\evil.example/", "/news/\\x/", "/pages/\\evil.example"])
def test_a_backslash_path_never_redirects_to_another_host(base_url, target):
    location = redirect_location(base_url, target)
    assert "\\" not in location and not location.startswith("//"), location
