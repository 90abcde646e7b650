"""Tiles and verify, measured by hand: what an auditor's whole `arbiter verify` process costs
against `python -c pass`, how near verify runs to its one-core floor on the seed bundles, what
`arbiter serve` takes to answer tiles, and what `arbiter publish` takes.

    python bench/tiles.py [--runs 15]

It plays the demo into a temporary folder (`arbiter demo`: every seed match and the season),
then prints four markdown tables (docs/audit.md, "Tiles" and "Limits", has the figures):

1. startup: best wall time of `runs` whole processes each, against `python -c pass`;
2. floor: the seed matches' public bundles verified in one process, against the floor of the
   same run (SHA-256 of every line, plus one Ed25519 verification per checkpoint), each the
   best of 9;
3. serving: `arbiter serve` on the loopback, p50 and p99 of each resource, the first request
   (tiles worked out) apart from the rest (kept per signed size);
4. publishing: `publish --all` into an empty folder, and again with nothing new.

With `--long N ...` it prints instead, for a store holding one match of about N entries (the
tests' sealed-bid game, a round closed and signed every ~200 entries) beside a short one, on
SQLite and PostgreSQL (`--stores`), into a folder and into an S3 bucket (`--places`; moto's
server in a process of its own on the loopback): `publish --all` into an empty place, again
with nothing new, after one more bid (two entries, unsigned), and after one more signed
round (a bid and the round's close), each three times in this process (the range is
printed). `--store FILE` keeps the SQLite store made once (and its host key, FILE.key), for
the next runs.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from audit.keys import Signer

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
BIN = Path(sys.executable).parent
ARBITER = str(BIN / "arbiter")
KC = "kings-court-king-win"
BIG = "tile-joust-fm-equaliser-tie"


def best(argv: list[str], runs: int, cwd: Path) -> float:
    """The best wall time of `runs` runs of a whole process (the least disturbed one)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True)
        times.append(time.perf_counter() - start)
    return min(times)


def startup(folder: Path, runs: int) -> list[str]:
    for kind in ("public", "full"):
        subprocess.run([ARBITER, "export", KC, f"--{kind}", "-o", f"{kind}.jsonl"], cwd=folder,
                       check=True, stdout=subprocess.DEVNULL)
    subprocess.run([ARBITER, "publish", KC, "tiles"], cwd=folder, check=True,
                   stdout=subprocess.DEVNULL)
    floor = best([sys.executable, "-c", "pass"], runs, folder)
    rows = [f"| process | best of {runs} | × `python -c pass` |", "|---|---|---|",
            f"| `python -c pass` | {floor * 1000:.0f} ms | 1.0 |"]
    for label, argv in (
            ("verify public bundle --json", ["verify", "public.jsonl", "--json"]),
            ("verify public bundle (text report)", ["verify", "public.jsonl"]),
            ("verify full bundle (re-runs the rules)", ["verify", "full.jsonl"]),
            ("verify from a tiles folder", ["verify", f"tiles/match/{KC}"])):
        took = best([ARBITER, *argv], runs, folder)
        rows.append(f"| {label} ({KC}) | {took * 1000:.0f} ms | {took / floor:.1f} |")
    return rows


def floor_ratio(folder: Path) -> list[str]:
    """The seeds' public bundles verified, the best of 9 runs, against hashing every line
    raw plus one Ed25519 check per checkpoint line, in this same process."""
    from audit.notes import parse_note, parse_verifier_key
    from audit.verify import verify

    bundles = []
    for path in sorted((ROOT / "seeds").glob("*.json")):
        out = folder / f"floor-{path.stem}.jsonl"
        found = subprocess.run([ARBITER, "export", "--public", "-o", str(out),
                                _match_of(path)], cwd=folder, capture_output=True)
        if found.returncode == 0:
            bundles.append(out.read_bytes().splitlines(keepends=True))
    key = None
    signed = []  # (signature, message) of each checkpoint
    for lines in bundles:
        for raw in lines:
            if raw.startswith(b'{"checkpoint"'):
                note = parse_note(json.loads(raw)["checkpoint"]["note"])
                signed.append((note.signatures[0].signature, note.text.encode()))
            elif key is None and raw.startswith(b'{"header"'):
                key = parse_verifier_key(json.loads(raw)["header"]["host_key"])
    assert key is not None
    lines = [raw for b in bundles for raw in b]
    hashing = least(lambda: [hashlib.sha256(raw).digest() for raw in lines])
    signing = least(lambda: [key.ed25519.verify(sig, message) for sig, message in signed])
    verifying = least(lambda: [verify(b) for b in bundles])
    entries = sum(verify(b).entries for b in bundles)
    floor = hashing + signing
    return ["| seed public bundles | lines | checkpoints | SHA-256 of every line | Ed25519 per "
            "checkpoint | floor | verify | verify / floor |", "|---|---|---|---|---|---|---|---|",
            f"| {len(bundles)} | {len(lines)} | {len(signed)} | {hashing * 1000:.1f} ms "
            f"| {signing * 1000:.1f} ms | {floor * 1000:.1f} ms | "
            f"{verifying * 1000:.1f} ms ({entries} entries) | {verifying / floor:.2f} |"]


