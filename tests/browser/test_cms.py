"""An editor who never opens a terminal (docs/editing.md#editing-on-your-computer): Decap CMS at
`/admin` of the sample site, with `local_backend` and Decap's local proxy (`decap-server`) over a
temporary copy of the content, shows every collection, creates a news item with a title, a tag and
a body, and saves it; the file appears in the copy's `content/news/` with valid front matter, and
`portal build` of the copy publishes it.

The CMS's script comes from its CDN. When the CDN is out of reach (a closed test network), the
pinned npm package's own files (tests/cms/, scripts/cms-tools) answer its URLs instead, so the test
runs the same release either way; the test says which it used. Decap is tested rather than Sveltia
because decap-server speaks Decap's local protocol."""

import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

import servers
from conftest import DESKTOP

CMS_TESTS = servers.ROOT / "tests" / "cms"
DECAP_DIST = CMS_TESTS / "node_modules" / ".unpacked" / "decap-cms"
DECAP_SERVER = CMS_TESTS / "node_modules" / "decap-server" / "dist" / "index.js"
# The release core/src/content/cms.rs pins.
DECAP_CDN = "https://unpkg.com/decap-cms@3.16.3/"
SVELTIA_DIST = CMS_TESTS / "node_modules" / ".unpacked" / "@sveltia" / "cms"
SVELTIA_CDN = "https://unpkg.com/@sveltia/cms@0.221.1/"
# Where Decap CMS looks for its local proxy when `local_backend: true`.
PROXY = "http://localhost:8081"
COLLECTION_LABELS = ["Services", "Resources", "Events", "Photos", "Jobs", "News", "Courses", "Community voices",
                     "Talents", "Marketplace", "Stores", "Rights", "Artists", "Artworks", "Poets", "Dancers", "Pages",
                     "Encyclopedia"]


def cdn_reachable():
    try:
        urllib.request.urlopen(urllib.request.Request("https://unpkg.com", method="HEAD"), timeout=5)
        return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def editing():
    """A copy of the sample content with a `cms:` block, built and served by `portal serve`, and
    decap-server over the copy (on a free port, reached through the page's route for the
    proxy's fixed address). Yields (site URL, proxy URL, the copy's root)."""
    if not DECAP_SERVER.is_file() or not DECAP_DIST.is_dir():
        pytest.fail("the CMS test tools are missing: run scripts/cms-tools")
    root = Path(tempfile.mkdtemp(prefix="cms-edit-", dir=servers.ROOT / "target"))
    shutil.copytree(servers.ROOT / "content", root / "content")
    with open(root / "content" / "site.yaml", "a", encoding="utf-8") as settings:
        settings.write("\ncms: {backend: github, repo: amani/portal, app: decap, local_backend: true}\n")
    build(root)
    server = servers.start_portal(["serve", "--dist", str(root / "dist"), "--port", "0", "--rate-limit", "1000000"],
                                  env={"PORTAL_SMTP_URL": ""})
    port = servers.free_port()
    log = open(root / "decap-server.log", "w", encoding="utf-8")
    proxy = subprocess.Popen(["node", str(DECAP_SERVER)], stdout=log, stderr=subprocess.STDOUT,
                             env={**os.environ, "PORT": str(port), "BIND_HOST": "127.0.0.1", "MODE": "fs",
                                  "GIT_REPO_DIRECTORY": str(root)})
    deadline = time.monotonic() + 30
    while "listening" not in (root / "decap-server.log").read_text(encoding="utf-8") and time.monotonic() < deadline:
        time.sleep(0.1)
    yield server.base_url, f"http://127.0.0.1:{port}", root
    proxy.terminate()
    proxy.wait(timeout=10)
    server.stop()
    shutil.rmtree(root, ignore_errors=True)


