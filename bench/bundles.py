"""Bundles built once (issue 26, item 3), run by hand: what a bundle, a season bundle and
the tiles cost `arbiter serve` after their first request, and a player's vote while 16
strangers pull them.

    python bench/bundles.py [--seconds 15] [--store postgres|sqlite] [--pg URL]

It plays the demo into a fresh store (15 matches, the season `spring`), opens King's Court
`kc` beside it, and serves it (`--workers 2`, no rate limits, the two workers sharing a
folder of built answers, ARBITER_BUILT_DIR). Two tables:

1. each resource: the first request, then p50/p99 of 100 more, timed by the client on the
   loopback (so the server's own time is less);
2. bob's vote (one at a time, 20 a second) alone, then while 16 clients ask in turn for the
   season bundle, the Final's and kc's bundles, checkpoints and tiles of both logs, and two
   of them hold kc's event stream open. The goal (docs/deploy.md): a request after the
   first under 5 ms at any size, the vote's p99 under 50 ms under that load.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.http_throughput import served
from bench.reliability import (
    STRANGERS,
    arbiter,
    cli_env,
    opened,
    player_tokens,
    pull,
    ran,
    store_url,
)
from bench.stores import SERVER
from bench.viewers import votes

FINAL = "spring-final"
RESOURCES = [
    "/seasons/spring/bundle", f"/matches/{FINAL}/bundle", "/matches/spring-totems/bundle",
    "/matches/kc/bundle", f"/matches/{FINAL}/checkpoints", "/seasons/spring/checkpoints",
    f"/logs/match/{FINAL}/checkpoint", f"/logs/match/{FINAL}/tile/0/002",
    f"/logs/match/{FINAL}/tile/entries/002", f"/logs/match/{FINAL}/arbiter/log.json",
    "/logs/season/spring/checkpoint", "/logs/season/spring/arbiter/log.json",
]


def percentile(ordered: list[float], p: int) -> float:
    return ordered[max(0, -(-len(ordered) * p // 100) - 1)] * 1000


def each(base: str, repeat: int = 100) -> list[str]:
    rows = ["| resource | bytes | first | p50 after | p99 after |", "|---|---|---|---|---|"]
    with httpx.Client(base_url=base, timeout=60) as http:
        for path in RESOURCES:
            began = time.perf_counter()
            size = len(http.get(path).raise_for_status().content)
            first = time.perf_counter() - began
            times = []
            for _ in range(repeat):
                began = time.perf_counter()
                http.get(path).raise_for_status()
                times.append(time.perf_counter() - began)
            times.sort()
            rows.append(f"| `{path}` | {size} | {first * 1000:.1f} ms | "
                        f"{statistics.median(times) * 1000:.2f} ms | "
                        f"{percentile(times, 99):.2f} ms |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--store", choices=["sqlite", "postgres"], default="postgres")
    parser.add_argument("--pg", default=SERVER)
    options = parser.parse_args()
    env = cli_env()
    with store_url(options.store, options) as url:
        demo = ran(arbiter(url, env, "demo"), env)
        if demo is None or demo.returncode != 0:
            raise SystemExit("the demo failed")
        opened(url)
        built = tempfile.mkdtemp(prefix="arbiter-built-")
        with served(url, workers=2, env={"ARBITER_HOST_KEY": env["ARBITER_HOST_KEY"],
                                         "ARBITER_BUILT_DIR": built}) as (base, _):
            token = player_tokens(url, base)["bob"]
            table = each(base)
            alone = votes(base, token, options.seconds, 0)
            load = multiprocessing.get_context("spawn").Process(
                target=pull, args=(base, options.seconds + 10, RESOURCES), daemon=True)
            load.start()
            time.sleep(2)  # the strangers are all pulling
            loaded = votes(base, token, options.seconds, len(alone))
            load.terminate()
            load.join()
    print(f"\n{options.store}, serve --workers 2\n")
    print("\n".join(table))
    print("\n| bob's votes | n | p50 | p99 |\n|---|---|---|---|")
    for name, samples in (("alone", alone), (f"while {STRANGERS} strangers pull", loaded)):
        ordered = sorted(samples)
        print(f"| {name} | {len(ordered)} | {statistics.median(ordered) * 1000:.1f} ms | "
              f"{percentile(ordered, 99):.1f} ms |")


if __name__ == "__main__":
    main()
