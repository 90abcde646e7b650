"""The two seed matches played into a real store, and what each viewer sees of them through the
framework's own filter (projections/views.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from commands.cli.matchfile import MatchFile, load, play
from commands.service.arbiter import Arbiter
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


def before_close(file: MatchFile, number: int) -> MatchFile:
    """The file's commands up to its `number`-th accepted deadline (or final deadline): the
    match as it stands inside that round, under its own match id."""
    closes = [index for index, step in enumerate(file.commands)
              if step.actor == "host" and step.do in ("deadline", "final_deadline")
              and step.expect_error is None]
    return file.model_copy(update={
        "match": f"{file.match}-before-close-{number}",
        "commands": file.commands[:closes[number - 1]], "expect": None})


def viewers(file: MatchFile) -> list[str]:
    return ["public", "host", *file.players]


def seen_events(match: Match, viewer: str) -> list[Event]:
    """What the game's summary is handed: the viewer's records, commands left out."""
    return [to_event(r) for r in match.records if may_see(r, viewer) and r["role"] != "command"]


def as_of(match: Match, viewer: str, round_number: int) -> dict[str, Any]:
    """The viewer's page as of the end of a round: summary and shown events."""
    return view(match, viewer, round_number)