def build(root):
    built = subprocess.run([str(servers.PORTAL), "build", "--content", str(root / "content"), "--out",
                            str(root / "dist")], capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr
    return built


def serve_cdn_from_npm(route, cdn=DECAP_CDN, package=DECAP_DIST):
    """The CDN's answer for a file of the pinned release, from the npm package's own copy."""
    path = route.request.url.removeprefix(cdn).split("?")[0]
    file = (package / path).resolve()
    if not route.request.url.startswith(cdn) or not file.is_file() or package.resolve() not in file.parents:
        route.fulfill(status=404)
        return
    route.fulfill(status=200, body=file.read_bytes(),
                  headers={"content-type": "text/javascript; charset=utf-8", "access-control-allow-origin": "*"})


def to_proxy(route, proxy):
    """Decap CMS asks its local proxy at a fixed address; the test's proxy listens on a free port."""
    response = route.fetch(url=route.request.url.replace(PROXY, proxy))
    route.fulfill(response=response)


def test_an_editor_creates_a_news_item_that_the_next_build_publishes(editing, browser):
    site, proxy, root = editing
    online = cdn_reachable()
    print(f"CMS script from {'the CDN' if online else 'the pinned npm package (CDN unreachable)'}")
    page = browser.new_page(viewport=DESKTOP)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    if not online:
        page.route(DECAP_CDN + "**", lambda route: serve_cdn_from_npm(route))
    page.route(PROXY + "/**", lambda route: to_proxy(route, proxy))
    try:
        page.goto(site + "/admin/")
        assert page.url.startswith(site + "/admin#"), "the trailing slash is dropped, as on every page"
        page.get_by_role("button", name="Login").click()
        for label in COLLECTION_LABELS:
            page.get_by_role("link", name=label, exact=True).first.wait_for(timeout=30_000)
        page.goto(site + "/admin#/collections/news/new")
        title = page.locator("input[id^=title-field]")
        title.fill("Water point opens in Zone C")
        page.locator("input[id^=tags-field]").fill("water")
        page.locator("[data-slate-editor=true]").click()
        page.keyboard.type("The new tap stand is open every morning.")
        page.get_by_text("Unsaved changes").wait_for()
        assert title.input_value() == "Water point opens in Zone C"
        page.get_by_role("button", name="Publish").first.click()
        page.get_by_text("Publish now").click()
        page.get_by_text("Entry saved").wait_for(timeout=30_000)
        written = root / "content" / "news" / "water-point-opens-in-zone-c.md"
        deadline = time.monotonic() + 30
        while not written.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert written.exists(), f"{sorted(p.name for p in written.parent.iterdir())} {errors}"
    except Exception:
        page.screenshot(path=str(servers.ROOT / "target" / "cms-edit-failure.png"), full_page=True)
        raise
    finally:
        # Decap keeps polling its proxy: a route handler still fetching when the page closes would
        # raise in the next test's first Playwright call.
        page.unroute_all(behavior="ignoreErrors")
        page.close()
    text = written.read_text(encoding="utf-8")
    assert text.startswith("---\n"), text
    front, body = text[4:].split("\n---\n", 1)
    fields = yaml.safe_load(front)
    assert fields["title"] == "Water point opens in Zone C"
    assert fields["tags"] == ["water"]
    assert "The new tap stand is open every morning." in body
    assert not (servers.ROOT / "content" / "news" / written.name).exists(), "the repository's content is untouched"
    build(root)
    page = (root / "dist" / "news" / "water-point-opens-in-zone-c.html").read_text(encoding="utf-8")
    assert "Water point opens in Zone C" in page and "The new tap stand is open every morning." in page


def test_sveltia_cms_starts_on_its_configuration_under_the_page_policy(browser, tmp_path):
    """Sveltia CMS (the default) reads the generated configuration and offers its sign-in, with
    nothing refused by the page's Content-Security-Policy. Signing in needs a git host, which a
    closed test network lacks; Decap's test above covers editing."""
    root = tmp_path
    shutil.copytree(servers.ROOT / "content", root / "content")
    with open(root / "content" / "site.yaml", "a", encoding="utf-8") as settings:
        settings.write("\ncms: {repo: amani/portal}\n")
    build(root)
    server = servers.start_portal(["serve", "--dist", str(root / "dist"), "--port", "0"], env={"PORTAL_SMTP_URL": ""})
    page = browser.new_page(viewport=DESKTOP)
    messages = []
    page.on("console", lambda message: messages.append(message.text))
    page.on("pageerror", lambda error: messages.append(f"page error: {error}"))
    if not cdn_reachable():
        page.route("https://unpkg.com/**", lambda route: serve_cdn_from_npm(route, SVELTIA_CDN, SVELTIA_DIST))
    try:
        page.goto(server.base_url + "/admin")
        # Sveltia isolates the host's name in the label (U+2068 GitHub U+2069).
        page.get_by_role("button", name=re.compile(r"Sign In with \W?GitHub")).wait_for(timeout=30_000)
        page.get_by_role("button", name="Work with Local Repository").wait_for()
    finally:
        page.unroute_all(behavior="ignoreErrors")
        page.close()
        server.stop()
    refused = [m for m in messages if "Content Security Policy" in m or m.startswith("page error")]
    assert not refused, refused
    assert not [m for m in messages if "configuration" in m.lower() and "error" in m.lower()], messages


def test_the_admin_page_says_plainly_when_the_cms_script_cannot_load_and_not_once_it_runs(browser, tmp_path):
    """With the CDN unreachable, `/admin` is not blank: its notice says the script could not be
    loaded and from where; once Sveltia CMS starts, the notice is gone (a style rule, no script)."""
    root = tmp_path
    shutil.copytree(servers.ROOT / "content", root / "content")
    with open(root / "content" / "site.yaml", "a", encoding="utf-8") as settings:
        settings.write("\ncms: {repo: amani/portal}\n")
    build(root)
    server = servers.start_portal(["serve", "--dist", str(root / "dist"), "--port", "0"], env={"PORTAL_SMTP_URL": ""})
    page = browser.new_page(viewport=DESKTOP)
    notice = page.locator(".cms-status")
    try:
        page.route("https://unpkg.com/**", lambda route: route.abort())
        page.goto(server.base_url + "/admin")
        assert notice.is_visible() and "could not be loaded from https://unpkg.com" in notice.inner_text()
        page.unroute_all(behavior="ignoreErrors")
        if not cdn_reachable():
            page.route("https://unpkg.com/**", lambda route: serve_cdn_from_npm(route, SVELTIA_CDN, SVELTIA_DIST))
        page.goto(server.base_url + "/admin")
        page.get_by_role("button", name=re.compile(r"Sign In with \W?GitHub")).wait_for(timeout=30_000)
        assert not notice.is_visible(), "the notice is hidden once the CMS runs"
    finally:
        page.unroute_all(behavior="ignoreErrors")
        page.close()
        server.stop()
