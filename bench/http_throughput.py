"""Votes per second through the HTTP API (`arbiter serve`) against the same votes through the
application service in-process, with as many clients, and what each vote cost the CPUs.

    python bench/http_throughput.py [--client httpx|wrk] [--clients 50] [--matches 10]
        [--votes 40 | --seconds 15] [--workers 2] [--store postgresql|sqlite]
        [--no-projections] [--repeat 1] [--pg postgresql://postgres@127.0.0.1:5432/postgres]

Each match is a King's Court match (the seed file's setup) in a season of its own, opened;
each client is one player of one match, sending its votes (replaceable) one after another,
each with a client id, as a client that may send one again must (`v1`, `v2`, ...). The
clients over HTTP are either plain Python threads, each with its keep-alive `httpx.Client`
and its bodies encoded before the clock starts (`--votes` each), or wrk's C threads, one a
client (bench/votes.lua, `--seconds`). In-process, as many threads call `Arbiter.submit` with
the same ids, as many votes each as the HTTP clients sent on average: the matches grow as
long on both sides (a long match costs its store snapshots on both). The rate limit is off.

Each run uses a store of its own and prints the machine's load, both rates, their ratio, and
the CPU a vote cost (bench/cputime.py): the clients (the bench's threads, or wrk), the serve
workers, the projection process (PostgreSQL) and the database's backends; in-process, the
process and the backends. With `--repeat N`, the medians follow.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit import keys
from bench.cputime import Spent
from bench.stores import SERVER, postgres_url, sqlite_url
from commands.cli.matchfile import load
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens

ROOT = Path(__file__).resolve().parents[1]
FILE = load(ROOT / "seeds" / "kings_court-king-win.json")
Job = tuple[str, str, str]  # a client's match, its voter, the voter it votes for


@dataclass
class Side:
    """One side of a run: votes a second, latency percentiles (ms), CPU ms a vote by role."""

    rate: float
    p50: float
    p99: float
    cpu: dict[str, float]
    sent: int


def set_up(app: Arbiter, prefix: str, matches: int) -> list[str]:
    names = [f"{prefix}{m}" for m in range(matches)]
    for name in names:
        app.create_season(name)
        for player in FILE.players:
            app.register(name, player)
        app.create_match(match_id=name, season=name, game=FILE.game,
                         # each client replaces its vote far past the rules' default bound
                         setup={"players": FILE.players, **FILE.setup,
                                "max_replacements": 10_000},
                         host_seed=FILE.host_seed, salt_key=FILE.salt_key)
        app.submit(name, "host", "open_match")
    return names


def plan(names: list[str], clients: int) -> list[Job]:
    """(match, voter, another voter of that match) for each client."""
    per_match = max(2, -(-clients // len(names)))
    return [(names[c % len(names)], FILE.players[c // len(names)],
             FILE.players[(c // len(names) + 1) % per_match]) for c in range(clients)]


def run(clients: int, job: Callable[[int], list[float]]) -> tuple[float, list[float]]:
    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        samples = [s for client in pool.map(job, range(clients)) for s in client]
    return len(samples) / (time.perf_counter() - start), samples


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[max(0, int(len(ordered) * 0.99) - 1)] * 1000


def vote(other: str, n: int) -> bytes:
    return json.dumps({"command": "vote", "args": {"candidate": other}, "id": f"v{n}"}).encode()


@contextmanager
def serving(url: str, workers: int, *options: str) -> Iterator[str]:
    """`arbiter serve` on a free port (with `options`); yields its base URL."""
    with served(url, workers, options=options) as (base, _):
        yield base


@contextmanager
def served(url: str, workers: int, env: dict[str, str] | None = None,
           options: tuple[str, ...] = ()) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`arbiter serve` on a free port (without its per-token rate limit unless `env` sets
    ARBITER_RATE: one client here sends far more than a player would); yields its base URL
    and its process."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-c", "from commands.cli.main import main; main()", "--db", url, "serve",
         "--port", str(port), "--workers", str(workers), *options],
        cwd=ROOT, env={"ARBITER_RATE": "0", **os.environ, **(env or {})},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(base)
        yield base, server
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)


def wait_for(base: str) -> None:
    """Until the server at `base` answers."""
    while True:
        try:
            httpx.get(f"{base}/openapi.json", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.2)


def tokens_of(base: str, app: Arbiter, jobs: list[Job]) -> list[str]:
    host = httpx.Client(base_url=base, headers={
        "Authorization": f"Bearer {Tokens(app).set_host()}"})
    return [host.post(f"/matches/{m}/players/{p}/token").json()["token"] for m, p, _ in jobs]


def database_of(url: str) -> str | None:
    return url.rsplit("/", 1)[1] if url.startswith("postgresql") else None


def through_httpx(url: str, app: Arbiter, names: list[str], clients: int, votes: int,
                  workers: int, options: tuple[str, ...] = ()) -> Side:
    """Each client a thread with its keep-alive httpx.Client, its bodies encoded beforehand;
    a 503 (every retry lost to another worker) is sent again, with its id."""
    with served(url, workers, options=options) as (base, server):
        jobs = plan(names, clients)
        tokens = tokens_of(base, app, jobs)
        bodies = [[vote(other, n) for n in range(1, votes + 1)] for _, _, other in jobs]
        busy: list[int] = []

        def client(c: int) -> list[float]:
            match, voter, _ = jobs[c]
            path = f"/matches/{match}/players/{voter}/commands"
            samples = []
            with httpx.Client(base_url=base, timeout=60, headers={
                    "Authorization": f"Bearer {tokens[c]}",
                    "Content-Type": "application/json"}) as http:
                for body in bodies[c]:
                    started = time.perf_counter()
                    while (answer := http.post(path, content=body)).status_code == 503:
                        busy.append(1)
                    answer.raise_for_status()
                    samples.append(time.perf_counter() - started)
            return samples

        with Spent(server.pid, database_of(url)) as spent:
            rate, samples = run(clients, client)
    if busy:
        print(f"  http: {len(busy)} answers 503 busy (sent again)")
    return Side(rate, *percentiles(samples), spent.per(len(samples)), len(samples))


def through_wrk(url: str, app: Arbiter, names: list[str], clients: int, seconds: int,
                workers: int, options: tuple[str, ...] = ()) -> Side:
    """wrk for `seconds`, one thread and connection a client (bench/votes.lua numbers each
    client's votes as the Python clients do)."""
    with served(url, workers, options=options) as (base, server), \
            tempfile.NamedTemporaryFile("w", suffix=".tsv") as plan_:
        jobs = plan(names, clients)
        for (match, voter, other), token in zip(jobs, tokens_of(base, app, jobs), strict=True):
            prefix = vote(other, 0).decode().removesuffix('0"}')  # votes.lua adds N"}
            plan_.write(f"/matches/{match}/players/{voter}/commands\t{token}\t{prefix}\n")
        plan_.flush()
        with Spent(server.pid, database_of(url)) as spent:
            out = subprocess.run(
                ["wrk", f"-t{clients}", f"-c{clients}", f"-d{seconds}s", "--latency", "-s",
                 str(ROOT / "bench" / "votes.lua"), base], capture_output=True, text=True,
                env={**os.environ, "ARBITER_CLIENTS": plan_.name}, check=True).stdout
    if "status" in out:
        raise RuntimeError(f"refused votes under wrk: {out}")
    sent = int(re.search(r"([0-9]+) requests in", out)[1])
    return Side(float(re.search(r"Requests/sec:\s+([0-9.]+)", out)[1]),
                wrk_ms(out, "50%"), wrk_ms(out, "99%"), spent.per(sent), sent)


def wrk_ms(out: str, percent: str) -> float:
    value, unit = re.search(rf"{percent}\s+([0-9.]+)(us|ms|s)\b", out).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def in_process(url: str, app: Arbiter, names: list[str], clients: int, votes: int) -> Side:
    """The same votes with the same ids (as the API names a player's: `api:PLAYER:ID`)."""
    jobs = plan(names, clients)

    def client(c: int) -> list[float]:
        match, voter, other = jobs[c]
        samples = []
        for n in range(1, votes + 1):
            started = time.perf_counter()
            app.submit(match, voter, "vote", {"candidate": other},
                       command_id=f"api:{voter}:v{n}")
            samples.append(time.perf_counter() - started)
        return samples

    with Spent(None, database_of(url)) as spent:
        rate, samples = run(clients, client)
    return Side(rate, *percentiles(samples), spent.per(len(samples)), len(samples))


@dataclass
class Run:
    load: float  # the machine's load (1 minute) as the run began
    http: Side
    local: Side

    @property
    def ratio(self) -> float:
        return self.http.rate / self.local.rate


def once(url: str, client: str, clients: int, matches: int, votes: int, seconds: int,
         workers: int, options: tuple[str, ...] = ()) -> Run:
    """One run on the store at `url`: over HTTP, then the same votes in-process."""
    load_ = os.getloadavg()[0]
    app = Arbiter(url, signer=keys.generate("bench-host"))
    try:
        names = set_up(app, "http-", matches)
        if client == "wrk":
            http = through_wrk(url, app, names, clients, seconds, workers, options)
        else:
            http = through_httpx(url, app, names, clients, votes, workers, options)
        local = in_process(url, app, set_up(app, "app-", matches), clients,
                           -(-http.sent // clients))
    finally:
        app.close()
    return Run(load_, http, local)


def store(kind: str, server: str) -> AbstractContextManager[str]:
    return postgres_url(server) if kind == "postgresql" else nullcontext(sqlite_url())


def compare(server: str, clients: int, matches: int, votes: int,
            workers: int) -> tuple[float, float]:
    """Votes per second over HTTP (wrk for 15 s when installed, else httpx threads) and
    in-process, on a throwaway PostgreSQL database (bench/performance.py)."""
    client = "wrk" if shutil.which("wrk") else "httpx"
    with postgres_url(server) as url:
        found = once(url, client, clients, matches, votes, 15, workers)
    return found.http.rate, found.local.rate


def cpu_text(cpu: dict[str, float]) -> str:
    shown = [f"{role} {ms:.2f}" for role, ms in cpu.items() if ms > 0.005 or role == "client"]
    return ", ".join(shown) + f" (all {sum(cpu.values()):.2f})"


def report(number: int, found: Run) -> None:
    h, local = found.http, found.local
    print(f"run {number} (load {found.load:.2f}): http {h.rate:.0f}/s (p50 {h.p50:.1f} ms, "
          f"p99 {h.p99:.1f} ms), in-process {local.rate:.0f}/s (p50 {local.p50:.1f} ms, "
          f"p99 {local.p99:.1f} ms): {found.ratio:.2f}x")
    print(f"  CPU ms a vote: http {cpu_text(h.cpu)}; in-process "
          f"{cpu_text({'process': local.cpu['client'], 'database': local.cpu['database']})}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--client", choices=["httpx", "wrk"], default="httpx",
                        help="plain Python clients (httpx threads) or wrk's C threads")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--votes", type=int, default=40, help="per client (httpx)")
    parser.add_argument("--seconds", type=int, default=15, help="of load (wrk)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--store", choices=["postgresql", "sqlite"], default="postgresql")
    parser.add_argument("--pg", default=SERVER)
    parser.add_argument("--repeat", type=int, default=1, help="runs, each on a store of its own")
    parser.add_argument("--no-projections", action="store_true",
                        help="serve without keeping the view tables (as the in-process side)")
    args = parser.parse_args()
    options = ("--no-projections",) if args.no_projections else ()
    print(f"{args.client}: {args.clients} clients on {args.matches} matches, serve --workers "
          f"{args.workers} {' '.join(options)}on {args.store}")
    runs = []
    for number in range(1, args.repeat + 1):
        with store(args.store, args.pg) as url:
            runs.append(once(url, args.client, args.clients, args.matches, args.votes,
                             args.seconds, args.workers, options))
        report(number, runs[-1])
    if len(runs) > 1:
        def median(figure: Callable[[Run], float]) -> float:
            return statistics.median(figure(r) for r in runs)

        print(f"median of {len(runs)}: load {median(lambda r: r.load):.2f}, http "
              f"{median(lambda r: r.http.rate):.0f}/s, in-process "
              f"{median(lambda r: r.local.rate):.0f}/s, ratio {median(lambda r: r.ratio):.2f}x")


if __name__ == "__main__":
    main()
