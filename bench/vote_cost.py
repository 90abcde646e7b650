"""Where one vote's time goes: a King's Court vote through Arbiter, split into the writer's
lock, the versions query, the rules, sealing the entries, appending them to the match, the
save (the mapper's encoding and encryption, then the recorder's insert and commit), the
sender's receipt, and the rest; beside a bare eventsourcing save of one event of the vote's
size. On SQLite and PostgreSQL.

    python bench/vote_cost.py [--n 500] [--pg URL] [--sqlite-only]

Prints mean milliseconds a vote per part (docs/architecture.md, "What a vote costs"). On
PostgreSQL the versions query goes with the lock, in its round trip: the lock's time holds it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import domain.match
from bench.stores import SERVER, postgres_url, sqlite_url
from bench.submit_latency import Bare, Log, opened
from commands.service.arbiter import Arbiter
from commands.store.settings import persistence_env
from commands.store.stored import StoredVersions
from domain.match import Match

spent: dict[str, float] = defaultdict(float)
within: list[str] = []  # the part being timed: what it calls is its own time


def timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if within:
            return function(*args, **kwargs)
        within.append(name)
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] += time.perf_counter() - start
            within.pop()
    return wrapper


def lock_timed(holding: Callable[..., Any]) -> Callable[..., Any]:
    """The lock's own time: taking it and letting it go, not what runs under it."""
    @contextmanager
    def wrapper(name: str, then: Any = None) -> Iterator[Any]:
        start = time.perf_counter()
        held = holding(name, then)
        row = held.__enter__()
        spent["the writer's lock"] += time.perf_counter() - start
        try:
            yield row
        finally:
            start = time.perf_counter()
            held.__exit__(None, None, None)
            spent["the writer's lock"] += time.perf_counter() - start
    return wrapper


def run(url: str, n: int) -> list[tuple[str, float]]:
    app, voters = opened(url, "cost")
    for i in range(20):  # warm: the cache, the connections, the statements
        app.submit("cost", voters[i % 2], "vote", {"candidate": voters[(i + 1) % 2]})
    app.writers.holding = lock_timed(app.writers.holding)  # type: ignore[method-assign]
    patches = [(StoredVersions, "__call__", "the versions query"),
               (Match, "_decide_plain", "the rules (decide)"),
               (domain.match, "seal_entry", "sealing the entries (hashes, commitments)"),
               (Match, "trigger_event", "appending them to the match (evolve, Merkle tree)"),
               (app.mapper, "to_stored_event", "the save: encoding and encrypting"),
               (app.recorder, "insert_events", "the save: insert and commit"),
               (Arbiter, "_outcome", "the receipt"),
               (Arbiter, "_take_snapshots", "the store snapshot (every 200 entries)")]
    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in patches]
    for owner, name, label in patches:
        setattr(owner, name, timed(label, getattr(owner, name)))
    bare = Bare(env=persistence_env(url))
    log = Log()
    bare.save(log)
    cached = app.repository.cache  # the match itself: what its vote just stored
    assert cached is not None
    spent.clear()
    total = one_event = 0.0
    # Each vote, then a bare save of one event holding its two records, in turn: both meet
    # the store in the same state (bench/submit_latency.py).
    for i in range(n):
        start = time.perf_counter()
        outcome = app.submit("cost", voters[i % 2], "vote", {"candidate": voters[(i + 1) % 2]})
        total += time.perf_counter() - start
        records = cached.get(Match.create_id("cost")).records[-len(outcome.seqs):]
        start = time.perf_counter()
        aggregate = bare.repository.get(log.id, deepcopy_from_cache=False)
        aggregate.record(record=records)
        bare.save(aggregate)
        one_event += time.perf_counter() - start
    for owner, name, original in originals:
        setattr(owner, name, original)
    app.close()
    bare.close()
    rows = [(label, seconds / n * 1000) for label, seconds in spent.items()]
    rows.append(("the rest (loading checks, season, Python)",
                 (total - sum(spent.values())) / n * 1000))
    rows.append(("a vote, all of it", total / n * 1000))
    rows.append(("a bare save of one event of the vote's size", one_event / n * 1000))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--pg", default=SERVER)
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    stores = [("sqlite", sqlite_url())]
    for store, url in stores:
        for label, ms in run(url, args.n):
            print(f"| {store} | {label} | {ms:.3f} ms |", flush=True)
    if not args.sqlite_only:
        with postgres_url(args.pg) as url:
            for label, ms in run(url, args.n):
                print(f"| postgres | {label} | {ms:.3f} ms |", flush=True)


if __name__ == "__main__":
    main()
