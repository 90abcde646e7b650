"""Witnesses: c2sp.org/tlog-cosignature cosignatures of the host's checkpoints, and the
c2sp.org/tlog-witness `add-checkpoint` rules a witness follows before it gives one.

A witness keeps, per log (origin), the latest checkpoint it cosigned; it cosigns a new one only
if the host's key signed it and a consistency proof shows it extends that one. A cosignature is
a signature line by the witness's key (vkey type 0x04) over

    cosignature/v1
    time <POSIX seconds>
    <the checkpoint's whole text, extension lines included>

and carries the time: `u64 timestamp || Ed25519 signature`, base64 after the 4-byte key ID.
Checkpoints with their cosignature lines appended are still notes every verifier reads (a
signature by a key it does not know is ignored), so a bundle carries them as they are.

A witness's key file is the host key file's form with the cosignature type byte:
`PRIVATE+KEY+<name>+<hex key ID>+<base64(0x04 || 32-byte Ed25519 seed)>`, mode 0600.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import tempfile
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from audit.errors import AuditError
from audit.keys import read_key_file, write_key_file
from audit.merkle import HASH_SIZE, verify_consistency
from audit.notes import (
    COSIGNATURE_V1,
    Checkpoint,
    Note,
    NoteError,
    VerifierKey,
    parse_checkpoint,
    parse_note,
    parse_verifier_key,
    verify_parsed_note,
)

_OLD = re.compile(r"old (0|[1-9][0-9]{0,19})")
MAX_PROOF_LINES = 63  # c2sp.org/tlog-witness: a client sends no more
MAX_BODY = 1 << 16  # a checkpoint with its signatures and proof is a few kilobytes


class Cosigner:
    """A witness's private key, with the name its cosignature lines carry."""

    __slots__ = ("_key", "verifier")

    def __init__(self, name: str, key: Ed25519PrivateKey) -> None:
        self._key = key
        self.verifier = VerifierKey(name, COSIGNATURE_V1, key.public_key().public_bytes_raw())

    def cosign(self, text: str, timestamp: int) -> str:
        """The cosignature line (with its newline) of checkpoint text `text` at `timestamp`."""
        if not 0 <= timestamp < 2**63:
            raise ValueError("a cosignature's time is a POSIX timestamp below 2^63")
        message = f"cosignature/v1\ntime {timestamp}\n{text}".encode()
        signature = timestamp.to_bytes(8, "big") + self._key.sign(message)
        raw = self.verifier.key_id + signature
        return f"\N{EM DASH} {self.verifier.name} {base64.b64encode(raw).decode()}\n"


def generate(name: str) -> Cosigner:
    return Cosigner(name, Ed25519PrivateKey.generate())


def save(cosigner: Cosigner, path: str | os.PathLike[str]) -> None:
    """Write the key file; never replace one (a witness's key is its identity)."""
    write_key_file(path, cosigner.verifier, cosigner._key)


def load(path: str | os.PathLike[str]) -> Cosigner:
    name, key_hash, key = read_key_file(path, COSIGNATURE_V1, "cosignature")
    cosigner = Cosigner(name, key)
    if cosigner.verifier.key_id.hex() != key_hash.lower():
        raise NoteError("key_hash_mismatch", f"{path} names the wrong key hash")
    return cosigner


# -- quorum: who cosigned a checkpoint -------------------------------------------------------

def cosigners(note: str, witnesses: Iterable[VerifierKey]) -> list[VerifierKey]:
    """The witnesses (cosignature keys) whose cosignature of `note` holds; a cosignature by
    one of them that does not hold is `bad_cosignature` (someone forged a witness's line)."""
    keys = list(witnesses)
    parsed = parse_note(note)
    ours = [s for s in parsed.signatures if any(
        (s.name, s.key_id) == (k.name, k.key_id) for k in keys)]
    if not ours:
        return []
    try:
        return verify_parsed_note(Note(parsed.text, tuple(ours)), keys)
    except NoteError as error:
        raise AuditError("bad_cosignature", f"a witness's cosignature does not hold: "
                         f"{error.message}") from None


@dataclass(frozen=True)
class Quorum:
    """Who cosigned the newest signed checkpoint of a bundle, of the witnesses listed."""

    cosigned_by: tuple[str, ...]
    witnesses: int
    quorum: int


def check_quorum(notes: list[str], witnesses: list[VerifierKey], quorum: int) -> Quorum:
    """Every listed witness's cosignature on `notes` (a verified bundle's checkpoints, oldest
    first) holds, and at least `quorum` of them cosigned the newest: a witness cosigns a
    checkpoint only once it extends every one it cosigned before, so the newest vouches for
    the log up to it."""
    newest: list[VerifierKey] = []
    for note in notes:
        newest = cosigners(note, witnesses)
    if len(newest) < quorum:
        names = ", ".join(k.name for k in newest) or "none"
        said = f"the newest signed checkpoint is cosigned by {len(newest)} of the " \
            f"{len(witnesses)} witnesses listed ({names}); {quorum} are required" \
            if notes else f"the bundle holds no signed checkpoint; {quorum} cosignatures " \
            "are required"
        raise AuditError("quorum_not_met", said)
    return Quorum(tuple(k.name for k in newest), len(witnesses), quorum)


def witness_key(vkey: str) -> VerifierKey:
    """A witness's verifier key: a vkey of type 0x04 (cosignature/v1), else NoteError in
    words (a host's key, type 0x01, signs checkpoints and cosigns none)."""
    key = parse_verifier_key(vkey)
    if key.sig_type != COSIGNATURE_V1:
        raise NoteError("not_a_witness_key", f"{key.name} is not a witness's cosignature key "
                        "(type 0x04, as arbiter witness keygen makes)")
    return key


