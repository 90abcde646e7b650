"""The two seed matches through the real match aggregate (domain.match.Match, no store): played
to the end, or stopped just before a chosen step, so that a test can send one more command."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from commands.cli.matchfile import MatchFile, Step, load
from domain.decider import Command
from domain.match import Match

SEEDS = Path(__file__).resolve().parents[3] / "seeds"
DM_SEED = SEEDS / "tile_joust-dm-ec-outscores.json"
FM_SEED = SEEDS / "tile_joust-fm-equaliser-tie.json"


def configured(file: MatchFile) -> Match:
    match = Match.configure(
        match_id=file.match,
        season=file.season,
        game_id=file.game,
        setup={"players": file.players, **file.setup},
        host_seed=file.host_seed,
        salt_key=file.salt_key,
        garnets=file.garnets,
        at=file.created_at,
        allow_weak_seed=file.allow_weak_seed,
    )
    for player, text in file.contributions.items():
        match.handle(Command("contribute", player, {"text": text}))
    return match


def played(path: Path, stop: Callable[[Step], bool] | None = None) -> Match:
    """The seed's accepted commands in order (its refusals left out), up to the first step for
    which `stop` holds (that step is not sent), or to the end."""
    file = load(path)
    match = configured(file)
    for step in file.commands:
        if stop is not None and stop(step):
            return match
        if step.expect_error is None:
            match.handle(Command(step.do, step.actor, step.args, file.garnets), at=step.at)
    assert stop is None, "the seed has no such step"
    return match


def before(name: str, actor: str | None = None, nth: int = 1) -> Callable[[Step], bool]:
    """Stops before the nth accepted `name` command (of `actor`, if given)."""
    seen = 0

    def stop(step: Step) -> bool:
        nonlocal seen
        if step.do != name or step.expect_error or actor not in (None, step.actor):
            return False
        seen += 1
        return seen == nth

    return stop
