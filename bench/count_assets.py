#!/usr/bin/env python3
"""Counts the files a `wrangler deploy` of a build folder uploads as static assets: every file but
`_headers`, `_redirects`, `.assetsignore` itself and what `.assetsignore` leaves out (the anchored
paths and folders `portal build` writes there), and the largest one.

    python3 bench/count_assets.py dist
"""

import sys
from pathlib import Path

SPECIAL = {"_headers", "_redirects", ".assetsignore"}


def ignored_patterns(dist):
    ignore = dist / ".assetsignore"
    if not ignore.exists():
        return []
    lines = [line.strip() for line in ignore.read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def is_ignored(relative, patterns):
    for pattern in patterns:
        anchored = pattern.lstrip("/")
        if pattern.endswith("/") and (relative + "/").startswith(anchored):
            return True
        if relative == anchored:
            return True
    return False


def main():
    dist = Path(sys.argv[1])
    patterns = ignored_patterns(dist)
    count, largest = 0, (0, "")
    for path in dist.rglob("*"):
        if not path.is_file():
            continue
        relative = path.relative_to(dist).as_posix()
        if relative in SPECIAL or is_ignored(relative, patterns):
            continue
        count += 1
        largest = max(largest, (path.stat().st_size, relative))
    print(f"{count} files uploaded; largest {largest[1]} ({largest[0] / 2**20:.1f} MiB)")


if __name__ == "__main__":
    main()
