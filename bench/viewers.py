"""Live viewers (issue 26, item 6), run by hand: one `arbiter serve` holds `--streams` open
event streams of a King's Court match while a player votes; the vote's p50/p99 alone and with
the streams open, and what the streams heard.

    python bench/viewers.py [--streams 1000] [--seconds 20] [--workers 1]
                            [--store sqlite|postgres] [--pg URL]

The streams live in a process of their own (asyncio, one socket each, `GET
/matches/kc/events?after=N`, counting `event: entry` lines), so the voter's timings are not
theirs. A vote is sealed: the public hears nothing of it, but every vote wakes every stream
(the log grew) to read what it may see. After the votes the host closes the round: every
stream is to hear its public entries, as many as a fresh stream finds after N ("heard" is the
least and the most any stream heard). The goal (docs/deploy.md):
the vote's p99 under 50 ms with 1,000 streams open.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.http_throughput import served
from bench.reliability import PLAYERS, cli_env, log_of, open_round, opened, player_tokens, store_url
from bench.stores import SERVER

GOAL = 50.0  # ms: the vote's p99 with the streams open


def votes(base: str, token: str, seconds: float, start: int) -> list[float]:
    """bob votes, one at a time, 20 a second, for `seconds`: each vote's time to its answer."""
    samples = []
    stop = time.monotonic() + seconds
    with httpx.Client(base_url=base, timeout=60,
                      headers={"Authorization": f"Bearer {token}"}) as http:
        n = start
        while time.monotonic() < stop:
            n += 1
            began = time.perf_counter()
            http.post("/matches/kc/players/bob/commands", json={
                "command": "vote", "id": f"v{n}", "args": {"candidate": PLAYERS[n % 2 + 2]}},
            ).raise_for_status()
            samples.append(time.perf_counter() - began)
            time.sleep(0.05)
    return samples


def watch(base: str, streams: int, after: int, seconds: float, heard: multiprocessing.Queue
          ) -> None:
    """`streams` event streams open for `seconds`; puts how many entries each heard and how
    many were still open at the end."""
    host, port = base.removeprefix("http://").split(":")

    async def one(counts: list[int], index: int, open_: list[bool]) -> None:
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(f"GET /matches/kc/events?after={after} HTTP/1.1\r\nHost: {host}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        open_[index] = True
        try:
            while line := await reader.readline():
                if line.startswith(b"event: entry"):
                    counts[index] += 1
        finally:
            open_[index] = False
            writer.close()

    async def run() -> tuple[list[int], int]:
        counts, open_ = [0] * streams, [False] * streams
        tasks = []
        for i in range(streams):
            tasks.append(asyncio.ensure_future(one(counts, i, open_)))
            if i % 50 == 49:
                await asyncio.sleep(0.05)  # opened in waves, as viewers arrive
        await asyncio.sleep(seconds)
        still = sum(open_)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return counts, still

    heard.put(asyncio.run(run()))


def host_token(url: str) -> str:
    from commands.service.arbiter import Arbiter
    from commands.service.tokens import Tokens

    app = Arbiter(url)
    try:
        return Tokens(app).set_host()
    finally:
        app.close()


async def fresh(base: str, after: int) -> list[bytes]:
    """The public entries after `after`, as a stream opened now finds them in 3 seconds."""
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(f"GET /matches/kc/events?after={after} HTTP/1.1\r\nHost: {host}\r\n\r\n"
                 .encode())
    found: list[bytes] = []

    async def read() -> None:
        while line := await reader.readline():
            if line.startswith(b"event: entry"):
                found.append(line)

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(read(), 3)
    writer.close()
    return found


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[max(0, -(-len(ordered) * 99 // 100) - 1)]
    return f"{statistics.median(ordered) * 1000:.1f} ms | {p99 * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--store", choices=["sqlite", "postgres"], default="postgres")
    parser.add_argument("--pg", default=SERVER)
    options = parser.parse_args()
    with store_url(options.store, options) as url:
        opened(url)
        with served(url, workers=options.workers,
                    env={"ARBITER_HOST_KEY": cli_env()["ARBITER_HOST_KEY"]}) as (base, _):
            token = player_tokens(url, base)["bob"]
            alone = votes(base, token, options.seconds / 2, 0)
            before, _ = log_of(url)
            heard: multiprocessing.Queue = multiprocessing.get_context("spawn").Queue()
            viewers = multiprocessing.get_context("spawn").Process(
                target=watch, args=(base, options.streams, before, options.seconds + 15, heard))
            viewers.start()
            time.sleep(10)  # every stream open and caught up
            loaded = votes(base, token, options.seconds, len(alone))
            closed = httpx.post(f"{base}/matches/kc/close", json={"round": open_round(url)},
                                timeout=60, headers={"Authorization": f"Bearer {host_token(url)}"})
            assert closed.status_code == 200, closed.text
            counts, still = heard.get(timeout=120)
            viewers.join()
            after, _ = log_of(url)
            public = len(asyncio.run(fresh(base, before)))
    print(f"\n{options.store}, serve --workers {options.workers}: {options.streams} streams "
          f"opened, {still} still open at the end; {after - before} entries recorded while "
          f"they were open, {public} of them public; each stream heard {min(counts)} to "
          f"{max(counts)}\n")
    print("| votes | n | p50 | p99 |\n|---|---|---|---|")
    print(f"| alone | {len(alone)} | {percentiles(alone)} |")
    print(f"| with {options.streams} streams open | {len(loaded)} | {percentiles(loaded)} |")


if __name__ == "__main__":
    main()
