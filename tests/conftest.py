"""Shared pytest options: which target the conformance suite runs against."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_addoption(parser):
    parser.addoption("--target", default="native", choices=["native", "edge"], help="server to test")
    parser.addoption("--base-url", default=None, help="test an already running server instead")
    parser.addoption("--rate-window", default=3, type=int, help="rate-limit window (s) the server runs with")
