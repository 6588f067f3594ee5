"""Who the client is: forwarded headers count only from a trusted proxy. A client that rotates
X-Forwarded-For from an untrusted address still hits its own rate limit, one that respells its
address behind a trusted proxy (junk entries, ports, IPv4 mapped into IPv6, other addresses of its
IPv6 /64) is still one client, and the upstream geolocation is asked about the connection's address."""

import subprocess

import pytest
import requests

import servers


def serve(*args):
    return servers.start_portal(["serve", "--dist", str(servers.conformance_dist()), "--port", "0", "--rate-limit", "5",
                                 "--rate-window", "60", *args])


def statuses(server, count):
    return [requests.get(server.base_url + "/api/news?limit=1", headers={"X-Forwarded-For": f"203.0.113.{n}",
            "X-Real-IP": f"198.51.100.{n}"}, timeout=10).status_code for n in range(count)]


def test_rotating_forwarded_headers_from_an_untrusted_peer_does_not_escape_the_limit():
    server = serve("--trusted-proxies", "none")
    try:
        answers = statuses(server, 8)
    finally:
        server.stop()
    assert answers == [200] * 5 + [429] * 3


def test_a_trusted_proxy_speaks_for_its_clients():
    server = serve("--trusted-proxies", "127.0.0.0/8")
    try:
        answers = statuses(server, 8)
    finally:
        server.stop()
    assert answers == [200] * 8


SPELLINGS = {
    "junk before the address": lambda n: f"garbage-{n}, unknown, 203.0.113.50",
    "a port": lambda n: f"203.0.113.60:{5000 + n}",
    "IPv4 mapped into IPv6": lambda n: "::ffff:203.0.113.70" if n % 2 else "203.0.113.70",
    "addresses of one IPv6 /64": lambda n: f"2001:db8:7:7::{n + 1:x}",
    "bracketed IPv6 with a port": lambda n: f"[2001:db8:8:8::{n + 1:x}]:{443 + n}",
}


@pytest.mark.parametrize("spelling", SPELLINGS.values(), ids=SPELLINGS.keys())
def test_a_client_respelling_its_address_behind_a_trusted_proxy_is_still_one_client(spelling):
    server = serve("--trusted-proxies", "127.0.0.0/8")
    try:
        answers = [requests.get(server.base_url + "/api/news?limit=1", headers={"X-Forwarded-For": spelling(n)},
                                timeout=10).status_code for n in range(8)]
    finally:
        server.stop()
    assert answers == [200] * 5 + [429] * 3


def test_a_bad_trusted_proxies_list_is_a_usage_error():
    result = subprocess.run([str(servers.PORTAL), "serve", "--dist", str(servers.conformance_dist()), "--port", "0",
                             "--trusted-proxies", "10.0.0.0/99"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "10.0.0.0/99" in result.stderr


def test_geolocation_asks_about_the_connection_not_a_forged_header(upstream):
    server = serve("--trusted-proxies", "none")
    try:
        upstream.SEEN.clear()
        requests.get(server.base_url + "/api/geolocation", headers={"X-Forwarded-For": "203.0.113.77"}, timeout=10)
    finally:
        server.stop()
    lookups = [path for path in upstream.SEEN if path.startswith("/geo/")]
    assert lookups and all("203.0.113.77" not in path for path in lookups)
