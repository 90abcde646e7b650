"""`arbiter verify --jobs N`: a public match bundle file verified with N worker processes.

The checks and their order stay those of audit.verify, made by the same code. What is split is
the work the hot path does per entry (`ordinary_run`: each line held to the line expected or
read in C, its hash, its Merkle leaf) and the Ed25519 check of each checkpoint's note. Each
worker reads a block of the file by its byte offsets and takes the runs of ordinary entries in
it speculatively, from the state each run's first line claims (its seq, prev and round), giving
back the run's leaves as a few Merkle subtree roots and the hash of its last entry; it checks
the signature of each checkpoint note it meets. The verifier, in this process, goes through the
blocks in order as it goes through a bundle's lines: it takes a run only where the log it has
checked stands exactly in the state the run claims (else it reads the run's lines again and
takes them itself), a note's signature only as the worker found it good (else it checks it
itself), and every other line the general way. So a failure is found where, and named as, the
single process names it (tests/audit/test_parallel_verify.py).

A season bundle, a full bundle (its re-run is one sequence of commands) and a file under two
blocks are verified in one process, whatever --jobs says.
"""

from __future__ import annotations

import gc
import json
import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from audit.bundle import FORMAT, PUBLIC
from audit.canonical import read_fast
from audit.errors import AuditError
from audit.merkle import aligned_subtrees
from audit.notes import Checkpoint, VerifierKey
from audit.sealed_line import HEAD as SEALED
from audit.sealed_line import SealedLines
from audit.verify import (
    ENVELOPE,
    Run,
    _Verifier,
    ordinary_run,
    signed_checkpoint,
    split_lines,
)

if TYPE_CHECKING:
    from audit.season_verify import SeasonAudit
    from audit.verify import Audit
    from audit.witness import Seen

BLOCK = 1 << 20  # bytes of the file per task: a few milliseconds of a worker's time
_CHECKPOINT = b'{"checkpoint":'


def verify_file(path: str, key: VerifierKey | None = None, jobs: int = 1,
                progress: Callable[[int, int], None] | None = None, seen: Seen | None = None,
                block: int = BLOCK) -> Audit | SeasonAudit:
    """Verify the bundle file at `path` (a match's or a season's) as audit.any_bundle does,
    a public match bundle of at least two blocks with `jobs` worker processes."""
    with open(path, "rb") as file:
        first = file.readline()
        size = os.fstat(file.fileno()).st_size
    if jobs < 2 or size - len(first) < 2 * block or not _public_match(first):
        from audit.any_bundle import verify_any

        with open(path, "rb") as file:
            return verify_any(file, key, progress=progress, seen=seen)
    import multiprocessing

    verifier = _Verifier(key, progress, False, seen)
    pools = []

    def pieces() -> Iterator[list[bytes] | Run]:
        yield [first]  # the header: the workers need the keys and the match it names
        header = verifier.started.header
        pool = multiprocessing.get_context(start_method()).Pool(
            jobs, _start_worker, (path, header.match, header.entries, verifier.keys,
                                  header.origin))
        pools.append(pool)
        blocks = [(start, min(start + block, size)) for start in range(len(first), size, block)]
        for presigned, found in pool.imap(_block, blocks):
            verifier.presigned.update(presigned)
            yield from found

    try:
        return verifier.run_pieces(pieces())
    finally:
        for pool in pools:
            pool.terminate()


def start_method() -> str:
    """How to start the workers: forked from a process of one thread (the command line's),
    where it is quickest; else from a fork server, since a child forked while another thread
    held a lock (an import's, a logger's) would wait for it forever."""
    import threading

    return "fork" if threading.active_count() == 1 else "forkserver"


def _public_match(first: bytes) -> bool:
    """Whether a bundle's first line is the header of a public match bundle (anything else is
    verified in one process, which says what is wrong with it)."""
    try:
        header = json.loads(first)["header"]
        return bool(header["format"] == FORMAT and header["kind"] == PUBLIC)
    except (ValueError, KeyError, TypeError):
        return False


class _Worker:
    """What a worker process knows of the bundle: its file and what its header names."""

    path: str
    match: str
    entries: int
    keys: list[VerifierKey]
    origin: str
    sealed: SealedLines


def _start_worker(path: str, match: str, entries: int, keys: list[VerifierKey],
                  origin: str) -> None:
    gc.disable()  # as the verifier does: the hot path makes no cycles
    _Worker.path, _Worker.match, _Worker.entries = path, match, entries
    _Worker.keys, _Worker.origin, _Worker.sealed = keys, origin, SealedLines(match)


def _block(bounds: tuple[int, int]) -> tuple[dict[str, Checkpoint], list[list[bytes] | Run]]:
    """The lines that start in the file's bytes [start, stop): the notes found signed, and the
    lines in order, each run of ordinary entries taken as a Run, the rest as they are."""
    start, stop = bounds
    lines, at = _lines(start, stop)
    presigned: dict[str, Checkpoint] = {}
    found: list[list[bytes] | Run] = []
    loose: list[bytes] = []
    index = 0
    while index < len(lines):
        run = _run(lines, index, at)
        if run is not None:
            if loose:
                found.append(loose)
                loose = []
            found.append(run)
            index += run.entries
            at = run.stop
            continue
        raw = lines[index]
        if raw.startswith(_CHECKPOINT):
            _presign(raw, presigned)
        loose.append(raw)
        index += 1
        at += len(raw)
    if loose:
        found.append(loose)
    return presigned, found


def _lines(start: int, stop: int) -> tuple[list[bytes], int]:
    """The lines that start in [start, stop), whole, and the offset of the first."""
    with open(_Worker.path, "rb") as file:
        file.seek(start - 1)
        if file.read(1) != b"\n":
            file.readline()  # the rest of a line that started before `start`
        at = file.tell()
        data = file.read(max(stop - at, 0)) if at < stop else b""
        if data and not data.endswith(b"\n"):
            data += file.readline()
    return split_lines(data), at


def _run(lines: list[bytes], index: int, at: int) -> Run | None:
    """The run of ordinary entries from `lines[index]` on, from the state its first line
    claims, if that line starts one."""
    raw = lines[index]
    value = read_fast(raw) if raw.startswith(SEALED) or raw.startswith(b'{"actor":"') else None
    if not (type(value) is dict and value.keys() == ENVELOPE and type(value["seq"]) is int
            and value["seq"] > 2 and type(value["prev"]) is str
            and type(value["round"]) is int):
        return None
    size, prev, round = value["seq"] - 1, value["prev"], value["round"]
    leaves, last = ordinary_run(lines, index, _Worker.sealed, _Worker.match, round, size,
                                prev.encode(), _Worker.entries)
    if not leaves:
        return None
    stop = at + sum(len(raw) for raw in lines[index:index + len(leaves)])
    return Run(_Worker.path, at, stop, len(leaves), size, prev, round, last.decode(),
               aligned_subtrees(size, leaves))


def _presign(raw: bytes, presigned: dict[str, Checkpoint]) -> None:
    """Check a checkpoint line's note as the verifier would; keep it only if it holds."""
    try:
        note = json.loads(raw)["checkpoint"]["note"]
        if isinstance(note, str):
            presigned[note] = signed_checkpoint(note, _Worker.keys, _Worker.origin, None)
    except (AuditError, ValueError, KeyError, TypeError):
        pass
