"""Canonical JSON (RFC 8785) with the ledger's integers-only rule."""

from __future__ import annotations

import json
from typing import Any

import rfc8785

MAX_SAFE_INTEGER = 2**53 - 1


class NotCanonical(ValueError):
    """A value the ledger refuses to hash: a float, a huge integer, a non-JSON type."""


def check(value: Any, path: str = "$") -> None:
    """Refuse floats, integers outside ±(2^53−1), non-string keys and non-JSON types."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, int):
        if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            raise NotCanonical(f"{path}: integer {value} is outside ±(2^53−1)")
        return
    if isinstance(value, float):
        raise NotCanonical(f"{path}: floats are not allowed ({value!r})")
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotCanonical(f"{path}: key {key!r} is not a string")
            check(item, f"{path}.{key}")
        return
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            check(item, f"{path}[{index}]")
        return
    raise NotCanonical(f"{path}: {type(value).__name__} is not a JSON value")


_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"),
                            allow_nan=False, check_circular=False)


def canonical(value: Any) -> bytes:
    """The RFC 8785 bytes of `value`, after `check`.

    For integer-only values Python's encoder with sorted keys writes the same text whenever
    that text is ASCII (same key order, same escapes), several times faster; anything else
    (where UTF-16 key order may differ) goes through `rfc8785`."""
    check(value)
    text = _ENCODER.encode(value)
    return text.encode() if text.isascii() else rfc8785.dumps(value)
