"""Inclusion and consistency proofs at 10^3 and 10^6 entries: size, time to make, time to check.

    python bench/proofs.py [--sizes 1000 1000000] [--samples 7]

Leaves are ~300-byte synthetic entries. Proofs are made by audit.merkle from the raw leaves, as
`arbiter export` and `arbiter receipt verify` make them (no cached tree: each proof rehashes
every leaf once), and checked with the RFC 9162 verifiers. Sizes are reported against the
bounds 32*ceil(log2 n) bytes (inclusion) and 64*log2 n (consistency), and as the c2sp.org
tlog-proof text a player would keep. One JSON line per size.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from hashlib import sha256
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit import keys
from audit.checkpoints import origin
from audit.merkle import (
    consistency_proof,
    inclusion_proof,
    leaf_hash,
    root,
    verify_consistency,
    verify_inclusion,
)
from audit.notes import checkpoint_body
from audit.receipts import tlog_proof
from audit.signing import extensions


def timed(call):
    start = time.perf_counter()
    result = call()
    return result, time.perf_counter() - start


def checked_median(call, repeat: int = 200) -> float:
    """Median seconds of a fast call, which must return True."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        assert call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def bench(size: int, samples: int) -> dict:
    leaves = [sha256(b"%d" % i).digest() * 9 + b"%012d" % i for i in range(size)]
    tree_root, root_seconds = timed(lambda: root(leaves))
    signer = keys.generate("bench.example")
    note = signer.sign_note(checkpoint_body(origin("bench"), size, tree_root,
                                            extensions(1, "0" * 64)))
    pick = random.Random(size)
    inclusion, consistency = [], []
    for index in sorted(pick.sample(range(size), samples)):
        proof, made = timed(lambda i=index: inclusion_proof(i, leaves))
        leaf = leaf_hash(leaves[index])
        check = checked_median(lambda i=index, p=proof, h=leaf:
                               verify_inclusion(i, size, h, p, tree_root))
        inclusion.append({"bytes": 32 * len(proof),
                          "tlog_proof_bytes": len(tlog_proof(index, proof, note).encode()),
                          "make_s": made, "verify_s": check})
    for old in sorted(pick.sample(range(1, size), samples)):
        proof, made = timed(lambda m=old: consistency_proof(m, leaves))
        old_root = root(leaves[:old])
        check = checked_median(lambda m=old, p=proof, r=old_root:
                               verify_consistency(m, size, r, tree_root, p))
        consistency.append({"bytes": 32 * len(proof), "make_s": made, "verify_s": check})

    def summary(rows: list[dict], key: str) -> dict:
        values = [row[key] for row in rows]
        return {"max": max(values), "median": statistics.median(values)}

    log2 = math.log2(size)
    return {
        "entries": size,
        "root_s": round(root_seconds, 3),
        "inclusion_bytes": summary(inclusion, "bytes"),
        "inclusion_bound_bytes": 32 * math.ceil(log2),
        "tlog_proof_bytes": summary(inclusion, "tlog_proof_bytes"),
        "inclusion_make_ms": {k: round(v * 1e3, 2)
                              for k, v in summary(inclusion, "make_s").items()},
        "inclusion_verify_us": {k: round(v * 1e6, 1)
                                for k, v in summary(inclusion, "verify_s").items()},
        "consistency_bytes": summary(consistency, "bytes"),
        "consistency_bound_bytes": round(64 * log2),
        "consistency_make_ms": {k: round(v * 1e3, 2)
                                for k, v in summary(consistency, "make_s").items()},
        "consistency_verify_us": {k: round(v * 1e6, 1)
                                  for k, v in summary(consistency, "verify_s").items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 1_000_000])
    parser.add_argument("--samples", type=int, default=7)
    args = parser.parse_args()
    for size in args.sizes:
        print(json.dumps(bench(size, args.samples)))


if __name__ == "__main__":
    main()
