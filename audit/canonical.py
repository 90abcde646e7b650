"""Canonical JSON for auditors: the ledger's RFC 8785 encoding, and a strict reader of it.

The encoding lives in domain/ because the envelope hashes with it; it is re-exported here so
audit code has one place to import it from. What this module adds is reading a bundle line
back: a line is accepted only if it is exactly the canonical text of its value, so every
verifier that parses it hashes the same bytes the host hashed.
"""

from __future__ import annotations

import json
from typing import Any

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
    "loads_many",
    "salt",
]

# domain.canonical's encoder, without its check: the decoder's hooks below have refused
# floats and out-of-range integers already, and a million lines cannot afford a second walk.
_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"),
                            allow_nan=False, check_circular=False)


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


def loads_many(texts: list[str]) -> list[Any] | None:
    """The values of many ASCII lines with one canonical re-encoding for them all, or None when
    any line fails (the caller then reads them one by one, to name the first bad one).

    Python's encoder writes the RFC 8785 text of ASCII integer-only values (domain.canonical).
    Each line is parsed alone, so a line cannot borrow a bracket from its neighbour; then equal
    joined texts mean equal lines, since no JSON value is a proper prefix of another plus a comma.
    """
    joined = ",".join(texts)
    if not joined.isascii():
        return None
    scan = _DECODER.scan_once  # the C scanner itself, without decode()'s Python wrappers
    values = []
    try:
        for text in texts:
            value, end = scan(text, 0)
            if end != len(text):
                return None
            values.append(value)
    except (ValueError, StopIteration):  # JSONDecodeError and NotCanonical alike, or no JSON
        return None
    return values if _ENCODER.encode(values) == f"[{joined}]" else None
