"""Receipts: what a submitter keeps, and the proof that their submission is in the signed log.

A receipt is the JSON object `arbiter match submit --json` prints under "receipt":

    {"match": ..., "seq": N, "hash": ..., "entry": the entry as the log holds it,
     "salts": {"i": hex salt}, "parts": {"i": plaintext}}   for each sealed part of theirs

On its own it shows what was sent: the entry hashes to `hash` and each part opens its commitment.
Inclusion comes from a C2SP tlog-proof (c2sp.org/tlog-proof): the entry's Merkle leaf, its
index and an RFC 9162 inclusion proof under a checkpoint the host signed, e.g. the one
published when the round closed, so it proves the submission was in before the close.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from audit.bundle import b64
from audit.canonical import NotCanonical, commitment, entry_bytes, entry_hash
from audit.checkpoints import is_origin_of
from audit.errors import AuditError
from audit.merkle import HASH_SIZE, inclusion_proof, leaf_hash, verify_inclusion
from audit.notes import (
    NoteError,
    VerifierKey,
    parse_checkpoint,
    parse_note,
    parse_verifier_key,
    verify_note,
)
from audit.signing import parse_extensions
from audit.verify import ENVELOPE, note_failure, verify

if TYPE_CHECKING:
    from audit.tiles_bundle import TiledSource

TLOG_PROOF = "c2sp.org/tlog-proof@v1"
RECEIPT_FIELDS = {"match", "seq", "hash", "entry", "salts", "parts"}


@dataclass(frozen=True)
class Proven:
    """A receipt checked: its entry is leaf `seq - 1` of the log `signer` signed at `size`."""

    match: str
    seq: int
    hash: str
    size: int
    round: int
    signer: VerifierKey
    opened: dict[int, dict[str, Any]]
    proof: str

    def report(self) -> list[str]:
        lines = [f"entry {self.seq} of match {self.match} (hash {self.hash}) is leaf "
                 f"{self.seq - 1} of the log of {self.size} entries signed at the close of "
                 f"round {self.round} by {self.signer}"]
        lines.extend(f"sealed part {i} opens to {part['kind']} by {part['actor']}: "
                     f"{json.dumps(part['data'], sort_keys=True)}"
                     for i, part in self.opened.items())
        return lines


def opened_parts(receipt: Any) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """The receipt's entry and the parts it opens, once each part opens its commitment."""
    if not isinstance(receipt, dict) or receipt.keys() != RECEIPT_FIELDS:
        raise AuditError("malformed_receipt", f"a receipt has the fields {sorted(RECEIPT_FIELDS)}")
    entry = receipt["entry"]
    if not isinstance(entry, dict) or entry.keys() != ENVELOPE:
        raise AuditError("malformed_receipt", "the receipt's entry is not a log entry")
    try:
        digest = entry_hash(entry)
    except NotCanonical as error:
        raise AuditError("malformed_receipt", f"the entry cannot be hashed: {error}") from None
    seq = entry["seq"]
    if not (digest == entry["hash"] == receipt["hash"] and seq == receipt["seq"]
            and entry["match"] == receipt["match"]):
        raise AuditError("receipt_mismatch", "the receipt's match, seq and hash are not those of "
                         "its entry, or the entry does not hash to its hash", seq)
    salts, parts = receipt["salts"], receipt["parts"]
    if not (isinstance(salts, dict) and isinstance(parts, dict) and salts.keys() == parts.keys()):
        raise AuditError("malformed_receipt", "salts and parts name the same part indexes", seq)
    opened = {}
    for key, given in salts.items():
        index = int(key) if key.isdigit() and str(int(key)) == key else -1
        if not 0 <= index < len(entry["seals"]) or not isinstance(given, str):
            raise AuditError("malformed_receipt", f"no sealed part {key!r} in the entry", seq)
        try:
            opens = commitment(bytes.fromhex(given), parts[key]) == entry["seals"][index]
        except (ValueError, NotCanonical):  # not hex, or a part that cannot be hashed
            opens = False
        if not opens:
            raise AuditError("bad_opening", f"part {index} does not open its commitment", seq)
        opened[index] = parts[key]
    return entry, opened


def tlog_proof(index: int, hashes: list[bytes], note: str) -> str:
    """The c2sp.org/tlog-proof text: header, index, one base64 hash a line, blank, checkpoint."""
    return "\n".join([TLOG_PROOF, f"index {index}", *(b64(h) for h in hashes), "", note])


