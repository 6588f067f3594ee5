"""The upstream cache of a site that keeps answers (`upstreams.cache_seconds: 300`; the conformance
site keeps none): an answer an endpoint cannot use is a failure, kept no longer than a failure is
remembered, 5 seconds (docs/spec/api-spec.md#upstreams)."""

import re
import shutil
import time

import pytest
import requests

import servers

FAILURE_MEMORY = 5


@pytest.fixture(scope="module")
def caching(tmp_path_factory):
    content = tmp_path_factory.mktemp("cache") / "content"
    shutil.copytree(servers.ROOT / "fixtures" / "site", content)
    settings = content / "site.yaml"
    text, count = re.subn(r"(?m)^  cache_seconds: 0$", "  cache_seconds: 300", settings.read_text())
    assert count == 1, "the fixture site's upstream cache setting moved"
    settings.write_text(text)
    server = servers.start_portal(["serve", "--content", str(content), "--out", str(content.parent / "dist"),
                                   "--port", "0"])
    yield server.base_url
    server.stop()


def test_a_lookup_without_a_location_is_kept_five_seconds_not_the_cache_time(caching, upstream):
    address = "198.51.100.77"
    ask = lambda: requests.get(caching + "/api/geolocation", headers={"X-Forwarded-For": address}, timeout=10)
    try:
        upstream.set_mode("geo", "nowhere")
        asked = time.monotonic()
        first = ask()
        assert first.status_code == 503 and first.headers["Cache-Control"] == "no-store", first.text
        upstream.set_mode("geo", "ok")
        assert ask().status_code == 503, "the answer is kept for the failure memory"
        time.sleep(max(0.0, asked + FAILURE_MEMORY + 0.5 - time.monotonic()))
        found = ask()
        assert found.status_code == 200, "asked again after 5 s, not 300"
        assert found.json()["data"]["city"] == "Fixture"
        assert found.headers["Cache-Control"] == "private, no-store"
    finally:
        upstream.set_mode("geo", "ok")
