"""Reading offline (docs/offline.md) in a real browser: the service worker installs within the
site's budget, then with the network cut pages read before, the home and help pages and saved
records still open, and a page never opened shows the offline page. On `portal serve --dist` over
the build and over its snapshot archive, and on a plain static file server over the build (as a
copy on any host)."""

import functools
import http.server
import json
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest

import servers
import spec
from conftest import CHROMIUM, FLAGS, PHONE
from test_accessibility import violations

DEFAULT_BUDGET = spec.OFFLINE_BUDGET


@pytest.fixture(scope="module")
def dist():
    """A fresh build of the sample site (the worker's precache list is made by the build)."""
    out = Path(tempfile.mkdtemp(prefix="offline-dist-", dir=servers.ROOT / "target"))
    subprocess.run([str(servers.PORTAL), "build", "--content", "content", "--out", str(out)],
                   cwd=servers.ROOT, check=True, capture_output=True)
    yield out
    shutil.rmtree(out, ignore_errors=True)


def static_server(dist):
    """Python's plain file server over `dist`: no headers of ours, no dynamic side."""
    handler = functools.partial(QuietHandler, directory=str(dist))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def snapshot_of(dist):
    """`portal snapshot` of the build: the archive an offline copy travels as."""
    archive = dist.parent / (dist.name + ".tar.gz")
    subprocess.run([str(servers.PORTAL), "snapshot", "--dist", str(dist), "--out", str(archive)],
                   cwd=servers.ROOT, check=True, capture_output=True)
    return archive


@pytest.fixture(scope="module", params=["native", "snapshot", "static"])
def base_url(request, dist):
    if request.param in ("native", "snapshot"):
        served = dist if request.param == "native" else snapshot_of(dist)
        server = servers.start_portal(["serve", "--dist", str(served), "--port", "0", "--rate-limit", "1000000"],
                                      env={"PORTAL_SMTP_URL": ""})
        yield server.base_url
        server.stop()
    else:
        server = static_server(dist)
        yield f"http://127.0.0.1:{server.server_address[1]}"
        server.shutdown()


def installed(browser, base_url):
    """A phone's browser that opened the home page and whose service worker is active."""
    # Waiting on a condition evaluates script, which the pages' policy rightly refuses.
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    page.goto(base_url + "/")
    # The worker claims the page once it has precached and activated.
    page.wait_for_function("navigator.serviceWorker.controller && navigator.serviceWorker.controller.state === 'activated'")
    return context, page


def settings(dist):
    """The worker's settings as the build wrote them."""
    text = (dist / "sw.js").read_text()
    start = text.index("self.PORTAL_OFFLINE = ") + len("self.PORTAL_OFFLINE = ")
    return json.loads(text[start:text.index(";\n", start)])


def cached_bytes(page):
    """{URL: bytes} of everything the worker precached."""
    return page.evaluate("""async () => {
        const out = {};
        for (const name of (await caches.keys()).filter(n => n.startsWith('portal-precache-'))) {
            const cache = await caches.open(name);
            for (const request of await cache.keys()) {
                out[request.url] = (await (await cache.match(request)).arrayBuffer()).byteLength;
            }
        }
        return out;
    }""")


def test_the_install_downloads_the_precache_list_within_the_budget(dist, base_url, browser):
    listed = settings(dist)["precache"]
    assert sum(item["bytes"] for item in listed) <= DEFAULT_BUDGET
    assert {"index.html", "offline.html", "urgent-help.html", "news.html", "map.html"} <= {i["url"] for i in listed}
    context, page = installed(browser, base_url)
    cached = cached_bytes(page)
    assert set(cached) == {f"{base_url}/{item['url']}" for item in listed}
    assert sum(cached.values()) <= DEFAULT_BUDGET
    context.close()


