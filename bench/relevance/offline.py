#!/usr/bin/env python3
"""The static search against the search page: the judged query set (queries.yaml) run on the
server's page (`portal serve --dist`, `GET /search?q=`) and on `search.html` served by a plain
static file server (Python's http.server) in Chromium, whose script searches `find/` in the
browser. Counts how many of the server's top-3 results the static search also shows in its top 3,
and the bytes each query fetched from `find/`.

    bench/relevance/offline.py                  # prints the figures
    bench/relevance/offline.py --write          # also rewrites the offline-search section of BENCHMARKS.md

`compare()` is what tests/browser/test_static_search.py asserts on (>= 90 %).
"""

import argparse
import datetime
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

# bench/relevance/run.py under a name of its own (bench/run.py is another `run`).
_spec = importlib.util.spec_from_file_location("relevance_run", Path(__file__).with_name("run.py"))
relevance = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(relevance)

ROOT = relevance.ROOT
judged, sections, servers = relevance.judged, relevance.sections, relevance.servers
TARGET = 0.9


def rank_static(base_url, queries, chromium, flags, browser=None):
    """Each query's result URLs on search.html, the bytes it fetched from find/ (manifest
    included: each query starts with an empty cache) and those bytes per kind of piece."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    ranked, fetched, kinds = {}, {}, {}
    if browser is None:
        with sync_playwright() as playwright:
            launched = playwright.chromium.launch(executable_path=chromium, args=flags)
            found = rank_static(base_url, queries, chromium, flags, launched)
            launched.close()
            return found
    # Nothing kept between queries, so every byte a query needs is counted as on a first visit:
    # the browser's cache off and no service worker (which would install and precache the site on
    # each visit). One context for all queries, three times faster than a fresh one per query,
    # and the same bytes.
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    devtools = context.new_cdp_session(page)
    devtools.send("Network.enable")
    devtools.send("Network.setCacheDisabled", {"cacheDisabled": True})
    sizes = []
    page.on("response", lambda r: sizes.append((r.url, len(r.body()))) if "/find/" in r.url and r.ok else None)
    for q in queries:
        sizes.clear()
        page.goto(base_url + "/search.html?" + urlencode({"q": q["q"]}))
        page.wait_for_selector("#find-results[data-searched]", timeout=30000)
        ranked[q["q"]] = relevance.result_links(page.content())
        fetched[q["q"]] = sum(n for _, n in sizes)
        kinds[q["q"]] = by_kind(sizes)
    context.close()
    return ranked, fetched, kinds


def kind_of(url):
    """The kind of piece of find/ a URL is: `index` (the manifest) or the folder (`t`, `k`, `d`...)."""
    path = url.split("/find/", 1)[1].split("?", 1)[0]
    return path.split("/", 1)[0] if "/" in path else path.removesuffix(".json")


def by_kind(sizes):
    """Bytes per kind of piece, from (URL, bytes) pairs."""
    kinds = {}
    for url, n in sizes:
        kinds[kind_of(url)] = kinds.get(kind_of(url), 0) + n
    return kinds


def agreement(server, static, k=3):
    """The share of the server's top-k results (over all queries) that the static search also has in its top k,
    and the queries where they differ."""
    same = total = 0
    differ = []
    for q, urls in server.items():
        top, mine = urls[:k], static.get(q, [])[:k]
        total += len(top)
        same += sum(1 for url in top if url in mine)
        if set(top) != set(mine):
            differ.append((q, top, mine))
    return (same / total if total else 1.0), differ


def compare(binary, dist, queries, browser=None):
    """The server's and the static search's rankings of `queries` on the build `dist`."""
    chromium, flags = relevance.browser_settings()
    server = relevance.rank_portal(binary, dist, queries)
    static = relevance.static_server(dist, probe="/find/index.json")
    try:
        ranked, fetched, _ = rank_static(static.base_url, queries, chromium, flags, browser)
    finally:
        static.stop()
    return server, ranked, fetched


def section(share, differ, fetched, meta, big=None):
    begin, end = sections.markers("offline-search")
    sizes = sorted(fetched.values())
    lines = [begin, "### Search without a server (static index in the browser)", "",
             f"`{meta['command']}` on {meta['date']} (commit {meta['commit']}): the judged set's {len(fetched)} "
             "queries on the search page of `portal serve` and on `search.html` served by Python's http.server, "
             "searched in Chromium from `find/`.", "",
             "| measure | value | target |", "|---|---|---|",
             f"| server's top-3 results also in the static top 3 | **{share:.1%}** | >= 90 % |",
             f"| queries whose top 3 differ (as sets) | {len(differ)} | |",
             f"| bytes fetched per query from find/, median / max (sample site) | {sizes[len(sizes) // 2]} / {sizes[-1]} | |",
             ""]
    if big:
        lines[-1:-1] = [f"| bytes per query at 10k records ({big['label']}), median / p90 / max | "
                        f"{big['median']} / {big['p90']} / {big['max']} | <= 102,400 |",
                        f"| queries over 100 KB at 10k records | {len(big['over'])} | 0 |"]
    if big and big.get("kinds"):
        lines[-1:-1] = ["| mean bytes per query at 10k records by piece | "
                        + ", ".join(f"{k} {n}" for k, n in big["kinds"].items()) + " | |",
                        f"| files in find/ at 10k records | {big['files']} | |"]
    lines += ["Bytes are counted as the browser receives them (uncompressed, as http.server sends them), every "
              "response under `find/`, the manifest included: each query starts with the browser's cache off "
              "and no service worker, so it is a first visit's cost. A query reads the manifest (`index`: where each group of 64 chunks "
              "starts, the rules and strings), per word one group's list of chunk starts (`ts`) and one chunk "
              "of at most 8 KB (`t`; a last word of 4 or more characters also the chunks its longer words are "
              "in), a typo the index's words of its first letter and about its length (`v`, `vs`, 4 KB chunks) "
              "and a word list (`k`, `ks`), and one file of a few hundred bytes per hit shown (`d`). The "
              "10k-record figures are on 10,000 records and 1,000 encyclopedia entries, within "
              "`offline::MAX_DOCS` (12,000 documents).",
              ""]
    if differ:
        lines.append("Queries that differ (server's top 3 / static top 3):")
        lines.append("")
        lines += [f"- `{q}`: {', '.join(top) or '-'} / {', '.join(mine) or '-'}" for q, top, mine in differ[:15]]
        lines.append("")
    lines.append(end)
    return "\n".join(lines)


def measure(dist, queries):
    """Prints the bytes each query fetches from the static search of `dist` (no server page)."""
    chromium, flags = relevance.browser_settings()
    relevance.OUT.mkdir(parents=True, exist_ok=True)
    static = relevance.static_server(dist, probe="/find/index.json")
    try:
        _, fetched, kinds = rank_static(static.base_url, queries, chromium, flags)
    finally:
        static.stop()
    sizes = sorted(fetched.values())
    worst = sorted(fetched, key=fetched.get, reverse=True)[:5]
    for q in worst:
        print(f"  {fetched[q]:>7} B {q!r}: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds[q].items())))
    over = [(q, n) for q, n in fetched.items() if n > 100 * 1024]
    records = json.loads((Path(dist) / "find" / "index.json").read_text())["segments"]
    names = sorted({k for per in kinds.values() for k in per})
    figures = {"median": sizes[len(sizes) // 2], "p90": sizes[len(sizes) * 9 // 10], "max": sizes[-1],
               "over": over, "dist": str(dist),
               "kinds": {k: sum(per.get(k, 0) for per in kinds.values()) // len(kinds) for k in names},
               "files": sum(1 for f in (Path(dist) / "find").rglob("*") if f.is_file())}
    print(f"{len(sizes)} queries: median {figures['median']} B, p90 {figures['p90']} B, max {figures['max']} B; "
          f"over 100 KB: {over} ({len(records)} segments, {figures['files']} files in find/)")
    print("mean bytes per query by piece: " + ", ".join(f"{k} {n}" for k, n in figures["kinds"].items()))
    (relevance.OUT / "offline-bytes.json").write_text(json.dumps(fetched, ensure_ascii=False, indent=1))
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--portal", default="auto")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "BENCHMARKS.md")
    parser.add_argument("--bytes-of", type=Path, metavar="DIST",
                        help="only measure the bytes each judged query fetches from DIST's find/ (a big build)")
    parser.add_argument("--bytes-corpus", default="bench/corpus.py --records 10000 --vocabulary realistic",
                        help="how DIST's content was made, for BENCHMARKS.md")
    args = parser.parse_args()
    binary = relevance.portal_binary(args.portal)
    queries = judged.load()
    big = measure(args.bytes_of, queries) if args.bytes_of else None
    if args.bytes_of and not args.write:
        return 0
    relevance.OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="offline-", dir=ROOT / "target") as work:
        dist = Path(work) / "dist"
        subprocess.run([str(binary), "build", "--content", str(ROOT / "content"), "--out", str(dist)], check=True,
                       stdout=subprocess.DEVNULL)
        server, static, fetched = compare(binary, dist, queries)
    share, differ = agreement(server, static)
    (relevance.OUT / "offline.json").write_text(json.dumps(
        {"server": server, "static": static, "fetched": fetched}, ensure_ascii=False, indent=1))
    print(f"top-3 agreement {share:.1%}; {len(differ)} queries differ")
    for q, top, mine in differ:
        print(f"  {q!r}: {top} / {mine}")
    if args.write:
        kind = binary.parent.name
        meta = {"command": f"bench/relevance/offline.py --portal {kind} --write", "date": datetime.date.today(),
                "commit": relevance.version(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"])}
        if big:
            big["label"] = f"the same queries on `{args.bytes_corpus}`"
        sections.write_section(args.out, section(share, differ, fetched, meta, big), "offline-search")
    return 0 if share >= TARGET else 1


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
