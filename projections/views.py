"""Views built by replaying the match stream. Every view goes through `may_see`.

These are the reference the view tables are tested against: one fold of the records, with
nothing kept between calls (the tables keep each round's summaries instead).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from domain.decider import Game
from domain.games import get_game
from domain.records import may_see, shown
from projections.follow import summary_of

Records = Sequence[dict[str, Any]]


class Log(Protocol):
    """What a view reads of a match: the live aggregate, a snapshot, or a public bundle's log
    (audit.replay)."""

    @property
    def match_id(self) -> str: ...
    @property
    def game_id(self) -> str: ...
    @property
    def game(self) -> Game: ...
    @property
    def records(self) -> Records: ...


@dataclass(frozen=True)
class RecordsLog:
    """A log held as its records alone: a public bundle's entries (audit.replay), or the
    entries read past the view tables (commands.service.reading)."""

    match_id: str
    game_id: str
    records: list[dict[str, Any]]

    @property
    def game(self) -> Game:
        return get_game(self.game_id)


def records_as_of(match: Log, round: int | None) -> Records:
    """The log as it stood at the end of `round` (entries of later rounds left out): a prefix,
    since an entry's round never goes down."""
    records = match.records
    if round is None:
        return records
    return records[:bisect_right(records, round, key=lambda r: r["entry"]["round"])]


def visible(records: Records, viewer: str) -> list[dict[str, Any]]:
    return [r for r in records if may_see(r, viewer)]


def summary(match: Log, seen: Records, viewer: str) -> dict[str, Any]:
    """The game's readable fold of the records `viewer` has seen (and nothing else)."""
    return summary_of(match.game, seen, viewer)


def as_of(records: Records) -> dict[str, int]:
    return {"round": records[-1]["entry"]["round"], "seq": len(records)}


def view(match: Log, viewer: str, round: int | None = None) -> dict[str, Any]:
    """What `viewer` ("public", "host" or a player id) knows, as of the end of `round`."""
    records = records_as_of(match, round)
    seen = visible(records, viewer)
    return {
        "match": match.match_id,
        "game": match.game_id,
        "viewer": viewer,
        "as_of": as_of(records),
        "summary": summary(match, seen, viewer),
        "events": [shown(r) for r in seen],
    }
