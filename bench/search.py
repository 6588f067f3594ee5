#!/usr/bin/env python3
"""Search benchmark: index build time and size, and /api/search latency (p50/p99) over loopback
against `portal serve` and `wrangler dev` on the same build of a synthetic corpus.

    python3 bench/search.py --records 10000          # prints a markdown section for BENCHMARKS.md

Needs a release build (`cargo build --release`) and, for the edge, `scripts/build-edge`.
"""

import argparse
import itertools
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import corpus  # noqa: E402
import servers  # noqa: E402


def queries(n, seed=11):
    rng = random.Random(seed)
    seen, out = set(), []
    while len(out) < n:
        words = rng.sample(corpus.WORDS, rng.choice([1, 2]))
        if rng.random() < 0.3:
            words[-1] = words[-1][: max(2, len(words[-1]) - 2)]
        q = " ".join(words)
        if q not in seen:
            seen.add(q)
            out.append(q)
    return out


def measure(base_url, qs):
    session = requests.Session()
    addresses = (f"10.{i // 65536 % 256}.{i // 256 % 256}.{i % 256}" for i in itertools.count(1))
    session.get(base_url + "/api/search", params={"q": "warm up"}, headers={"X-Forwarded-For": "10.255.255.254"})
    times = []
    for q in qs:
        started = time.perf_counter()
        r = session.get(base_url + "/api/search", params={"q": q}, headers={"X-Forwarded-For": next(addresses)})
        times.append((time.perf_counter() - started) * 1000)
        assert r.status_code == 200, r.text
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=10000)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--no-edge", action="store_true")
    args = parser.parse_args()
    work = ROOT / "target" / "bench"
    content, dist = work / f"corpus-{args.records}", work / f"dist-{args.records}"
    corpus.generate(args.records, content)
    portal = ROOT / "target" / "release" / "portal"
    servers.PORTAL = portal
    started = time.perf_counter()
    subprocess.run([str(portal), "build", "--content", str(content), "--out", str(dist)], check=True, capture_output=True)
    build_s = time.perf_counter() - started
    index_bytes = sum(p.stat().st_size for p in (dist / "_portal" / "search").iterdir())
    qs = queries(args.queries)
    native = servers.start_portal(["serve", "--dist", str(dist), "--port", "0"], env={"PORTAL_BIN": str(portal)})
    try:
        native_p = measure(native.base_url, qs)
    finally:
        native.stop()
    rows = [("portal serve", native_p)]
    if not args.no_edge:
        import edge  # noqa: PLC0415

        started = time.perf_counter()
        worker = edge.start_wrangler(dist)
        try:
            cold = requests.get(worker.base_url + "/api/search", params={"q": "cold start"}, headers={"X-Forwarded-For": "10.255.0.1"})
            cold_ms = cold.elapsed.total_seconds() * 1000
            rows.append(("wrangler dev", measure(worker.base_url, qs)))
        finally:
            worker.stop()
    print(f"### Search at {args.records} records (+{args.records // 10} encyclopedia entries)\n")
    print(f"Reproduce: `cargo build --release && scripts/build-edge && .venv/bin/python bench/search.py --records {args.records}`\n")
    print(f"- full `portal build` (all outputs, index included): {build_s:.2f} s; index {index_bytes / 1048576:.1f} MiB")
    if not args.no_edge:
        print(f"- first search of a fresh Worker isolate (index fetched through ASSETS and opened): {cold_ms:.0f} ms")
    print(f"- {args.queries} distinct 1-2 word queries (30 % with a truncated last word), all 19 collections, one client over loopback keep-alive:\n")
    print("| server | p50 | p99 |\n|---|---|---|")
    for name, (p50, p99) in rows:
        print(f"| {name} | {p50:.2f} ms | {p99:.2f} ms |")


if __name__ == "__main__":
    main()
