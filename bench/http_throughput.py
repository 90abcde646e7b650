"""Submissions per second and latency through the HTTP API (`arbiter serve`, several workers)
against one PostgreSQL, with many concurrent clients on several matches; and the same votes
through the application service in-process, with as many threads.

    python bench/http_throughput.py [--clients 50] [--matches 10] [--votes 40] [--workers 2]
                                    [--pg postgresql://postgres@127.0.0.1:5432/postgres]

Each match is a King's Court match (the seed file's setup) in a season of its own, opened;
each client is one player of one match, sending its votes (replaceable) one after another.
Prints throughput, p50/p99 latency for both, and the ratio HTTP / in-process.
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
from contextlib import contextmanager
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit import keys
from bench.stores import SERVER, postgres_url
from commands.cli.matchfile import load
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens

ROOT = Path(__file__).resolve().parents[1]
FILE = load(ROOT / "seeds" / "kings_court-king-win.json")


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


def plan(names: list[str], clients: int) -> list[tuple[str, str, str]]:
    """(match, voter, the other voter of that match) for each client."""
    per_match = -(-clients // len(names))
    return [(names[c % len(names)], FILE.players[c // len(names)],
             FILE.players[(c // len(names) + 1) % per_match]) for c in range(clients)]


def run(clients: int, job: Callable[[int], list[float]]) -> tuple[float, list[float]]:
    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        samples = [s for client in pool.map(job, range(clients)) for s in client]
    return len(samples) / (time.perf_counter() - start), samples


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.99) - 1] * 1000


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
        while True:
            try:
                httpx.get(f"{base}/openapi.json", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        yield base, server
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)


def tokens_of(base: str, app: Arbiter, jobs: list[tuple[str, str, str]]) -> list[str]:
    host = httpx.Client(base_url=base, headers={
        "Authorization": f"Bearer {Tokens(app).set_host()}"})
    return [host.post(f"/matches/{m}/players/{p}/token").json()["token"] for m, p, _ in jobs]


def through_wrk(url: str, app: Arbiter, names: list[str], clients: int, seconds: int,
                workers: int) -> tuple[float, int]:
    """Votes per second over HTTP with wrk (bench/votes.lua: one thread a client), and how
    many it sent."""
    with serving(url, workers) as base, tempfile.NamedTemporaryFile("w", suffix=".tsv") as plan_:
        jobs = plan(names, clients)
        for (match, voter, other), token in zip(jobs, tokens_of(base, app, jobs), strict=True):
            body = json.dumps({"command": "vote", "args": {"candidate": other}})
            plan_.write(f"/matches/{match}/players/{voter}/commands\t{token}\t{body}\n")
        plan_.flush()
        out = subprocess.run(
            ["wrk", f"-t{clients}", f"-c{clients}", f"-d{seconds}s", "-s",
             str(ROOT / "bench" / "votes.lua"), base], capture_output=True, text=True,
            env={**os.environ, "ARBITER_CLIENTS": plan_.name}, check=True).stdout
    if "status" in out:
        raise RuntimeError(f"refused votes under wrk: {out}")
    return (float(re.search(r"Requests/sec:\s+([0-9.]+)", out)[1]),
            int(re.search(r"([0-9]+) requests in", out)[1]))


def compare(server: str, clients: int, matches: int, votes: int,
            workers: int) -> tuple[float, float]:
    """Votes per second over HTTP (wrk when installed, else httpx threads) and in-process, on
    a throwaway PostgreSQL database. In-process, each client sends as many votes as it did
    through wrk, on average: the matches grow as long on both sides, and a long match costs
    its store snapshots (one every 200 entries) on both."""
    with postgres_url(server) as url:
        app = Arbiter(url, signer=keys.generate("bench-host"))
        if shutil.which("wrk"):
            http, sent = through_wrk(url, app, set_up(app, "http-", matches), clients, 15,
                                     workers)
            votes = -(-sent // clients)
        else:
            http = through_http(url, app, set_up(app, "http-", matches), clients, votes,
                                workers)[0]
        local = in_process(app, set_up(app, "app-", matches), clients, votes)[0]
        app.close()
    return http, local


def through_http(url: str, app: Arbiter, names: list[str], clients: int, votes: int,
                 workers: int, *options: str) -> tuple[float, list[float]]:
    with serving(url, workers, *options) as base:
        jobs = plan(names, clients)
        busy: list[int] = []
        tokens = tokens_of(base, app, jobs)

        def client(c: int) -> list[float]:
            match, voter, other = jobs[c]
            http = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {tokens[c]}"},
                                timeout=60)
            path = f"/matches/{match}/players/{voter}/commands"
            samples = []
            for n in range(votes):
                started = time.perf_counter()
                body = {"command": "vote", "args": {"candidate": other}, "id": f"v{n}"}
                while (answer := http.post(path, json=body)).status_code == 503:
                    busy.append(1)  # lost every retry to the other worker: send it again
                answer.raise_for_status()
                samples.append(time.perf_counter() - started)
            return samples

        rate, samples = run(clients, client)
        print(f"http: {len(busy)} answers 503 busy (sent again)")
        return rate, samples


def in_process(app: Arbiter, names: list[str], clients: int,
               votes: int) -> tuple[float, list[float]]:
    jobs = plan(names, clients)

    def client(c: int) -> list[float]:
        match, voter, other = jobs[c]
        samples = []
        for _ in range(votes):
            started = time.perf_counter()
            app.submit(match, voter, "vote", {"candidate": other})
            samples.append(time.perf_counter() - started)
        return samples

    return run(clients, client)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--votes", type=int, default=40, help="per client")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pg", default=SERVER)
    parser.add_argument("--no-projections", action="store_true",
                        help="serve without keeping the view tables (as the in-process side)")
    args = parser.parse_args()
    options = ("--no-projections",) if args.no_projections else ()
    with postgres_url(args.pg) as url:
        app = Arbiter(url, signer=keys.generate("bench-host"))
        rows = [("http", through_http(url, app, set_up(app, "http-", args.matches),
                                      args.clients, args.votes, args.workers, *options)),
                ("in-process", in_process(app, set_up(app, "app-", args.matches),
                                          args.clients, args.votes))]
        app.close()
    for name, (rate, samples) in rows:
        p50, p99 = percentiles(samples)
        print(f"{name:<11} {len(samples)} votes, {args.clients} clients on {args.matches} "
              f"matches: {rate:7.1f}/s  p50 {p50:7.2f} ms  p99 {p99:7.2f} ms")
    (http_rate, http_samples), (app_rate, app_samples) = rows[0][1], rows[1][1]
    print(f"ratio http / in-process: throughput {http_rate / app_rate:.2f}x, p99 latency "
          f"{percentiles(http_samples)[1] / percentiles(app_samples)[1]:.2f}x "
          f"(http workers: {args.workers})")


if __name__ == "__main__":
    main()