def parse_tlog_proof(text: str) -> tuple[int, list[bytes], str]:
    head, blank, note = text.partition("\n\n")
    lines = head.split("\n")
    if lines[1:2] and lines[1].startswith("extra "):
        del lines[1]  # opaque and unauthenticated: not used
    index = lines[1].removeprefix("index ") if len(lines) > 1 else ""
    if not blank or lines[0] != TLOG_PROOF or not index.isdigit() or str(int(index)) != index:
        raise AuditError("malformed_proof", f"not a {TLOG_PROOF} text")
    hashes = []
    for line in lines[2:]:
        try:
            raw = base64.b64decode(line, validate=True)
        except binascii.Error:
            raw = b""
        if len(raw) != HASH_SIZE or b64(raw) != line:
            raise AuditError("malformed_proof", f"{line[:50]!r} is not a base64 SHA-256 hash")
        hashes.append(raw)
    return int(index), hashes, note


def verify_proof(receipt: Any, proof_text: str, key: VerifierKey) -> Proven:
    """Check a receipt and its tlog-proof against the host's key, offline."""
    entry, opened = opened_parts(receipt)
    seq = entry["seq"]
    index, hashes, note = parse_tlog_proof(proof_text)
    try:
        verify_note(note, [key])
        checkpoint = parse_checkpoint(parse_note(note).text)
    except NoteError as error:
        raise note_failure(error, seq) from None
    if not is_origin_of(checkpoint.origin, "match", entry["match"]):
        raise AuditError("wrong_origin", f"the checkpoint is for {checkpoint.origin!r}", seq)
    close = parse_extensions(checkpoint.extensions)
    if index != seq - 1 or not verify_inclusion(index, checkpoint.size,
                                                leaf_hash(entry_bytes(entry)), hashes,
                                                checkpoint.root):
        raise AuditError("not_included", f"the proof does not put entry {seq} at index {seq - 1}"
                         f" of the signed log of {checkpoint.size} entries", seq)
    return Proven(entry["match"], seq, entry["hash"], checkpoint.size, close.round, key, opened,
                  proof_text)


def prove(receipt: Any, bundle: Iterable[bytes], key: VerifierKey | None = None,
          note: str | None = None) -> Proven:
    """Verify the bundle, then prove the receipt's entry under `note` (a checkpoint as it was
    published) or else under the first checkpoint of the bundle that covers it."""
    entry, _ = opened_parts(receipt)
    seq = entry["seq"]
    audit = verify(bundle, key=key, keep_log=True)
    if audit.header.match != entry["match"]:
        raise AuditError("receipt_mismatch", f"the bundle is of match {audit.header.match!r}", seq)
    if audit.signer is None:
        raise AuditError("no_host_key", "the bundle names no host key: pass --key", seq)
    if note is None:
        covering = [c for c in audit.checkpoints if c.size >= seq]
        if not covering:
            raise AuditError("not_covered", "no checkpoint of the bundle covers the entry yet",
                             seq)
        note, size = covering[0].note, covering[0].size
    else:
        try:
            size = parse_checkpoint(parse_note(note).text).size
        except NoteError as error:
            raise note_failure(error, seq) from None
        if not seq <= size <= audit.entries:
            raise AuditError("not_covered", f"the checkpoint covers {size} entries; the bundle "
                             f"holds {audit.entries}", seq)
    leaves = [entry_bytes(e) for e in audit.kept[:size]]
    proof = tlog_proof(seq - 1, inclusion_proof(seq - 1, leaves), note)
    return verify_proof(receipt, proof, audit.signer)


def prove_from_tiles(receipt: Any, source: TiledSource, key: VerifierKey | None = None,
                     note: str | None = None) -> Proven:
    """Prove the receipt's entry from a tiled log, fetching only the checkpoint, log.json and
    the few hash tiles its inclusion proof needs: under `note` (a checkpoint as it was
    published) or else under the first of the log's signed checkpoints that covers it. The
    key is `key`, else the one log.json names."""
    entry, _ = opened_parts(receipt)
    seq = entry["seq"]
    document, reader = source.document()
    header = document["header"]
    if header.get("match") != entry["match"]:
        raise AuditError("receipt_mismatch", f"the tiles are of {header.get('match')!r}", seq)
    if key is None:
        if not isinstance(header.get("host_key"), str):
            raise AuditError("no_host_key", "the tiles name no host key: pass --key", seq)
        try:
            key = parse_verifier_key(header["host_key"])
        except NoteError as error:
            raise AuditError("malformed_header", error.message, seq) from None
    if note is None:
        sizes = [(n, parse_checkpoint(parse_note(n).text).size) for n in document["notes"]]
        covering = [(n, size) for n, size in sizes if size >= seq]
        if not covering:
            raise AuditError("not_covered", "no signed checkpoint of the log covers the entry "
                             "yet", seq)
        note, size = covering[0]
    else:
        try:
            size = parse_checkpoint(parse_note(note).text).size
        except NoteError as error:
            raise note_failure(error, seq) from None
        if not seq <= size <= reader.size:
            raise AuditError("not_covered", f"the checkpoint covers {size} entries; the tiles "
                             f"hold {reader.size}", seq)
    proof = tlog_proof(seq - 1, reader.inclusion_proof(seq - 1, size), note)
    return verify_proof(receipt, proof, key)
