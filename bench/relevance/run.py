#!/usr/bin/env python3
"""Search relevance: the judged query set (bench/relevance/queries.yaml) against portal's search
page and, side by side, against Pagefind indexing the same built HTML and searched in Chromium.

    bench/relevance/run.py                    # prints the tables (release build if there is one)
    bench/relevance/run.py --portal debug     # target/debug/portal
    bench/relevance/run.py --write            # also rewrites the relevance section of BENCHMARKS.md

1. `portal build` of the sample site (content/) into a temporary folder.
2. portal: `portal serve --dist` on 127.0.0.1; `GET /search?q=` for each query, the result URLs read
   in order from the page's <main> (see `ResultLinks`).
3. Pagefind (npm `pagefind`, pinned in package.json, installed by scripts/npm-tools) indexes the
   same HTML with its defaults, into the build's `pagefind/`; the build is served by Python's
   http.server on 127.0.0.1 and each query runs in Chromium through Pagefind's JS API
   (`pagefind.search`), from the home page, as a search box on the site would; the URLs of all its
   results, in its order.
4. success@1, success@3 and MRR overall, per language and per kind, for both; the crisis queries'
   help page first, the lists that must be complete, and developer documentation ranked above the
   residents' answer. Each query's ranking goes to target/relevance/results.json.

Nothing here asserts a figure; the targets are in the section it writes.
"""

import argparse
import datetime
import html.parser
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "bench"))

import judged  # noqa: E402
import sections  # noqa: E402
import servers  # noqa: E402

OUT = ROOT / "target" / "relevance"
BEGIN, END = judged.SECTION_BEGIN, judged.SECTION_END
# The targets for the search page.
TARGET_S3, TARGET_MARGIN = 0.9, 0.1


