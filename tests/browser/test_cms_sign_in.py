"""What guards the editors' token in a real browser (docs/editing.md#security, SECURITY.md "The CMS
and static files"): a document from `static/` runs no script and has no origin of its own, and the
sign-in's popup hands the token to the CMS's page `/admin` and to no other page of the site. The
sign-in runs for real through `portal serve` on http://127.0.0.1 (so Chromium keeps the `Secure`
`__Host-` state cookie there), against the mock GitHub of tests/mock_upstream.py on a port of its
own (this suite starts no mock on the shared fixed port)."""

import shutil
import subprocess
import threading
from http.server import ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

import mock_upstream
import servers


@pytest.fixture(scope="module")
def signing_in(tmp_path_factory):
    """The fixture site with a `cms:` block, served with the sign-in of a mock GitHub; yields its URL."""
    provider = ThreadingHTTPServer(("127.0.0.1", 0), mock_upstream.Handler)
    threading.Thread(target=provider.serve_forever, daemon=True).start()
    github = f"http://127.0.0.1:{provider.server_address[1]}"
    root = tmp_path_factory.mktemp("cms-sign-in")
    shutil.copytree(servers.ROOT / "fixtures" / "site", root / "content")
    with open(root / "content" / "site.yaml", "a", encoding="utf-8") as settings:
        settings.write("\ncms: {repo: amani/portal}\n")
    subprocess.run([str(servers.PORTAL), "build", "--content", str(root / "content"), "--out", str(root / "dist")],
                   capture_output=True, check=True)
    env = {**mock_upstream.CMS_ENV, "PORTAL_SMTP_URL": "",
           "CMS_GITHUB_AUTHORIZE_URL": f"{github}/oauth/authorize", "CMS_GITHUB_TOKEN_URL": f"{github}/oauth/token"}
    server = servers.start_portal(["serve", "--dist", str(root / "dist"), "--port", "0", "--rate-limit", "1000000"],
                                  env=env)
    yield server.base_url
    server.stop()
    provider.shutdown()


LISTEN_AND_OPEN = """() => {
  window.received = [];
  window.addEventListener("message", (event) => {
    window.received.push(event.data);
    if (event.data === "authorizing:github") { event.source.postMessage(event.data, event.origin); }
  });
  window.open("/api/cms/auth?provider=github", "sign-in");
}"""


def sign_in_from(browser, url):
    """Opens the sign-in from the page at `url` as the CMS does, lets the provider send the editor
    back with a good code, and returns the messages the page received."""
    context = browser.new_context()
    page = context.new_page()
    # The CMS itself is not needed: the page's own listener plays its part.
    page.route("https://unpkg.com/**", lambda route: route.abort())
    try:
        page.goto(url)
        with context.expect_page() as opened:
            page.evaluate(LISTEN_AND_OPEN)
        popup = opened.value
        popup.wait_for_url("**/oauth/authorize?**")
        state = parse_qs(urlsplit(popup.url).query)["state"][0]
        origin = url.split("/", 3)[:3]
        popup.goto("/".join(origin) + f"/api/cms/callback?code=good-code&state={state}")
        popup.wait_for_load_state()
        page.wait_for_timeout(500)
        return page.evaluate("() => window.received"), popup.content()
    finally:
        context.close()


def test_the_cms_page_receives_the_token(browser, signing_in):
    received, popup = sign_in_from(browser, signing_in + "/admin")
    assert "You are signed in" in popup, "the __Host- state cookie came back over http://127.0.0.1"
    assert received[0] == "authorizing:github"
    assert received[1].startswith("authorization:github:success:") and mock_upstream.CMS_TOKEN in received[1]


@pytest.mark.parametrize("path", ["/news", "/about/team"])
def test_another_page_of_the_site_receives_nothing(browser, signing_in, path):
    received, popup = sign_in_from(browser, signing_in + path)
    assert "You are signed in" in popup
    assert received == [], "a page other than the CMS's was handed the token"


@pytest.mark.parametrize("path,title", [("/files/leaflet.html", "Leaflet"), ("/media/badge.svg", None)])
def test_a_static_document_runs_no_script_and_reads_no_storage_of_the_site(browser, signing_in, path, title):
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text))
    try:
        page.goto(signing_in + path)
        page.wait_for_timeout(300)
        assert "owned" not in page.title() and (title is None or page.title() == title), page.title()
        storage = page.evaluate("() => { try { return typeof window.localStorage.length; } catch (e) { return e.name; } }")
        assert storage == "SecurityError", "the document has the site's origin"
    finally:
        context.close()
