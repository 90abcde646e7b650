"""Verify throughput and peak memory on synthetic public bundles, against raw SHA-256.

    python bench/verify_throughput.py [--sizes 100000 1000000] [--dir /tmp]
    python bench/verify_throughput.py --jobs 1 2 [--sizes 100000]

Each bundle is generated once (cached in --dir) with domain.envelope.seal_entry: a valid chain of
~300-byte entries (a sealed command, a sealed fact and a public fact in turn), a round every 1,000
entries and a signed checkpoint (with its consistency proof) at every round close, as the host
signs them (verify refuses a closed round without one). Each size is then
verified in a fresh process, which first hashes the same lines with bare hashlib.sha256 (the
baseline), then runs audit.verify; it prints one JSON line with both rates, their ratio and the
process's peak RSS. Run it by hand; the figures go in the issue's note.

With --jobs, each size is verified from its file by audit.parallel_verify with each number of
worker processes, the best of 5, against the one-core floor of the same run (SHA-256 of every
line plus one Ed25519 check per checkpoint, each the best of 9): a markdown table with the wall
time, its ratio to the floor divided by the jobs, and the CPU time of the verifier and its
workers together (what the split costs, whatever else the machine runs).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit import keys
from audit.bundle import CHECKPOINT, FORMAT, HEADER, b64, export, line
from audit.checkpoints import origin
from audit.merkle import consistency_proof, root
from audit.notes import checkpoint_body, parse_verifier_key, verify_note
from audit.signing import extensions
from audit.verify import verify
from domain.envelope import GENESIS_PREV, entry_bytes, seal_entry
from domain.records import padded
from domain.rng import seed_commitment

MATCH = "bench"
PLAYERS = [f"player-{i:02d}" for i in range(11)]
ROUND = 1_000  # entries per round
SALT_KEY = bytes(range(32))
AT = "2026-11-21T20:00:00Z"


def entry_for(seq: int, round: int, prev: str) -> dict:
    player = PLAYERS[seq % len(PLAYERS)]
    kind = seq % 3
    if kind == 0:  # a player's sealed command, with its host-only context
        parts = [{"audience": [player], "kind": "CommandAccepted", "actor": player, "at": AT,
                  "data": {"name": "vote", "args": {"candidate": PLAYERS[seq % 7]}}},
                 {"audience": "host", "kind": "CommandContext", "actor": "system", "at": AT,
                  "data": {"garnets": {player: seq % 10}}}]
        public = None
    elif kind == 1:  # a sealed fact, with its padding part
        parts = padded([{"audience": [player], "kind": "VoteCast", "actor": player, "at": AT,
                         "data": {"candidate": PLAYERS[seq % 7]}}])
        public = None
    else:  # a public fact
        parts = []
        public = {"kind": "VotesTallied", "actor": "system", "at": AT,
                  "data": {"round": round, "leader": PLAYERS[seq % 5], "votes": seq % 11}}
    return seal_entry(match=MATCH, seq=seq, round=round, prev=prev, salt_key=SALT_KEY,
                      public=public, parts=parts)


def generate(path: Path, size: int) -> None:
    """A valid public bundle of `size` entries; needs its leaves in memory for the proofs."""
    signer = keys.generate("bench.example")
    host_seed = "h" * 40
    genesis = seal_entry(match=MATCH, seq=1, round=0, prev=GENESIS_PREV, salt_key=SALT_KEY,
                         public={"kind": "MatchCreated", "actor": "host", "at": AT, "data": {
                             "game": "synthetic", "rules_version": "synthetic/1",
                             "season": "bench", "players": PLAYERS,
                             "seed_commitment": seed_commitment(host_seed)}}, parts=[])
    setup = seal_entry(match=MATCH, seq=2, round=0, prev=genesis["hash"], salt_key=SALT_KEY,
                       public=None, parts=padded([{"audience": "host", "kind": "SetupCommitted",
                                                   "actor": "host", "at": AT, "data": {}}]))
    header = {"format": FORMAT, "kind": "public", "match": MATCH, "origin": origin(MATCH),
              "game": "synthetic", "rules_version": "synthetic/1", "season": "bench",
              "players": PLAYERS, "seed_commitment": seed_commitment(host_seed),
              "setup_commitment": setup["seals"][0], "host_key": signer.verifier_key(),
              "entries": size}
    leaves: list[bytes] = []
    signed = 0
    with path.open("w", encoding="utf-8") as out:
        out.write(line({HEADER: header}))
        entry = None
        for seq in range(1, size + 1):
            round = (seq - 1) // ROUND
            entry = genesis if seq == 1 else setup if seq == 2 else \
                entry_for(seq, round, entry["hash"])
            out.write(line(entry))
            leaves.append(entry_bytes(entry))
            if seq % ROUND == 0 or seq == size:
                proof = consistency_proof(signed, leaves) if signed else []
                body = checkpoint_body(origin(MATCH), seq, root(leaves),
                                       extensions(round, hashlib.sha256(b"%d" % seq).hexdigest()))
                out.write(line({CHECKPOINT: {"note": signer.sign_note(body),
                                             "consistency": [b64(h) for h in proof]}}))
                signed = seq


def bundle(directory: Path, size: int) -> Path:
    """The synthetic bundle of `size` entries, made once and kept in `directory`."""
    path = directory / f"arbiter-bench-v3-{size}.jsonl"  # v3: a checkpoint every round
    if not path.exists():
        start = time.perf_counter()
        generate(path, size)
        print(f"# generated {path} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return path


def measure(path: Path) -> dict:
    """In this (fresh) process: the baseline (best of two passes, the first warming the page
    cache), then verify, then the peak RSS."""
    raw_rate = max(raw_sha256_rate(path) for _ in range(2))
    start = time.perf_counter()
    with path.open("rb") as file:
        audit = verify(file)
    seconds = time.perf_counter() - start
    rate = audit.entries / seconds
    return {"entries": audit.entries, "bytes": path.stat().st_size,
            "raw_sha256_lines_per_s": round(raw_rate), "verify_entries_per_s": round(rate),
            "verify_seconds": round(seconds, 2), "ratio": round(rate / raw_rate, 3),
            "peak_rss_mib": peak_rss_mib()}


def measure_seeds() -> dict:
    """The public bundles of every seed match (a signed checkpoint at every round close), each
    verified whole, against raw SHA-256 over the same lines."""
    from commands.cli.matchfile import load, play
    from commands.service.arbiter import Arbiter

    signer = keys.generate("bench.example")
    app = Arbiter(f"sqlite:///{tempfile.mkdtemp(prefix='arbiter-bench-')}/seeds.db",
                  signer=signer)
    bundles = []
    for path in sorted((Path(__file__).resolve().parents[1] / "seeds").glob("*.json")):
        file = load(path)
        play(app, file)
        notes = [n["note"] for n in app.checkpoints(file.match).notes]
        text = "".join(export(app.match(file.match), notes, "public", signer.verifier_key()))
        bundles.append([raw + b"\n" for raw in text.encode().split(b"\n")[:-1]])
    rounds = 20
    start = time.perf_counter()
    for _ in range(rounds):
        for lines in bundles:
            for raw in lines:
                hashlib.sha256(raw).digest()
    raw_seconds = time.perf_counter() - start
    start = time.perf_counter()
    entries = sum(verify(lines).entries for _ in range(rounds) for lines in bundles)
    seconds = time.perf_counter() - start
    lines = rounds * sum(len(b) for b in bundles)
    rate, raw_rate = entries / seconds, lines / raw_seconds
    checkpoints = sum(raw.startswith(b'{"checkpoint"') for b in bundles for raw in b)
    return {"bundles": len(bundles), "entries": entries // rounds,
            "raw_sha256_lines_per_s": round(raw_rate), "verify_entries_per_s": round(rate),
            "ratio": round(rate / raw_rate, 3),
            **signature_floor(lines // rounds / checkpoints, raw_rate, signer)}


def signature_floor(lines_per_checkpoint: float, raw_rate: float, signer: keys.Signer) -> dict:
    """The best ratio any verifier of this format can reach on one core: each signed
    checkpoint costs one Ed25519 verification, against hashing its round's lines raw."""
    note = signer.sign_note(checkpoint_body(origin(MATCH), 1, b"\0" * 32, []))
    key = [parse_verifier_key(signer.verifier_key())]
    start = time.perf_counter()
    for _ in range(2_000):
        verify_note(note, key)
    signature = (time.perf_counter() - start) / 2_000
    return {"lines_per_checkpoint": round(lines_per_checkpoint, 1),
            "ed25519_check_us": round(signature * 1e6, 1),
            "ratio_ceiling_signatures_alone": round(
                lines_per_checkpoint / signature / raw_rate, 3)}


