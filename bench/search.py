#!/usr/bin/env python3
"""Search benchmark: index build time and size, and /api/search latency (p50/p99) over loopback
against `portal serve` and `wrangler dev` on the same build of a generated corpus (bench/corpus.py).

    python3 bench/search.py --records 10000          # prints a markdown section for BENCHMARKS.md
    python3 bench/search.py --records 100000 --vocabulary realistic --no-edge

`--vocabulary synthetic` (the default) is the worst case: a hundred words, so a query matches most
records. `--vocabulary realistic` draws about 12,000 words with a Zipf law, and its queries are
content words of one language, so most queries match few records.

Needs a release build (`cargo build --release`) and, for the edge, `scripts/build-edge`; `--portal`
runs another binary (an older build, to compare).
"""

import argparse
import itertools
import os
import random
import re
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


def queries(n, vocabulary="synthetic", seed=11):
    rng = random.Random(seed)
    seen, out = set(), []
    while len(out) < n:
        if vocabulary == "synthetic":
            words = rng.sample(corpus.WORDS, rng.choice([1, 2]))
        else:
            words = corpus.vocabulary().query(rng)
        if rng.random() < 0.3:
            words[-1] = words[-1][: max(2, len(words[-1]) - 2)]
        q = " ".join(words)
        if q not in seen:
            seen.add(q)
            out.append(q)
    return out


def typo_queries(n, seed=7):
    """`n` page queries of a corpus word of five letters or more with one edit (a letter dropped,
    two swapped or one replaced), half of them followed by a second, correct word: what the page
    corrects or offers a suggestion for."""
    rng = random.Random(seed)
    long_words = [w for w in corpus.WORDS if len(w) >= 5]

    def typo(word):
        at = rng.randrange(1, len(word) - 1)
        edit = rng.randrange(3)
        if edit == 0:
            return word[:at] + word[at + 1:]
        if edit == 1:
            return word[:at] + word[at + 1] + word[at] + word[at + 2:]
        return word[:at] + rng.choice("aeioustrn") + word[at + 1:]

    return [typo(rng.choice(long_words)) + ("" if rng.random() < 0.5 else " " + rng.choice(long_words))
            for _ in range(n)]


def curl_times(base_url, qs, path="/api/search"):
    """Milliseconds of each of `qs`, sent once each, in order, by one curl over one keep-alive
    connection (asking for gzip, as browsers and HTTP libraries do), to `path` (the API, or the
    search page `/search`). curl times each transfer in C: a Python client adds about a millisecond
    of its own to every request on the 2-core machines these run on, more than the engine takes for
    most queries."""
    urls = "".join(f'url = "{base_url}{path}?q={requests.utils.quote(q)}"\noutput = "/dev/null"\n' for q in qs)
    out = subprocess.run(["curl", "--silent", "--compressed", "--write-out", "%{http_code} %{time_total}\n", "--config", "-"],
                         input=urls, capture_output=True, text=True, check=True).stdout
    answers = [line.split() for line in out.splitlines()]
    assert all(code == "200" for code, _ in answers) and len(answers) == len(qs), out[-500:]
    return [float(seconds) * 1000 for _, seconds in answers]


def measure_curl(base_url, qs, warm=()):
    """p50 and p99 of `qs` (see `curl_times`) after the queries `warm` (other distinct queries:
    the server has answered searches before, as one in service has, so its caches of stored
    documents are warm; none of `qs` is cached), and the median of the records each matched."""
    requests.get(base_url + "/api/search", params={"q": "warm up"})
    if warm:
        curl_times(base_url, warm)
    times = sorted(curl_times(base_url, qs))
    session = requests.Session()  # every answer is cached now: the totals, quickly
    matched = [sum(session.get(base_url + "/api/search", params={"q": q}).json()["totals"].values()) for q in qs]
    return statistics.median(times), times[int(len(times) * 0.99) - 1], statistics.median(matched)


def measure_page(base_url, qs, warm=()):
    """p50 and p99 of the search page `/search` for `qs` (see `curl_times`), after `warm`: the
    page's forgiving search (word forms, and typos and partial matches when nothing matches) and
    the excerpts it reads from the hits' records; the page has no answer cache."""
    if warm:
        curl_times(base_url, warm, path="/search")
    times = sorted(curl_times(base_url, qs, path="/search"))
    return statistics.median(times), times[int(len(times) * 0.99) - 1]


def worst_queries():
    """The queries that cost the most, by name: one short word 8,000 times (inside the URL limit;
    refused by the query limits, docs/spec/api-spec.md#query-limits), and the most a query may ask
    of the engine: 16 of the corpus's commonest words (each in most records), the last cut to a
    prefix; and for the search page, words to correct and to match in part."""
    words = list(corpus.WORDS[:16])
    words[-1] = words[-1][:3]
    # Three long words each two edits from a word of the corpus, with five common ones: the page
    # looks for their corrections, then for partial matches.
    typos = [*corpus.WORDS[:5], "registraton", "vacinnation", "matarnity"]
    return {"one word 8,000 times": " ".join(["a"] * 8000), "16 common words": " ".join(words),
            "8 words, 3 typos": " ".join(typos)}


