"""Soak: mixed traffic (reads, pages, searches, MCP tool calls, community voices) from several
clients against one `portal serve` on 127.0.0.1 for a bounded time. Nothing may answer 5xx, every
accepted submission must be stored, and memory must stay flat once warm.

Bounded: SOAK_SECONDS (default 45; run it for minutes with SOAK_SECONDS=600) and 6 clients. Each
client speaks from its own rotating set of addresses, so the rate limiter sees many clients."""

import itertools
import json
import os
import random
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import requests

import servers

SECONDS = float(os.environ.get("SOAK_SECONDS", "45"))
CLIENTS = 6
READS = ["/api/news", "/api/services?limit=5", "/api/news/water-points-reopen", "/news", "/", "/api/status",
         "/api/encyclopedia?letter=e", "/api/encyclopedia/asylum", "/api/v1/spatial.json", "/api/rss", "/llms.txt"]
SEARCHES = ["water", "clinic hours", "cafe", "zone b", "vacc", "health", "registration", "school"]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))


def client(base, number, deadline, accepted, failures):
    rng = random.Random(number)
    session = requests.Session()
    addresses = (f"10.{number}.{i // 256 % 256}.{i % 256}" for i in itertools.count())
    counts = {"read": 0, "search": 0, "mcp": 0, "voice": 0}
    while time.monotonic() < deadline:
        headers = {"X-Forwarded-For": next(addresses)}
        kind = rng.choices(["read", "search", "mcp", "voice"], weights=[6, 3, 1, 1])[0]
        if kind == "read":
            r = session.get(base + rng.choice(READS), headers=headers, timeout=30)
        elif kind == "search":
            r = session.get(base + "/api/search", params={"q": rng.choice(SEARCHES)}, headers=headers, timeout=30)
        elif kind == "mcp":
            call = {"jsonrpc": "2.0", "id": counts["mcp"], "method": "tools/call",
                    "params": {"name": "search_portal", "arguments": {"query": rng.choice(SEARCHES)}}}
            r = session.post(base + "/mcp", json=call, headers={**headers, "Accept": "application/json, text/event-stream"},
                             timeout=30)
        else:
            title = f"Soak story {number}-{counts['voice']}"
            r = session.post(base + "/api/submit-voice", json={"title": title, "author": "Soak", "content": "A story."},
                             headers=headers, timeout=30)
            if r.status_code == 202:
                accepted.append(r.json()["id"])
        counts[kind] += 1
        if r.status_code >= 500:
            failures.append(f"{kind}: {r.status_code} {r.text[:200]}")
    return counts


def test_mixed_traffic_keeps_serving_loses_nothing_and_stays_flat():
    state = tempfile.mkdtemp(prefix="soak-", dir=servers.ROOT / "target")
    server = servers.start_portal(["serve", "--dist", str(servers.conformance_dist()), "--port", "0", "--state", state])
    accepted, failures, samples = [], [], []
    try:
        deadline = time.monotonic() + SECONDS
        stop = threading.Event()

        def sample():
            while not stop.wait(1.0):
                samples.append(rss_kib(server.process.pid))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        with ThreadPoolExecutor(CLIENTS) as pool:
            runs = [pool.submit(client, server.base_url, n, deadline, accepted, failures) for n in range(CLIENTS)]
            counts = [run.result() for run in runs]
        stop.set()
        sampler.join()
    finally:
        server.stop()
    assert not failures, "\n".join(failures[:20])
    total = {kind: sum(c[kind] for c in counts) for kind in counts[0]}
    assert all(total[kind] > 0 for kind in total), total
    listed = subprocess.run([str(servers.PORTAL), "submissions", "--state", state, "--format", "json"],
                            capture_output=True, text=True, check=True)
    stored = {item["id"] for item in json.loads(listed.stdout)}
    missing = set(accepted) - stored
    assert not missing, f"{len(missing)} of {len(accepted)} accepted submissions are not stored"
    # Flat: after the first quarter (caches and pools warm), RSS grows by less than 32 MiB.
    warm = samples[len(samples) // 4:]
    assert len(warm) >= 3, samples
    assert max(warm) - warm[0] < 32 * 1024, f"RSS went from {warm[0]} KiB to {max(warm)} KiB: {samples}"
