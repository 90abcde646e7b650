"""The signed checkpoints of one match, kept beside (not inside) its log.

A checkpoint signs the log's size and Merkle root; putting it in the log would change both.
"""

from __future__ import annotations

from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event


class MatchCheckpoints(Aggregate):
    @staticmethod
    def create_id(match_id: str) -> UUID:
        return uuid5(NAMESPACE_URL, f"arbiter/checkpoints/{match_id}")

    @event("Started")
    def __init__(self, match_id: str) -> None:
        self.match_id = match_id
        self.notes: list[dict] = []

    @event("Signed")
    def record(self, round: int, size: int, note: str) -> None:
        """A signed note for the log of `size` entries, at the close of `round`."""
        self.notes.append({"round": round, "size": size, "note": note})

    def for_round(self, round: int) -> dict | None:
        signed = [n for n in self.notes if n["round"] <= round]
        return signed[-1] if signed else None
