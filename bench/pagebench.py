"""The search page's p50 and p99 at 100k records as `bench/run`'s *Serving* measures it (1,000
distinct queries after 300, the build's records read through first, a fresh server per run), for
several `portal` binaries, alternating, two rounds: the way to compare two commits on a noisy
machine.

    .venv/bin/python bench/pagebench.py target/bench/dist-100000 /tmp/portal-before /tmp/portal-after
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import run as benchrun  # noqa: E402
import search  # noqa: E402
import servers  # noqa: E402


def main():
    dist, binaries = Path(sys.argv[1]), sys.argv[2:]
    queries = search.queries(1300, seed=100000)
    for _ in range(2):
        for binary in binaries:
            server = servers.start_portal(["serve", "--dist", str(dist), "--port", "0", "--rate-limit", "4000000000"],
                                          env={"PORTAL_BIN": binary})
            try:
                time.sleep(8)
                benchrun.read_through(dist / "api")
                p50, p99 = search.measure_page(server.base_url, queries[300:], warm=queries[:300])
                print(f"{binary}: page p50 {p50:.2f} p99 {p99:.2f} ms", flush=True)
            finally:
                server.stop()


if __name__ == "__main__":
    main()
