"""The conformance suite: one set of HTTP cases, run against `portal serve` and `wrangler dev`
on the same built `dist/` (fixtures/site). Each test gets its own client address (through
X-Forwarded-For) so rate-limit budgets never leak between tests."""

import itertools
import os
import tempfile

import pytest
import requests

import mock_upstream
import servers
import spec

_addresses = itertools.count(1)
RATE_LIMIT = 60


@pytest.fixture(scope="session")
def target(request):
    return request.config.getoption("--target")


@pytest.fixture(scope="session")
def rate_window(request):
    return request.config.getoption("--rate-window")


@pytest.fixture(scope="session")
def base_url(request, rate_window):
    given = request.config.getoption("--base-url")
    if given:
        yield given.rstrip("/")
        return
    target = request.config.getoption("--target")
    if target == "native":
        state = tempfile.mkdtemp(prefix="conformance-state-", dir=servers.ROOT / "target")
        server = servers.start_portal(
            ["serve", "--dist", str(servers.conformance_dist()), "--port", "0", "--rate-window", str(rate_window),
             "--state", state],
            env={"PORTAL_SMTP_URL": "", **mock_upstream.CMS_ENV},
        )
    else:
        import edge  # noqa: PLC0415 - only needed for the edge target

        server = edge.start_wrangler(servers.conformance_dist(), rate_window)
    yield server.base_url
    server.stop()


class Client:
    """A tiny HTTP client bound to the base URL and to one fake client address."""

    def __init__(self, base_url, address):
        self.base_url = base_url
        self.address = address
        self.session = requests.Session()

    def request(self, method, path, headers=None, **kwargs):
        merged = {"X-Forwarded-For": self.address, **(headers or {})}
        kwargs.setdefault("allow_redirects", False)
        kwargs.setdefault("timeout", 30)
        return self.session.request(method, self.base_url + path, headers=merged, **kwargs)

    def get(self, path, **kwargs):
        return self.request("GET", path, **kwargs)

    def post(self, path, **kwargs):
        return self.request("POST", path, **kwargs)


def fresh_address():
    n = next(_addresses) + os.getpid() % 1000 * 1000
    return f"198.18.{n // 250 % 250}.{n % 250 + 1}"


@pytest.fixture
def client(base_url):
    return Client(base_url, fresh_address())


@pytest.fixture
def new_client(base_url):
    """A factory of clients, each with its own address."""
    return lambda: Client(base_url, fresh_address())


def problem(response, status, code):
    """Asserts `response` is a problem document with `status` and `code`, and returns it."""
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"].startswith(spec.PROBLEM_JSON)
    doc = response.json()
    for member in ("type", "title", "status", "code", "detail"):
        assert member in doc, f"problem lacks {member}: {doc}"
    assert doc["status"] == status
    assert doc["code"] == code
    assert doc["type"].endswith(f"/api-docs#error-{code}")
    return doc


@pytest.fixture
def upstream_mode(upstream):
    """Sets an upstream's behaviour for one test, and restores `ok` after it."""
    changed = []

    def set_mode(endpoint, mode):
        changed.append(endpoint)
        upstream.set_mode(endpoint, mode)

    yield set_mode
    for endpoint in changed:
        upstream.set_mode(endpoint, "ok")
