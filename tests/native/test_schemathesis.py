"""Schema-driven testing: Schemathesis reads the generated /api/openapi.json of a running
`portal serve` and sends every operation valid and invalid requests, with all of its checks
(server errors, status codes, content types, headers, response schemas, valid data accepted and
invalid data rejected). Zero failures: what it finds is fixed in the server or the document.

Bounded: a fixed number of examples per operation and a fixed seed, so a run is repeatable;
SCHEMATHESIS_EXAMPLES and SCHEMATHESIS_SEED widen or vary it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import servers

CONFIG = Path(__file__).resolve().parent.parent / "schemathesis.toml"
OGC_CONFIG = Path(__file__).resolve().parent.parent / "schemathesis-ogc.toml"


@pytest.fixture(scope="module")
def api():
    # The rate limit is raised so that every generated request reaches its handler.
    server = servers.start_portal(["serve", "--dist", str(servers.conformance_dist()), "--port", "0",
                                   "--rate-limit", "4000000000"])
    yield server.base_url
    server.stop()


def run(api, config, document):
    command = [
        str(Path(sys.executable).parent / "schemathesis"), "--config-file", str(config), "run",
        f"{api}{document}", "--url", api,
        "--max-examples", os.environ.get("SCHEMATHESIS_EXAMPLES", "40"),
        "--seed", os.environ.get("SCHEMATHESIS_SEED", "20261122"),
        "--request-timeout", "10", "--no-color",
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=900)
    report = result.stdout[-12000:] + result.stderr[-4000:]
    assert result.returncode == 0, report
    assert "generated" in result.stdout and "failure" not in result.stdout.split("SUMMARY")[-1].lower(), report


def test_schemathesis_finds_no_failure(api):
    run(api, CONFIG, "/api/openapi.json")


def test_the_ogc_apis_own_openapi_30_document_holds_with_every_check(api):
    """/api/ogc/openapi lists each collection's own filter values, so valid data is accepted
    without the exemption the site's shared document needs for getOgcItems."""
    run(api, OGC_CONFIG, "/api/ogc/openapi")
