"""The two seed matches played into a real store, and what each viewer sees of them through the
framework's own filter (projections/views.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from commands.app import Arbiter
from commands.matchfile import MatchFile, load, play
from domain.decider import Event
from domain.match import Match
from domain.records import may_see, to_event
from projections.views import view

SEEDS = Path(__file__).resolve().parents[3] / "seeds"
HEAVY_SKY = SEEDS / "totemic_might-heavy-sky.json"
TIEBREAK = SEEDS / "totemic_might-garnet-tiebreak.json"
BOTH = (HEAVY_SKY, TIEBREAK)


def played(app: Arbiter, path: Path) -> tuple[MatchFile, Match]:
    file = load(path)
    _, mismatches = play(app, file)
    assert mismatches == []
    return file, app.match(file.match)


def viewers(file: MatchFile) -> list[str]:
    return ["public", "host", *file.players]


def seen_events(match: Match, viewer: str) -> list[Event]:
    """What the game's summary is handed: the viewer's records, commands left out."""
    return [to_event(r) for r in match.records if may_see(r, viewer) and r["role"] != "command"]


def as_of(match: Match, viewer: str, round_number: int) -> dict[str, Any]:
    """The viewer's page as of the end of a round: summary and shown events."""
    return view(match, viewer, round_number)