def measure_jobs(path: Path, jobs: list[int]) -> list[str]:
    """Verify of one bundle file with each number of workers, against its one-core floor."""
    import os

    from audit.notes import parse_note
    from audit.parallel_verify import verify_file

    lines = path.read_bytes().splitlines(keepends=True)
    key = parse_verifier_key(json.loads(lines[0])["header"]["host_key"])
    signed = [parse_note(json.loads(raw)["checkpoint"]["note"]) for raw in lines
              if raw.startswith(b'{"checkpoint"')]
    hashing = least(lambda: [hashlib.sha256(raw).digest() for raw in lines], 9)
    signing = least(lambda: [key.ed25519.verify(n.signatures[0].signature, n.text.encode())
                             for n in signed], 9)
    floor = hashing + signing
    rows = [f"floor of {len(lines)} lines, {len(signed)} checkpoints: SHA-256 "
            f"{hashing * 1000:.0f} ms + Ed25519 {signing * 1000:.1f} ms = {floor * 1000:.0f} ms",
            "", "| jobs | wall (best of 5) | wall / (floor / jobs) | CPU, all processes |",
            "|---|---|---|---|"]
    for n in jobs:
        walls, cpus = [], []
        for _ in range(5):
            before = os.times()
            start = time.perf_counter()
            verify_file(str(path), jobs=n)
            walls.append(time.perf_counter() - start)
            after = os.times()
            cpus.append(sum(after[:4]) - sum(before[:4]))
        wall = min(walls)
        rows.append(f"| {n} | {wall * 1000:.0f} ms | {wall / (floor / n):.2f} | "
                    f"{min(cpus) * 1000:.0f} ms |")
    return rows


