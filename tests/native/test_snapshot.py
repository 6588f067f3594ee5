"""Offline snapshots: pack, verify, serve from the archive, and a tampered archive rejected."""

import io
import subprocess
import tarfile

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
