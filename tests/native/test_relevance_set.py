"""The search relevance benchmark's judged query set (bench/relevance/queries.yaml) holds what it
must, and every page it judges is one the sample site publishes; its scoring and the reading of
the search page's links, without running the benchmark (bench/relevance/run.py)."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

import servers

RELEVANCE = servers.ROOT / "bench" / "relevance"
sys.path.insert(0, str(RELEVANCE))

import judged  # noqa: E402

# Loaded under a name of its own: bench/run.py is another `run`.
_spec = importlib.util.spec_from_file_location("relevance_run", RELEVANCE / "run.py")
run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run)


@pytest.fixture(scope="module", autouse=True)
def upstream():
    """No server here calls a third-party upstream, so this module needs no mock on the fixed port
    (tests/conftest.py)."""
    yield None


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The URL paths of the sample site's HTML pages: from scripts/test's build of content/
    (target/sample-dist) when it is newer than every file of content/, else from a build of its own."""
    content = servers.ROOT / "content"
    dist = Path(os.environ.get("PORTAL_SAMPLE_DIST", servers.ROOT / "target" / "sample-dist"))
    manifest = dist / "_portal" / "manifest.json"
    newest = max(path.stat().st_mtime for path in [content, *content.rglob("*")])
    if not manifest.exists() or manifest.stat().st_mtime < newest:
        dist = tmp_path_factory.mktemp("relevance") / "dist"
        subprocess.run([str(servers.PORTAL), "build", "--content", str(content), "--out", str(dist)], check=True,
                       capture_output=True)
    return {path for path, asset in servers.routes(dist).items() if asset["type"].startswith("text/html")}


def test_the_judged_set_is_well_formed_and_reaches_its_minimums():
    queries = judged.load()
    assert judged.problems(queries) == []
    assert len(queries) >= judged.MINIMUM_QUERIES
    trial = {"husband beats me", "rape", "abuse", "beaten", "where is the health centre", "when is food distribution",
             "clinic", "jobs", "ماء", "عيادة", "تسجيل"}
    assert trial <= {q["q"] for q in queries}


def test_every_judged_page_is_a_published_html_page(served):
    assert judged.missing_urls(judged.load(), served) == []
    assert judged.missing_urls([{"q": "x", "answers": ["/services/no-such-service"]}], served) == [
        ("x", "/services/no-such-service")]


def test_a_short_or_inconsistent_set_is_reported():
    queries = judged.load()
    crisis = [q for q in queries if q["kind"] == "crisis"]
    assert any("fewer than 80" in p for p in judged.problems(queries[:20]))
    assert any("crisis queries, fewer than 15" in p for p in judged.problems([q for q in queries if q["kind"] != "crisis"]))
    assert any("in sw, fewer than 10" in p for p in judged.problems([q for q in queries if q["lang"] != "sw"]))
    broken = [dict(crisis[0], help_first=False), dict(crisis[1], answers=crisis[1]["answers"][1:]),
              {"q": "x", "lang": "de", "kind": "keyword", "answers": ["/a/"]}]
    found = judged.problems(broken + queries[2:])
    assert any("only they, have help_first" in p for p in found)
    assert any("/urgent-help must be its first answer" in p for p in found)
    assert any("lang 'de'" in p for p in found) and any("'/a/' is not a site-relative page URL" in p for p in found)


def test_a_ranking_is_scored_by_its_first_answer():
    query = {"q": "husband beats me", "lang": "en", "kind": "crisis", "help_first": True,
             "answers": ["/urgent-help", "/rights/protection-from-violence"]}
    first = judged.score(query, ["/urgent-help", "/profiles/halima-ibrahim"])
    assert (first["rank"], first["s1"], first["s3"], first["rr"], first["help_first"]) == (1, True, True, 1.0, True)
    third = judged.score(query, ["/docs/api/mcp", "/profiles/halima-ibrahim", "/rights/protection-from-violence"])
    assert (third["rank"], third["s1"], third["s3"], third["help_first"], third["docs_above"]) == (3, False, True, False, True)
    none = judged.score(query, [])
    assert (none["rank"], none["s3"], none["rr"]) == (None, False, 0.0)
    fallback = {"q": "wifi", "lang": "en", "kind": "other", "answers": [], "fallback": ["/urgent-help", "/services"]}
    assert judged.score(fallback, ["/services"])["rank"] == 1
    summary = judged.summary([first, third, none])
    assert summary["n"] == 3 and summary["s3"] == pytest.approx(2 / 3) and summary["mrr"] == pytest.approx(4 / 9)


def test_the_search_page_results_are_the_links_of_main_in_order():
    page = """<html><body><nav><a href="/urgent-help">Urgent help</a></nav><main id="content">
    <form action="/search"><a href="/help">form help</a></form>
    <p class="did-you-mean"><a href="/search?q=water">water</a></p>
    <section><ul class="records"><li><a href="/services/water-point-repairs">Water</a></li>
    <li><a href="/news/boreholes-restored-zone-b/">Boreholes</a></li>
    <li><a href="/services/water-point-repairs">again</a></li><li><a href="https://elsewhere.example/">out</a></li></ul>
    <p><a href="/search?q=water&amp;collections=news&amp;limit=50">More news</a></p></section>
    <nav class="pager"><a href="/news/page/2">next</a></nav></main><footer><a href="/tags">Tags</a></footer></body></html>"""
    assert run.result_links(page) == ["/services/water-point-repairs", "/news/boreholes-restored-zone-b"]


def test_the_marked_section_is_rewritten_in_place(tmp_path):
    path = tmp_path / "BENCHMARKS.md"
    path.write_text("# Benchmarks\n\n## Serving\n\nfigures\n\n## Notes\n\nnotes\n")
    run.write_section(path, f"{judged.SECTION_BEGIN}\n## Search relevance\n\nfirst\n{judged.SECTION_END}\n")
    run.write_section(path, f"{judged.SECTION_BEGIN}\n## Search relevance\n\nsecond\n{judged.SECTION_END}\n")
    text = path.read_text()
    assert text.count(judged.SECTION_BEGIN) == 1 and "second" in text and "first" not in text
    assert text.index("## Serving") < text.index("## Search relevance") < text.index("## Notes")
    assert run.sections.section_of(text, "relevance").endswith(judged.SECTION_END)
