"""Forms sent without a connection (docs/offline-forms.md): in a real Chromium, a story sent while the context is
offline is kept on the phone and shown as "will be sent", sent once the connection is back (or on the next visit), and
stored exactly once by the server, however often it was sent (docs/spec/api-spec.md#idempotency)."""

import json
import subprocess
import tempfile

import pytest
from conftest import PHONE, sample_dist
from test_accessibility import violations

import servers

QUEUED = "will be sent when the connection is back"
SENT = "Sent: the connection is back"


@pytest.fixture(scope="module")
def served():
    """`portal serve` over the sample site with a state folder of its own, to count what it stored."""
    state = tempfile.mkdtemp(prefix="browser-outbox-", dir=servers.ROOT / "target")
    server = servers.start_portal(["serve", "--dist", str(sample_dist()), "--port", "0", "--rate-limit", "1000000",
                                   "--state", state], env={"PORTAL_SMTP_URL": ""})
    yield server.base_url, state
    server.stop()


def stored(state, title):
    out = subprocess.run([str(servers.PORTAL), "submissions", "--state", state], capture_output=True, text=True,
                         check=True)
    return [s for s in json.loads(out.stdout) if s["data"].get("title") == title]


def write_story(page, title):
    page.fill("#f-title", title)
    page.fill("#f-author", "Ana")
    page.fill("#f-content", "Written on a bus without signal.")
    page.click("form[data-outbox] button[type=submit]")


def test_a_story_sent_offline_is_kept_shown_and_stored_once_when_back_online(browser, served):
    base, state = served
    # axe is injected as an inline script, which the pages' Content-Security-Policy rightly refuses.
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    page.goto(base + "/community-voices/new")
    context.set_offline(True)
    write_story(page, "Offline beans")
    item = page.locator("#outbox-items p")
    item.filter(has_text=QUEUED).wait_for()
    key = item.get_attribute("data-key")
    assert page.evaluate("navigator.onLine") is False
    assert stored(state, "Offline beans") == []
    assert violations(page) == [], "the kept item is told accessibly"

    context.set_offline(False)
    page.locator("#outbox-items p.outbox-sent").filter(has_text=SENT).wait_for(timeout=15000)
    # The page, a second tab or the service worker may send it again: the key keeps it single.
    body = "title=Offline+beans&author=Ana&content=Written+on+a+bus+without+signal.&website=&idempotency_key=" + key
    again = page.evaluate(
        """([body, key]) => fetch("/community-voices/new", {method: "POST", body, redirect: "manual",
              headers: {"Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": key}})
            .then(r => r.type)""",
        [body, key],
    )
    assert again == "opaqueredirect"
    page.reload()
    page.wait_for_load_state("networkidle")
    assert len(stored(state, "Offline beans")) == 1
    assert page.evaluate(
        """() => new Promise(done => { const r = indexedDB.open("portal-outbox", 1);
             r.onsuccess = () => { const all = r.result.transaction("items").objectStore("items").getAll();
               all.onsuccess = () => done(all.result.length); }; })"""
    ) == 0, "a sent item the page has shown is forgotten"
    context.close()


def test_a_story_whose_post_fails_on_the_network_is_sent_on_the_next_visit(browser, served):
    base, state = served
    # The page's own path: without the service worker, whose Background Sync would send the story
    # at once (the browser believes it is online) and whose requests the route below cannot see.
    context = browser.new_context(viewport=PHONE, service_workers="block")
    page = context.new_page()
    page.goto(base + "/community-voices/new")
    # Connected as far as the phone knows, but the request never arrives (a dead mobile network).
    page.route("**/community-voices/new", lambda route: route.abort() if route.request.method == "POST" else route.continue_())
    write_story(page, "Lost beans")
    page.locator("#outbox-items p").filter(has_text=QUEUED).wait_for()
    assert stored(state, "Lost beans") == []
    page.unroute("**/community-voices/new")
    page.goto(base + "/search?q=water")
    page.wait_for_load_state("networkidle")
    page.goto(base + "/community-voices/new")
    page.locator("#outbox-items p.outbox-sent").wait_for(timeout=15000)
    assert len(stored(state, "Lost beans")) == 1
    context.close()


def test_online_the_form_goes_to_its_confirmation_as_without_scripts(browser, served):
    base, state = served
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(base + "/community-voices/new")
    write_story(page, "Connected beans")
    page.wait_for_url("**/community-voices/new/sent?id=v-*")
    assert len(stored(state, "Connected beans")) == 1
    context.close()


def test_the_service_worker_part_is_shipped_with_its_sync_tag():
    shipped = (sample_dist() / "assets" / "outbox-sw.js").read_text()
    store = (sample_dist() / "assets" / "outbox-store.js").read_text()
    worker = (sample_dist() / "sw.js").read_text()
    # The worker imports the shared store (which names the tag) before the sync handler.
    assert 'addEventListener("sync"' in shipped and '"portal-outbox"' in store
    assert 'importScripts("assets/outbox-store.js", "assets/outbox-sw.js")' in worker
