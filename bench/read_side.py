"""The read side on long matches: rebuilding the view tables, projecting one more entry, a
view as of a middle round, and loading a match cold, at 1k / 10k / 100k entries.

    python bench/read_side.py [--sizes 1000 10000 100000] [--pg URL] [--sqlite-only]

Each match is the service tests' sealed-bid game (tests/support/sealed_bid.py): three players
bid again and again, the host closes a round every ~200 entries. It is written through the
Match aggregate in batches (the command path is another bench's business), then the read side
is timed on it. Prints one row per measurement: size, Arbiter's figure, its goal.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stores import SERVER, postgres_url, sqlite_url
from commands.service.arbiter import Arbiter
from commands.store.settings import persistence_env
from domain.decider import HOST, PUBLIC, Command
from domain.games import register_game
from domain.match import Match
from projections.projection import Ledger, bound
from projections.runner import catch_up, notifications, rebuild
from projections.tables import open_views
from tests.support.host_key import SIGNER

register_game("sealed_bid", "tests.support.sealed_bid")
PLAYERS = ["ann", "bob", "cy"]
PER_ROUND = 100  # bids between two closes: 200 entries
TAIL = 50  # entries projected one by one and timed


def write_match(app: Arbiter, size: int) -> None:
    """A sealed-bid match of about `size` entries, saved a batch of commands at a time."""
    app.create_season("bench")
    for player in PLAYERS:
        app.register("bench", player)
    rounds = size // (2 * PER_ROUND + 4) + 1
    app.create_match(match_id="long", season="bench", game="sealed_bid",
                     setup={"players": PLAYERS, "rounds": rounds + 1,
                            "max_replacements": PER_ROUND},  # ~33 bids a player a round
                     host_seed="h" * 40, salt_key="ab" * 32)
    match = app.repository.get(Match.create_id("long"))
    match.handle(Command("open_match", HOST))
    n = 0
    while match.version < size:
        if n % PER_ROUND == PER_ROUND - 1:
            match.handle(Command("close_round", HOST))
        else:
            match.handle(Command("bid", PLAYERS[n % 3], {"amount": n % 10}))
        n += 1
        if n % 2000 == 0:
            app.save(match)
    app.save(match)


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def measure(url: str, size: int) -> list[tuple[str, float, str]]:
    app = Arbiter(url, signer=SIGNER)
    write_match(app, size)
    ledger = Ledger(env=persistence_env(url))
    views = open_views(ledger.recorder.datastore, ledger.mapper.cipher)
    rows = []

    start = time.perf_counter()
    rebuild(ledger, views)
    rows.append(("projections rebuild, s", time.perf_counter() - start,
                 "linear: 10k < 6 s, 100k < 60 s"))

    # Project one more entry at a time, as `serve` does after each command.
    rebuild_to = list(notifications(ledger, 0))[-TAIL - 1].id
    views.rebuild(iter(()), 0)
    projection = bound(ledger)(views)
    for notification in notifications(ledger, 0, stop=rebuild_to):
        projection.process_event(ledger.mapper.to_domain_event(notification),
                                 _tracking(notification.id))
    samples = []
    for notification in notifications(ledger, rebuild_to):
        begin = time.perf_counter()
        projection.process_event(ledger.mapper.to_domain_event(notification),
                                 _tracking(notification.id))
        samples.append(time.perf_counter() - begin)
    rows.append(("one more entry projected, ms", median_ms(samples), "< 2 ms at any length"))

    match = app.match("long")
    middle = match.round // 2
    samples = []
    for viewer in (PUBLIC, HOST, "ann") * 3:
        begin = time.perf_counter()
        views.view("long", viewer, middle)
        samples.append(time.perf_counter() - begin)
    rows.append((f"view as of round {middle} (tables), ms", median_ms(samples),
                 "< 5 ms at 10k"))

    cold = Arbiter(url, signer=SIGNER)
    begin = time.perf_counter()
    cold.submit("long", "ann", "bid", {"amount": 7})
    rows.append(("cold load (new service, first command), ms",
                 (time.perf_counter() - begin) * 1000, "< 50 ms at 10k (store snapshots)"))
    begin = time.perf_counter()
    cold.match("long")
    rows.append(("first read of the whole log (replayed), ms",
                 (time.perf_counter() - begin) * 1000, "(views read the tables)"))
    begin = time.perf_counter()
    cold.match("long")
    rows.append(("warm read (Arbiter.match), ms", (time.perf_counter() - begin) * 1000,
                 "no copy of the match"))
    catch_up(ledger, views)
    return rows


def _tracking(notification_id: int):
    from eventsourcing.persistence import Tracking

    from projections.tables import APPLICATION
    return Tracking(APPLICATION, notification_id)


def report(store: str, size: int, rows: list[tuple[str, float, str]]) -> None:
    for what, figure, goal in rows:
        print(f"{store:<10} {size:>7} {what:<44} {figure:>10.2f}   {goal}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--pg", default=SERVER)
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    print(f"{'store':<10} {'entries':>7} {'measurement':<44} {'Arbiter':>10}   goal")
    for size in args.sizes:
        report("sqlite", size, measure(sqlite_url(), size))
        if not args.sqlite_only:
            with postgres_url(args.pg) as url:
                report("postgresql", size, measure(url, size))


if __name__ == "__main__":
    main()
