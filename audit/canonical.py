"""Canonical JSON for auditors: the ledger's RFC 8785 encoding, and a strict reader of it.

The encoding lives in domain/ because the envelope hashes with it; it is re-exported here so
audit code has one place to import it from. What this module adds is reading a bundle line
back: a line is accepted only if it is exactly the canonical text of its value, so every
verifier that parses it hashes the same bytes the host hashed.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

import msgspec
import orjson

from domain.canonical import MAX_SAFE_INTEGER, NotCanonical, canonical, check
from domain.envelope import EVENT_PREFIX, commitment, entry_bytes, entry_hash, salt

__all__ = [
    "EVENT_PREFIX",
    "MAX_SAFE_INTEGER",
    "NotCanonical",
    "canonical",
    "check",
    "commitment",
    "entry_bytes",
    "entry_hash",
    "loads",
    "read_fast",
    "read_public_entry",
    "salt",
]

def _integer(text: str) -> int:
    value = int(text)
    if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        raise NotCanonical(f"integer {text} is outside ±(2^53−1)")
    return value


def _refuse(text: str) -> Any:
    raise NotCanonical(f"{text} is not an integer: the ledger is integers-only")


_DECODER = json.JSONDecoder(parse_int=_integer, parse_float=_refuse, parse_constant=_refuse)


def loads(text: str) -> Any:
    """The value of one canonical line. Raises json.JSONDecodeError when `text` is not JSON and
    NotCanonical when it is JSON but not the canonical text of its value."""
    value = _DECODER.decode(text)
    if canonical(value) != text.encode():
        raise NotCanonical("the line is not in canonical form (RFC 8785)")
    return value


def _refuse_float(text: str) -> Any:
    raise ValueError("a float")  # `loads` names it


_FAST_DECODER = msgspec.json.Decoder(float_hook=_refuse_float)
_FAST_ENCODING = orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER


# UTF-8 lead bytes of U+E000 and above: only there may orjson's key order (by code point)
# differ from RFC 8785's (by UTF-16 code unit).
_UTF16_ORDER_DIFFERS = re.compile(rb"[\xee-\xf4]")


def read_fast(raw: bytes) -> Any:
    """The value of one line (ending in a newline) through C code, if re-encoding it gives the
    line back byte for byte; else None, and `loads` says what is wrong. msgspec refuses floats as
    it parses; orjson refuses integers past ±(2^53−1), escapes exactly as RFC 8785 does (every
    ASCII character checked in tests/audit/test_bundle.py; anything else is written as UTF-8 by
    both) and sorts keys the same below U+E000."""
    if not raw.endswith(b"\n") or (not raw.isascii() and _UTF16_ORDER_DIFFERS.search(raw)):
        return None
    try:
        value = _FAST_DECODER.decode(raw)
        return value if orjson.dumps(value, option=_FAST_ENCODING) == raw[:-1] else None
    except (msgspec.DecodeError, orjson.JSONEncodeError, UnicodeDecodeError):
        return None


SafeInt = Annotated[int, msgspec.Meta(ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER)]
Hex64 = Annotated[str, msgspec.Meta(min_length=64, max_length=64)]  # hex: the caller checks


class Posting(msgspec.Struct):
    amount: SafeInt
    asset: str
    player: str
    reason: str


class PublicEntry(msgspec.Struct):
    """The envelope of a public entry: every field, each of its JSON type, in canonical
    (sorted) order, so that encoding it writes them in that order (and no other field)."""

    actor: str
    at: str | None
    hash: str
    kind: str
    match: str
    postings: list[Posting]
    prev: str
    public: dict[str, Any]
    round: SafeInt
    seals: list[Hex64]
    seq: SafeInt
    v: SafeInt


_PUBLIC_ENTRY = msgspec.json.Decoder(PublicEntry, float_hook=_refuse_float)
_SORTED = msgspec.json.Encoder(order="sorted")  # a struct's fields as declared, dict keys sorted


def read_public_entry(raw: bytes) -> PublicEntry | None:
    """A public entry's line (ending in a newline) read and checked in C: its envelope, if the
    line is the canonical text of one, every field of its type (commitments 64 characters
    long); else None, and `read_fast` or `loads` reads it as whatever it is. msgspec escapes
    as RFC 8785 does and sorts keys as `read_fast` does (tests/audit/test_bundle.py); orjson
    refuses the integers out of range that `public` may hold."""
    if not raw.endswith(b"\n") or (not raw.isascii() and _UTF16_ORDER_DIFFERS.search(raw)):
        return None
    try:
        e = _PUBLIC_ENTRY.decode(raw)
        orjson.dumps(e.public, option=_FAST_ENCODING)
        return e if _SORTED.encode(e) == raw[:-1] else None
    except (msgspec.DecodeError, orjson.JSONEncodeError, UnicodeDecodeError):
        return None