def least(work: Callable[[], object], runs: int = 9) -> float:
    """The best time of `runs` runs: each part of the floor, and verify, at its least
    disturbed (the machine is shared; a signature's cost alone varies twofold)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def _match_of(path: Path) -> str:
    return str(json.loads(path.read_text())["match"])


def serving(folder: Path, repeat: int = 200) -> list[str]:
    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([ARBITER, "serve", "--port", str(port)], cwd=folder,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
        deadline = time.monotonic() + 60
        while True:
            try:
                if client.get("/").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("serve did not start")
            time.sleep(0.2)
        rows = ["| resource | first | p50 after | p99 after | bytes |", "|---|---|---|---|---|"]
        for path in (f"/logs/match/{BIG}/checkpoint", f"/logs/match/{BIG}/tile/0/002",
                     f"/logs/match/{BIG}/tile/entries/002", f"/logs/match/{BIG}/arbiter/log.json",
                     "/logs/season/spring/tile/0/000.p/47", f"/matches/{BIG}/bundle"):
            start = time.perf_counter()
            size = len(client.get(path).raise_for_status().content)
            first = time.perf_counter() - start
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                client.get(path).raise_for_status()
                times.append(time.perf_counter() - start)
            times.sort()
            rows.append(f"| `{path}` | {first * 1000:.1f} ms | "
                        f"{statistics.median(times) * 1000:.2f} ms | "
                        f"{times[int(len(times) * 0.99) - 1] * 1000:.2f} ms | {size} |")
        return rows
    finally:
        server.terminate()
        server.wait(timeout=30)


def publishing(folder: Path) -> list[str]:
    out = folder / "published"
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([ARBITER, "publish", "--all", str(out)], cwd=folder, check=True,
                   stdout=subprocess.DEVNULL)
    fresh = time.perf_counter() - start
    files = sum(1 for p in out.rglob("*") if p.is_file())
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    start = time.perf_counter()
    subprocess.run([ARBITER, "publish", "--all", str(out)], cwd=folder, check=True,
                   stdout=subprocess.DEVNULL)
    again = time.perf_counter() - start
    return ["| publish --all (15 matches' and 2 seasons' logs) | time | files | bytes |",
            "|---|---|---|---|", f"| into an empty folder | {fresh:.2f} s | {files} | {size} |",
            f"| again, nothing new | {again:.2f} s | 0 written | |"]


def long_match(url: str, size: int, signer: Signer) -> None:
    """A season with a short match and a long one of about `size` entries: the bids written
    through the Match aggregate in batches, each round closed (and signed) by the service."""
    from bench.read_side import PER_ROUND, PLAYERS
    from commands.service.arbiter import Arbiter
    from domain.decider import HOST, Command
    from domain.match import Match

    app = Arbiter(url, signer=signer)
    app.create_season("bench")
    for player in PLAYERS:
        app.register("bench", player)
    for match_id, rounds in (("short", 2), ("long", size // (PER_ROUND + 4) + 2)):
        app.create_match(match_id=match_id, season="bench", game="sealed_bid",
                         setup={"players": PLAYERS, "rounds": rounds,
                                "max_replacements": PER_ROUND},
                         host_seed="h" * 40, salt_key="ab" * 32)
        app.submit(match_id, HOST, "open_match")
    while app.match("long").version < size:
        match = app.repository.get(Match.create_id("long"))
        for n in range(PER_ROUND):
            match.handle(Command("bid", PLAYERS[n % 3], {"amount": n % 10}))
        app.save(match)
        app.submit("long", HOST, "close_round")
    app.close()


class Places:
    """Where the long bench publishes: fresh folders, or fresh prefixes of a bucket on an
    S3-compatible server (moto's, in a process of its own on the loopback, as a real store
    would be)."""

    def __init__(self, folder: Path, kind: str) -> None:
        self.folder, self.kind, self.made = folder, kind, 0
        self.server: subprocess.Popen[bytes] | None = None
        self.env: dict[str, str | None] = {}
        if kind == "s3":
            from tests.support.s3_server import ENV, client

            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
            self.server = subprocess.Popen(
                [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.endpoint = f"http://127.0.0.1:{port}"
            self.env = {**ENV, "ARBITER_S3_ENDPOINT": self.endpoint}
            deadline = time.monotonic() + 30
            while True:
                try:
                    client(self.endpoint).create_bucket(Bucket="bench-logs")
                    break
                except Exception:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)

    def fresh(self) -> str:
        self.made += 1
        if self.kind == "s3":
            return f"s3://bench-logs/run{self.made}"
        return str(self.folder / f"published{self.made}")

    def close(self) -> None:
        if self.server is not None:
            self.server.terminate()
            self.server.wait(timeout=30)


def measured(url: str, key: Path, place: Places) -> list[list[float]]:
    """The four publishes of `--long`, three times each: into an empty place, again, after one
    more bid, after one more signed round."""
    from click.testing import CliRunner

    from audit import keys
    from bench.read_side import PLAYERS
    from commands.cli.main import cli
    from commands.service.arbiter import Arbiter
    from domain.decider import HOST

    runner = CliRunner(env={"ARBITER_HOST_KEY": str(key), **place.env})
    app = Arbiter(url, signer=keys.load(key))
    target = place.fresh()

    def publish() -> float:
        start = time.perf_counter()
        done = runner.invoke(cli, ["--db", url, "publish", "--all", target])
        took = time.perf_counter() - start
        assert done.exit_code == 0, done.output
        return took

    publish()  # once unmeasured: the modules it needs imported, as a process would have them
    empty = []
    for _ in range(3):
        target = place.fresh()
        empty.append(publish())
    again = [publish() for _ in range(3)]
    bid, signed = [], []
    for n in range(3):
        app.submit("long", PLAYERS[n], "bid", {"amount": 1})
        bid.append(publish())
    for n in range(3):
        app.submit("long", PLAYERS[n], "bid", {"amount": 2})
        app.submit("long", HOST, "close_round")
        signed.append(publish())
    app.close()
    return [empty, again, bid, signed]


def long_publishing(sizes: list[int], store_file: str | None, places: list[str],
                    stores: list[str]) -> list[str]:
    from audit import keys
    from bench.stores import postgres_url, sqlite_url
    from commands.service.arbiter import Arbiter
    from domain.games import register_game
    from tests.support.host_key import SIGNER

    register_game("sealed_bid", "tests.support.sealed_bid")
    folder = Path(tempfile.mkdtemp(prefix="arbiter-bench-publish-"))
    key = Path(f"{store_file}.key") if store_file else folder / "host.key"
    if not key.exists():
        keys.save(SIGNER, key)
    signer = keys.load(key)
    rows = ["| store | where | entries | into an empty place | again, nothing new | after one "
            "more bid | after one more signed round |", "|---|---|---|---|---|---|---|"]
    try:
        for size in sizes:
            for store in stores:
                made = contextlib.nullcontext(sqlite_url()) if store == "sqlite" else \
                    postgres_url()
                with made as url:
                    if store_file and store == "sqlite":
                        if not Path(store_file).exists():
                            long_match(f"sqlite:///{store_file}", size, signer)
                        shutil.copy(store_file, url.removeprefix("sqlite:///"))
                    else:
                        long_match(url, size, signer)
                    for kind in places:
                        place = Places(folder, kind)
                        try:
                            times = measured(url, key, place)
                        finally:
                            place.close()
                        app = Arbiter(url)
                        entries = app.match("long").version
                        app.close()
                        rows.append(f"| {store} | {kind} | {entries} | " + " | ".join(
                            f"{min(t):.3f}-{max(t):.3f} s" for t in times) + " |")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--long", type=int, nargs="+", default=None, metavar="N")
    parser.add_argument("--store", default=None, metavar="FILE",
                        help="with --long: the SQLite store of the long match, made there once "
                             "and copied for each run (making 100k entries takes half an hour)")
    parser.add_argument("--places", nargs="+", default=["folder", "s3"],
                        choices=["folder", "s3"])
    parser.add_argument("--stores", nargs="+", default=["sqlite", "postgresql"],
                        choices=["sqlite", "postgresql"])
    args = parser.parse_args()
    if args.long:
        print("\n### publishing a long match\n")
        print("\n".join(long_publishing(args.long, args.store, args.places, args.stores)))
        return
    folder = Path(tempfile.mkdtemp(prefix="arbiter-bench-tiles-"))
    os.environ["ARBITER_KNOWN_KEYS"] = str(folder / "known_origins")
    try:
        subprocess.run([ARBITER, "demo"], cwd=folder, check=True, stdout=subprocess.DEVNULL)
        for title, table in (("startup", startup(folder, args.runs)),
                             ("floor", floor_ratio(folder)),
                             ("serving", serving(folder)),
                             ("publishing", publishing(folder))):
            print(f"\n### {title}\n")
            print("\n".join(table))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
