"""The match log's envelope: salted commitments for sealed parts and the hash chain.

An entry (what the chain hashes and the public log shows):
    {"v", "match", "seq", "round", "prev", "kind", "actor", "at", "public", "postings", "seals"}
A public entry fills kind, actor, at, public and postings (what it moved in the season). A
sealed entry leaves them null: its kind, actor, time, audience, data and postings travel inside
its first sealed part, so the public learns only that an entry exists. Every sealed entry
carries exactly SEALS commitments (its parts, padded with host-only padding parts), so its
seal count says nothing of what it hides.
`hash` = SHA-256(EVENT_PREFIX + canonical(entry without hash)); the Merkle leaf of an entry
is that same canonical text.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Sequence
from typing import Any

from domain.canonical import canonical, encoded

VERSION = 1
EVENT_PREFIX = b"arbiter/event/v1\n"
SEAL_PREFIX = b"arbiter/seal/v1\n"
GENESIS_PREV = "0" * 64
SEALS = 2  # commitments of every sealed entry: a command's own part and its context, or a
# fact's part and a padding part, or two padding parts


def salt(salt_key: bytes, seq: int, index: int) -> bytes:
    """Unguessable but reproducible: HMAC-SHA256 under the match's salt key."""
    return hmac.digest(salt_key, f"{seq}|{index}".encode(), "sha256")


def commitment(
    salt_bytes: bytes, part: dict[str, Any], encode: Callable[[Any], bytes] = canonical
) -> str:
    return hashlib.sha256(SEAL_PREFIX + salt_bytes + encode(part)).hexdigest()


def entry_bytes(entry: dict[str, Any]) -> bytes:
    """The canonical text an entry's hash covers (and its Merkle leaf)."""
    return canonical({k: v for k, v in entry.items() if k != "hash"})


def known_entry_bytes(entry: dict[str, Any]) -> bytes:
    """`entry_bytes` of an entry already checked: sealed by `seal_entry`, or read back from
    the store (JSON holds nothing else; the stored hash is checked against these bytes)."""
    return encoded({k: v for k, v in entry.items() if k != "hash"})


def entry_hash(entry: dict[str, Any]) -> str:
    return hashlib.sha256(EVENT_PREFIX + entry_bytes(entry)).hexdigest()


def seal_entry(
    *,
    match: str,
    seq: int,
    round: int | None,
    prev: str,
    salt_key: bytes,
    public: dict[str, Any] | None,
    parts: Sequence[dict[str, Any]],
) -> dict[str, Any]:
    """Build and hash one entry. `public` is {kind, actor, at, data, postings}, or None when
    the entry is sealed."""
    entry: dict[str, Any] = {
        "v": VERSION,
        "match": match,
        "seq": seq,
        "round": round,
        "prev": prev,
        "kind": public["kind"] if public else None,
        "actor": public["actor"] if public else None,
        "at": public["at"] if public else None,
        "public": public["data"] if public else None,
        "postings": public.get("postings", []) if public else None,
        "seals": [commitment(salt(salt_key, seq, i), part) for i, part in enumerate(parts)],
    }
    entry["hash"] = entry_hash(entry)
    return entry


def forgery(record: dict[str, Any], salt_key: bytes, prev: str,
            prefix: bytes = EVENT_PREFIX) -> str | None:
    """What is wrong with a stored record, or None when its entry hashes to its `hash`, follows
    `prev`, and each sealed part opens its commitment: a row edited in the database, found
    before any view shows it. `prefix` is the log's (a match's, or SEASON_PREFIX)."""
    entry = record["entry"]
    seq = entry["seq"]
    hashed = known_entry_bytes(entry)
    if hashlib.sha256(prefix + hashed).hexdigest() != entry["hash"]:
        return f"entry {seq} does not hash to its hash"
    if entry["prev"] != prev:
        return f"entry {seq} does not follow the entry before it"
    parts = record["parts"]
    if len(parts) != len(entry["seals"]) or any(
            commitment(salt(salt_key, seq, i), part, encoded) != sealed
            for i, (part, sealed) in enumerate(zip(parts, entry["seals"], strict=False))):
        return f"entry {seq}: a sealed part does not open its commitment"
    return None


# -- the season log ------------------------------------------------------------------------
# A season entry: {"v", "season", "seq", "prev", "kind", "actor", "at", "public", "seals"};
# no round (a season has none) and no postings (a season entry's data is what it moves).
# Its own prefix keeps a season entry from ever passing for a match entry, and back.
SEASON_PREFIX = b"arbiter/season/v1\n"


def season_entry_hash(entry: dict[str, Any]) -> str:
    return hashlib.sha256(SEASON_PREFIX + entry_bytes(entry)).hexdigest()


def seal_season_entry(
    *,
    season: str,
    seq: int,
    prev: str,
    salt_key: bytes,
    public: dict[str, Any] | None,
    parts: Sequence[dict[str, Any]],
) -> dict[str, Any]:
    """Build and hash one season entry. `public` is {kind, actor, at, data}, or None when the
    entry is sealed whole in its one part."""
    entry: dict[str, Any] = {
        "v": VERSION,
        "season": season,
        "seq": seq,
        "prev": prev,
        "kind": public["kind"] if public else None,
        "actor": public["actor"] if public else None,
        "at": public["at"] if public else None,
        "public": public["data"] if public else None,
        "seals": [commitment(salt(salt_key, seq, i), part) for i, part in enumerate(parts)],
    }
    entry["hash"] = season_entry_hash(entry)
    return entry
