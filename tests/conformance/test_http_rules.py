"""The HTTP rules every endpoint shares that need more than one request or a raw socket: ETags,
HEAD against GET and redirects (docs/spec/api-spec.md#conventions). CORS, versions, methods and
unknown paths are cases of tests/cases/requests.json (test_cases.py)."""

import socket

import pytest


def test_etag_and_if_none_match_give_304(client):
    first = client.get("/api/news/pinned")
    etag = first.headers["ETag"]
    again = client.get("/api/news/pinned", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["ETag"] == etag


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
