"""Audit bundles: a match's log exported as JSON Lines, for `arbiter verify` and replay.

Every line is canonical JSON (RFC 8785) ending in a newline. The first is the header; then each
entry exactly as the log hashes it, followed in a full bundle by the opening of its sealed
parts; each checkpoint follows the entry that brought the log to its size. docs/audit.md has the
field-by-field description.

    {"header":{...}}
    {"actor":...,"hash":...,"seq":1,...}                 an entry
    {"opening":{"parts":[...],"salts":[...],"seq":2}}    full bundles only
    {"opened":{"entry":{...},"proof":[...],"seq":7}}     after each public SealOpened entry
    {"checkpoint":{"consistency":[...],"note":"..."}}    after the entry at its size

A public bundle holds what the public log shows: entries carry only commitments to their sealed
parts, and the seed appears only if the match has ended (its public SeedRevealed entry). A full
bundle adds every plaintext and salt, the host seed and the salt key.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from audit.canonical import canonical, salt
from audit.checkpoints import leaves, origin
from audit.errors import AuditError
from audit.headers import Header as Header  # the header's reader, kept apart: verify's import
from audit.merkle import consistency_proof, inclusion_proof
from audit.notes import parse_checkpoint, parse_note

if TYPE_CHECKING:  # exporting reads a match; verifying, which imports this, needs none
    from domain.match import Reading

FORMAT = "arbiter-bundle/1"
PUBLIC, FULL = "public", "full"
HEADER, ENTRY, OPENING, OPENED, CHECKPOINT = "header", "entry", "opening", "opened", "checkpoint"

# What the genesis entry says only when true, and the header repeats then: a seed under 128
# bits, taken on the host's say-so; a match the host runs without signed checkpoints.
GENESIS_FLAGS = ("weak_seed", "unsigned")

def origin_of(notes: Sequence[str], match_id: str) -> str:
    """The origin the notes were signed under, or the default one when there are none."""
    return parse_checkpoint(parse_note(notes[0]).text).origin if notes else origin(match_id)


def kind_of(value: Any) -> str | None:
    """Which kind of line a parsed value is, or None when it is none of them."""
    if not isinstance(value, dict):
        return None
    if len(value) == 1:
        tag = next(iter(value))
        return tag if tag in (HEADER, OPENING, OPENED, CHECKPOINT) else None
    return ENTRY if "hash" in value else None


def line(value: Any) -> str:
    return canonical(value).decode() + "\n"


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def opened_proof(entries: list[dict[str, Any]], data: list[bytes], seq: int) -> dict[str, Any]:
    """For the SealOpened entry at `seq`: the entry it opens and that entry's inclusion proof
    in the log of `seq` entries, so a streaming verifier need not keep old commitments."""
    target = entries[seq - 1]["public"]["seq"]
    proof = inclusion_proof(target - 1, data[:seq])
    return {"seq": target, "entry": entries[target - 1], "proof": [b64(h) for h in proof]}


def export(match: Reading, notes: Sequence[str], kind: str, host_key: str | None,
           log_origin: str | None = None) -> Iterator[str]:
    """The lines of `match`'s bundle with its signed checkpoint `notes` (oldest first), each
    after the entry at its size with the consistency proof from the one before. The origin is
    the checkpoints' (by default the first note's, else the one without a host prefix).
    `host_key` is the key that signed them (none for a match created unsigned).

    Every note is exported, or nothing: a log shorter than a checkpoint signed over it has lost
    entries (`missing_entry`), and is refused before the first line."""
    sizes = signed_sizes(notes, match.version, f"match {match.match_id}")
    return _lines(match, sizes, kind, host_key, log_origin or origin_of(notes, match.match_id))


def signed_sizes(notes: Sequence[str], version: int, name: str) -> dict[int, str]:
    """Each note by the size of the log it signs, checked to be one the log holds: sizes grow
    from note to note and none is past the log's end."""
    sizes: dict[int, str] = {}
    last = 0
    for note in notes:
        size = parse_checkpoint(parse_note(note).text).size
        if size <= last:
            raise AuditError("inconsistent_checkpoints", f"{name}: a signed checkpoint of "
                             f"{size} entries follows one of {last}")
        if size > version:
            raise AuditError("missing_entry", f"{name}: entry {version + 1} is missing from the "
                             f"store (a signed checkpoint covers {size} entries, the store "
                             f"holds {version})")
        sizes[size] = note
        last = size
    return sizes


def _lines(match: Reading, sizes: dict[int, str], kind: str, host_key: str | None,
           log_origin: str) -> Iterator[str]:
    entries = [record["entry"] for record in match.records]
    genesis = entries[0]["public"]
    header: dict[str, Any] = {
        "format": FORMAT, "kind": kind, "match": match.match_id,
        "origin": log_origin, "game": genesis["game"],
        "rules_version": genesis["rules_version"], "season": genesis["season"],
        "players": genesis["players"], "seed_commitment": genesis["seed_commitment"],
        "setup_commitment": entries[1]["seals"][0],
        "host_key": None if genesis.get("unsigned") else host_key,  # it signed nothing here
        "entries": len(entries), "checkpoints": len(sizes),
    }
    header |= {flag: True for flag in GENESIS_FLAGS if genesis.get(flag)}
    if kind == FULL:
        header |= {"host_seed": match.host_seed, "salt_key": match.salt_key}
    yield line({HEADER: header})
    from domain.match import parse_salt_key

    data = leaves(entries)
    key = parse_salt_key(match.salt_key)
    previous = 0
    for record in match.records:
        seq = record["entry"]["seq"]
        yield line(record["entry"])
        if kind == FULL and record["parts"]:
            salts = [salt(key, seq, i).hex() for i in range(len(record["parts"]))]
            yield line({OPENING: {"seq": seq, "parts": record["parts"], "salts": salts}})
        if record["entry"]["kind"] == "SealOpened" and record["role"] == "meta":
            yield line({OPENED: opened_proof(entries, data, seq)})
        if seq in sizes:
            proof = consistency_proof(previous, data[:seq]) if previous else []
            yield line({CHECKPOINT: {"note": sizes[seq], "consistency": [b64(h) for h in proof]}})
            previous = seq