def browser_settings():
    """The browser suite's Chromium and launch flags (tests/browser/conftest.py), loaded under a
    name of its own so it is not mistaken for tests/conftest.py."""
    spec = importlib.util.spec_from_file_location("browser_conftest", ROOT / "tests" / "browser" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CHROMIUM, module.FLAGS


def portal_binary(choice):
    release, debug = ROOT / "target" / "release" / "portal", ROOT / "target" / "debug" / "portal"
    if choice == "release" or (choice == "auto" and release.exists()):
        return release
    if choice in ("debug", "auto"):
        return debug
    return Path(choice)


class ResultLinks(html.parser.HTMLParser):
    """The result URLs of a search page, in order: every link inside <main> that leads to a page
    of the site, except those of the search form, of a <nav> inside main, and links to other
    searches (`/search?...`: more of a collection, "did you mean"). A help box or a nothing-found
    page's links to help count as results, in the order shown, since that is what the reader sees
    first."""

    SKIP = {"form", "nav"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.urls, self.depth, self.skipping = [], 0, []

    def handle_starttag(self, tag, attrs):
        if tag == "main":
            self.depth += 1
        elif self.depth and tag in self.SKIP:
            self.skipping.append(tag)
        elif self.depth and not self.skipping and tag == "a":
            href = dict(attrs).get("href") or ""
            if href.startswith("/") and not href.startswith(("//", "/search?", "/search#")) and href != "/search":
                url = judged.normalise(href)
                if url not in self.urls:
                    self.urls.append(url)

    def handle_endtag(self, tag):
        if tag == "main" and self.depth:
            self.depth -= 1
        elif self.skipping and tag == self.skipping[-1]:
            self.skipping.pop()


def result_links(page):
    parser = ResultLinks()
    parser.feed(page)
    return parser.urls


def rank_portal(binary, dist, queries):
    """Each query's result URLs on portal's search page."""
    servers.PORTAL = binary
    server = servers.start_portal(["serve", "--dist", str(dist), "--port", "0", "--rate-limit", "1000000"],
                                  env={"PORTAL_SMTP_URL": ""})
    try:
        session = requests.Session()
        ranked = {}
        for q in queries:
            response = session.get(server.base_url + "/search", params={"q": q["q"]}, timeout=30)
            response.raise_for_status()
            ranked[q["q"]] = result_links(response.text)
        return ranked
    finally:
        server.stop()


PAGEFIND_INIT = """async () => {
  window.pagefind = await import('/pagefind/pagefind.js');
  await window.pagefind.init();
}"""
PAGEFIND_SEARCH = """async (q) => {
  const found = await window.pagefind.search(q);
  const data = await Promise.all(found.results.map((r) => r.data()));
  return data.map((d) => d.url);
}"""


def index_pagefind(dist):
    """Pagefind's index of `dist`'s HTML, with its defaults, in `dist/pagefind`; its version."""
    subprocess.run(["scripts/npm-tools"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    npx = ["npx", "--no-install", "pagefind"]
    subprocess.run([*npx, "--site", str(dist)], cwd=ROOT, check=True, capture_output=True, text=True)
    return subprocess.run([*npx, "--version"], cwd=ROOT, check=True, capture_output=True, text=True).stdout.split()[-1]


def static_server(dist, probe="/pagefind/pagefind.js"):
    """Python's http.server over `dist` on 127.0.0.1 (a plain static host, as Pagefind expects),
    ready once `probe` answers."""
    port = servers.free_port()
    log = open(OUT / "http-server.log", "w+")
    process = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory",
                                str(dist)], stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            requests.get(base + probe, timeout=1).raise_for_status()
            return servers.Server(process, base, log)
        except requests.RequestException:
            if process.poll() is not None:
                break
            subprocess.run(["sleep", "0.05"])
    process.kill()
    raise RuntimeError(f"http.server did not start: {Path(log.name).read_text()}")


def rank_pagefind(dist, queries):
    """Each query's result URLs from Pagefind in Chromium."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    chromium, flags = browser_settings()
    server = static_server(dist)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=flags)
            page = browser.new_page()
            page.goto(server.base_url + "/")
            page.evaluate(PAGEFIND_INIT)
            ranked = {q["q"]: [judged.normalise(url) for url in page.evaluate(PAGEFIND_SEARCH, q["q"])]
                      for q in queries}
            browser.close()
            return ranked
    finally:
        server.stop()


def figure(x):
    return f"{x:.2f}"


def table(title, rows, results):
    """A markdown table: one row per group, success@1, success@3 and MRR of each engine."""
    lines = [f"| {title} | queries | portal s@1 | portal s@3 | portal MRR | Pagefind s@1 | Pagefind s@3 | Pagefind MRR |",
             "|---|---|---|---|---|---|---|---|"]
    for name, key in rows:
        p, f = key(results["portal"]), key(results["pagefind"])
        if p["n"]:
            lines.append(f"| {name} | {p['n']} | {figure(p['s1'])} | **{figure(p['s3'])}** | {figure(p['mrr'])} | "
                         f"{figure(f['s1'])} | {figure(f['s3'])} | {figure(f['mrr'])} |")
    return lines


def failures(scores, label):
    """The queries of `scores` that fail a check, for the section: crisis queries whose first
    result is not the help page, lists that are incomplete, developer documentation first."""
    out = []
    crisis = [s["q"] for s in scores if s["help_first"] is False]
    if crisis:
        out.append(f"- {label}, crisis queries without the help page first: " + ", ".join(f"`{q}`" for q in crisis))
    incomplete = [s["q"] for s in scores if s["must_list"] is False]
    if incomplete:
        out.append(f"- {label}, lists missing a page that must be listed: " + ", ".join(f"`{q}`" for q in incomplete))
    docs = [s["q"] for s in scores if s["docs_above"]]
    if docs:
        out.append(f"- {label}, developer documentation above the residents' answer: " + ", ".join(f"`{q}`" for q in docs))
    return out


def section(results, meta):
    """The BENCHMARKS.md section, between its markers."""
    p, f = results["portal"], results["pagefind"]
    bp, bf = judged.breakdown(p), judged.breakdown(f)
    s3_met = bp["all"]["s3"] >= TARGET_S3 and bp["all"]["s3"] >= bf["all"]["s3"] + TARGET_MARGIN
    lines = [
        BEGIN,
        "## Search relevance: the search page against Pagefind",
        "",
        f"Written by `{meta['command']}` on {meta['date']} at commit {meta['commit']} ({meta['binary']}; Pagefind "
        f"{meta['pagefind']}, Chromium {meta['chromium']}). The judged set is `bench/relevance/queries.yaml`: "
        f"{len(p)} queries over the sample site (`content/`) in English, Kiswahili, French and Arabic (the trial's "
        "queries, crisis queries, questions, keywords, misspellings, plurals and word forms), each with the pages that "
        "answer it, judged by reading the records. portal: `GET /search?q=` of `portal serve`, the links of the page's "
        "`<main>` in order. Pagefind: its defaults over the same build's HTML, `pagefind.search(q)` in Chromium from "
        "the home page, every result in its order. A query succeeds at k when one of its answers is among the first k "
        "results; MRR is the mean of 1 / rank of the first answer (0 when none). "
        "See docs/benchmarks.md for how to run it.",
        "",
        *table("set", [("all", lambda s: judged.summary(s))], results),
        "",
        *table("language", [(lang, lambda s, lang=lang: judged.summary([x for x in s if x["lang"] == lang]))
                            for lang in judged.LANGS], results),
        "",
        *table("kind", [(kind, lambda s, kind=kind: judged.summary([x for x in s if x["kind"] == kind]))
                        for kind in judged.KINDS], results),
        "",
        "| check | target | portal | Pagefind |",
        "|---|---|---|---|",
        f"| success@3 | ≥ {TARGET_S3} and ≥ Pagefind's + {TARGET_MARGIN} | **{figure(bp['all']['s3'])}** "
        f"({'met' if s3_met else 'missed'}) | {figure(bf['all']['s3'])} |",
        f"| crisis queries with the help page (`/urgent-help`) first | 100 % | **{bp['help_first'][0]} of "
        f"{bp['help_first'][1]}** | {bf['help_first'][0]} of {bf['help_first'][1]} |",
        "| lists that must be complete (`jobs`: the five jobs; `clinic`: the health centre; portal's page as shown, "
        f"Pagefind's every result) | all | "
        f"{bp['must_list'][0]} of {bp['must_list'][1]} | {bf['must_list'][0]} of {bf['must_list'][1]} |",
        f"| queries where developer documentation ranks above the residents' answer | 0 | {bp['docs_above']} | "
        f"{bf['docs_above']} |",
        "",
        *failures(p, "portal"),
        *failures(f, "Pagefind"),
        "",
        "The page's p99 at 100k records (target 5 ms) is measured by `bench/run` (*Serving*, the search page).",
        END,
    ]
    return "\n".join(lines).replace("\n\n\n", "\n\n") + "\n"


def write_section(path, text):
    """Replaces the marked relevance section of `path` (see bench/sections.py); bench/run keeps it
    when it rewrites the file."""
    sections.write_section(path, text, "relevance")


def printed(results):
    """The tables for the terminal, and each query both engines fail at 3."""
    lines = section(results, {"command": "", "date": "", "commit": "", "binary": "", "pagefind": "",
                              "chromium": ""}).splitlines()[4:-3]
    both = [(p["q"], p["top"][:3], f["top"][:3]) for p, f in zip(results["portal"], results["pagefind"])
            if not p["s3"] and not f["s3"]]
    lines += ["", f"Missed at 3 by both ({len(both)}):"] + [f"  {q!r}: portal {a}, Pagefind {b}" for q, a, b in both]
    return "\n".join(lines)


def version(command):
    try:
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--portal", default="auto",
                        help="release, debug, or a path to a portal binary (default: release when built, else debug)")
    parser.add_argument("--queries", type=Path, default=judged.QUERIES)
    parser.add_argument("--write", action="store_true", help="rewrite the relevance section of BENCHMARKS.md")
    parser.add_argument("--out", type=Path, default=ROOT / "BENCHMARKS.md")
    args = parser.parse_args()
    binary = portal_binary(args.portal)
    queries = judged.load(args.queries)
    wrong = judged.problems(queries)
    if wrong:
        sys.exit("bench/relevance: the judged set is not well formed:\n" + "\n".join(wrong))
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="relevance-", dir=ROOT / "target") as work:
        dist = Path(work) / "dist"
        subprocess.run([str(binary), "build", "--content", str(ROOT / "content"), "--out", str(dist)], check=True,
                       stdout=subprocess.DEVNULL)
        missing = judged.missing_urls(queries, set(servers.routes(dist)))
        if missing:
            sys.exit("bench/relevance: judged pages the build does not serve:\n" + "\n".join(map(str, missing)))
        print(f"portal: {len(queries)} queries", flush=True)
        portal = rank_portal(binary, dist, queries)
        print("pagefind: index and search in Chromium", flush=True)
        pagefind_version = index_pagefind(dist)
        pagefind = rank_pagefind(dist, queries)
    results = {"portal": [judged.score(q, portal[q["q"]]) for q in queries],
               "pagefind": [judged.score(q, pagefind[q["q"]]) for q in queries]}
    (OUT / "results.json").write_text(json.dumps(
        {"portal": {q: r for q, r in portal.items()}, "pagefind": pagefind, "scores": results}, ensure_ascii=False,
        indent=1))
    print(printed(results))
    if args.write:
        chromium, _ = browser_settings()
        kind = binary.parent.name if binary.parent.name in ("debug", "release") else str(binary)
        meta = {"command": f"bench/relevance/run.py --portal {kind} --write", "date": datetime.date.today(),
                "commit": version(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"]),
                "binary": f"a {kind} build, {version([str(binary), '--version'])}",
                "pagefind": pagefind_version, "chromium": (version([chromium, "--version"]).split() + ["?", "?"])[1]}
        write_section(args.out, section(results, meta))
        print(f"wrote the relevance section of {args.out}")
    print(f"each query's results: {OUT / 'results.json'}")


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
