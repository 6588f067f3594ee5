"""Abuse limits and path safety of `portal serve`: header, body and connection limits, a bounded
rate-limit store, and no request reaching a file outside the build folder."""

import json
import os
import shutil
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

import servers

LIMITS = {"PORTAL_HEADER_TIMEOUT_MS": "700", "PORTAL_BODY_TIMEOUT_MS": "700", "PORTAL_MAX_CONNECTIONS": "4"}


@pytest.fixture(scope="module")
def server():
    s = servers.start_portal(["serve", "--dist", str(servers.conformance_dist()), "--port", "0"], env=LIMITS)
    yield s
    s.stop()


def connect(server):
    host, port = server.base_url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def raw(server, target):
    conn = connect(server)
    conn.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    data = b""
    while chunk := conn.recv(65536):
        data += chunk
    conn.close()
    return data


def test_slow_headers_are_cut_off(server):
    conn = connect(server)
    conn.sendall(b"GET /api/news HTTP/1.1\r\nHost: x\r\n")
    time.sleep(1.5)
    try:
        assert conn.recv(1024) in (b"",) or conn.recv(1024).startswith(b"HTTP/1.1 408")
    except (ConnectionResetError, BrokenPipeError):
        pass
    conn.close()


def test_a_silent_connection_is_closed_at_the_header_deadline(server):
    conn = connect(server)
    conn.settimeout(5)
    started = time.monotonic()
    try:
        data = conn.recv(1024)
    except ConnectionResetError:
        data = b""
    waited = time.monotonic() - started
    conn.close()
    assert data == b"", data[:100]
    assert 0.5 < waited < 3, f"closed after {waited:.2f}s; the deadline is 0.7s from accept"


def send_request(conn):
    conn.sendall(b"GET /api/news/pinned HTTP/1.1\r\nHost: x\r\n\r\n")
    head, _ = read_response(conn)
    return head


def refused(conn):
    """Whether the server closed `conn` without answering."""
    conn.settimeout(5)
    try:
        return conn.recv(1024) == b""
    except ConnectionResetError:
        return True


def test_one_untrusted_address_holds_at_most_64_connections_while_others_are_served():
    s = servers.start_portal(["serve", "--dist", str(servers.conformance_dist()), "--port", "0",
                              "--trusted-proxies", "127.0.0.1/32"])
    host, port = s.base_url.removeprefix("http://").split(":")
    open_from = lambda source: socket.create_connection((host, int(port)), timeout=10, source_address=(source, 0))  # noqa: E731
    try:
        untrusted = [open_from("127.0.0.2") for _ in range(64)]
        extra = open_from("127.0.0.2")
        assert refused(extra), "the 65th connection from one untrusted address is closed"
        assert send_request(untrusted[0]).startswith("http/1.1 200"), "the 64 before it are served"
        proxy = [open_from("127.0.0.1") for _ in range(70)]
        assert send_request(proxy[-1]).startswith("http/1.1 200"), "a trusted proxy is not capped"
        untrusted.pop().close()
        time.sleep(0.2)
        assert send_request(open_from("127.0.0.2")).startswith("http/1.1 200"), "a closed connection frees its place"
        for conn in [*untrusted, *proxy, extra]:
            conn.close()
    finally:
        s.stop()


@pytest.mark.parametrize("hosts", [b"", b"Host: a\r\nHost: b\r\n"], ids=["no Host", "two Hosts"])
def test_an_http_1_1_request_without_exactly_one_host_is_400(server, hosts):
    conn = connect(server)
    conn.sendall(b"GET /api/news HTTP/1.1\r\n" + hosts + b"Connection: close\r\n\r\n")
    head, body = read_response(conn)
    conn.close()
    assert head.startswith("http/1.1 400"), head
    assert json.loads(body)["code"] == "bad_request" and "Host" in json.loads(body)["detail"]


def test_an_http_1_0_request_needs_no_host(server):
    conn = connect(server)
    conn.sendall(b"GET /api/news/pinned HTTP/1.0\r\n\r\n")
    head, _ = read_response(conn)
    conn.close()
    assert head.startswith("http/1.0 200"), head


def test_a_slow_body_gets_408(server):
    conn = connect(server)
    conn.sendall(b"POST /api/news HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\"")
    conn.settimeout(5)
    started = time.monotonic()
    data = conn.recv(1024)
    conn.close()
    assert data.startswith(b"HTTP/1.1 408"), data[:100]
    assert time.monotonic() - started < 4


def read_response(conn):
    """Reads a whole HTTP/1.1 response sent with Content-Length; returns (head, body)."""
    data = b""
    while b"\r\n\r\n" not in data and (chunk := conn.recv(4096)):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0)
    while len(body) < length and (chunk := conn.recv(4096)):
        body += chunk
    return head.decode("latin-1").lower(), body


