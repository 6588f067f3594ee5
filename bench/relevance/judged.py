"""The judged query set (queries.yaml beside this file) and how a ranked list of result URLs is
scored against it. No server, no browser: bench/relevance/run.py gets the rankings, and
tests/native/test_relevance_set.py checks the set itself with these functions."""

from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

import yaml

QUERIES = Path(__file__).resolve().parent / "queries.yaml"

LANGS = ("en", "sw", "fr", "ar")
KINDS = ("crisis", "question", "keyword", "misspelling", "plural", "other")
HELP_PAGE = "/urgent-help"
# Developer documentation: it must never rank above the residents' pages that answer a query.
DOCS_PREFIXES = ("/docs/", "/api-docs")

# What the set must hold (the "Measured" list).
MINIMUM_QUERIES = 80
MINIMUM_PER_LANG = {"sw": 10, "fr": 10, "ar": 10}
MINIMUM_PER_KIND = {"crisis": 15, "question": 15, "misspelling": 10}
MINIMUM_CRISIS_LANGS = set(LANGS)


# The markers of the section bench/relevance/run.py writes into BENCHMARKS.md (bench/run keeps it).
SECTION_BEGIN, SECTION_END = "<!-- relevance:begin -->", "<!-- relevance:end -->"


def load(path=QUERIES):
    return yaml.safe_load(Path(path).read_text(encoding="utf-8"))["queries"]


def expected(query):
    """The URLs that count as a right result: the answers, or for a query nothing answers the help
    pages the page must link instead."""
    return query["answers"] or query.get("fallback", [])


def problems(queries):
    """What is wrong with the set's shape (empty when nothing): fields, values and the minimums.
    Whether every URL exists is for a caller that has a build (see `missing_urls`)."""
    found = []
    seen = Counter(q.get("q") for q in queries)
    found += [f"{q!r} is listed {n} times" for q, n in seen.items() if n > 1]
    for q in queries:
        name = q.get("q")
        if not isinstance(name, str) or not name.strip():
            found.append(f"a query without text: {q}")
            continue
        unknown = set(q) - {"q", "lang", "kind", "answers", "help_first", "must_list", "fallback", "note"}
        if unknown:
            found.append(f"{name!r}: unknown fields {sorted(unknown)}")
        if q.get("lang") not in LANGS:
            found.append(f"{name!r}: lang {q.get('lang')!r} is not one of {LANGS}")
        if q.get("kind") not in KINDS:
            found.append(f"{name!r}: kind {q.get('kind')!r} is not one of {KINDS}")
        if not isinstance(q.get("answers"), list):
            found.append(f"{name!r}: answers must be a list")
        elif not expected(q):
            found.append(f"{name!r}: no answers and no fallback")
        elif q["answers"] and q.get("fallback"):
            found.append(f"{name!r}: a fallback is only for a query that nothing answers")
        if (q.get("kind") == "crisis") != bool(q.get("help_first")):
            found.append(f"{name!r}: crisis queries, and only they, have help_first: true")
        if q.get("help_first") and expected(q)[:1] != [HELP_PAGE]:
            found.append(f"{name!r}: help_first, so {HELP_PAGE} must be its first answer")
        found += [f"{name!r}: {url!r} is not a site-relative page URL"
                  for url in all_urls(q) if url != normalise(url)]
    found += shortfalls(queries)
    return found


def shortfalls(queries):
    """The minimums of the set that `queries` does not reach."""
    found = []
    if len(queries) < MINIMUM_QUERIES:
        found.append(f"{len(queries)} queries, fewer than {MINIMUM_QUERIES}")
    langs, kinds = Counter(q.get("lang") for q in queries), Counter(q.get("kind") for q in queries)
    found += [f"{langs[lang]} queries in {lang}, fewer than {n}" for lang, n in MINIMUM_PER_LANG.items() if langs[lang] < n]
    found += [f"{kinds[kind]} {kind} queries, fewer than {n}" for kind, n in MINIMUM_PER_KIND.items() if kinds[kind] < n]
    crisis_langs = {q.get("lang") for q in queries if q.get("kind") == "crisis"}
    if not MINIMUM_CRISIS_LANGS <= crisis_langs:
        found.append(f"no crisis query in {sorted(MINIMUM_CRISIS_LANGS - crisis_langs)}")
    return found


def all_urls(query):
    return [*query["answers"], *query.get("must_list", []), *query.get("fallback", [])]


def missing_urls(queries, served):
    """(query, URL) of every judged URL that `served` (the set of URL paths a build serves) lacks."""
    return [(q["q"], url) for q in queries for url in all_urls(q) if url not in served]


def normalise(url):
    """The site-relative URL of a result link as the site publishes it: no origin, query or
    fragment, no `.html` or `index.html`, no trailing slash (Pagefind links the files it indexed,
    `/services/x/index.html` or `/services/x.html`; portal links `/services/x`)."""
    path = unquote(urlsplit(url).path) or "/"
    if path.endswith("/index.html"):
        path = path[: -len("index.html")]
    elif path.endswith(".html"):
        path = path[: -len(".html")]
    return path.rstrip("/") or "/"


def score(query, ranked):
    """One query's figures from `ranked`, the result URLs in the order shown (normalised)."""
    wanted = set(expected(query))
    rank = next((i + 1 for i, url in enumerate(ranked) if url in wanted), None)
    residents = not any(url.startswith(DOCS_PREFIXES) for url in wanted)
    before = ranked[: (rank - 1) if rank else 3]
    return {
        "q": query["q"], "lang": query["lang"], "kind": query["kind"], "rank": rank,
        "s1": rank == 1, "s3": rank is not None and rank <= 3, "rr": 1 / rank if rank else 0.0,
        "help_first": ranked[:1] == [HELP_PAGE] if query.get("help_first") else None,
        "must_list": set(query["must_list"]) <= set(ranked) if query.get("must_list") else None,
        "docs_above": residents and any(url.startswith(DOCS_PREFIXES) for url in before),
        "top": ranked[:5],
    }


def summary(scores):
    """success@1, success@3 and MRR of `scores` (a list of `score` results), with their count."""
    n = len(scores)
    if not n:
        return {"n": 0, "s1": 0.0, "s3": 0.0, "mrr": 0.0}
    return {"n": n, "s1": sum(s["s1"] for s in scores) / n, "s3": sum(s["s3"] for s in scores) / n,
            "mrr": sum(s["rr"] for s in scores) / n}


def breakdown(scores):
    """The summary overall, per language and per kind, and the checks beside them."""
    crisis = [s for s in scores if s["help_first"] is not None]
    listed = [s for s in scores if s["must_list"] is not None]
    return {
        "all": summary(scores),
        "lang": {lang: summary([s for s in scores if s["lang"] == lang]) for lang in LANGS},
        "kind": {kind: summary([s for s in scores if s["kind"] == kind]) for kind in KINDS},
        "help_first": (sum(s["help_first"] for s in crisis), len(crisis)),
        "must_list": (sum(s["must_list"] for s in listed), len(listed)),
        "docs_above": sum(s["docs_above"] for s in scores),
    }
