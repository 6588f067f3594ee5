"""Shared pytest options: which target the conformance suite runs against."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_addoption(parser):
    parser.addoption("--target", default="native", choices=["native", "edge"], help="server to test")
    parser.addoption("--base-url", default=None, help="test an already running server instead")
    parser.addoption("--rate-window", default=3, type=int, help="rate-limit window (s) the server runs with")


@pytest.fixture(scope="session", autouse=True)
def upstream():
    """The mock third-party upstreams the fixture site points at (fixed loopback port), shared by
    every suite of the session."""
    import mock_upstream  # noqa: PLC0415

    server = mock_upstream.start()
    yield mock_upstream
    server.shutdown()
