#!/usr/bin/env python3
"""How long this machine takes only to create a build's files, their bytes already in memory: the
floor under the wall time of any generator that writes that output, whatever it does before.

    bench/floor.py OUTPUT NEW_FOLDER [THREADS]     # e.g. target/bench/dist-10000 /tmp/floor 8

Reads every file under OUTPUT into memory, makes its folders under NEW_FOLDER, then times creating
and writing the files on THREADS threads (8, like `portal build`'s writer threads); prints the
files, bytes, wall time and the process's user and system time. Run it on portal's output and on
Hugo's (bench/run leaves both in target/bench) to compare what each has to write; drop the page
cache and avoid running it right after removing many files (see `discard` in bench/run.py).
"""

import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor


def read_all(source):
    """Every file under `source` as (relative path, bytes)."""
    files = []
    for root, _, names in os.walk(source):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                files.append((os.path.relpath(path, source), f.read()))
    return files


def write_all(files, dest, threads):
    """Creates `files` under `dest`; returns (wall, user, system) seconds."""
    for folder in sorted({os.path.dirname(rel) for rel, _ in files}):
        os.makedirs(os.path.join(dest, folder), exist_ok=True)

    def put(item):
        rel, data = item
        fd = os.open(os.path.join(dest, rel), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)

    start, cpu = time.perf_counter(), os.times()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(put, files, chunksize=256))
    end, cpu_end = time.perf_counter(), os.times()
    return end - start, cpu_end.user - cpu.user, cpu_end.system - cpu.system


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    source, dest = sys.argv[1], sys.argv[2]
    threads = int(sys.argv[3]) if len(sys.argv) == 4 else 8
    if os.path.exists(dest):
        sys.exit(f"{dest} exists: give a new folder")
    files = read_all(source)
    wall, user, system = write_all(files, dest, threads)
    size = sum(len(data) for _, data in files)
    print(f"{len(files)} files, {size / 1e6:.0f} MB: {wall:.2f} s wall, user {user:.2f} s, sys {system:.2f} s")


if __name__ == "__main__":
    main()
