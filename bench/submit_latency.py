"""Latency of one submission (a King's Court vote) through Arbiter, against saving the same
records through a bare eventsourcing Application, on SQLite and PostgreSQL.

    python bench/submit_latency.py [--n 500] [--pg postgresql://postgres@127.0.0.1:5432/postgres]

Prints p50/p99 in milliseconds and the ratio Arbiter / bare (the goal: at most 1.3x), bare
being the vote's records saved as they are stored (an event each), then the ratio against
saving them in one event of the vote's size (bench/vote_cost.py splits the vote by part).
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import sys
import time
from pathlib import Path
from typing import ClassVar

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit import keys
from bench.stores import SERVER, on_both_stores
from commands.cli.matchfile import load, prepare_season
from commands.service.arbiter import Arbiter
from commands.store.settings import persistence_env
from domain.match import Match

SEED_FILE = Path(__file__).resolve().parents[1] / "seeds" / "kings_court-king-win.json"


class Log(Aggregate):
    @event("Created")
    def __init__(self) -> None:
        self.size = 0

    @event("Recorded")
    def record(self, record: dict) -> None:
        self.size += 1


class Bare(Application):
    name = "bare"
    env: ClassVar[dict[str, str]] = {"AGGREGATE_CACHE_MAXSIZE": "256"}


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.99) - 1] * 1000


def opened(url: str, match_id: str) -> tuple[Arbiter, list[str]]:
    """The service on `url` with the seed's King's Court match opened as `match_id` (in a
    season of that name), and the two players who vote in turn."""
    app = Arbiter(url, signer=keys.generate("bench-host"))
    file = load(SEED_FILE)
    file = file.model_copy(update={"match": match_id, "season": match_id})
    prepare_season(app, file)
    app.create_match(match_id=match_id, season=file.season, game=file.game,
                     # two voters replace their votes n / 2 times: past the default bound
                     setup={"players": file.players, **file.setup, "max_replacements": 10_000},
                     host_seed=file.host_seed, salt_key=file.salt_key)
    app.submit(match_id, "host", "open_match")
    return app, file.players[:2]


def run(url: str, n: int) -> tuple[float, float, float, float, float, float]:
    """p50 and p99 of one vote through Arbiter, of the bare save of its records, and of the
    bare save of one event holding them, in milliseconds."""
    match_id = f"bench-{secrets.token_hex(4)}"
    app, voters = opened(url, match_id)
    bare = Bare(env=persistence_env(url))
    log, one = Log(), Log()
    bare.save(log, one)
    cached = app.repository.cache  # the match itself, never a copy (a copy per vote skews GC)
    assert cached is not None
    # Each vote, then the bare save of the same entries, in turn: both meet the store in the
    # same state (an SQLite WAL still growing makes every commit dearer than a reused one).
    ours, theirs, one_event = [], [], []
    for i in range(n):
        voter = voters[i % 2]
        start = time.perf_counter()
        outcome = app.submit(match_id, voter, "vote", {"candidate": voters[(i + 1) % 2]})
        ours.append(time.perf_counter() - start)
        records = cached.get(Match.create_id(match_id)).records
        batch = [records[s - 1] for s in outcome.seqs]
        start = time.perf_counter()
        agg = bare.repository.get(log.id, deepcopy_from_cache=False)
        for record in batch:
            agg.record(record=record)
        bare.save(agg)
        theirs.append(time.perf_counter() - start)
        start = time.perf_counter()
        agg = bare.repository.get(one.id, deepcopy_from_cache=False)
        agg.record(record=batch)
        bare.save(agg)
        one_event.append(time.perf_counter() - start)
    app.close()
    bare.close()
    return (*percentiles(ours), *percentiles(theirs), *percentiles(one_event))


def report(url: str, n: int) -> None:
    p50, p99, b50, b99, o50, o99 = run(url, n)
    print(f"{url.split(':')[0]:<10} arbiter p50 {p50:6.2f} ms p99 {p99:6.2f} ms | "
          f"bare p50 {b50:6.2f} ms p99 {b99:6.2f} ms | ratio p50 {p50 / b50:4.2f}x "
          f"p99 {p99 / b99:4.2f}x | one event p50 {o50:6.2f} ms p99 {o99:6.2f} ms: ratio p50 "
          f"{p50 / o50:4.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--pg", default=SERVER)
    args = parser.parse_args()
    on_both_stores(lambda url: report(url, args.n), args.pg)


if __name__ == "__main__":
    main()
