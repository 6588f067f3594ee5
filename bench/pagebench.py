"""The search page's p50 and p99 at 100k records as `bench/run`'s *Serving* measures it (1,000
distinct queries after 300, the build's records read through first, a fresh server per run), for
several `portal` binaries, alternating, two rounds: the way to compare two commits on a noisy
machine; then the same for 1,000 queries with a typo (`search.typo_queries`). Beside each run it
prints the server's CPU time per request (the same work takes more of it when the virtual machine
is slowed) and the share of the machine's time the hypervisor stole.

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


def cpu_ticks():
    """The machine's CPU time by kind (`/proc/stat`: user, nice, system, idle, iowait, irq, softirq, steal)."""
    return [int(t) for t in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]


def main():
    dist, binaries = Path(sys.argv[1]), sys.argv[2:]
    queries = search.queries(1300, seed=100000)
    typos = search.typo_queries(1300)
    for _ in range(2):
        for binary in binaries:
            servers.PORTAL = binary  # (importing bench/run points it at target/release/portal)
            server = servers.start_portal(["serve", "--dist", str(dist), "--port", "0", "--rate-limit", "4000000000"])
            try:
                time.sleep(8)
                benchrun.read_through(dist / "api")
                search.curl_times(server.base_url, queries[:300], path="/search")
                cpu, ticks = search.process_cpu_seconds(server.process.pid), cpu_ticks()
                p50, p99 = search.measure_page(server.base_url, queries[300:])
                cpu = (search.process_cpu_seconds(server.process.pid) - cpu) / len(queries[300:]) * 1000
                stolen = [after - before for before, after in zip(ticks, cpu_ticks())]
                print(f"{binary}: page p50 {p50:.2f} p99 {p99:.2f} ms, server CPU {cpu:.2f} ms a request, "
                      f"{stolen[7] / max(sum(stolen), 1):.1%} stolen", flush=True)
                p50, p99 = search.measure_page(server.base_url, typos[300:], warm=typos[:300])
                print(f"{binary}: page with a typo p50 {p50:.2f} p99 {p99:.2f} ms", flush=True)
            finally:
                server.stop()


if __name__ == "__main__":
    main()
