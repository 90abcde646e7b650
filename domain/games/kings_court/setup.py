"""The host's setup: players, explicit role sets and draws, and the variants (rulebook 2.2).

Every check raises ValueError; the framework turns the pydantic error into `invalid_setup`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from domain.games.kings_court.roles import (
    DUKE,
    KING,
    LIST_LENGTH,
    NOBLE,
    Secrets,
    list_is_valid,
    list_view,
)
from domain.setup import SetupBase

PLAYER_COUNT = 11
TEAM_SIZE = 5
MAX_GAMES = 4
RESERVED_IDS = ("host", "system", "public")


class RoleSet(BaseModel):
    """One game's roles as the host fixes them. Owners missing from `lists` get a seeded list."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    king: str
    dukes: list[str]
    nobles: list[str]
    annoyed_duke: str
    annoyed_noble: str
    lists: dict[str, list[str]] = Field(default_factory=dict)

    def secrets(self) -> Secrets:
        roles = (
            {self.king: KING} | dict.fromkeys(self.dukes, DUKE) | dict.fromkeys(self.nobles, NOBLE)
        )
        lists = {owner: tuple(names) for owner, names in self.lists.items()}
        return Secrets(roles, self.annoyed_duke, self.annoyed_noble, lists)


class Setup(SetupBase):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    games: list[RoleSet] = Field(default_factory=list)
    king_peek_answers: list[Literal["duke", "noble"]] = Field(default_factory=list)
    tiebreak_default_picks: list[str] = Field(default_factory=list)
    annoyed_scope: Literal["all_judge_info", "pair_checks_only", "checks_and_peeks"] = (
        "all_judge_info"
    )
    allow_negative_garnets: bool = False
    tiebreak_default: Literal["random", "seat_order"] = "random"
    lists_use: Literal["judge_view", "true_roles"] = "judge_view"
    lists_may_include_king: bool = True
    ec_bonus: Literal["always", "tiebreak_only"] = "always"
    ec_majority: Literal["strict_of_party", "plurality_of_ballots"] = "strict_of_party"
    peek_uses_judge_view: bool = True

    @field_validator("games", "king_peek_answers", "tiebreak_default_picks", mode="before")
    @classmethod
    def none_means_none_given(cls, value: Any) -> Any:
        return [] if value is None else value

    @model_validator(mode="after")
    def check_everything(self) -> Setup:
        check_players(self.players)
        if len(self.games) > MAX_GAMES:
            raise ValueError(f"games: at most {MAX_GAMES} role sets, got {len(self.games)}")
        earlier_kings: list[str] = []
        for number, role_set in enumerate(self.games, start=1):
            check_role_set(self, number, role_set, earlier_kings)
            earlier_kings.append(role_set.king)
        for pick in self.tiebreak_default_picks:
            if pick not in self.players:
                raise ValueError(f"tiebreak_default_picks: {pick!r} is not a player")
        return self


def check_players(players: list[str]) -> None:
    if len(players) != PLAYER_COUNT:
        raise ValueError(f"players: King's Court needs {PLAYER_COUNT} players, got {len(players)}")
    if len(set(players)) != len(players):
        raise ValueError("players: ids must be distinct")
    for player in players:
        if not player or player in RESERVED_IDS:
            raise ValueError(f"players: {player!r} cannot be a player id")


def check_role_set(setup: Setup, number: int, role_set: RoleSet, earlier_kings: list[str]) -> None:
    where = f"games[{number - 1}]"
    players = setup.players
    if len(role_set.dukes) != TEAM_SIZE or len(role_set.nobles) != TEAM_SIZE:
        raise ValueError(f"{where}: needs {TEAM_SIZE} dukes and {TEAM_SIZE} nobles")
    named = [role_set.king, *role_set.dukes, *role_set.nobles]
    if sorted(named) != sorted(players):
        raise ValueError(f"{where}: king, dukes and nobles must name every player exactly once")
    if role_set.king in earlier_kings:
        raise ValueError(f"{where}: {role_set.king!r} was King of an earlier game")
    if role_set.annoyed_duke not in role_set.dukes:
        raise ValueError(f"{where}: annoyed_duke {role_set.annoyed_duke!r} is not a duke")
    if role_set.annoyed_noble not in role_set.nobles:
        raise ValueError(f"{where}: annoyed_noble {role_set.annoyed_noble!r} is not a noble")
    secrets = role_set.secrets()
    for owner, names in role_set.lists.items():
        check_name_list(setup, secrets, f"{where}.lists[{owner!r}]", owner, names)


def check_name_list(
    setup: Setup, secrets: Secrets, where: str, owner: str, names: list[str]
) -> None:
    if owner not in setup.players:
        raise ValueError(f"{where}: {owner!r} is not a player")
    if len(names) != LIST_LENGTH or len(set(names)) != LIST_LENGTH:
        raise ValueError(f"{where}: needs {LIST_LENGTH} distinct names")
    if owner in names or any(name not in setup.players for name in names):
        raise ValueError(f"{where}: names must be other players of the match")
    if not list_is_valid(names, list_view(secrets, setup), setup.lists_may_include_king):
        raise ValueError(
            f"{where}: needs a duke and a noble as the lists show roles"
            + ("" if setup.lists_may_include_king else ", and no king")
        )


# Each setup field in the rulebook's words (docs/games/kings_court.md), for the set-up page.
SETUP_HELP = {
    "games": "Up to 4 role sets given by hand, game 1 first (rulebook 2.4); games beyond the "
             "list are drawn from the seed.",
    "king_peek_answers": "Duke or noble: the answers given, in order, to peeks at the King; then "
                         "the seeded coin.",
    "tiebreak_default_picks": "Players picked, in order, by the tie-breaks the King leaves "
                              "undecided; then the rule below.",
    "annoyed_scope": "Where the Judge lies (KC-R3): all_judge_info, checks_and_peeks or "
                     "pair_checks_only.",
    "allow_negative_garnets": "Penalties may take more garnets than a player has (KC-R9).",
    "tiebreak_default": "The King's missing tie-break choice: random (seeded) or seat_order "
                        "(KC-R11).",
    "lists_use": "The lists' \"one Duke, one Noble\" read as the Judge shows roles "
                 "(judge_view), or by true_roles (KC-R13).",
    "lists_may_include_king": "The third name of a list may be the King (KC-R13).",
    "ec_bonus": "The election bonus counts in the EC score (always), or only separates equal "
                "vote counts (tiebreak_only) (KC-R24).",
    "ec_majority": "An EC ballot wins with a strict majority of the winning party "
                   "(strict_of_party), or with the most ballots (plurality_of_ballots) (KC-R25).",
    "peek_uses_judge_view": "Paid peeks at non-Kings see the annoyed players swapped (KC-R27).",
}
