"""Start and stop the servers the HTTP tests run against: `portal serve` (native) and, later,
`wrangler dev` (edge). Every server listens on 127.0.0.1 only and is stopped by the tests."""

import os
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


def conformance_dist():
    """The build of fixtures/site that the conformance suite runs against (built by scripts/test)."""
    return Path(os.environ.get("PORTAL_DIST", ROOT / "target" / "conformance-dist"))