def least(work, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def raw_sha256_rate(path: Path) -> float:
    """Lines per second of bare hashlib.sha256 over the bundle's lines."""
    start = time.perf_counter()
    with path.open("rb") as file:
        lines = sum(1 for raw in file if hashlib.sha256(raw).digest())
    return lines / (time.perf_counter() - start)


def peak_rss_mib() -> float:
    """VmHWM: the peak of this address space alone (ru_maxrss would carry over the parent's
    peak across fork and exec, and the parent held a million leaves while generating)."""
    status = Path("/proc/self/status").read_text()
    kib = next(int(row.split()[1]) for row in status.splitlines() if row.startswith("VmHWM:"))
    return round(kib / 1024, 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--dir", default="/tmp")
    parser.add_argument("--measure", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--seeds", action="store_true", help="the seed matches' bundles")
    parser.add_argument("--jobs", type=int, nargs="+", help="verify with these many workers")
    args = parser.parse_args()
    if args.jobs:
        for size in args.sizes:
            print("\n".join(measure_jobs(bundle(Path(args.dir), size), args.jobs)))
        return
    if args.seeds:
        print(json.dumps(measure_seeds()))
        return
    if args.measure:
        print(json.dumps(measure(Path(args.measure))))
        return
    for size in args.sizes:
        path = bundle(Path(args.dir), size)
        subprocess.run([sys.executable, __file__, "--measure", str(path)], check=True)


if __name__ == "__main__":
    main()
