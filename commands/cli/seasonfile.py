"""Season files: a whole season in one JSON document, with optional expectations.

A season file registers its players, grants their opening purses, then runs its steps in order:
matches (inline like a match file, or a match file of the same folder with its players
renamed), Death Matches from a Main Match, the Final, DMOs the host records, trades, grants and
host rulings. The format is documented in docs/match-files.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator

from commands.cli.inputs import read_json
from commands.cli.matchfile import MatchFile, Strict, load, renamed, run
from commands.service.arbiter import Arbiter
from commands.service.outcomes import Grant
from domain.errors import RuleViolation
from projections.standings import standings

FORMAT = "arbiter-season/1"


class GrantStep(Strict):
    player: str
    amount: int
    asset: str = "garnets"
    reason: str


class MatchStep(Strict):
    """A match of the season: `file` (a match file beside the season file, its players
    renamed by `rename`) or the match file's own fields inline; `from`/`ec` make it a Death
    Match, `final` the Final Match, and then the players come from the season."""

    match: str
    file: str | None = None
    rename: dict[str, str] = Field(default_factory=dict)
    inline: dict[str, Any] | None = None
    from_: str | None = Field(default=None, alias="from")
    ec: str | None = None
    final: bool = False

    @model_validator(mode="after")
    def check_one_source(self) -> MatchStep:
        if (self.file is None) == (self.inline is None):
            raise ValueError("a match step gives a match file or the match inline")
        return self


class TransferStep(Strict):
    giver: str
    receiver: str
    amount: int
    reason: str = "trade"


class DmoStep(Strict):
    match: str
    dmo: str
    ec: str | None = None
    reason: str


class RuleStep(Strict):
    player: str
    reason: str
    changes: dict[str, int] = Field(default_factory=dict)
    status: Literal["eliminated", "reinstated"] | None = None


class Step(Strict):
    """One of: a match, a DMO, a trade, grants, a ruling; `at` is the time it states."""

    at: str | None = None
    match: MatchStep | None = None
    dmo: DmoStep | None = None
    transfer: TransferStep | None = None
    grants: list[GrantStep] | None = None
    rule: RuleStep | None = None
    expect_error: str | None = None

    @model_validator(mode="after")
    def check_one_step(self) -> Step:
        given = [k for k in ("match", "dmo", "transfer", "grants", "rule")
                 if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("a step is one of match, dmo, transfer, grants, rule")
        return self


class PlayerExpectation(Strict):
    status: Literal["in", "out", "champion", "runner_up"] | None = None
    left_in: str | None = None
    tol: int | None = None
    garnets: int | None = None
    opal: int | None = None
    moe: int | None = None
    ec: int | None = None


class SeasonExpectations(Strict):
    champion: str | None = None
    remaining: list[str] | None = None
    players: dict[str, PlayerExpectation] = Field(default_factory=dict)


class SeasonFile(Strict):
    format: Literal["arbiter-season/1"]
    notes: str | None = None
    season: str
    created_at: str | None = None
    players: list[str]
    grants: list[GrantStep] = Field(default_factory=list)
    steps: list[Step]
    expect: SeasonExpectations | None = None


def load_season(path: str | Path) -> SeasonFile:
    return SeasonFile.model_validate(read_json(path, "season file"))


def play_season(app: Arbiter, file: SeasonFile, folder: Path
                ) -> tuple[dict[str, Any], list[str]]:
    """Run the season file into the store: the host's view of the season at the end, and
    every mismatch found (each match's own expectations, each step's, the season's)."""
    app.create_season(file.season, at=file.created_at)
    app.register_all(file.season, file.players, at=file.created_at)
    if file.grants:
        app.grant_all(file.season, [Grant(g.player, g.amount, g.asset, g.reason)
                                    for g in file.grants], at=file.created_at)
    mismatches: list[str] = []
    for number, step in enumerate(file.steps, 1):
        try:
            found = take(app, file.season, step, folder)
        except RuleViolation as error:
            if step.expect_error != error.code:
                mismatches.append(f"step {number}: refused with {error.code} "
                                  f"({error.message}), expected "
                                  f"{step.expect_error or 'acceptance'}")
            continue
        if step.expect_error:
            mismatches.append(f"step {number}: accepted, expected {step.expect_error}")
        where = f" ({step.match.match})" if step.match is not None else ""  # only a match finds
        mismatches.extend(f"step {number}{where}: {line}" for line in found)
    outcome = standings(app.season(file.season), "host")
    if file.expect:
        mismatches.extend(compare(file.expect, outcome))
    return outcome, mismatches


def take(app: Arbiter, season: str, step: Step, folder: Path) -> list[str]:
    """Run one step; the mismatches of a match step's own expectations."""
    if step.match is not None:
        return play_match(app, season, step.match, folder)
    if step.dmo is not None:
        d = step.dmo
        app.record_dmo(season, d.match, d.dmo, d.reason, ec=d.ec, at=step.at)
    elif step.transfer is not None:
        t = step.transfer
        app.transfer(season, t.giver, t.receiver, t.amount, t.reason, at=step.at)
    elif step.grants is not None:
        app.grant_all(season, [Grant(g.player, g.amount, g.asset, g.reason)
                               for g in step.grants], at=step.at)
    else:
        r = step.rule
        assert r is not None  # a step is one of the five (check_one_step)
        app.rule(season, r.player, r.reason, changes=r.changes, status=r.status, at=step.at)
    return []


def play_match(app: Arbiter, season: str, step: MatchStep, folder: Path) -> list[str]:
    if step.file is not None:
        base = load(folder / step.file)
        file = renamed(base, step.rename) if step.rename else base
    else:
        assert step.inline is not None  # a file or the match inline (check_one_source)
        file = MatchFile.model_validate({"format": "arbiter-match/1", "season": season,
                                         "match": step.match, **step.inline})
    file = file.model_copy(update={"match": step.match, "season": season})
    _, mismatches = run(app, file, from_match=step.from_, ec=step.ec, final=step.final)
    return mismatches


def compare(expect: SeasonExpectations, outcome: dict[str, Any]) -> list[str]:
    found = []
    if expect.champion is not None and expect.champion != outcome["champion"]:
        found.append(f"champion: expected {expect.champion}, got {outcome['champion']}")
    if expect.remaining is not None and expect.remaining != outcome["remaining"]:
        found.append(f"remaining: expected {expect.remaining}, got {outcome['remaining']}")
    rows = {row["player"]: row for row in outcome["players"]}
    for player, wanted in expect.players.items():
        row = rows.get(player)
        if row is None:
            found.append(f"{player}: not in the season")
            continue
        for key, value in wanted.model_dump(exclude_none=True).items():
            if row[key] != value:
                found.append(f"{player}.{key}: expected {value}, got {row[key]}")
    return found
