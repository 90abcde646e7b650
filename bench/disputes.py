"""A dispute settled from the terminal: a view of a long King's Court match as of a round,
from a new `arbiter view` process, from a service opened for it, and warm, at 20k and 100k
entries; and `arbiter view` of a seed match against `python -c pass`.

    python bench/disputes.py [--sizes 20000 100000] [--pg URL] [--sqlite-only] [--runs 5]

The match is the seed `kings_court-king-win` with every vote sent again and again (a vote
replaces the voter's last one, so the match ends as the seed does) until the log holds about
SIZE entries; the store is encrypted with a store key as `arbiter init` makes it, and the view
tables are rebuilt once (timed). The repeated votes are written through the Match aggregate a
batch at a time (the command path is bench/submit_latency.py's). Prints one row per
measurement: size, the figure (median of --runs), the goal, and the machine's load. The
figures before the read side (docs/cli.md) were taken with the replaying fold in its place,
`projections.views.view(app.match(MATCH), viewer, round)`.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import closing, suppress
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stores import SERVER, postgres_url, sqlite_url
from commands.cli.matchfile import load, prepare_season
from commands.service.arbiter import Arbiter
from commands.store.sealing import KEY_VARIABLE, make_key
from domain.decider import Command
from domain.match import Match
from projections.projection import Ledger
from projections.runner import rebuild
from projections.tables import datastore_of, open_views
from tests.support.host_key import SIGNER

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "seeds" / "kings_court-king-win.json"
MATCH = "long"
ROUND = 3  # the round a dispute is about
ARBITER = str(Path(sys.executable).with_name("arbiter"))


def write_match(url: str, size: int) -> None:
    """The seed match with each vote sent again until the log holds about `size` entries."""
    file = load(SEED)
    file = file.model_copy(update={"match": MATCH, "season": "bench"})
    steps = [("contribute", p, {"text": t}) for p, t in file.contributions.items()]
    steps += [(s.do, s.actor, s.args) for s in file.commands if not s.expect_error]
    votes = sum(1 for name, _, _ in steps if name == "vote")
    again = max(0, (size - 2 * len(steps)) // (2 * votes))  # a vote is two entries
    app = Arbiter(url, signer=SIGNER)
    prepare_season(app, file)
    app.create_match(match_id=MATCH, season=file.season, game=file.game,
                     setup={"players": file.players, **file.setup,
                            "max_replacements": again + 1},  # the default bound is 30
                     host_seed=file.host_seed, salt_key=file.salt_key)
    for name, actor, args in steps:
        if name == "vote" and again:
            match = app.repository.get(Match.create_id(MATCH))
            garnets = app.season(file.season).garnets(file.players)
            for n in range(again):
                match.handle(Command(name, actor, args, garnets))
                if n % 2000 == 1999:
                    app.save(match)
            app.save(match)
        app.submit(MATCH, actor, name, args)
    app.close()


def project(url: str) -> float:
    """Rebuild the view tables; seconds taken."""
    env = Arbiter(url).env  # the settings every reader shares
    with closing(Ledger(env=dict(env))) as ledger:
        views = open_views(datastore_of(ledger), ledger.mapper.cipher)
        start = time.perf_counter()
        rebuild(ledger, views)
        return time.perf_counter() - start


def in_process_view(url: str, round_: int | None) -> tuple[float, float]:
    """A view as of `round_` in a service opened for it (first call), then warm: ms."""
    start = time.perf_counter()
    app = Arbiter(url)

    def read(viewer: str, round_: int | None) -> dict:
        return app.view(MATCH, viewer, round_).view

    first = read("public", round_)
    cold = time.perf_counter() - start
    warm = []
    for _ in range(20):
        start = time.perf_counter()
        again = read("public", round_)
        warm.append(time.perf_counter() - start)
    assert again == first
    app.close()
    return cold * 1000, statistics.median(warm) * 1000


def process_ms(args: list[str], env: dict[str, str], runs: int) -> tuple[float, float]:
    """A new process's wall time and CPU time (user + system), medians in ms: on a machine
    other work shares, the CPU time is the steadier figure."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000


def process(args: list[str], env: dict[str, str], runs: int) -> str:
    wall, cpu = process_ms(args, env, runs)
    return f"{wall:,.0f} ms (CPU {cpu:,.0f} ms)"


def measure(url: str, size: int, runs: int) -> list[tuple[str, str, str]]:
    start = time.perf_counter()
    write_match(url, size)
    written = time.perf_counter() - start
    entries = Arbiter(url).match(MATCH).version
    rebuilt = project(url)
    env = {**os.environ, "ARBITER_DATABASE_URL": url}
    view_round = [ARBITER, "view", MATCH, "--round", str(ROUND), "--json"]
    cold, warm = in_process_view(url, ROUND)
    return [
        ("entries", f"{entries:,}", f"written in {written:.0f} s"),
        ("`arbiter view long --round 3 --json`, a new process", process(view_round, env, runs),
         "< 150 ms"),
        ("open the service, view as of round 3 (first call)", f"{cold:,.1f} ms", "< 50 ms"),
        ("the same view, warm, in-process", f"{warm:.2f} ms", "< 5 ms"),
        ("projections rebuild", f"{rebuilt:.1f} s", "< 60 s at 100k"),
    ]


def seed_view(runs: int) -> list[tuple[str, str, str]]:
    """`arbiter view` of a seed match, whole process, against `python -c pass`."""
    url = sqlite_url()
    app = Arbiter(url, signer=SIGNER)
    file = load(SEED)
    prepare_season(app, file)
    from commands.cli.matchfile import run

    run(app, file)
    app.close()
    env = {**os.environ, "ARBITER_DATABASE_URL": url}
    bare, _ = process_ms([sys.executable, "-c", "pass"], env, runs)
    rows = []
    for tables in ("no view tables", "view tables current"):
        if tables == "view tables current":
            project(url)
        ours, cpu = process_ms([ARBITER, "view", file.match, "--json"], env, runs)
        rows.append((f"`arbiter view MATCH --json` of a seed match, {tables}",
                     f"{ours:.0f} ms (CPU {cpu:.0f} ms)",
                     f"< 3x `python -c pass` ({bare:.0f} ms): {ours / bare:.1f}x"))
    return rows


def load_average() -> str:
    return " ".join(f"{n:.2f}" for n in os.getloadavg())


def report(store: str, size: int, rows: list[tuple[str, str, str]]) -> None:
    for what, figure, goal in rows:
        print(f"| {store} | {size:,} | {what} | {figure} | {goal} | {load_average()} |",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000, 100_000])
    parser.add_argument("--pg", default=SERVER)
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="arbiter-disputes-")
    os.environ[KEY_VARIABLE] = str(make_key(f"{folder}/arbiter-store.key"))
    print("| store | entries | measurement | figure | goal | load (1, 5, 15 min) |")
    print("|---|---|---|---|---|---|")
    report("sqlite", 0, seed_view(args.runs))
    for size in args.sizes:
        report("sqlite", size, measure(sqlite_url(), size, args.runs))
        if not args.sqlite_only:
            with postgres_url(args.pg) as url:
                report("postgres", size, measure(url, size, args.runs))


if __name__ == "__main__":
    with suppress(KeyboardInterrupt):
        main()
