"""The CMS sign-in of a `portal serve` whose operator never configured it (no CMS_GITHUB_* in its
environment: docs/spec/api-spec.md#cms-sign-in): both routes are a 404 problem document that names
the two settings, and nothing else changes. (The conformance suite runs both servers configured.)"""

import pytest
import requests

import mock_upstream
import servers


@pytest.fixture(scope="module")
def unconfigured():
    # Empty values are unset, whatever the developer's own environment holds.
    env = {name: "" for name in mock_upstream.CMS_ENV}
    server = servers.start_portal(["serve", "--dist", str(servers.conformance_dist()), "--port", "0"], env=env)
    yield server.base_url
    server.stop()


def test_both_routes_are_a_404_naming_the_settings(unconfigured):
    for path in ["/api/cms/auth?provider=github", "/api/cms/callback?code=x&state=y"]:
        response = requests.get(unconfigured + path, allow_redirects=False, timeout=30)
        assert response.status_code == 404
        assert response.headers["Content-Type"].startswith("application/problem+json")
        doc = response.json()
        assert doc["code"] == "not_found"
        assert "CMS_GITHUB_CLIENT_ID" in doc["detail"] and "CMS_GITHUB_CLIENT_SECRET" in doc["detail"]
        assert "Set-Cookie" not in response.headers