@pytest.mark.parametrize("limits", [
    {"PORTAL_BODY_TIMEOUT_MS": "700", "PORTAL_REQUEST_TIMEOUT_MS": "30000"},  # the body deadline
    {"PORTAL_BODY_TIMEOUT_MS": "30000", "PORTAL_REQUEST_TIMEOUT_MS": "700"},  # the request deadline
])
def test_every_deadline_answers_the_core_problem_document_with_the_shared_headers(limits):
    s = servers.start_portal(["serve", "--dist", str(servers.conformance_dist()), "--port", "0"], env=limits)
    try:
        conn = connect(s)
        conn.sendall(b"POST /api/news HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        conn.settimeout(10)
        head, body = read_response(conn)
        conn.close()
    finally:
        s.stop()
    assert head.startswith("http/1.1 408"), head
    assert "content-type: application/problem+json" in head and "api-version: 1.0.0" in head, head
    assert "access-control-allow-origin: *" in head, head
    assert json.loads(body)["code"] == "request_timeout"


def test_a_declared_body_over_64_kib_is_refused_before_reading_it(server):
    conn = connect(server)
    conn.sendall(b"POST /api/news HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n")
    conn.settimeout(5)
    assert conn.recv(1024).startswith(b"HTTP/1.1 413")
    conn.close()


def test_connections_beyond_the_cap_wait_while_every_connection_is_answering():
    # Deadlines longer than the test: the four requests must stay in flight until closed here.
    s = servers.start_portal(["serve", "--dist", str(servers.conformance_dist()), "--port", "0"],
                             env={**LIMITS, "PORTAL_HEADER_TIMEOUT_MS": "10000", "PORTAL_BODY_TIMEOUT_MS": "10000"})
    try:
        busy = [connect(s) for _ in range(4)]
        for conn in busy:
            conn.sendall(b"POST /api/news HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        time.sleep(0.2)
        with ThreadPoolExecutor(1) as pool:
            waiting = pool.submit(lambda: requests.get(s.base_url + "/api/news/pinned", timeout=10).status_code)
            time.sleep(0.3)
            assert not waiting.done(), "a fifth connection is served only when one of four answering ones closes"
            for conn in busy:
                conn.close()
            assert waiting.result(timeout=10) == 200
    finally:
        s.stop()


def test_a_connection_beyond_the_cap_takes_the_place_of_the_oldest_idle_one():
    s = servers.start_portal(["serve", "--dist", str(servers.conformance_dist()), "--port", "0"],
                             env={**LIMITS, "PORTAL_HEADER_TIMEOUT_MS": "10000"})
    try:
        idle = []
        for _ in range(4):
            idle.append(connect(s))
            time.sleep(0.05)
        time.sleep(0.2)
        started = time.monotonic()
        assert requests.get(s.base_url + "/api/news/pinned", timeout=10).status_code == 200
        assert time.monotonic() - started < 1, "served at once, not when an idle connection times out"
        assert refused(idle[0]), "the oldest idle connection made room"
        for conn in idle[1:]:
            conn.setblocking(False)
            with pytest.raises(BlockingIOError):
                conn.recv(1)  # still open, nothing sent
            conn.close()
    finally:
        s.stop()


@pytest.mark.parametrize(
    "target",
    [
        "/../../../../etc/passwd",
        "/api/news/../../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/api/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/api/news/..%2f..%2f_portal%2fmanifest.json",
        "/..\\..\\etc\\passwd",
        "/api\\..\\..\\etc\\passwd",
        "//etc/passwd",
        "/%2fetc%2fpasswd",
        "/_portal/manifest.json",
        "/_headers",
        "/api/news/../../_portal/search/index.json",
    ],
)
def test_no_path_reaches_a_file_outside_the_routes(server, target):
    response = raw(server, target)
    assert response.startswith(b"HTTP/1.1 404") or response.startswith(b"HTTP/1.1 400"), response[:200]
    assert b"root:" not in response and b'"routes"' not in response


def test_a_symlink_in_dist_pointing_out_is_not_followed(tmp_path):
    dist = tmp_path / "dist"
    shutil.copytree(servers.conformance_dist(), dist)
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    target = dist / "api" / "news" / "pinned.json"
    target.unlink()
    os.symlink(secret, target)
    s = servers.start_portal(["serve", "--dist", str(dist), "--port", "0"])
    try:
        r = requests.get(s.base_url + "/api/news/pinned")
        assert r.status_code == 404 and "top secret" not in r.text
    finally:
        s.stop()


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))


def test_many_distinct_addresses_keep_memory_bounded(server):
    session = requests.Session()

    def burst(start, count):
        for i in range(start, start + count):
            session.get(server.base_url + "/api/news?limit=1", headers={"X-Forwarded-For": f"10.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}"})

    burst(0, 2000)
    before = rss_kib(server.process.pid)
    burst(2000, 20000)
    after = rss_kib(server.process.pid)
    assert after - before < 64 * 1024, f"RSS grew by {after - before} KiB over 20,000 addresses"