def read_witnesses(text: str, source: str) -> list[VerifierKey]:
    """A witnesses file: one cosignature verifier key (vkey type 0x04) a line; blank lines and
    lines starting with # are skipped."""
    found: list[VerifierKey] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            found.append(witness_key(line))
        except NoteError as error:
            raise AuditError("invalid_input", f"{source}, line {number}: {error.message}") \
                from None
    if not found:
        raise AuditError("invalid_input", f"{source} names no witness key")
    return found


# -- a witness: c2sp.org/tlog-witness add-checkpoint ------------------------------------------

class Answer(NamedTuple):
    """What a witness answers: an HTTP status, its content type and body."""

    status: int
    content_type: str
    body: str


@dataclass(frozen=True)
class Latest:
    """The latest checkpoint a witness cosigned for one log."""

    origin: str
    size: int
    root: bytes


class WitnessState:
    """The latest cosigned checkpoint of each log, in a file a person can read:
    `<origin> <size> <base64 root>` a line, written whole (a rename) and synced before the
    witness answers. One lock makes each check-and-persist atomic (the spec's race)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.Lock()
        self.latest = self._read()

    def _read(self) -> dict[str, Latest]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        latest: dict[str, Latest] = {}
        for number, line in enumerate(text.splitlines(), 1):
            try:
                origin, size, root = line.split(" ")
                latest[origin] = Latest(origin, int(size), base64.b64decode(root, validate=True))
            except (ValueError, binascii.Error):
                raise AuditError("invalid_input", f"{self.path}, line {number}: expected "
                                 "ORIGIN SIZE ROOT") from None
        return latest

    def save(self, latest: Latest) -> None:
        known = {**self.latest, latest.origin: latest}
        text = "".join(f"{s.origin} {s.size} {base64.b64encode(s.root).decode()}\n"
                       for s in sorted(known.values(), key=lambda s: s.origin))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".witness-state.")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.path)
        except BaseException:
            os.unlink(temporary)
            raise
        self.latest = known


class Witness:
    """A witness of the logs whose origins start with a trusted prefix, each with the log key
    that signs them (an Arbiter host signs `<prefix>/match/<id>` and `<prefix>/season/<id>`,
    its key named for its prefix). `clock` gives the POSIX time in whole seconds."""

    def __init__(self, cosigner: Cosigner, logs: Iterable[tuple[str, VerifierKey]],
                 state: WitnessState, clock: Callable[[], int]) -> None:
        self.cosigner = cosigner
        self.logs = list(logs)
        self.state = state
        self.clock = clock

    def keys_for(self, origin: str) -> list[VerifierKey]:
        return [key for prefix, key in self.logs if origin.startswith(f"{prefix}/")]

    def add_checkpoint(self, body: bytes) -> Answer:
        """c2sp.org/tlog-witness add-checkpoint: the request body in, the answer out."""
        try:
            old, proof, note = _request(body)
            parsed = parse_note(note)
            checkpoint = parse_checkpoint(parsed.text)
        except (NoteError, ValueError) as error:
            return _text(400, f"not an add-checkpoint request: {error}")
        keys = self.keys_for(checkpoint.origin)
        if not keys:
            return _text(404, f"this witness does not follow {checkpoint.origin}")
        try:
            verify_parsed_note(parsed, keys)
        except NoteError as error:
            return _text(403, f"the log's key did not sign this checkpoint: {error.message}")
        if old > checkpoint.size:
            return _text(400, f"old size {old} is past the checkpoint's size {checkpoint.size}")
        with self.state.lock:
            return self._cosigned(old, proof, checkpoint, parsed.text)

    def _cosigned(self, old: int, proof: list[bytes], checkpoint: Checkpoint,
                  text: str) -> Answer:
        latest = self.state.latest.get(checkpoint.origin)
        if old != (latest.size if latest else 0):
            return Answer(409, "text/x.tlog.size", f"{latest.size if latest else 0}\n")
        if latest is None or old == 0:
            if proof:
                return _text(422, "a proof from size 0 must be empty")
        elif old == checkpoint.size:
            if checkpoint.root != latest.root:
                return _text(409, "a checkpoint of the size cosigned before with another root: "
                             "the log shows two histories")
        elif not verify_consistency(old, checkpoint.size, latest.root, checkpoint.root, proof):
            return _text(422, "the consistency proof does not hold")
        self.state.save(Latest(checkpoint.origin, checkpoint.size, checkpoint.root))
        timestamp = self.clock()
        return Answer(200, "text/plain; charset=utf-8", self.cosigner.cosign(text, timestamp))


def add_checkpoint_body(old: int, proof: Iterable[bytes], note: str) -> bytes:
    """The request a log sends a witness: its old size, the proof, a blank line, the note."""
    lines = [f"old {old}", *(base64.b64encode(h).decode() for h in proof)]
    return ("\n".join(lines) + "\n\n" + note).encode()


def _request(body: bytes) -> tuple[int, list[bytes], str]:
    if len(body) > MAX_BODY:
        raise ValueError("the request is too long")
    text = body.decode()
    head, blank, note = text.partition("\n\n")
    lines = head.split("\n")
    found = _OLD.fullmatch(lines[0])
    if not blank or found is None:
        raise ValueError("it starts with 'old SIZE', then proof lines, then a blank line")
    if len(lines) - 1 > MAX_PROOF_LINES:
        raise ValueError(f"more than {MAX_PROOF_LINES} proof lines")
    proof = [base64.b64decode(line, validate=True) for line in lines[1:]]
    if any(len(h) != HASH_SIZE for h in proof):
        raise ValueError("a proof line is not a base64 SHA-256 hash")
    return int(found[1]), proof, note


def _text(status: int, said: str) -> Answer:
    return Answer(status, "text/plain; charset=utf-8", said + "\n")
