"""A match log's checkpoint identity: its origin line and its Merkle leaves.

An origin is `<prefix>/match/<id>`, the prefix being the host's (c2sp.org/tlog-checkpoint asks
origins to be unique; the host sets it once, e.g. its domain). Stores and bundles from before
the prefix existed use `arbiter`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.envelope import entry_bytes
from domain.origins import DEFAULT_PREFIX, ORIGIN_PREFIX, match_origin


def origin(match_id: str, prefix: str = DEFAULT_PREFIX) -> str:
    return match_origin(prefix, match_id)


def is_origin_of(text: str, log: str, log_id: str) -> bool:
    """Whether `text` is `<prefix>/<log>/<log_id>` for some well-formed prefix."""
    suffix = f"/{log}/{log_id}"
    return text.endswith(suffix) and ORIGIN_PREFIX.fullmatch(text[:-len(suffix)]) is not None


def leaves(entries: Iterable[dict[str, Any]]) -> list[bytes]:
    """An entry's Merkle leaf is the canonical text its hash covers."""
    return [entry_bytes(entry) for entry in entries]
