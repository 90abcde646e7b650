"""Match files: a whole match in one JSON document, with optional expectations.

The format is documented in docs/match-files.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from commands.cli.inputs import read_json
from commands.service.arbiter import Arbiter
from domain.errors import RuleViolation
from projections.results import results

FORMAT = "arbiter-match/1"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Step(Strict):
    actor: str
    do: str
    args: dict[str, Any] = Field(default_factory=dict)
    at: str | None = None
    id: str | None = None
    expect_error: str | None = None


class PlayerExpectation(Strict):
    rank: int | None = None
    tol: int | None = None
    garnets: int | None = None
    opal: int | None = None
    moe: int | None = None
    ec: bool | None = None
    dm_entrant: bool | None = None


class Expectations(Strict):
    outcome: str | None = None
    players: dict[str, PlayerExpectation] = Field(default_factory=dict)
    details: dict[str, Any] = Field(default_factory=dict)


class MatchFile(Strict):
    format: Literal["arbiter-match/1"]
    notes: str | None = None
    match: str
    season: str
    game: str
    players: list[str]
    garnets: dict[str, int] = Field(default_factory=dict)
    host_seed: str
    allow_weak_seed: bool = False
    unsigned: bool = False
    salt_key: str
    contributions: dict[str, str] = Field(default_factory=dict)
    setup: dict[str, Any] = Field(default_factory=dict)
    created_at: str | None = None
    commands: list[Step]
    expect: Expectations | None = None

    @property
    def steps(self) -> list[Step]:
        """Every step in order: each player's contribution to the seed, then the commands."""
        return [Step(actor=p, do="contribute", args={"text": t})
                for p, t in self.contributions.items()] + self.commands


def load(path: str | Path) -> MatchFile:
    return MatchFile.model_validate(read_json(path, "match file"))


def prepare_season(app: Arbiter, file: MatchFile) -> None:
    """Create the season and bring each player to the file's starting garnets."""
    try:
        app.create_season(file.season)
    except RuleViolation as error:
        if error.code != "season_exists":
            raise
    season = app.season(file.season)
    for player in file.players:
        if player not in season.balances:
            app.register(file.season, player)
        have = app.season(file.season).balances[player]["garnets"]
        want = file.garnets.get(player, 0)
        if want != have:
            app.grant(file.season, player, "garnets", want - have,
                      f"match file {file.match}: starting balance")


def play(app: Arbiter, file: MatchFile) -> tuple[dict[str, Any], list[str]]:
    """Run the file into the store; returns the results and every mismatch found."""
    prepare_season(app, file)
    return run(app, file)


def create(app: Arbiter, file: MatchFile, **season: Any) -> None:
    """The file's match, created in its season as the file sets it up."""
    app.create_match(match_id=file.match, season=file.season, game=file.game,
                     setup={"players": file.players, **file.setup}, host_seed=file.host_seed,
                     salt_key=file.salt_key, at=file.created_at,
                     allow_weak_seed=file.allow_weak_seed, unsigned=file.unsigned, **season)


def run(app: Arbiter, file: MatchFile, **season: Any) -> tuple[dict[str, Any], list[str]]:
    """Create the match in its season (`season`: a Death Match's `from_match` and `ec`, or
    `final`) and run its commands; the results and every mismatch found."""
    create(app, file, **season)
    mismatches: list[str] = []
    for number, step in enumerate(file.steps, 1):
        try:
            app.submit(file.match, step.actor, step.do, step.args, at=step.at,
                       command_id=step.id)
        except RuleViolation as error:
            if step.expect_error != error.code:
                mismatches.append(f"step {number} ({step.actor} {step.do}): refused with "
                                  f"{error.code} ({error.message}), expected "
                                  f"{step.expect_error or 'acceptance'}")
            continue
        if step.expect_error:
            mismatches.append(f"step {number} ({step.actor} {step.do}): accepted, expected "
                              f"{step.expect_error}")
    outcome = results(app.match(file.match))
    if file.expect:
        mismatches.extend(compare(file.expect, outcome))
    return outcome, mismatches


def renamed(file: MatchFile, names: dict[str, str]) -> MatchFile:
    """The same match with its players renamed: every text of the file equal to a player id
    (players, setup, commands, expectations; keys too) becomes the new name."""
    unknown = set(names) - set(file.players)
    if unknown:
        raise RuleViolation("invalid_file", f"rename: {sorted(unknown)} do not play in "
                            f"{file.match}")

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return names.get(value, value)
        if isinstance(value, list):
            return [swap(item) for item in value]
        if isinstance(value, dict):
            return {swap(key): swap(item) for key, item in value.items()}
        return value

    data = file.model_dump(exclude_none=True)
    kept = {key: data.pop(key) for key in ("format", "notes", "match", "season", "host_seed",
                                           "salt_key", "created_at", "game") if key in data}
    return MatchFile.model_validate({**swap(data), **kept})


def compare(expect: Expectations, outcome: dict[str, Any]) -> list[str]:
    found = []
    if expect.outcome is not None and expect.outcome != outcome["outcome"]:
        found.append(f"outcome: expected {expect.outcome}, got {outcome['outcome']}")
    by_player = {row["player"]: row for row in outcome["players"]}
    for player, wanted in expect.players.items():
        row = by_player.get(player)
        if row is None:
            found.append(f"{player}: not a player of this match")
            continue
        for key, value in wanted.model_dump(exclude_none=True).items():
            if row[key] != value:
                found.append(f"{player}.{key}: expected {value}, got {row[key]}")
    for key, value in expect.details.items():
        if outcome["details"].get(key) != value:
            found.append(f"details.{key}: expected {value!r}, got "
                         f"{outcome['details'].get(key)!r}")
    return found
