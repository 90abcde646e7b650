"""The host's setup: players, the bill catalog (MG-R1), the optional hidden pairing, alignments
and week-1 leads, and the variants (rulebook §3.4).

Every check raises ValueError; the framework turns the pydantic error into `invalid_setup`.
Starting garnets and the host seed are the framework's: they arrive with every command and
with `configure_match` respectively.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from domain.canonical import MAX_SAFE_INTEGER
from domain.games.merchants_guild.guild import (
    BILL_NUMBERS,
    COMBINATIONS,
    HOUSES,
    PAIR_COUNT,
    PAIRS_PER_WEEK,
    PLAYER_COUNT,
    RESOURCES,
    STARTING_RESOURCE,
)
from domain.setup import SetupBase

RESERVED_IDS = ("host", "system", "public")

House = Literal["red", "green", "blue", "black", "white"]
Resource = Literal["forges", "ships", "markets"]


class Operation(BaseModel):
    model_config = ConfigDict(
        strict=True, extra="forbid", frozen=True, populate_by_name=True, serialize_by_alias=True
    )


class Add(Operation):
    """value := max(0, value + amount)"""

    op: Literal["add"]
    house: House
    resource: Resource
    amount: int = Field(ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER)

    @field_validator("amount")
    @classmethod
    def amount_is_not_zero(cls, amount: int) -> int:
        if amount == 0:
            raise ValueError("an add needs a non-zero amount")
        return amount


class Transfer(Operation):
    """Moves min(amount, what `from` has) from one house to another."""

    op: Literal["transfer"]
    source: House = Field(alias="from")
    destination: House = Field(alias="to")
    resource: Resource
    amount: int = Field(gt=0, le=MAX_SAFE_INTEGER)

    @model_validator(mode="after")
    def houses_are_distinct(self) -> Transfer:
        if self.source == self.destination:
            raise ValueError("a transfer needs two distinct houses")
        return self


class Swap(Operation):
    """Exchanges one resource between two houses."""

    op: Literal["swap"]
    houses: list[House]
    resource: Resource

    @field_validator("houses")
    @classmethod
    def two_distinct_houses(cls, houses: list[str]) -> list[str]:
        if len(houses) != 2 or houses[0] == houses[1]:
            raise ValueError("a swap needs two distinct houses")
        return houses


class Set(Operation):
    """value := value"""

    op: Literal["set"]
    house: House
    resource: Resource
    value: int = Field(ge=0, le=MAX_SAFE_INTEGER)


Effect = Annotated[Add | Transfer | Swap | Set, Field(discriminator="op")]


class Bill(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    number: int
    title: str
    effects: list[Effect] = Field(default_factory=list)


class Setup(SetupBase):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    bills: list[Bill]
    pairs: list[list[int]] | None = None
    alignments: dict[str, list[House]] | None = None
    week1_leads: list[int] = Field(default_factory=list)
    nominate_presented: Literal["reject", "ignore"] = "reject"
    week8_selection_actions: Literal["reject", "allow"] = "reject"
    lookup_limit_per_week: int | None = Field(default=None, ge=0, le=MAX_SAFE_INTEGER)
    max_extra_investigations: int = Field(default=1, ge=0, le=MAX_SAFE_INTEGER)
    blackmail_evaluation: Literal["simultaneous", "sequential_seat_order"] = "simultaneous"
    insolvent_tax: Literal["take_all", "take_none"] = "take_all"
    all_tied_losers: Literal["all", "none"] = "all"
    bills_tol_field: Literal["payers_first", "all_then_require_payer"] = "payers_first"

    @field_validator("week1_leads", mode="before")
    @classmethod
    def none_means_no_leads(cls, value: Any) -> Any:
        return [] if value is None else value

    @model_validator(mode="after")
    def check_everything(self) -> Setup:
        check_players(self.players)
        check_catalog(self.bills)
        if self.pairs is not None:
            check_pairs(self.pairs)
        if self.alignments is not None:
            check_alignments(self.players, self.alignments)
        check_leads(self.week1_leads, self.pairs)
        return self

    def catalog(self) -> list[dict[str, Any]]:
        """The 60 bills in number order, as published at the opening (MG-R3)."""
        bills = sorted(self.bills, key=lambda bill: bill.number)
        return [bill.model_dump(mode="json", by_alias=True) for bill in bills]


def check_players(players: list[str]) -> None:
    if len(players) != PLAYER_COUNT:
        raise ValueError(f"players: the guild needs {PLAYER_COUNT} players, got {len(players)}")
    if len(set(players)) != len(players):
        raise ValueError("players: ids must be distinct")
    for player in players:
        if not player or player in RESERVED_IDS:
            raise ValueError(f"players: {player!r} cannot be a player id")


def check_catalog(bills: list[Bill]) -> None:
    numbers = sorted(bill.number for bill in bills)
    if numbers != list(BILL_NUMBERS):
        raise ValueError("bills: give exactly one entry for each bill number 1..60")
    if most_resources(bills) > MAX_SAFE_INTEGER:
        raise ValueError(
            f"bills: passing every bill could give a house more than {MAX_SAFE_INTEGER} of a "
            "resource, more than the log can hold"
        )


def most_resources(bills: list[Bill]) -> int:
    """A bound on all the houses' resources together: each bill passes at most once, a
    transfer or a swap moves what exists, an add or a set adds at most its number."""
    most = len(HOUSES) * len(RESOURCES) * STARTING_RESOURCE
    for bill in bills:
        for effect in bill.effects:
            if isinstance(effect, Add):
                most += max(0, effect.amount)
            elif isinstance(effect, Set):
                most += effect.value
    return most


def check_pairs(pairs: list[list[int]]) -> None:
    if len(pairs) != PAIR_COUNT or any(len(pair) != 2 for pair in pairs):
        raise ValueError(f"pairs: give {PAIR_COUNT} pairs of two bill numbers")
    if sorted(bill for pair in pairs for bill in pair) != list(BILL_NUMBERS):
        raise ValueError("pairs: every bill 1..60 must be in exactly one pair")


def check_alignments(players: list[str], alignments: Mapping[str, Sequence[str]]) -> None:
    if sorted(alignments) != sorted(players):
        raise ValueError("alignments: give one entry for every player and no one else")
    combinations = set()
    for player, houses in alignments.items():
        if len(houses) != 3 or len(set(houses)) != 3:
            raise ValueError(f"alignments[{player!r}]: name 3 distinct houses")
        combinations.add(tuple(house for house in HOUSES if house in houses))
    if combinations != set(COMBINATIONS):
        raise ValueError("alignments: each of the 10 combinations must be used exactly once")


def check_leads(leads: list[int], pairs: list[list[int]] | None) -> None:
    if len(leads) > PAIRS_PER_WEEK:
        raise ValueError(f"week1_leads: at most {PAIRS_PER_WEEK} lead bills")
    if any(lead not in BILL_NUMBERS for lead in leads):
        raise ValueError("week1_leads: lead bills are numbers 1..60")
    if len(set(leads)) != len(leads):
        raise ValueError("week1_leads: leads must be distinct")
    if pairs is not None:
        pair_of = {bill: index for index, pair in enumerate(pairs) for bill in pair}
        if len({pair_of[lead] for lead in leads}) != len(leads):
            raise ValueError("week1_leads: leads must come from distinct pairs")


# Each setup field in the rulebook's words (docs/games/merchants_guild.md), for the set-up page.
SETUP_HELP = {
    "bills": "The catalog: one entry {number, title, effects} for each number 1 to 60 (MG-R1).",
    "pairs": "The 30 hidden pairs of bill numbers, every bill in one pair; left out, the seed "
             "draws them (MG-R4).",
    "alignments": "Each player's 3 houses, the 10 players on the 10 combinations; left out, the "
                  "seed draws them (MG-R5).",
    "week1_leads": "0 to 3 bills, from different pairs, that lead week 1's pairs (MG-R6).",
    "nominate_presented": "A nomination or push of a bill already on a ballot: refused (reject) "
                          "or accepted with no effect (ignore) (MG-R13).",
    "week8_selection_actions": "Nominations, pushes and look-ups in week 8: refused (reject) or "
                               "accepted (allow), look-ups answered at the week-8 deadline "
                               "(MG-R14).",
    "lookup_limit_per_week": "At most this many partner look-ups per player per week; empty: no "
                             "limit (MG-R18).",
    "max_extra_investigations": "Extra investigations a player may buy in week 4 (MG-R20).",
    "blackmail_evaluation": "Victims judged at once (simultaneous) or one by one in seat order "
                            "on the gold they hold then (sequential_seat_order) (MG-R22).",
    "insolvent_tax": "A player who cannot pay the tax loses what they have (take_all) or keeps "
                     "their 0 or 1 gold (take_none) (MG-R25).",
    "all_tied_losers": "When all ten paid and hold the same gold: all lose (all), or nobody "
                       "(none) (MG-R27).",
    "bills_tol_field": "Who the bills Token of Life is ranked among: payers_first, or "
                       "all_then_require_payer (nobody gets it if the first is not a payer) "
                       "(MG-R30).",
}
