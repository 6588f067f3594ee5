"""The CMS's configuration and page as built and served (docs/editing.md): config.yml passes the
CMS's own configuration check (tests/cms/validate-config.mjs: Decap CMS's schema and check, or the
JSON Schema Sveltia CMS ships, with Ajv from npm) for the sample site and the fixture site, each
with a `cms:` block, and `portal serve` sends the CMS's page with its own Content-Security-Policy
while every other page keeps the site's."""

import json
import shutil
import subprocess
import tempfile
import urllib.request
from pathlib import Path

import pytest
import yaml

import servers

CMS_TESTS = servers.ROOT / "tests" / "cms"
SITES = {"sample": servers.ROOT / "content", "fixture": servers.ROOT / "fixtures" / "site"}
# (the cms: block, the CMS whose check it must pass)
BLOCKS = {
    "decap": ("cms: {backend: github, repo: amani/portal, app: decap}\n", "decap"),
    "sveltia": ("cms: {repo: amani/portal}\n", "sveltia"),
    "sveltia-gitlab": ("cms: {backend: gitlab, repo: amani/web/portal, app_id: abc123, content_dir: site/content}\n",
                       "sveltia"),
    "decap-gitea": ("cms: {backend: gitea, repo: amani/portal, app: decap, api_root: 'https://git.example.org/api/v1'}\n",
                    "decap"),
}


def build_with(site, block, out):
    """Builds a copy of `site` with `block` appended to its site.yaml into `out`; returns the copy."""
    content = Path(tempfile.mkdtemp(prefix="cms-", dir=servers.ROOT / "target")) / "content"
    shutil.copytree(site, content)
    with open(content / "site.yaml", "a", encoding="utf-8") as settings:
        settings.write("\n" + block)
    built = subprocess.run([str(servers.PORTAL), "build", "--content", str(content), "--out", str(out)],
                           capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr
    return content


@pytest.mark.parametrize("block", sorted(BLOCKS))
@pytest.mark.parametrize("site", sorted(SITES))
def test_the_generated_config_passes_the_cms_own_check(site, block, tmp_path):
    if not (CMS_TESTS / "node_modules" / ".unpacked" / "decap-cms-core").is_dir():
        pytest.fail("the CMS test tools are missing: run scripts/cms-tools")
    settings, app = BLOCKS[block]
    build_with(SITES[site], settings, tmp_path / "dist")
    config = yaml.safe_load((tmp_path / "dist" / "admin" / "config.yml").read_text(encoding="utf-8"))
    (tmp_path / "config.json").write_text(json.dumps(config, default=str), encoding="utf-8")
    checked = subprocess.run(["node", str(CMS_TESTS / "validate-config.mjs"), "--cms", app,
                              str(tmp_path / "config.json")], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert len(config["collections"]) == 20
    assert ("local_backend" in config) == (app == "decap"), "Sveltia CMS opens a local folder itself"


@pytest.mark.parametrize("app", ["decap", "sveltia"])
def test_the_check_finds_a_broken_config(app, tmp_path):
    broken = {"backend": {"repo": "a/b"}, "media_folder": "static", "collections": [
        {"name": "news", "label": "News", "folder": "news", "fields": [{"name": "category", "widget": "select"}]}]}
    (tmp_path / "broken.json").write_text(json.dumps(broken), encoding="utf-8")
    checked = subprocess.run(["node", str(CMS_TESTS / "validate-config.mjs"), "--cms", app,
                              str(tmp_path / "broken.json")], capture_output=True, text=True, check=False)
    assert checked.returncode == 1, checked.stdout
    assert "must have required property 'name'" in checked.stdout
    if app == "decap":
        assert "must have required property 'options'" in checked.stdout


def fetch(url):
    request = urllib.request.Request(url, headers={"Accept": "text/html"})
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None


def test_the_cms_page_is_served_with_its_own_policy_and_the_site_keeps_its_own(tmp_path):
    build_with(SITES["fixture"], BLOCKS["decap"][0], tmp_path / "dist")
    server = servers.start_portal(["serve", "--dist", str(tmp_path / "dist"), "--port", "0"],
                                  env={"PORTAL_SMTP_URL": ""})
    try:
        status, headers, body = fetch(server.base_url + "/admin")
        assert status == 200, body
        policy = headers["Content-Security-Policy"]
        # Only the pinned release's folder of the CDN, not every package on it.
        assert "script-src 'self' https://unpkg.com/decap-cms@3.16.3/ 'unsafe-eval';" in policy
        assert "connect-src 'self' blob: data: https://unpkg.com/decap-cms@3.16.3/ https://api.github.com" in policy
        assert "https://unpkg.com " not in policy and "https://unpkg.com;" not in policy
        assert "frame-ancestors 'none'" in policy
        assert headers["X-Robots-Tag"] == "noindex"
        assert b'rel="cms-config-url"' in body and b"https://unpkg.com/decap-cms@3.16.3/" in body
        status, headers, _ = fetch(server.base_url + "/admin/")
        assert (status, headers.get("Location")) == (301, "/admin")
        status, headers, body = fetch(server.base_url + "/admin/config.yml")
        assert status == 200 and headers["Content-Type"].startswith("application/yaml")
        assert yaml.safe_load(body)["backend"]["repo"] == "amani/portal"
        status, headers, _ = fetch(server.base_url + "/")
        assert status == 200
        assert "unpkg" not in headers["Content-Security-Policy"]
        assert "script-src 'self';" in headers["Content-Security-Policy"]
    finally:
        server.stop()


def test_a_site_without_a_cms_block_has_no_admin():
    server = servers.start_portal(["serve", "--dist", str(servers.conformance_dist()), "--port", "0"],
                                  env={"PORTAL_SMTP_URL": ""})
    try:
        assert fetch(server.base_url + "/admin")[0] == 404
        assert fetch(server.base_url + "/admin/config.yml")[0] == 404
    finally:
        server.stop()