def test_offline_pages_read_before_and_the_home_and_help_pages_still_open(base_url, browser):
    context, page = installed(browser, base_url)
    page.goto(base_url + "/services.html")
    record = page.locator("main a[href*='services/']").first.get_attribute("href")
    page.goto(f"{base_url}/{record}")
    title = page.title()
    context.set_offline(True)
    page.goto(f"{base_url}/{record}")
    assert page.title() == title
    for path, heading in [("/", "Amani"), ("/urgent-help.html", "Urgent help"), ("/news.html", "News")]:
        response = page.goto(base_url + path)
        assert response.status == 200, path
        assert heading in page.title(), path
    context.close()


def test_what_a_reader_searched_is_not_kept_on_the_phone(base_url, browser):
    context, page = installed(browser, base_url)
    page.goto(base_url + "/search?q=rape")
    page.goto(base_url + "/news.html")
    kept = page.evaluate("caches.open('portal-pages').then(c => c.keys()).then(ks => ks.map(k => k.url))")
    assert base_url + "/news.html" in kept
    assert [url for url in kept if "?" in url] == []
    context.close()


def test_a_search_asked_before_answers_offline_from_the_index_pieces_kept(base_url, browser):
    context, page = installed(browser, base_url)
    # Online, the page that searches in the browser fetches the pieces of the index a query needs.
    page.goto(base_url + "/search.html?q=clinic")
    page.wait_for_selector("#find-results[data-searched]", timeout=30000)
    online = page.locator("#find-results a").all_inner_texts()
    assert online, "the static search finds the clinic online"
    context.set_offline(True)
    # Offline, `/search` (answered by the server when online) opens the kept search page.
    page.goto(base_url + "/search?q=clinic")
    page.wait_for_selector("#find-results[data-searched]", timeout=30000)
    assert page.locator("#find-results a").all_inner_texts() == online
    context.close()


def test_a_page_never_opened_offline_shows_the_offline_page_and_what_can_be_read(base_url, browser):
    context, page = installed(browser, base_url)
    context.set_offline(True)
    page.goto(base_url + "/jobs/never-opened.html")
    assert page.locator("h1").inner_text() == "You are offline"
    page.wait_for_function("document.querySelectorAll('#offline-pages a').length > 5")
    links = page.locator("#offline-pages a")
    names = [links.nth(i).inner_text() for i in range(links.count())]
    assert "Urgent help - Msaada wa haraka - مساعدة عاجلة" in names
    # Its links lead to the site's root, whatever the address it answered.
    news = page.locator("#offline-pages a", has_text="News").first
    news.click()
    page.wait_for_load_state()
    assert page.url == base_url + "/news.html" and page.title().startswith("News")
    context.close()


def test_saving_a_listing_for_offline_keeps_its_records(base_url, browser):
    context, page = installed(browser, base_url)
    page.goto(base_url + "/jobs.html")
    button = page.locator(".save-offline button")
    assert button.inner_text().startswith("Save 5 records (")
    assert "KB) for offline" in button.inner_text()
    button.click()
    page.wait_for_function("document.querySelector('.save-offline [role=status]').textContent.startsWith('Saved')")
    record = page.locator("main a[href*='jobs/']").last.get_attribute("href")
    context.set_offline(True)
    response = page.goto(f"{base_url}/{record}")
    assert response.status == 200 and page.locator("h1").inner_text() != "You are offline"
    context.close()


def test_the_offline_page_has_no_serious_accessibility_problem(base_url, browser):
    context, page = installed(browser, base_url)
    context.set_offline(True)
    page.goto(base_url + "/events/not-saved.html")
    assert page.locator("h1").inner_text() == "You are offline"
    assert violations(page) == []
    context.close()


def test_with_scripts_off_pages_are_whole_and_nothing_fails(base_url, browser):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    failed = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.on("pageerror", lambda e: failed.append(str(e)))
    for path in ["/", "/jobs.html", "/offline.html"]:
        page.goto(base_url + path)
        assert page.locator("footer.site").count() == 1, path
        assert page.locator(".save-offline button").count() == 0
    assert page.locator("link[rel=manifest]").count() == 1
    assert failed == []
    context.close()
