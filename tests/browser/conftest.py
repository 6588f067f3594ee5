"""The browser suite: Debian's Chromium driven by Playwright for Python (pointed at the system
browser: Playwright's own download host is not reachable), over `portal serve` of the sample site
(`content/`, built by scripts/test into target/sample-dist)."""

import os
import tempfile
from pathlib import Path

import pytest

import servers

CHROMIUM = os.environ.get("PORTAL_CHROMIUM", "/usr/bin/chromium")
AXE = servers.ROOT / "node_modules" / "axe-core" / "axe.min.js"
# Flags for a headless browser on a closed network (no background fetches to Google's hosts).
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def sample_dist():
    return Path(os.environ.get("PORTAL_SAMPLE_DIST", servers.ROOT / "target" / "sample-dist"))


@pytest.fixture(scope="session", autouse=True)
def upstream():
    """The sample site calls no third-party upstream, so this suite starts no mock on the fixed
    port (tests/conftest.py): its two workers (pytest-xdist) would both try to bind it."""
    yield None


@pytest.fixture(scope="session")
def site():
    """`portal serve` over the sample site's build; yields (base URL, every route it serves)."""
    dist = sample_dist()
    routes = servers.routes(dist)
    state = tempfile.mkdtemp(prefix="browser-state-", dir=servers.ROOT / "target")
    server = servers.start_portal(["serve", "--dist", str(dist), "--port", "0", "--rate-limit", "1000000",
                                   "--state", state], env={"PORTAL_SMTP_URL": ""})
    yield server.base_url, routes
    server.stop()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


def no_script_page(browser):
    """A page of a new browser context at a phone's width with JavaScript turned off, and its
    context (to close)."""
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    return context, context.new_page()


def html_pages(routes):
    """Every URL path the build serves as an HTML page."""
    return sorted(path for path, asset in routes.items() if asset["type"].startswith("text/html"))
