"""Search without a server (docs/api.md#search-without-a-server): the sample site's build served by a
plain static file server (Python's http.server), its `search.html` searching `find/` in Chromium."""

import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode

import pytest

import servers

ROOT = servers.ROOT
sys.path.insert(0, str(ROOT / "bench" / "relevance"))

import offline  # noqa: E402

relevance = offline.relevance

FOLDING = Path(__file__).with_name("folding.json")
# The budget is 100 KB per query at 10,000 records (BENCHMARKS.md measures it there); the
# sample site must stay well within it.
MAX_QUERY_BYTES = 100 * 1024


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    out = tmp_path_factory.mktemp("static-search") / "dist"
    subprocess.run([str(servers.PORTAL), "build", "--content", str(ROOT / "content"), "--out", str(out)], check=True,
                   stdout=subprocess.DEVNULL)
    return out


@pytest.fixture(scope="module")
def static_host(dist):
    relevance.OUT.mkdir(parents=True, exist_ok=True)
    server = relevance.static_server(dist, probe="/find/index.json")
    yield server.base_url
    server.stop()


def search(browser, base, query, script=True):
    """The results' HTML of `query` on search.html in a fresh context, and the bytes fetched from find/."""
    context = browser.new_context(java_script_enabled=script)
    page = context.new_page()
    fetched = []
    page.on("response", lambda r: fetched.append(len(r.body())) if "/find/" in r.url and r.ok else None)
    page.goto(base + "/search.html?" + urlencode({"q": query}))
    if script:
        page.wait_for_selector("#find-results[data-searched]", timeout=30000)
    html = page.inner_html("main")
    context.close()
    return html, sum(fetched)


def test_the_browsers_folding_is_cores(browser, static_host):
    page = browser.new_page()
    page.goto(static_host + "/search.html")
    for text, expected in json.loads(FOLDING.read_text(encoding="utf-8")):
        assert page.evaluate("(t) => window.portalFindWords(t)", text) == expected, text
    page.close()


def test_results_appear_from_a_static_host_within_the_budget(browser, static_host):
    html, fetched = search(browser, static_host, "health centre")
    links = relevance.result_links(f"<main>{html}</main>")
    assert "/services/amani-health-centre" in links[:3], links
    assert 'class="search-group"' in html and 'class="hit-collection"' in html
    print(f"bytes fetched for 'health centre': {fetched}")
    assert 0 < fetched < MAX_QUERY_BYTES, fetched


def test_a_crisis_query_shows_the_help_page_first(browser, static_host):
    for query in ["husband beats me", "kubakwa", "اغتصاب"]:
        html, _ = search(browser, static_host, query)
        assert 'class="help-first"' in html, query
        assert relevance.result_links(f"<main>{html}</main>")[0] == "/urgent-help", query
        assert 'href="tel:' in html


def test_a_typo_is_corrected_and_nothing_found_links_help(browser, static_host):
    html, _ = search(browser, static_host, "vacination")
    assert 'class="did-you-mean"' in html
    html, _ = search(browser, static_host, "zzzqqq")
    assert 'class="help-links"' in html and 'href="/services"' in html


def test_without_scripts_the_page_says_search_needs_the_live_site(browser, static_host):
    html, _ = search(browser, static_host, "water", script=False)
    assert "JavaScript" in html and 'services' in html


def test_the_static_search_agrees_with_the_server_page_on_the_judged_set(browser, dist):
    queries = relevance.judged.load()
    server, static, fetched = offline.compare(servers.PORTAL, dist, queries, browser)
    share, differ = offline.agreement(server, static)
    print(f"top-3 agreement {share:.1%}; median bytes {sorted(fetched.values())[len(fetched) // 2]}")
    assert share >= offline.TARGET, differ
    # Every query within the budget, the manifest included (each query starts with an empty cache).
    over = {q: n for q, n in fetched.items() if n > MAX_QUERY_BYTES}
    assert not over, over


def test_a_query_of_markup_is_shown_as_text(browser, static_host):
    html, _ = search(browser, static_host, '<img src=x onerror="document.title=1">')
    assert "&lt;img" in html and "<img" not in html


def test_the_results_have_no_serious_accessibility_violation(browser, static_host):
    from conftest import AXE, PHONE  # noqa: PLC0415

    page = browser.new_page(viewport=PHONE)
    for query in ["water", "rape", "zzzqqq"]:
        page.goto(static_host + "/search.html?" + urlencode({"q": query}))
        page.wait_for_selector("#find-results[data-searched]")
        page.add_script_tag(path=str(AXE))
        serious = page.evaluate(
            "async () => (await axe.run()).violations.filter(v => ['serious', 'critical'].includes(v.impact)).map(v => v.id)")
        assert serious == [], (query, serious)
    page.close()
