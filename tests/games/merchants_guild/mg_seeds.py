"""The two seed matches played into a real log, and each viewer's share of it, cut the way the
projections cut it (domain.records.may_see, shown, to_event; projections/views.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from commands.cli.matchfile import MatchFile, load, play
from commands.service.arbiter import Arbiter
from domain.decider import Event
from domain.records import may_see, shown, to_event
from tests.support.host_key import SIGNER

SEEDS = Path(__file__).resolve().parents[3] / "seeds"
SEED_FILES = sorted(SEEDS.glob("merchants_guild-*.json"))
RUBY_RISES = SEEDS / "merchants_guild-ruby-rises.json"
BLACKMAIL = SEEDS / "merchants_guild-blackmail.json"


def played(path: Path, directory: Path) -> tuple[MatchFile, list[dict[str, Any]]]:
    """The file played into a fresh SQLite store: the file and the match's records."""
    app = Arbiter(f"sqlite:///{directory}/arbiter.db", signer=SIGNER)
    file = load(path)
    outcome, mismatches = play(app, file)
    assert mismatches == [] and outcome["ended"]
    return file, app.match(file.match).records


def viewers(file: MatchFile) -> list[str]:
    return ["public", "host", *file.players]


def as_of(records: list[dict[str, Any]], round: int | None) -> list[dict[str, Any]]:
    return [r for r in records if round is None or r["entry"]["round"] <= round]


def facts(records: list[dict[str, Any]], viewer: str) -> list[Event]:
    """What the viewer's summary is folded from: every entry they may see but commands."""
    return [to_event(r) for r in records if may_see(r, viewer) and r["role"] != "command"]


def entries(records: list[dict[str, Any]], viewer: str) -> list[dict[str, Any]]:
    """What narrate reads: every entry the viewer may see, as shown to them."""
    return [shown(r) for r in records if may_see(r, viewer)]
