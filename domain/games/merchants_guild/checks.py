"""Guards shared by the players' commands. Each raises the rulings' error code, and none
depends on anything the actor does not know (rulebook §5.5)."""

from __future__ import annotations

from typing import TypeGuard

from domain.errors import RuleViolation
from domain.games.merchants_guild.guild import BILL_NUMBERS, DIRECTIONS, WEEKS
from domain.games.merchants_guild.state import State
from domain.games.merchants_guild.turn import Turn


def is_bill_number(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value in BILL_NUMBERS


def check_is_bill(value: object) -> int:
    if not is_bill_number(value):
        raise RuleViolation("unknown_bill", f"{value!r} is not a bill number 1..60")
    return value


def check_week_is(state: State, week: int) -> None:
    if state.week != week:
        raise RuleViolation(
            "wrong_week", f"this is open in week {week} only; it is week {state.week}"
        )


def check_selection_can_still_matter(state: State) -> None:
    """Nominations, pushes and look-ups are refused in week 8 (MG-R14) unless the variant
    allows them."""
    if state.week == WEEKS and state.setup.week8_selection_actions == "reject":
        raise RuleViolation("wrong_week", "no ballot follows week 8")


def check_direction(value: object) -> str:
    if not isinstance(value, str) or value not in DIRECTIONS:
        raise RuleViolation("invalid_direction", "direction is forward or back")
    return value


def check_bill_is_eligible(state: State, bill: int) -> None:
    """Presented bills are public, so refusing them leaks nothing (MG-R13)."""
    if bill in state.presented and state.setup.nominate_presented == "reject":
        raise RuleViolation("bill_not_eligible", f"bill {bill} has been presented already")


def check_is_target(state: State, value: object) -> str:
    if not isinstance(value, str) or value not in state.players:
        raise RuleViolation("unknown_target", f"{value!r} is not a player of this match")
    return value


def check_can_afford(turn: Turn, player: str, price: int) -> None:
    if turn.balance(player) < price:
        raise RuleViolation("insufficient_garnets", f"this costs {price} garnets")
