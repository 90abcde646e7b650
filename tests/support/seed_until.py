"""A seed match played into a store up to a step: where a test needs the match in a given
state (a tie-break open, a round about to close)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from commands.cli.matchfile import MatchFile, Step, create, load, prepare_season
from commands.service.arbiter import Arbiter

SEEDS = Path(__file__).resolve().parents[2] / "seeds"
KINGS_COURT = SEEDS / "kings_court-king-win.json"


def played_until(app: Arbiter, stop: Callable[[list[Step]], int],
                 path: Path = KINGS_COURT) -> MatchFile:
    """The seed's season and match made in `app`, and its steps before `stop(steps)` sent (the
    ones the file expects refused left out)."""
    file = load(path)
    prepare_season(app, file)
    create(app, file)
    steps = file.steps
    for step in steps[:stop(steps)]:
        if not step.expect_error:
            app.submit(file.match, step.actor, step.do, step.args)
    return file


def first(do: str) -> Callable[[list[Step]], int]:
    """Where the first step that does `do` is."""
    return lambda steps: next(i for i, s in enumerate(steps) if s.do == do)
