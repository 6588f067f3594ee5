"""Behaviour only the native server has: compression, graceful shutdown, --watch, concurrency."""

import gzip
import shutil
import signal
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

import servers


@pytest.fixture(scope="module")
def server():
    s = servers.start_portal(["serve", "--dist", str(servers.conformance_dist()), "--port", "0", "--rate-window", "30"])
    yield s
    s.stop()


def test_serving_a_build_made_for_another_address_says_how_to_build_for_this_one(server):
    """The conformance build names https://fixture.example.org; `portal serve` says which links
    follow the local address and how to make a build whose every link is local."""
    deadline = time.monotonic() + 5
    while "--base-url" not in server.output() and time.monotonic() < deadline:
        time.sleep(0.05)
    note = server.output()
    assert "this build names https://fixture.example.org as its address" in note, note
    assert f"portal build --base-url {server.base_url}" in note, note
    landing = requests.get(f"{server.base_url}/api/ogc", timeout=10).json()
    assert all(link["href"].startswith(server.base_url) for link in landing["links"])


def test_gzip_and_brotli_when_accepted(server):
    plain = requests.get(server.base_url + "/api/news", headers={"Accept-Encoding": "identity", "X-Forwarded-For": "10.9.0.1"})
    assert "Content-Encoding" not in plain.headers
    raw = requests.get(server.base_url + "/api/news", headers={"Accept-Encoding": "gzip", "X-Forwarded-For": "10.9.0.1"}, stream=True)
    assert raw.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(raw.raw.read()) == plain.content
    br = requests.get(server.base_url + "/api/news", headers={"Accept-Encoding": "br", "X-Forwarded-For": "10.9.0.1"}, stream=True)
    assert br.headers["Content-Encoding"] == "br"


def test_many_connections_at_once_from_one_address_admit_exactly_the_limit(server):
    def hit(_):
        return requests.get(server.base_url + "/api/news", headers={"X-Forwarded-For": "10.9.0.2"}, timeout=30).status_code

    with ThreadPoolExecutor(max_workers=32) as pool:
        codes = list(pool.map(hit, range(150)))
    assert codes.count(200) == 60
    assert codes.count(429) == 90


def test_sigterm_lets_a_request_in_flight_finish_and_exits_zero():
    s = servers.start_portal(["serve", "--dist", str(servers.conformance_dist()), "--port", "0"])
    host, port = s.base_url.removeprefix("http://").split(":")
    body = b'{"options": {"includeStats": true}}'
    conn = socket.create_connection((host, int(port)), timeout=10)
    conn.sendall(
        b"POST /api/news HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
        + f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body[:10]
    )
    time.sleep(0.3)
    s.process.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    conn.sendall(body[10:])
    response = b""
    while chunk := conn.recv(65536):
        response += chunk
    conn.close()
    assert response.startswith(b"HTTP/1.1 200"), response[:200]
    assert b'"itemsPerCollection"' in response
    assert s.process.wait(timeout=10) == 0
    with pytest.raises(requests.ConnectionError):
        requests.get(s.base_url + "/api/news", timeout=2)


def test_watch_rebuilds_and_keeps_the_last_good_build_on_errors(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(servers.ROOT / "fixtures" / "site", content)
    out = tmp_path / "dist"
    s = servers.start_portal(["serve", "--content", str(content), "--out", str(out), "--port", "0", "--watch"])
    try:
        url = s.base_url + "/api/news/clinic-hours"
        assert requests.get(url).json()["data"]["news"][0]["title"] == "Clinic hours extended"
        record = content / "news" / "clinic-hours.md"
        record.write_text(record.read_text().replace("Clinic hours extended", "Clinic open late"))
        assert wait_for(lambda: requests.get(url).json()["data"]["news"][0]["title"] == "Clinic open late")
        (content / "news" / "broken.md").write_text("---\ntitle: [unclosed\n---\n")
        assert wait_for(lambda: "rebuild failed" in s.output())
        assert requests.get(url).json()["data"]["news"][0]["title"] == "Clinic open late"
        assert "broken.md:2" in s.output()
    finally:
        s.stop()


def wait_for(condition, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return True
        except (requests.RequestException, KeyError, ValueError):
            pass
        time.sleep(0.1)
    return False
