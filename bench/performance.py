"""Every speed goal of the read side, verify, the command path, HTTP and CLI start-up, measured
side by side in one run and printed as one table: measurement, Arbiter, anchor, ratio, goal.

    python bench/performance.py [--sizes 1000 10000] [--quick] [--pg URL]

An anchor is either a baseline measured in the same run (raw SHA-256 over the same lines, a bare
eventsourcing save, the same votes in-process, `python -c pass`) or, for an absolute goal, the
goal itself (then the ratio must stay at or under 1). HTTP load comes from `wrk` when it is
installed (`apt-get install wrk`: a C client leaves the two cores to the server), else from
httpx threads. Run it by hand on a quiet machine; the figures go in the issue's note.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import read_side, submit_latency, verify_throughput
from bench.stores import SERVER, postgres_url, sqlite_url

ROOT = Path(__file__).resolve().parents[1]
Row = tuple[str, float, float, str, str]  # measurement, Arbiter, anchor, ratio sense, goal


def read_rows(size: int) -> list[Row]:
    found = {what: figure for what, figure, _ in read_side.measure(sqlite_url(), size)}
    limit = {1000: (0.6, 2.0, 5.0, 50.0), 10_000: (6.0, 2.0, 5.0, 50.0)}.get(
        size, (60.0 * size / 100_000, 2.0, 5.0, 50.0 * size / 10_000))
    rebuild, entry, view, cold = (next(v for k, v in found.items() if k.startswith(prefix))
                                  for prefix in ("projections rebuild", "one more entry",
                                                 "view as of", "cold load"))
    return [
        (f"projections rebuild, {size} entries (s)", rebuild, limit[0], "<=", "<= 1"),
        (f"one more entry projected at {size} (ms)", entry, limit[1], "<=", "<= 1"),
        (f"view as of a middle round at {size} (ms)", view, limit[2], "<=", "<= 1"),
        (f"first command of a new service at {size} (ms)", cold, limit[3], "<=", "<= 1"),
    ]


def verify_rows() -> list[Row]:
    """Synthetic public bundle (100k entries) and the real seed bundles, each against raw
    SHA-256 over the same lines, in fresh processes."""
    rows = []
    path = verify_throughput.bundle(Path(tempfile.gettempdir()), 100_000)
    found = json.loads(subprocess.run(
        [sys.executable, verify_throughput.__file__, "--measure", str(path)],
        capture_output=True, text=True, check=True).stdout)
    rows.append(("verify, synthetic public bundle (entries/s)",
                 found["verify_entries_per_s"], found["raw_sha256_lines_per_s"], ">=",
                 ">= 0.25"))
    rows.append(("verify peak memory, 100k entries (MiB)", found["peak_rss_mib"], 100.0,
                 "<=", "<= 1"))
    found = json.loads(subprocess.run(
        [sys.executable, verify_throughput.__file__, "--seeds"], capture_output=True,
        text=True, check=True).stdout)
    rows.append(("verify, real seed bundles (entries/s)", found["verify_entries_per_s"],
                 found["raw_sha256_lines_per_s"], ">=", ">= 0.25"))
    # One Ed25519 check per round close is the format's; no verifier does less per round.
    ceiling = found["lines_per_checkpoint"] / (found["ed25519_check_us"] / 1e6)
    rows.append(("verify, real bundles: the signature checks alone (lines/s)", round(ceiling),
                 found["raw_sha256_lines_per_s"], ">=", ">= 0.25"))
    return rows


def command_rows(pg: str, n: int) -> list[Row]:
    rows = []
    p50, _, b50, _ = submit_latency.run(sqlite_url(), n)
    rows.append(("one vote, SQLite, p50 (ms)", p50, b50, "<=", "<= 1.3"))
    with postgres_url(pg) as url:
        p50, _, b50, _ = submit_latency.run(url, n)
    rows.append(("one vote, PostgreSQL, p50 (ms)", p50, b50, "<=", "<= 1.3"))
    return rows


def http_rows(pg: str) -> list[Row]:
    from bench import http_throughput

    rows = []
    for workers in (1, 2):
        http, local = http_throughput.compare(pg, clients=20, matches=5, votes=20,
                                              workers=workers)
        rows.append((f"votes/s over HTTP, serve --workers {workers}", http, local, ">=",
                     ">= 0.6"))
    return rows


def start_rows(repeat: int = 7) -> list[Row]:
    """Wall time of `arbiter --help` and of importing the CLI, against `python -c pass`."""
    def median(command: list[str]) -> float:
        samples = []
        for _ in range(repeat):
            begin = time.perf_counter()
            subprocess.run(command, cwd=ROOT, capture_output=True, check=True)
            samples.append(time.perf_counter() - begin)
        return statistics.median(samples) * 1000

    bare = median([sys.executable, "-c", "pass"])
    imports = median([sys.executable, "-c", "import commands.cli.main"]) - bare
    return [("CLI imports for a command that does not serve (ms)", imports, 150.0, "<=",
             "<= 1"),
            ("`arbiter --help` vs `python -c pass` (ms)",
             median([sys.executable, "-c", "from commands.cli.main import main; main()", "--help"]),
             bare, "<=", "-")]


def table(rows: list[Row]) -> None:
    print(f"{'measurement':<52} {'Arbiter':>10} {'anchor':>10} {'ratio':>7}  goal")
    for what, figure, anchor, _, goal in rows:
        ratio = figure / anchor if anchor else float("nan")
        print(f"{what:<52} {figure:>10.2f} {anchor:>10.2f} {ratio:>7.2f}  {goal}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000])
    parser.add_argument("--pg", default=SERVER)
    parser.add_argument("--votes", type=int, default=300, help="votes for the command path")
    parser.add_argument("--quick", action="store_true", help="skip HTTP and verify")
    args = parser.parse_args()
    parts: list[Callable[[], list[Row]]] = [lambda s=s: read_rows(s) for s in args.sizes]
    parts += [lambda: command_rows(args.pg, args.votes), start_rows]
    if not args.quick:
        parts += [verify_rows, lambda: http_rows(args.pg)]
    rows: list[Row] = []
    for part in parts:
        rows += part()
    table(rows)


if __name__ == "__main__":
    main()
