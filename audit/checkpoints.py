"""Checkpoints of a match log: its origin line, leaves, Merkle root and signed note."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from audit.keys import Signer
from audit.merkle import root
from audit.notes import checkpoint_body
from domain.envelope import entry_bytes


def origin(match_id: str) -> str:
    return f"arbiter/match/{match_id}"


def leaves(entries: Iterable[dict[str, Any]]) -> list[bytes]:
    """An entry's Merkle leaf is the canonical text its hash covers."""
    return [entry_bytes(entry) for entry in entries]


def body(match_id: str, entries: list[dict[str, Any]]) -> str:
    return checkpoint_body(origin(match_id), len(entries), root(leaves(entries)))


def sign(signer: Signer, match_id: str, entries: list[dict[str, Any]]) -> str:
    return signer.sign_note(body(match_id, entries))
