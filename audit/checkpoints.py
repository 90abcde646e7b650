"""A match log's checkpoint identity: its origin line and its Merkle leaves."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.envelope import entry_bytes


def origin(match_id: str) -> str:
    return f"arbiter/match/{match_id}"


def leaves(entries: Iterable[dict[str, Any]]) -> list[bytes]:
    """An entry's Merkle leaf is the canonical text its hash covers."""
    return [entry_bytes(entry) for entry in entries]
