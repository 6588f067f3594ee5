"""Start `wrangler dev` (local mode, 127.0.0.1, metrics off) on a built `dist/` with the Worker
built by scripts/build-edge. The config is derived from the top-level wrangler.toml, so the tests
run the bindings a deployment gets."""

import os
import re
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import requests

from mock_upstream import CMS_ENV
from servers import ROOT, Server


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_config(dist, rate_window, rate_limit=None):
    """The top-level wrangler.toml with absolute paths, no build step and the test's window (and
    limit, for clients such as the MCP conformance suite that cannot name a client address)."""
    text = (ROOT / "wrangler.toml").read_text()
    text = re.sub(r"\[build\]\n(?:[^\[\n].*\n|\n)*", "", text)
    text = re.sub(r'^main = ".*"$', f'main = "{ROOT / "edge" / "build" / "index.js"}"', text, flags=re.M)
    text = re.sub(r'^directory = ".*"$', f'directory = "{Path(dist).resolve()}"', text, flags=re.M)
    text = re.sub(r'^RATE_WINDOW_SECONDS = ".*"$', f'RATE_WINDOW_SECONDS = "{rate_window}"', text, flags=re.M)
    if rate_limit is not None:
        text = re.sub(r'^RATE_LIMIT = ".*"$', f'RATE_LIMIT = "{rate_limit}"', text, flags=re.M)
    return text


def start_wrangler(dist, rate_window=60, timeout=120, rate_limit=None, first_url="/api/status"):
    work = Path(tempfile.mkdtemp(prefix="portal-wrangler-"))
    config = work / "wrangler.toml"
    config.write_text(test_config(dist, rate_window, rate_limit))
    # The Worker's secrets for local development (the CMS sign-in against the mock provider).
    (work / ".dev.vars").write_text("".join(f'{name}="{value}"\n' for name, value in CMS_ENV.items()))
    port = free_port()
    log = open(work / "wrangler.log", "w+")
    env = {
        **os.environ,
        "WRANGLER_SEND_METRICS": "false",
        "CLOUDFLARE_CF_FETCH_ENABLED": "false",
        "XDG_CONFIG_HOME": str(work / "config"),
        "NO_COLOR": "1",
        "CI": "true",
    }
    process = subprocess.Popen(
        [str(ROOT / "scripts" / "wrangler"), "dev", "-c", str(config), "--ip", "127.0.0.1", "--port", str(port),
         "--persist-to", str(work / "state"), "--log-level", "warn", "--show-interactive-dev-session=false"],
        cwd=work, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env, stdin=subprocess.DEVNULL,
    )
    base_url = f"http://127.0.0.1:{port}"
    started = time.monotonic()
    deadline = started + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"wrangler exited with {process.returncode}:\n{Path(log.name).read_text()}")
        try:
            first = requests.get(base_url + first_url, timeout=30)
            server = Server(process, base_url, log)
            # What the benchmarks report: seconds until wrangler answered, and the first request's
            # own time (`first_url`: a static asset measures wrangler's own start, the Worker's
            # first request is a fresh isolate's cold start).
            server.ready_s, server.first_ms = time.monotonic() - started, first.elapsed.total_seconds() * 1000
            return server
        except requests.RequestException:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"wrangler dev did not answer within {timeout}s:\n{Path(log.name).read_text()}")
