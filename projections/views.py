"""Views built by replaying the match stream. Every view goes through `may_see`."""

from __future__ import annotations

from typing import Any

from domain.match import Match
from domain.records import may_see, shown, to_event


def records_as_of(match: Match, round: int | None) -> list[dict[str, Any]]:
    """The log as it stood at the end of `round` (entries of later rounds left out)."""
    if round is None:
        return list(match.records)
    return [r for r in match.records if r["entry"]["round"] <= round]


def visible(records: list[dict[str, Any]], viewer: str) -> list[dict[str, Any]]:
    return [r for r in records if may_see(r, viewer)]


def summary(match: Match, seen: list[dict[str, Any]], viewer: str) -> dict[str, Any]:
    """The game's readable fold of the records `viewer` has seen (and nothing else)."""
    return match.game.summarize([to_event(r) for r in seen if r["role"] != "command"], viewer)


def as_of(records: list[dict[str, Any]]) -> dict[str, int]:
    return {"round": records[-1]["entry"]["round"], "seq": len(records)}


def view(match: Match, viewer: str, round: int | None = None) -> dict[str, Any]:
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
