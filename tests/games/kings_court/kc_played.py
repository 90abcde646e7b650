"""Whole King's Court matches played through the real application on an SQLite store, and what
each viewer is shown of them, through the framework's own filter (as projections/views.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from commands.cli.matchfile import MatchFile, load, play
from commands.service.arbiter import Arbiter
from domain.decider import Event
from domain.records import may_see, shown, to_event

ROOT = Path(__file__).resolve().parents[3]
KING_WIN = ROOT / "seeds" / "kings_court-king-win.json"
TEAM_WIN = ROOT / "seeds" / "kings_court-team-win.json"
FOUR_EARLY = Path(__file__).resolve().parent / "data" / "four_early_kings.json"
MATCHES = [KING_WIN, TEAM_WIN, FOUR_EARLY]


class Played:
    """One match file played to its end: its records, and each viewer's share of them."""

    def __init__(self, app: Arbiter, path: Path) -> None:
        self.file: MatchFile = load(path)
        outcome, mismatches = play(app, self.file)
        assert mismatches == []
        self.outcome = outcome
        match = app.match(self.file.match)
        self.records: list[dict[str, Any]] = match.records
        self.seed: str = match.seed  # revealed at the end

    @property
    def players(self) -> list[str]:
        return self.file.players

    @property
    def viewers(self) -> list[str]:
        return ["public", "host", *self.players]

    @property
    def last_round(self) -> int:
        return self.records[-1]["entry"]["round"]

    def as_of(self, round_number: int | None = None) -> list[dict[str, Any]]:
        if round_number is None:
            return list(self.records)
        return [r for r in self.records if r["entry"]["round"] <= round_number]

    def seen(self, viewer: str, round_number: int | None = None) -> list[dict[str, Any]]:
        return [r for r in self.as_of(round_number) if may_see(r, viewer)]

    def hidden(self, viewer: str, round_number: int | None = None) -> list[dict[str, Any]]:
        return [r for r in self.as_of(round_number) if not may_see(r, viewer)]

    def events(self, viewer: str, round_number: int | None = None) -> list[Event]:
        """What the summary folds: the viewer's entries other than accepted commands."""
        return [to_event(r) for r in self.seen(viewer, round_number) if r["role"] != "command"]

    def shown(self, viewer: str, round_number: int | None = None) -> list[dict[str, Any]]:
        """What narrate reads: the viewer's entries as a viewer reads them."""
        return [shown(r) for r in self.seen(viewer, round_number)]


def play_all(app: Arbiter) -> dict[str, Played]:
    return {path.stem: Played(app, path) for path in MATCHES}
