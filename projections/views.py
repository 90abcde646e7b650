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


def view(match: Match, viewer: str, round: int | None = None) -> dict[str, Any]:
    """What `viewer` ("public", "host" or a player id) knows, as of the end of `round`."""
    records = records_as_of(match, round)
    visible = [r for r in records if may_see(r, viewer)]
    facts = [to_event(r) for r in visible if r["role"] != "command"]
    return {
        "match": match.match_id,
        "game": match.game_id,
        "viewer": viewer,
        "as_of": {"round": records[-1]["entry"]["round"], "seq": len(records)},
        "summary": match.game.summarize(facts, viewer),
        "events": [shown(r) for r in visible],
    }

