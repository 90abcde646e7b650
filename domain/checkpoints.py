"""The signed checkpoints of a match or a season, kept beside (not inside) their logs, and the
host's origin prefix that names every log it signs.

A checkpoint signs the log's size and Merkle root; putting it in the log would change both.
"""

from __future__ import annotations

from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.errors import RuleViolation
from domain.logs import checkpoints_log
from domain.origins import DEFAULT_PREFIX, match_origin
from domain.season import check_origin_prefix


class MatchCheckpoints(Aggregate):
    @staticmethod
    def create_id(match_id: str) -> UUID:
        return checkpoints_log(match_id)

    @event("Started")
    def __init__(self, match_id: str, origin: str | None = None) -> None:
        self.match_id = match_id
        self.origin = origin or match_origin(DEFAULT_PREFIX, match_id)
        self.notes: list[dict[str, Any]] = []

    @event("Signed")
    def record(self, round: int, size: int, note: str) -> None:
        """A signed note for the log of `size` entries, at the close of `round`."""
        self.notes.append({"round": round, "size": size, "note": note})

    def for_round(self, round: int) -> dict[str, Any] | None:
        signed = [n for n in self.notes if n["round"] <= round]
        return signed[-1] if signed else None


class MatchCosignatures(Aggregate):
    """Witnesses' cosignature lines (c2sp.org/tlog-cosignature) of a match's checkpoints, by
    the size of the note each cosigns: kept apart from the notes, which never change, and
    added to them wherever a note is served (`cosigned`)."""

    @staticmethod
    def create_id(match_id: str) -> UUID:
        return uuid5(NAMESPACE_URL, f"arbiter/cosignatures/{match_id}")

    @event("Started")
    def __init__(self, match_id: str) -> None:
        self.match_id = match_id
        self.lines: dict[int, list[str]] = {}

    @event("Cosigned")
    def cosign(self, size: int, line: str) -> None:
        """A line the caller checked: a witness's cosignature of the note of `size` entries."""
        self.lines[size] = [*self.lines.get(size, []), line]


class SeasonCosignatures(Aggregate):
    """Witnesses' cosignature lines of a season's checkpoints, as `MatchCosignatures`."""

    @staticmethod
    def create_id(season: str) -> UUID:
        return uuid5(NAMESPACE_URL, f"arbiter/season-cosignatures/{season}")

    @event("Started")
    def __init__(self, season: str) -> None:
        self.season = season
        self.lines: dict[int, list[str]] = {}

    @event("Cosigned")
    def cosign(self, size: int, line: str) -> None:
        self.lines[size] = [*self.lines.get(size, []), line]


def cosigned(note: dict[str, Any]) -> str:
    """A note as served: the host's note, then its witnesses' cosignature lines (`notes` of
    the service's `cosigned_notes`); still a note every verifier reads, since a signature by
    a key it does not know is ignored."""
    text: str = note["note"]
    return text + "".join(note.get("cosignatures", []))


class SeasonCheckpoints(Aggregate):
    """One signed note after each change of the season: its log, its public standings and the
    latest checkpoint of each of its matches."""

    @staticmethod
    def create_id(season: str) -> UUID:
        return uuid5(NAMESPACE_URL, f"arbiter/season-checkpoints/{season}")

    @event("Started")
    def __init__(self, season: str) -> None:
        self.season = season
        self.notes: list[dict[str, Any]] = []

    @event("Signed")
    def record(self, size: int, note: str) -> None:
        self.notes.append({"size": size, "note": note})


class HostOrigin(Aggregate):
    """The prefix of every checkpoint origin this host signs (c2sp.org/tlog-checkpoint asks for
    unique origins): the host's domain, set once, or one `arbiter init` chose from the host's
    key (`chosen`), which the host may still replace by their domain. Seasons record it when
    they start, so a season keeps the prefix it started with."""

    @staticmethod
    def create_id() -> UUID:
        return uuid5(NAMESPACE_URL, "arbiter/host/origin")

    @event("Set")
    def __init__(self, prefix: str, chosen: bool = False) -> None:
        self.prefix = prefix
        self.chosen = chosen

    @classmethod
    def set(cls, prefix: str, chosen: bool = False) -> HostOrigin:
        return cls(prefix=check_origin_prefix(prefix), chosen=chosen)

    @event("Replaced")
    def replace(self, prefix: str) -> None:
        self.prefix = prefix
        self.chosen = False

    def change(self, prefix: str) -> None:
        """The host's own prefix: it replaces one init chose; a prefix the host set is set
        once (`origin_set`), and setting the same again changes nothing."""
        if prefix == self.prefix:
            return
        if not self.chosen:
            raise RuleViolation("origin_set", f"this host signs as {self.prefix!r} already; an "
                                "origin prefix is set once")
        self.replace(check_origin_prefix(prefix))
