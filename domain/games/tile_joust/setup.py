"""The host's setup: two players, the variant, its roles, the explicit hidden setup (orderings,
item allocation) and the options of rulebook section 3.1, each defaulting to its ruling.

Every check raises ValueError; the framework turns the pydantic error into `invalid_setup`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from domain.canonical import MAX_SAFE_INTEGER
from domain.setup import SetupBase

DEATH_MATCH, FINAL_MATCH = "death_match", "final_match"
TILE_INVERSION, EQUALISER, CONCEAL = "tile_inversion", "equaliser", "conceal"
ITEMS = (TILE_INVERSION, EQUALISER, CONCEAL)  # rulebook 2.3's order: the pick default first
PLAYER_COUNT = 2
RESERVED_IDS = ("host", "system", "public")
# Options are bounded by what the log holds (2^53 - 1); a typo of a million sets would stall
# the opening, which draws every set.
MOST_SETS = 99

Item = Literal["tile_inversion", "equaliser", "conceal"]


class Setup(SetupBase):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    variant: Literal["death_match", "final_match"]
    dmo: str | None = None  # DM: the starter; the other player is the EC
    first_picker: str | None = None  # FM: picks one item, the other player gets two
    item_allocation: dict[str, list[Item]] | None = None  # FM: instead of the pick
    orderings: list[list[int]] = Field(default_factory=list)  # set 1, 2, ...; the rest drawn
    starting_chips: int = Field(90, ge=0, le=MAX_SAFE_INTEGER)
    sets: int = Field(3, ge=1, le=MOST_SETS)
    joust_tile_cap: int = Field(5, ge=1, le=MAX_SAFE_INTEGER)
    turn_timeout_s: int = Field(30, ge=1, le=MAX_SAFE_INTEGER)
    min_opening_bid: int = Field(0, ge=0, le=MAX_SAFE_INTEGER)
    default_next_tile: Literal["smaller", "larger"] = "smaller"
    fm_leftover_default: Literal["keep_higher", "keep_lower"] = "keep_higher"
    inversion_colour: Literal["follows_value", "unchanged"] = "follows_value"
    conceal_scope: Literal["all_tiles", "own_tiles"] = "all_tiles"

    @property
    def final_match(self) -> bool:
        return self.variant == FINAL_MATCH

    def tile_values(self) -> list[int]:
        """DM: 1..13; FM: 0..13 (TJ-R21)."""
        return list(range(0 if self.final_match else 1, 14))

    def config(self) -> dict[str, int | str]:
        """The options of rulebook section 3.1 as published at the opening."""
        return {
            "starting_chips": self.starting_chips,
            "sets": self.sets,
            "joust_tile_cap": self.joust_tile_cap,
            "turn_timeout_s": self.turn_timeout_s,
            "min_opening_bid": self.min_opening_bid,
            "default_next_tile": self.default_next_tile,
            "fm_leftover_default": self.fm_leftover_default,
            "inversion_colour": self.inversion_colour,
            "conceal_scope": self.conceal_scope,
        }

    @model_validator(mode="after")
    def check_everything(self) -> Setup:
        check_players(self.players)
        if self.final_match:
            check_final_match_roles(self)
        else:
            check_death_match_roles(self)
        check_orderings(self)
        return self


def check_players(players: list[str]) -> None:
    if len(players) != PLAYER_COUNT or len(set(players)) != PLAYER_COUNT:
        raise ValueError("players: Tile Joust needs 2 distinct players")
    for player in players:
        if not player or player in RESERVED_IDS:
            raise ValueError(f"players: {player!r} cannot be a player id")


def check_death_match_roles(setup: Setup) -> None:
    if setup.dmo not in setup.players:
        raise ValueError("dmo: the Death Match needs its DMO, one of the two players")
    if setup.first_picker is not None or setup.item_allocation is not None:
        raise ValueError("first_picker, item_allocation: the Death Match has no items")


def check_final_match_roles(setup: Setup) -> None:
    if setup.dmo is not None:
        raise ValueError("dmo: the Final Match has no DMO; the Equaliser holder starts")
    if setup.first_picker is not None and setup.first_picker not in setup.players:
        raise ValueError(f"first_picker: {setup.first_picker!r} is not a player")
    if setup.item_allocation is None:
        if setup.first_picker is None:
            raise ValueError("first_picker: name the first picker or fix the item_allocation")
        return
    check_allocation(setup, setup.item_allocation)


def check_allocation(setup: Setup, allocation: Mapping[str, Sequence[Item]]) -> None:
    if sorted(allocation) != sorted(setup.players):
        raise ValueError("item_allocation: give the items of both players")
    handed = [item for items in allocation.values() for item in items]
    if sorted(handed) != sorted(ITEMS):
        raise ValueError("item_allocation: hand out each of the 3 items exactly once")
    single = [player for player in setup.players if len(allocation[player]) == 1]
    if not single:
        raise ValueError("item_allocation: one player holds 1 item, the other 2")
    if setup.first_picker is not None and single != [setup.first_picker]:
        raise ValueError("item_allocation: the first picker holds the single item")


def check_orderings(setup: Setup) -> None:
    if len(setup.orderings) > setup.sets:
        raise ValueError(f"orderings: at most one per set ({setup.sets})")
    values = setup.tile_values()
    for number, ordering in enumerate(setup.orderings, start=1):
        if sorted(ordering) != values:
            raise ValueError(
                f"orderings[{number - 1}]: must be a permutation of {values[0]}..{values[-1]}"
            )


# Each setup field in the rulebook's words (docs/games/tile_joust.md), for the set-up page.
SETUP_HELP = {
    "variant": "death_match or final_match (a Death Match and the Final are made from the "
               "season's page).",
    "dmo": "Death Match only: the DMO, one of the two players.",
    "first_picker": "Final only: the player who picks an item.",
    "item_allocation": "Final only: {player: [items]} instead of the pick (each item once, one "
                       "player 1, the other 2).",
    "orderings": "The host's orderings of sets 1, 2, ...: each a permutation of 1..13 (Death "
                 "Match) or 0..13 (Final); sets not given are drawn (3.3).",
    "starting_chips": "Chips of each player.",
    "sets": "Sets before the final joust (1 to 99).",
    "joust_tile_cap": "Tiles one player may put into one joust.",
    "turn_timeout_s": "Seconds per bidding turn, joust step and other decision (TJ-R13); the "
                      "host's timeout enforces it.",
    "min_opening_bid": "The least first bid of an auction (TJ-R3).",
    "default_next_tile": "Next-tile choice on timeout (TJ-R5): smaller, or larger.",
    "fm_leftover_default": "Final's leftover choice on timeout (TJ-R16): keep_higher, or "
                           "keep_lower.",
    "inversion_colour": "Colour after Tile Inversion (TJ-R17): follows_value, or unchanged.",
    "conceal_scope": "Whose groups Conceal hides (TJ-R18): all_tiles, or own_tiles.",
}
