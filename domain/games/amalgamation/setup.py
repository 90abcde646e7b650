"""The host's setup (rulebook 2.1): players, the explicit hidden setup, and the variants
(rulebook 2.2).

Every check raises ValueError; the framework turns the pydantic error into `invalid_setup`.
The host seed and the players' garnets are the framework's: `host_seed` of the match, and the
season balances handed to every command.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from domain.setup import SetupBase

PLAYER_COUNT = 6
TEAM_SIZE = 3
ROUNDS = 7
TILES_PER_ROUND = 5
ALL_TILES = tuple(range(-1, -36, -1))  # -1 ... -35
RATE_RANGE = range(5, 21)  # whole dollars 5 ... 20 per garnet
RESERVED_IDS = ("host", "system", "public")


class Variants(BaseModel):
    """Each configurable ruling (rulebook 2.2), defaulting to the ruling."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    starting_money: int = Field(default=400, ge=0)
    kd_tie_reveals_amount: bool = False  # AM-R10
    ma_rotation: Literal["tiebreak_winner_only", "every_winner"] = "tiebreak_winner_only"  # R16
    ma_streak_scoring: Literal["once_per_streak", "per_tile"] = "once_per_streak"  # AM-R19
    ti_zero_amount_eligible: bool = True  # AM-R22
    four_plus_top_tie: Literal["no_winner", "winners_without_tols"] = "no_winner"  # AM-R31
    garnet_rate_if_no_submissions: int = Field(default=13, ge=5, le=20)  # AM-R34


class Teams(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    red: list[str]
    white: list[str]


class Setup(SetupBase):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    gamewide_tiebreak: list[str] | None = None  # highest first; None: drawn (label `gt`)
    mm_winner: str | None = None
    dm_winner: str | None = None
    default_teams: Teams | None = None  # None: drawn (label `teams`)
    tile_schedule: list[list[int]] | None = None  # round by round; None: drawn (label `tiles`)
    variants: Variants = Field(default_factory=Variants)

    @model_validator(mode="after")
    def check_everything(self) -> Setup:
        check_players(self.players)
        if self.gamewide_tiebreak is not None and not is_every_player_once(
            self.gamewide_tiebreak, self.players
        ):
            raise ValueError("gamewide_tiebreak: must list the six players, each once")
        for field in ("mm_winner", "dm_winner"):
            winner = getattr(self, field)
            if winner is not None and winner not in self.players:
                raise ValueError(f"{field}: {winner!r} is not a player")
        if self.default_teams is not None and not teams_are_valid(
            self.default_teams.red, self.default_teams.white, self.players
        ):
            raise ValueError("default_teams: needs 3 red and 3 white covering all six players")
        if self.tile_schedule is not None:
            check_tile_schedule(self.tile_schedule)
        return self


def check_players(players: list[str]) -> None:
    if len(players) != PLAYER_COUNT:
        raise ValueError(f"players: The Amalgamation needs {PLAYER_COUNT}, got {len(players)}")
    if len(set(players)) != len(players):
        raise ValueError("players: ids must be distinct")
    for player in players:
        if not player or player in RESERVED_IDS:
            raise ValueError(f"players: {player!r} cannot be a player id")


def check_tile_schedule(schedule: list[list[int]]) -> None:
    if len(schedule) != ROUNDS or any(len(tiles) != TILES_PER_ROUND for tiles in schedule):
        raise ValueError(f"tile_schedule: needs {ROUNDS} lists of {TILES_PER_ROUND} tiles")
    if sorted(tile for tiles in schedule for tile in tiles) != sorted(ALL_TILES):
        raise ValueError("tile_schedule: must hold each of -1 ... -35 exactly once")


def is_every_player_once(order: object, players: list[str]) -> bool:
    """A list naming each player exactly once (anything else, of any type, is not)."""
    if not isinstance(order, list) or not all(isinstance(p, str) for p in order):
        return False
    return sorted(order) == sorted(players)


def teams_are_valid(red: object, white: object, players: list[str]) -> bool:
    """Three red and three white, together every player once."""
    if not isinstance(red, list) or not isinstance(white, list):
        return False
    return (
        len(red) == TEAM_SIZE
        and len(white) == TEAM_SIZE
        and is_every_player_once(red + white, players)
    )


def in_roster_order(players: Sequence[str], members: Sequence[str]) -> list[str]:
    """A set of players as payloads list them: in roster order."""
    return [p for p in players if p in members]


# Each setup field in the rulebook's words (docs/games/amalgamation.md), for the set-up page.
SETUP_HELP = {
    "gamewide_tiebreak": "The six players, highest first (2.3); empty: drawn from the seed.",
    "mm_winner": "The player who may set the first Minus Auction order (the last Main Match's "
                 "winner); empty: nobody (AM-R17, AM-R37).",
    "dm_winner": "The player who may pick the Kong teams (the last Death Match's winner); "
                 "empty: nobody (AM-R36, AM-R37).",
    "default_teams": "{\"red\": [3 ids], \"white\": [3 ids]}: the teams when the DM winner "
                     "picks none; empty: drawn.",
    "tile_schedule": "Seven lists of five tiles holding -1 to -35 once each, round by round; "
                     "empty: drawn (AM-R3).",
    "variants": "The configurable rulings (rulebook 2.2), as an object; each left out keeps its "
                "default: starting_money 400, kd_tie_reveals_amount false, ma_rotation "
                "tiebreak_winner_only, ma_streak_scoring once_per_streak, "
                "ti_zero_amount_eligible true, four_plus_top_tie no_winner, "
                "garnet_rate_if_no_submissions 13.",
}
