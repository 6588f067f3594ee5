"""Start and stop the servers the HTTP tests run against: `portal serve` (native) and, later,
`wrangler dev` (edge). Every server listens on 127.0.0.1 only and is stopped by the tests."""

import functools
import json
import os
import socket
import re
import signal
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PORTAL = Path(os.environ.get("PORTAL_BIN", ROOT / "target" / "debug" / "portal"))


class Server:
    """A running server process and its base URL."""

    def __init__(self, process, base_url, log):
        self.process = process
        self.base_url = base_url
        self.log = log

    def stop(self, sig=signal.SIGTERM, timeout=10):
        if self.process.poll() is None:
            os.killpg(self.process.pid, sig)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        return self.process.returncode

    def output(self):
        return Path(self.log.name).read_text(errors="replace")


def start_portal(args, cwd=ROOT, timeout=120, env=None):
    """Runs `portal <args>` (which must include `--port 0`) and waits for its listening line.
    A `serve` without `--state` gets a fresh state folder under target/, so tests never share one."""
    if args and args[0] == "serve" and "--state" not in args:
        args = [*args, "--state", tempfile.mkdtemp(prefix="state-", dir=ROOT / "target")]
    log = open(ROOT / "target" / f"portal-{os.getpid()}-{time.monotonic_ns()}.log", "w+")
    process = subprocess.Popen(
        [str(PORTAL), *args],
        cwd=cwd,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env={**os.environ, **(env or {})},
    )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = Path(log.name).read_text(errors="replace")
        match = re.search(r"listening on (http://\S+)", text)
        if match:
            return Server(process, match.group(1), log)
        if process.poll() is not None:
            raise RuntimeError(f"portal exited with {process.returncode}:\n{text}")
        time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"portal did not start within {timeout}s:\n{Path(log.name).read_text()}")


@functools.cache
def conformance_dist():
    """The build of fixtures/site that the conformance suite runs against: PORTAL_DIST, else
    target/conformance-dist as scripts/test builds it, built again first when it is older than the
    fixture or than the portal binary (so a suite run by hand never tests a stale build)."""
    if "PORTAL_DIST" in os.environ:
        return Path(os.environ["PORTAL_DIST"])
    dist = ROOT / "target" / "conformance-dist"
    import fcntl  # noqa: PLC0415 (POSIX only, like the suites)

    with open(ROOT / "target" / ".conformance-dist.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stale(dist / "_portal" / "manifest.json", [ROOT / "fixtures" / "site", PORTAL]):
            built = subprocess.run([str(PORTAL), "build", "--content", str(ROOT / "fixtures" / "site"), "--out",
                                    str(dist), "--split-over", "4096", "--pack-over", "0"],
                                   env={**os.environ, "SOURCE_DATE_EPOCH": "1790000000"}, capture_output=True, text=True)
            assert built.returncode == 0, f"the conformance build failed:\n{built.stderr}"
            (dist / "_portal" / "manifest.json").touch()  # a build may leave an unchanged file as it was
    return dist


def stale(built, sources):
    """Whether `built` is missing or older than any file of `sources` (files or folders)."""
    if not built.exists():
        return True
    newest = 0.0
    for source in sources:
        files = source.rglob("*") if source.is_dir() else [source]
        newest = max([newest, *(f.stat().st_mtime for f in files if f.is_file())])
    return newest > built.stat().st_mtime


def routes(dist):
    """Every URL a build serves, with its asset: the shards of the route index that the manifest
    head (`_portal/manifest.json`) counts, merged."""
    head = json.loads((Path(dist) / "_portal" / "manifest.json").read_text())
    merged = {}
    for shard in range(head["route_shards"]):
        merged.update(json.loads((Path(dist) / "_portal" / "routes" / f"{shard}.json").read_text()))
    return merged


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_nginx(dist, workers=1):
    """Runs Debian's nginx on 127.0.0.1 over `dist` with the snippet the build wrote
    (`_portal/nginx.conf`), as a plain static host would. Returns a Server."""
    folder = Path(tempfile.mkdtemp(prefix="nginx-", dir=ROOT / "target"))
    port = free_port()
    temp_paths = "".join(f" {kind}_temp_path {folder}/{kind};" for kind in ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"])
    (folder / "nginx.conf").write_text(
        f"daemon off; master_process {'on' if workers > 1 else 'off'}; worker_processes {workers};\n"
        f"user root; pid {folder}/nginx.pid; error_log {folder}/error.log;\n"
        f"events {{ worker_connections 1024; }}\n"
        f"http {{ include /etc/nginx/mime.types; access_log off; sendfile on;{temp_paths}\n"
        f"  server {{ listen 127.0.0.1:{port}; root {Path(dist).resolve()};\n"
        f"    include {Path(dist).resolve()}/_portal/nginx.conf; }} }}\n"
    )
    log = open(folder / "stdout.log", "w+")
    process = subprocess.Popen(["nginx", "-p", str(folder), "-c", str(folder / "nginx.conf")], stdout=log,
                               stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nginx exited: {Path(log.name).read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return Server(process, f"http://127.0.0.1:{port}", log)
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("nginx did not start within 20 s")
