"""HSDS in, HSDS out (docs/content.md#sources, docs/standards.md#hsds): a site whose services come
from Open Referral's own HSDS 3.0 example (`fixtures/sources/hsds-example`, CC BY-SA 4.0) — once as
its datapackage, once from an HSDS API served by a local `http.server` — is built, served by
`portal serve --dist`, and `/api/hsds` is read as a client reads it: every item validates against
the offline HSDS 3.0 schemas and the imported services keep their original ids."""

import json
import shutil
import subprocess
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import requests

import servers
from hsds_schemas import valid

EXAMPLE = servers.ROOT / "fixtures" / "sources" / "hsds-example"
COUNSELLING = "ac148810-d857-441c-9679-408f346de14b"
ORGANIZATION = "d9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610"
DROP_IN = "0b5b8d0c-5c1e-4a53-9d1a-5b0f6c1a2e77"
KINDS = ["services", "organizations", "service_at_locations", "taxonomies", "taxonomy_terms"]


def site(root, source):
    content = root / "content"
    (content / "services").mkdir(parents=True)
    (content / "services" / "written.md").write_text("---\ntitle: A service written here\nhours: Mon-Fri 09:00-16:00\n---\n")
    (content / "site.yaml").write_text(
        "title: Imported\nbase_url: https://imported.example\n"
        f"sources:\n  - collection: services\n    from: {source}\n    format: hsds\n")
    return content


def build_and_serve(root, content):
    built = subprocess.run([str(servers.PORTAL), "build", "--content", str(content), "--out", str(root / "dist"),
                            "--cache-dir", str(root / "cache")], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    return servers.start_portal(["serve", "--dist", str(root / "dist"), "--port", "0", "--rate-limit", "1000000",
                                 "--state", str(root / "state")], env={"PORTAL_SMTP_URL": ""})


@pytest.fixture(scope="module")
def from_datapackage():
    root = Path(tempfile.mkdtemp(prefix="hsds-in-", dir=servers.ROOT / "target"))
    content = site(root, "sources/hsds")
    shutil.copytree(EXAMPLE, content / "sources" / "hsds")
    server = build_and_serve(root, content)
    yield server.base_url
    server.stop()


class Api(BaseHTTPRequestHandler):
    """An HSDS API of two services, one a page, listed as `service_list.json` lists them (not
    nested), each nested at `/services/{id}` as `service_full.json` has it."""

    def services(self):
        listed = json.loads((EXAMPLE / "service_list.json").read_text())["contents"][0]
        full = json.loads((EXAMPLE / "service_full.json").read_text())
        named = [(COUNSELLING, "Community Counselling"), (DROP_IN, "Drop-in Counselling")]
        return [({**listed, "id": i, "name": n}, {**full, "id": i, "name": n}) for i, n in named]

    def do_GET(self):
        services = self.services()
        path, _, query = self.path.partition("?")
        if path.startswith("/moved/"):
            self.send_response(301)
            self.send_header("Location", path.replace("/moved/", "/hsds/", 1))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if path == "/hsds/services":
            number = int(dict(p.split("=") for p in query.split("&")).get("page", "1"))
            body = {"total_items": 2, "total_pages": 2, "page_number": number, "size": 1,
                    "first_page": number == 1, "last_page": number >= 2, "empty": False,
                    "contents": [services[min(number, 2) - 1][0]]}
        else:
            body = next((full for _, full in services if path == f"/hsds/services/{full['id']}"), None)
        data = json.dumps(body).encode()
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def from_api():
    api = ThreadingHTTPServer(("127.0.0.1", 0), Api)
    threading.Thread(target=api.serve_forever, daemon=True).start()
    root = Path(tempfile.mkdtemp(prefix="hsds-api-", dir=servers.ROOT / "target"))
    base = f"http://127.0.0.1:{api.server_address[1]}"
    moved = subprocess.run([str(servers.PORTAL), "build", "--content", str(site(root / "moved", f"{base}/moved")),
                            "--out", str(root / "moved" / "dist")], capture_output=True, text=True)
    server = build_and_serve(root, site(root, f"{base}/hsds"))
    api.shutdown()
    yield {"base": server.base_url, "moved": moved, "api": base}
    server.stop()


def every(base, kind):
    """Every item of a list, page by page (one at a time, to cross pages), each list item valid."""
    items, number = [], 1
    while True:
        response = requests.get(f"{base}/api/hsds/{kind}?per_page=1&page={number}", timeout=30)
        assert response.status_code == 200, response.text
        body = response.json()
        for item in body["contents"]:
            valid(kind, item, listed=True)
        items.extend(body["contents"])
        if body["last_page"] or body["empty"]:
            return items
        number += 1


def every_item_valid(base):
    for kind in KINDS:
        for listed in every(base, kind):
            response = requests.get(f"{base}/api/hsds/{kind}/{listed['id']}", timeout=30)
            assert response.status_code == 200, response.text
            valid(kind, response.json(), listed=False)


def test_a_datapackages_services_are_published_valid_with_their_ids(from_datapackage):
    every_item_valid(from_datapackage)
    services = {s["name"]: s for s in every(from_datapackage, "services")}
    assert set(services) == {"Community Counselling", "A service written here"}
    assert services["Community Counselling"]["id"] == COUNSELLING
    assert services["Community Counselling"]["organization_id"] == ORGANIZATION
    full = requests.get(f"{from_datapackage}/api/hsds/services/{COUNSELLING}", timeout=30).json()
    assert full["organization"]["name"] == "Example Organization Inc."
    assert [(s["byday"], s["opens_at"][:5], s["closes_at"][:5]) for s in full["schedules"]] == [
        ("TH,FR", "10:00", "18:00")]
    assert [p["number"] for p in full["phones"]] == ["+441234234567"]
    assert full["service_at_locations"][0]["location"]["name"] == "MyCity Civic Center"
    organization = requests.get(f"{from_datapackage}/api/hsds/organizations/{ORGANIZATION}", timeout=30).json()
    assert [s["id"] for s in organization["services"]] == [COUNSELLING]


def test_an_apis_services_are_published_valid_with_their_ids(from_api):
    base = from_api["base"]
    every_item_valid(base)
    ids = {s["name"]: s["id"] for s in every(base, "services")}
    assert ids == {"Community Counselling": COUNSELLING, "Drop-in Counselling": DROP_IN,
                   "A service written here": ids["A service written here"]}
    page = requests.get(f"{base}/services/drop-in-counselling", timeout=30)
    assert page.status_code == 200 and "Drop-in Counselling" in page.text


def test_an_api_that_moved_is_named_with_where_it_went_not_followed(from_api):
    moved = from_api["moved"]
    assert moved.returncode != 0
    url = f"{from_api['api']}/moved/services?page=1&full=true"
    assert f"{url}:1: source `{url}` could not be fetched (answered 301" in moved.stderr, moved.stderr
    assert "to /hsds/services; set `from:` to where it moved" in moved.stderr, moved.stderr
