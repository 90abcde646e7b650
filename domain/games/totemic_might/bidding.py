"""Bets and pick orders for the open round's two series (rules 4.1, 4.2, 5, TM-R1, TM-R5-R7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import RuleViolation
from domain.games.totemic_might import events
from domain.games.totemic_might.grid import SERIES, series_items
from domain.games.totemic_might.state import State
from domain.games.totemic_might.turn import Turn

Args = Mapping[str, Any]


def can_bid(state: State, player: str, series: str) -> bool:
    """One minimum bet for A, two for both: with 1 chip only A, with 0 chips neither (TM-R7)."""
    needed = state.setup.bet_min_per_series * (1 if series == "A" else 2)
    return state.chips[player] >= needed


def current_bet(state: State, player: str, series: str) -> int:
    """The submitted bet, else the default minimum if the player can bid on it, else 0."""
    submitted = state.window.bets.get(player, {}).get(series)
    if submitted is not None:
        return submitted
    return state.setup.bet_min_per_series if can_bid(state, player, series) else 0


def other_series(series: str) -> str:
    return "B" if series == "A" else "A"


# Guards


def check_series_is_known(series: object) -> str:
    if not isinstance(series, str) or series not in SERIES:
        raise RuleViolation("UNKNOWN_SERIES", "series is A or B")
    return series


def check_amount_is_an_integer(amount: object) -> int:
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise RuleViolation("INVALID_AMOUNT", "the amount is a whole number of chips")
    return amount


def check_has_chips_to_bid(state: State, player: str) -> None:
    if not can_bid(state, player, "A"):
        raise RuleViolation("INSUFFICIENT_CHIPS", "you have no chips to bid with")


def check_amount_within_series_limits(state: State, amount: int) -> None:
    setup = state.setup
    if amount < setup.bet_min_per_series:
        raise RuleViolation("BET_BELOW_MIN", f"bet at least {setup.bet_min_per_series}")
    if amount > setup.bet_max_per_series:
        raise RuleViolation("BET_ABOVE_SERIES_MAX", f"bet at most {setup.bet_max_per_series}")


def check_can_bid_on(state: State, player: str, series: str) -> None:
    if not can_bid(state, player, series):
        raise RuleViolation("INSUFFICIENT_CHIPS", "with this few chips you can bid on A only")


def check_round_total(state: State, player: str, total: int) -> None:
    if total > state.setup.bet_max_per_round:
        raise RuleViolation("ROUND_BET_LIMIT",
                            f"A and B together at most {state.setup.bet_max_per_round}")
    if total > state.chips[player]:
        raise RuleViolation("INSUFFICIENT_CHIPS", f"you have {state.chips[player]} chips")


def check_order_ranks_all_six(state: State, series: str, order: object) -> list[str]:
    items = series_items(state.series[series])
    if (
        not isinstance(order, list)
        or not all(isinstance(item, str) for item in order)
        or sorted(order) != sorted(items)
    ):
        raise RuleViolation("INVALID_PICK_ORDER",
                            f"rank each of {', '.join(items)} exactly once")
    return order


# Commands


def place_bet(turn: Turn, player: str, args: Args) -> None:
    state = turn.state
    series = check_series_is_known(args.get("series"))
    amount = check_amount_is_an_integer(args.get("amount"))
    check_has_chips_to_bid(state, player)
    check_amount_within_series_limits(state, amount)
    check_can_bid_on(state, player, series)
    check_round_total(state, player, amount + current_bet(state, player, other_series(series)))
    turn.emit(events.bet_placed(state.round, player, series, amount))


def set_pick_order(turn: Turn, player: str, args: Args) -> None:
    state = turn.state
    series = check_series_is_known(args.get("series"))
    order = check_order_ranks_all_six(state, series, args.get("order"))
    turn.emit(events.pick_order_set(state.round, player, series, list(order)))
