"""The amalgamation seed (360 entries, a round signed every ~45 from entry 26 on) played into
a store in stages, so a test can publish its log as it grows: past a partial tile, past the
first full one, to the end."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from commands.cli.matchfile import MatchFile, create, load, prepare_season
from commands.service.arbiter import Arbiter

SEED = Path(__file__).resolve().parents[2] / "seeds" / "amalgamation-winner-chooses-ec.json"
# Steps played before each stage: signed at 26 entries, at 168, at 294 (past tile 0), and the
# end (360).
STAGES = (22, 27, 30, None)


def stages(app: Arbiter) -> Iterator[MatchFile]:
    """The seed's season and match made in `app`, then its steps played up to each stage in
    turn, the file yielded at each (the steps the file expects refused left out)."""
    file = load(SEED)
    prepare_season(app, file)
    create(app, file)
    done = 0
    for stop in STAGES:
        for step in file.steps[done:stop]:
            if not step.expect_error:
                app.submit(file.match, step.actor, step.do, step.args)
        done = len(file.steps) if stop is None else stop
        yield file
