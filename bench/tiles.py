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
"""

from __future__ import annotations

import argparse
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

ROOT = Path(__file__).resolve().parents[1]
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
    sys.path.insert(0, str(ROOT))
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
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