def process_cpu_seconds(pid):
    """User and system CPU time of process `pid`, every thread counted (Linux `/proc`)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def query_cpu_ms(server, q, path="/api/search", repeats=20):
    """Milliseconds of the server's CPU one request for `q` takes, over `repeats` requests one after
    the other from one client (each with another `limit`, so none is answered from the cache; the
    page has none): the process's CPU time is counted in clock ticks, too coarse for one request."""
    session = requests.Session()
    session.get(server.base_url + path, params={"q": "warm up"})
    before = process_cpu_seconds(server.process.pid)
    for n in range(repeats):
        session.get(server.base_url + path, params={"q": q, "limit": n + 1})
    return (process_cpu_seconds(server.process.pid) - before) / repeats * 1000


def measure_cpu(server, median_query):
    """Per query (the median one of a run, then the worst ones): the server's CPU for it through
    the API and through the search page, in ms."""
    chosen = {"median query": median_query, **worst_queries()}
    return {name: (query_cpu_ms(server, q), query_cpu_ms(server, q, path="/search")) for name, q in chosen.items()}


def median_query(base_url, qs):
    """The query of `qs` whose time (see `curl_times`, one more pass) is the median."""
    times = curl_times(base_url, qs)
    return sorted(zip(times, qs))[len(qs) // 2][1]


def measure(base_url, qs):
    session = requests.Session()
    addresses = (f"10.{i // 65536 % 256}.{i // 256 % 256}.{i % 256}" for i in itertools.count(1))
    session.get(base_url + "/api/search", params={"q": "warm up"}, headers={"X-Forwarded-For": "10.255.255.254"})
    times, matched = [], []
    for q in qs:
        started = time.perf_counter()
        r = session.get(base_url + "/api/search", params={"q": q}, headers={"X-Forwarded-For": next(addresses)})
        times.append((time.perf_counter() - started) * 1000)
        assert r.status_code == 200, r.text
        matched.append(sum(r.json()["totals"].values()))
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1], statistics.median(matched)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=10000)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--no-edge", action="store_true")
    parser.add_argument("--vocabulary", choices=sorted(corpus.VOCABULARIES), default="synthetic")
    parser.add_argument("--portal", type=Path, default=ROOT / "target" / "release" / "portal")
    parser.add_argument("--keep", action="store_true", help="reuse the corpus and the build of an earlier run")
    parser.add_argument("--print-queries", action="store_true", help="print the queries, one a line, and stop")
    args = parser.parse_args()
    if args.print_queries:
        print("\n".join(queries(args.queries, args.vocabulary)))
        return
    work = ROOT / "target" / "bench"
    name = f"{args.records}" if args.vocabulary == "synthetic" else f"{args.vocabulary}-{args.records}"
    content, dist = work / f"corpus-{name}", work / f"dist-{name}"
    if not (args.keep and content.exists()):
        corpus.generate(args.records, content, vocabulary=args.vocabulary)
    portal = args.portal.resolve()
    servers.PORTAL = portal
    build_s, index_ms = None, None
    if not (args.keep and dist.exists()):
        started = time.perf_counter()
        built = subprocess.run([str(portal), "build", "--content", str(content), "--out", str(dist)], check=True,
                               capture_output=True, text=True, env={**os.environ, "PORTAL_TIMINGS": "1"})
        build_s = time.perf_counter() - started
        step = re.search(r"\bsearch (\d+) ms", built.stderr)
        index_ms = int(step.group(1)) if step else None
    index_bytes = sum(p.stat().st_size for p in (dist / "_portal" / "search").iterdir())
    largest = max(p.stat().st_size for p in (dist / "_portal" / "search").iterdir())
    qs = queries(args.queries, args.vocabulary)
    # The rate limit raised, so that the page's queries (one client address, unlike `measure`'s) are
    # all answered rather than refused.
    native = servers.start_portal(["serve", "--dist", str(dist), "--port", "0", "--rate-limit", "4000000000"],
                                  env={"PORTAL_BIN": str(portal)})
    try:
        native_p = measure(native.base_url, qs)
        page_p = measure_page(native.base_url, qs)
        cpu = measure_cpu(native, median_query(native.base_url, qs[:200]))
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
    print(f"### Search at {args.records} records (+{args.records // 10} encyclopedia entries), {args.vocabulary} vocabulary\n")
    print(f"Reproduce: `cargo build --release && scripts/build-edge && .venv/bin/python bench/search.py --records {args.records} --vocabulary {args.vocabulary}`\n")
    if build_s is not None:
        print(f"- full `portal build` (all outputs, index included): {build_s:.2f} s; its search step (index and flat index): {index_ms} ms")
    print(f"- index {index_bytes / 1048576:.1f} MiB in `_portal/search/`, largest file {largest / 1048576:.1f} MiB")
    if not args.no_edge:
        print(f"- first search of a fresh Worker isolate (index fetched through ASSETS and opened): {cold_ms:.0f} ms")
    print(f"- {args.queries} distinct 1-2 word queries (30 % with a truncated last word), all 19 collections, one client over loopback keep-alive:\n")
    print("| server | p50 | p99 | median records matched |\n|---|---|---|---|")
    for name, (p50, p99, matched) in rows:
        print(f"| {name} | {p50:.2f} ms | {p99:.2f} ms | {matched:.0f} |")
    print(f"| portal serve, the page `/search` (forgiving, with excerpts) | {page_p[0]:.2f} ms | {page_p[1]:.2f} ms | – |")
    print("\nServer CPU per query (`portal serve`), API / page:\n")
    print("| query | API | page |\n|---|---|---|")
    for name, (api, page) in cpu.items():
        print(f"| {name} | {api:.2f} ms | {page:.2f} ms |")


if __name__ == "__main__":
    main()
