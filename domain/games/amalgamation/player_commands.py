"""The players' commands (rulebook 4.2-4.4): their own checks, after the common ones of decide,
in the order of rulebook 4.6."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import RuleViolation
from domain.games.amalgamation import events
from domain.games.amalgamation.draws import ROLES
from domain.games.amalgamation.guards import (
    Args,
    check_fields_are_present,
    check_is_a_list,
    check_is_an_integer,
    check_is_an_object,
    check_is_not_negative,
)
from domain.games.amalgamation.setup import (
    RATE_RANGE,
    in_roster_order,
    is_every_player_once,
    teams_are_valid,
)
from domain.games.amalgamation.state import State, Submission
from domain.games.amalgamation.turn import Turn

AMOUNTS = ("kd_contribution", "invest", "donate", "ct_bet")
ROUND_FIELDS = ("round", "kd_contribution", "ma_bids", "invest", "donate", "ct_role", "ct_bet")
EXCHANGE = "garnets_to_exchange"


# submit_round


def submit_round(turn: Turn, player: str, args: Args) -> None:
    """The combined, replaceable, all-or-nothing round submission (AM-R5)."""
    state = turn.state
    check_fields_are_present(args, ROUND_FIELDS)
    bids = given_bids(check_is_an_object(args["ma_bids"], "ma_bids"))
    exchange = 0 if args.get(EXCHANGE) is None else args[EXCHANGE]
    for field in ("round", *AMOUNTS):
        check_is_an_integer(args[field], field)
    for tile, bid in bids.items():
        check_is_an_integer(bid, f"the bid on {tile}")
    check_is_an_integer(exchange, EXCHANGE)
    check_round_is_open(state, args["round"])
    for field in AMOUNTS:
        check_is_not_negative(args[field], field)
    check_is_not_negative(exchange, EXCHANGE)
    check_role_exists(args["ct_role"])
    check_bids_name_this_rounds_tiles(state, bids)
    check_every_tile_has_a_bid(state, bids)
    submission = Submission(
        kd_contribution=args["kd_contribution"],
        ma_bids={tile: bids[str(tile)] for tile in state.tiles},
        invest=args["invest"],
        donate=args["donate"],
        ct_role=args["ct_role"],
        ct_bet=args["ct_bet"],
        garnets_to_exchange=exchange,
    )
    check_holds_the_garnets(turn, player, exchange)
    check_can_afford(state, player, submission)
    fields = {
        "kd_contribution": submission.kd_contribution,
        "ma_bids": events.bids_as_json(submission.ma_bids),
        "invest": submission.invest,
        "donate": submission.donate,
        "ct_role": submission.ct_role,
        "ct_bet": submission.ct_bet,
        EXCHANGE: exchange,
        "spend": submission.spend,
    }
    turn.emit(
        events.round_submission_accepted(
            player, state.round, fields, state.reserved_garnets(player)
        )
    )


def given_bids(bids: Mapping[Any, Any]) -> dict[Any, Any]:
    """The bids actually given: a `null` bid counts as no bid at all."""
    return {tile: bid for tile, bid in bids.items() if bid is not None}


def check_round_is_open(state: State, round_number: int) -> None:
    if round_number != state.round:
        raise RuleViolation("wrong_round", f"round {state.round} is open, not {round_number}")


def check_role_exists(role: object) -> None:
    if not isinstance(role, str) or role not in ROLES:
        raise RuleViolation("invalid_role", f"ct_role must be one of {', '.join(ROLES)}")


def check_bids_name_this_rounds_tiles(state: State, bids: Mapping[Any, Any]) -> None:
    names = [str(tile) for tile in state.tiles]
    for key in bids:
        if not isinstance(key, str) or key not in names:
            raise RuleViolation(
                "ma_unknown_tile", f"{key!r} is not a tile of this round ({', '.join(names)})"
            )


def check_every_tile_has_a_bid(state: State, bids: Mapping[Any, Any]) -> None:
    for tile in state.tiles:
        if str(tile) not in bids:
            raise RuleViolation("ma_bid_missing", f"tile {tile} has no bid")


def check_holds_the_garnets(turn: Turn, player: str, exchange: int) -> None:
    """The live season balance, plus what this player's replaced submission had taken."""
    held = max(turn.balance(player), 0) + turn.state.reserved_garnets(player)
    if exchange > held:
        raise RuleViolation("insufficient_garnets", f"you hold {held} garnets, not {exchange}")


def check_can_afford(state: State, player: str, submission: Submission) -> None:
    """AM-R6: no spending into debt; the exchange's money counts for this round."""
    available = state.balances[player] + submission.garnets_to_exchange * state.garnet_rate
    if submission.spend > available:
        raise RuleViolation(
            "insufficient_funds", f"this spends ${submission.spend}; you can spend ${available}"
        )


# The pre-game twists


def submit_garnet_rate(turn: Turn, player: str, args: Args) -> None:
    check_fields_are_present(args, ("rate",))
    rate = check_is_an_integer(args["rate"], "rate")
    if rate not in RATE_RANGE:
        raise RuleViolation("rate_out_of_range", "the rate is a whole number from 5 to 20")
    turn.emit(events.garnet_rate_submitted(player, rate))


def submit_ma_order(turn: Turn, player: str, args: Args) -> None:
    check_fields_are_present(args, ("order",))
    order = check_is_a_list(args["order"], "order")
    if not is_every_player_once(order, turn.state.players):
        raise RuleViolation("invalid_order", "the order must name the six players, each once")
    turn.emit(events.ma_order_submitted(player, list(order)))


def submit_teams(turn: Turn, player: str, args: Args) -> None:
    check_fields_are_present(args, ("red", "white"))
    red = check_is_a_list(args["red"], "red")
    white = check_is_a_list(args["white"], "white")
    players = turn.state.players
    if not teams_are_valid(red, white, players):
        raise RuleViolation("invalid_teams", "three red and three white, covering all six")
    turn.emit(
        events.teams_submitted(
            player, in_roster_order(players, red), in_roster_order(players, white)
        )
    )


# The EC decision window


def choose_ec(turn: Turn, player: str, args: Args) -> None:
    check_fields_are_present(args, ("candidate",))
    candidate = args["candidate"]
    candidates = turn.state.ending().candidates
    if not isinstance(candidate, str) or candidate not in candidates:
        raise RuleViolation(
            "invalid_ec_choice", f"choose one of the tied players: {', '.join(candidates)}"
        )
    turn.emit(events.ec_chosen(player, candidate))
