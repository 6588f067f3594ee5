"""Offline snapshots: pack, verify, serve from the archive, and a tampered archive rejected."""

import html.parser
import io
import subprocess
import tarfile
import urllib.parse

import requests

import servers


def portal(*args):
    return subprocess.run([str(servers.PORTAL), *args], capture_output=True, text=True, cwd=servers.ROOT)


def test_a_snapshot_round_trips_and_serves(tmp_path):
    archive = tmp_path / "site.tar.gz"
    packed = portal("snapshot", "--dist", str(servers.conformance_dist()), "--out", str(archive))
    assert packed.returncode == 0, packed.stderr
    verified = portal("verify", str(archive))
    assert verified.returncode == 0 and "is intact" in verified.stdout
    with tarfile.open(archive) as tar:
        names = tar.getnames()
    assert names[0] == "snapshot.json" and "_portal/manifest.json" in names
    server = servers.start_portal(["serve", "--dist", str(archive), "--port", "0"])
    try:
        served = requests.get(server.base_url + "/api/news/pinned").content
        assert served == (servers.conformance_dist() / "api" / "news" / "pinned.json").read_bytes()
        assert requests.get(server.base_url + "/api/search", params={"q": "water"}).json()["totalResults"] > 0
    finally:
        server.stop()


def test_a_snapshot_unpacked_and_repacked_with_tar_still_verifies(tmp_path):
    archive, unpacked, repacked = tmp_path / "site.tar.gz", tmp_path / "unpacked", tmp_path / "repacked.tar.gz"
    assert portal("snapshot", "--dist", str(servers.conformance_dist()), "--out", str(archive)).returncode == 0
    unpacked.mkdir()
    subprocess.run(["tar", "xzf", str(archive), "-C", str(unpacked)], check=True)
    subprocess.run(["tar", "czf", str(repacked), "-C", str(unpacked), "."], check=True)
    verified = portal("verify", str(repacked))
    assert verified.returncode == 0, verified.stderr
    (unpacked / "api" / "news.json").write_text("{}")
    subprocess.run(["tar", "czf", str(repacked), "-C", str(unpacked), "."], check=True)
    refused = portal("verify", str(repacked))
    assert refused.returncode == 1 and "api/news.json: checksum mismatch" in refused.stderr


def test_a_tampered_snapshot_is_rejected(tmp_path):
    archive, tampered = tmp_path / "site.tar.gz", tmp_path / "tampered.tar.gz"
    assert portal("snapshot", "--dist", str(servers.conformance_dist()), "--out", str(archive)).returncode == 0
    with tarfile.open(archive) as source, tarfile.open(tampered, "w:gz") as target:
        for member in source.getmembers():
            data = source.extractfile(member).read()
            if member.name == "api/news/pinned.json":
                data = data.replace(b"Read this first", b"Read this later")
            member.size = len(data)
            target.addfile(member, io.BytesIO(data))
    verified = portal("verify", str(tampered))
    assert verified.returncode == 1
    assert "api/news/pinned.json: checksum mismatch" in verified.stderr
    served = portal("serve", "--dist", str(tampered), "--port", "0")
    assert served.returncode == 2 and "checksum mismatch" in served.stderr


class Links(html.parser.HTMLParser):
    """Collects every link-like attribute and every element id of one page."""

    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if name in ("href", "src", "action") and value is not None:
                self.links.append((tag, name, value))
            if name == "srcset" and value:
                # Each candidate of a responsive image: "url width, url width".
                self.links.extend((tag, name, candidate.split()[0]) for candidate in value.split(", "))


def parse(page):
    parser = Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


def test_every_link_of_every_page_resolves_in_the_unpacked_snapshot(tmp_path):
    archive, folder = tmp_path / "site.tar.gz", tmp_path / "unpacked"
    assert portal("snapshot", "--dist", str(servers.conformance_dist()), "--out", str(archive)).returncode == 0
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    # The 404 page and the shell of pages rendered per request (`_portal/`) are sent at any depth.
    pages = [p for p in folder.rglob("*.html") if p.name != "404.html" and "_portal" not in p.parts]
    assert len(pages) > 20
    checked, broken = 0, []
    for page in pages:
        for tag, attribute, value in parse(page).links:
            parts = urllib.parse.urlsplit(value)
            if parts.scheme in ("http", "https", "mailto", "tel", "geo", "data"):
                continue
            where = f"{page.relative_to(folder)}: <{tag} {attribute}={value!r}>"
            if value.startswith("/"):
                broken.append(f"{where} is root-relative")
                continue
            target = page if not parts.path else (page.parent / urllib.parse.unquote(parts.path)).resolve()
            if tag == "form" and folder.resolve() in target.parents:
                # A dynamic endpoint (search): relative, so it works online, and absent offline.
                checked += 1
                continue
            if not target.is_file() or folder.resolve() not in target.parents:
                broken.append(f"{where} does not name a file of the folder")
            elif parts.fragment and target.suffix == ".html" and parts.fragment not in parse(target).ids:
                broken.append(f"{where}: no element with id {parts.fragment!r}")
            checked += 1
    assert not broken, "\n".join(broken)
    assert checked > 15 * len(pages)  # the navigation alone has a dozen


def test_the_404_page_keeps_site_root_links_because_it_is_sent_at_any_depth():
    links = parse(servers.conformance_dist() / "404.html").links
    assert ("a", "href", "/") in links
