"""Canonical JSON (RFC 8785) with the ledger's integers-only rule."""

from __future__ import annotations

from typing import Any

import orjson
import rfc8785

MAX_SAFE_INTEGER = 2**53 - 1


class NotCanonical(ValueError):
    """A value the ledger refuses to hash: a float, a huge integer, a non-JSON type."""


def check(value: Any) -> None:
    """Refuse floats, integers outside ±(2^53−1), non-string keys and non-JSON types; the
    error names where in `value` the first one is."""
    if not _plain(value):
        _explain(value, "$")


def _plain(value: Any) -> bool:
    """The hot path (every entry of every command): no path strings built, and the commonest
    leaves (texts and nulls) checked without a call."""
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str or (
                    type(item) is not str and item is not None and not _plain(item)):
                return False
        return True
    if kind is list or kind is tuple:
        for item in value:
            if type(item) is not str and item is not None and not _plain(item):
                return False
        return True
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        number: int = value
        return -MAX_SAFE_INTEGER <= number <= MAX_SAFE_INTEGER
    return False


def _explain(value: Any, path: str) -> None:
    """Raise NotCanonical for the first value `_plain` refuses, naming where it is."""
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
            _explain(item, f"{path}.{key}")
        return
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _explain(item, f"{path}[{index}]")
        return
    raise NotCanonical(f"{path}: {type(value).__name__} is not a JSON value")


_SORTED = orjson.OPT_SORT_KEYS


def canonical(value: Any) -> bytes:
    """The RFC 8785 bytes of `value`, after `check`."""
    check(value)
    return encoded(value)


def encoded(value: Any) -> bytes:
    """The RFC 8785 bytes of a value already known to be plain JSON (read back from the store).

    For integer-only values orjson with sorted keys writes the same bytes whenever they are
    ASCII (same key order, same escapes; tests/audit/test_bundle.py checks every ASCII
    character), several times faster; anything else (where UTF-16 key order may differ) goes
    through `rfc8785`."""
    text = orjson.dumps(value, option=_SORTED)
    return text if text.isascii() else rfc8785.dumps(value)
