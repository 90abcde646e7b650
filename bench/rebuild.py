"""Time to rebuild a finished King's Court match from its events, and to build a view as of
a middle round, on SQLite and PostgreSQL.

    python bench/rebuild.py [--repeat 20] [--pg postgresql://postgres@127.0.0.1:5432/postgres]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit import keys
from bench.stores import SERVER, on_both_stores
from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from projections.views import view

SEEDS = Path(__file__).resolve().parents[1] / "seeds"


def timed(call, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def run(url: str, repeat: int) -> None:
    for path in sorted(SEEDS.glob("kings_court-*.json")):
        file = load(path)
        play(Arbiter(url, signer=keys.generate("bench-host")), file)
        cold = Arbiter(url, env={"AGGREGATE_CACHE_MAXSIZE": ""})  # no cache: a real replay
        match = cold.match(file.match)
        middle = max(r["entry"]["round"] for r in match.records) // 2
        rebuild = timed(lambda f=file, c=cold: c.match(f.match), repeat)
        as_of = timed(lambda f=file, m=middle, c=cold: view(c.match(f.match), "public", m), repeat)
        print(f"{url.split(':')[0]:<10} {path.stem:<28} {match.version:4d} events: "
              f"rebuild {rebuild:6.2f} ms, public view as of round {middle} {as_of:6.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--pg", default=SERVER)
    args = parser.parse_args()
    on_both_stores(lambda url: run(url, args.repeat), args.pg)


if __name__ == "__main__":
    main()
