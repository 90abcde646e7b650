"""What the service takes in bulk and gives back: a grant line, an outcome, a receipt."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Grant:
    """One line of a bulk grant: an asset (garnets unless said) with its reason."""

    player: str
    amount: int
    asset: str = "garnets"
    reason: str = ""


@dataclass(frozen=True)
class Receipt:
    """What a submitter keeps: the entry of their command as the log holds it, and the salt and
    plaintext of each sealed part that is theirs. With it alone they can show what they sent
    (each part opens its commitment) and, with any later checkpoint, that it is in the log
    (`arbiter receipt verify`, docs/audit.md)."""

    entry: dict[str, Any]
    salts: dict[int, str]
    parts: dict[int, dict[str, Any]]

    @property
    def match(self) -> str:
        return self.entry["match"]

    @property
    def seq(self) -> int:
        return self.entry["seq"]

    @property
    def hash(self) -> str:
        return self.entry["hash"]

    def as_dict(self) -> dict[str, Any]:
        return {"match": self.match, "seq": self.seq, "hash": self.hash, "entry": self.entry,
                "salts": {str(i): s for i, s in self.salts.items()},
                "parts": {str(i): p for i, p in self.parts.items()}}


@dataclass(frozen=True)
class Outcome:
    match: str
    seqs: list[int]
    receipt: Receipt | None
    told: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Repeat:
    """A season command sent again under a command id already spent (by any process sharing
    the store): nothing more was recorded. What the first sending did: `action` (the
    service's method, e.g. "grant_all"), on `season`, at `at`."""

    command_id: str
    action: str
    season: str
    at: str | None
