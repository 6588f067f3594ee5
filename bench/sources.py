#!/usr/bin/env python3
"""Records from a table against the same records as files (docs/content.md#sources).

    .venv/bin/python bench/sources.py --size 100000 --write BENCHMARKS.md

Takes bench/corpus.py's synthetic corpus of `--size` records (made by `bench/run` or here), writes
the same records as rows of one CSV per collection (`id` giving each record the slug its file
had, so both builds publish the same URLs; the encyclopedia stays files), and times clean
`portal build`s of both, alternating, each into a fresh folder: wall time and peak memory from
/usr/bin/time -v, medians over `--runs`. The target: the table's build within 10 % of the files'.
Needs the release build (`cargo build --release -p portal`).
"""

import argparse
import csv
import datetime
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))

import run as bench  # noqa: E402
import sections  # noqa: E402

COLUMNS = ["id", "title", "date", "summary", "tags", "category", "body"]


def record_of(path):
    """(front matter, body) of one of the corpus's record files."""
    text = path.read_text(encoding="utf-8")
    _, front, body = text.split("---\n", 2)
    return yaml.safe_load(front), body


def as_tables(content, out):
    """Writes `out`: `content` with its records as CSV sources (unless made already)."""
    stamp = out.with_name(out.name + ".stamp")
    made_from = (content.with_name(content.name + ".stamp")).read_text()
    if out.exists() and stamp.exists() and stamp.read_text() == made_from:
        return
    bench.discard(out)
    out.mkdir(parents=True)
    shutil.copytree(content / "encyclopedia", out / "encyclopedia")
    (out / "sources").mkdir()
    entries = []
    for folder in sorted(p for p in content.iterdir() if p.is_dir() and p.name != "encyclopedia"):
        table = out / "sources" / f"{folder.name}.csv"
        with table.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(COLUMNS)
            for path in sorted(folder.glob("*.md")):
                front, body = record_of(path)
                tags = ", ".join(str(t) for t in front.get("tags", []))
                writer.writerow([path.stem, front["title"], str(front.get("date", "")), front.get("summary", ""),
                                 tags, front.get("category", ""), body])
        entries.append(f"  - {{collection: {folder.name}, from: sources/{folder.name}.csv, id: id, body: body}}")
    site = (content / "site.yaml").read_text()
    (out / "site.yaml").write_text(site.rstrip("\n") + "\nsources:\n" + "\n".join(entries) + "\n")
    stamp.write_text(made_from)


def measure(size, runs):
    content = bench.WORK / f"corpus-{size}"
    bench.ensure_corpus(size, content)
    tables = bench.WORK / f"tables-{size}"
    as_tables(content, tables)
    bench.read_through(content)
    bench.read_through(tables)
    files, rows = [], []
    for run in range(runs):
        for folder, into in ((content, files), (tables, rows)):
            # Outputs are set aside and removed after the runs, as bench/run does (removing 4 GB
            # on this machine's disk takes minutes, and slows the next build's file creation).
            out = bench.WORK / f"sources-bench-{folder.name}.run{run}"
            bench.discard(out)
            os.sync()
            into.append(bench.run_timed([str(bench.PORTAL), "build", "--content", str(folder), "--out", str(out)]))
            print(f"{folder.name} run {run}: {into[-1][0]:.1f} s, {into[-1][1]:.0f} MiB", flush=True)
            bench.discard(out)
    bench.empty_trash()
    median = lambda runs, i: statistics.median(r[i] for r in runs)  # noqa: E731
    return {"size": size, "runs": runs, "files": (median(files, 0), median(files, 1)),
            "rows": (median(rows, 0), median(rows, 1))}


def section(result, command):
    begin, end = sections.markers("sources")
    (fw, fm), (rw, rm) = result["files"], result["rows"]
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    lines = [
        begin,
        "## Sources: records from a CSV against the same records as files", "",
        f"Written by `{command}` on {datetime.date.today()} at commit {commit}. bench/corpus.py's corpus of "
        f"{result['size']:,} records, and the same records as rows of one CSV per collection (`sources:` in "
        "site.yaml, `id` and `body` columns; the encyclopedia stays files): clean `portal build`s, alternating, "
        f"medians of {result['runs']} runs. Target: within 10 % of the files' wall time and memory.", "",
        "| records | files: wall | rows: wall | ratio | files: peak memory | rows: peak memory | ratio |",
        "|---|---|---|---|---|---|---|",
        f"| {result['size']:,} | {fw:.1f} s | {rw:.1f} s | **{rw / fw:.2f}** | {fm:.0f} MiB | {rm:.0f} MiB | "
        f"**{rm / fm:.2f}** |",
        end,
    ]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=100000)
    parser.add_argument("--runs", type=int, default=1, help="pairs of builds (each 100k build writes 4 GB)")
    parser.add_argument("--write", type=Path, help="put the section into this file (BENCHMARKS.md)")
    args = parser.parse_args()
    bench.WORK.mkdir(parents=True, exist_ok=True)
    result = measure(args.size, args.runs)
    text = section(result, "bench/sources.py " + " ".join(sys.argv[1:]))
    print(text)
    if args.write:
        sections.write_section(args.write, text, "sources")


if __name__ == "__main__":
    main()
