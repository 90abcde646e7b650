"""The auction phase of a set (rulebook section 4.2): groups, open alternating auctions, the
next-tile choice, and how each group starts. Commands: bid, fold, choose_next_tile."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import RuleViolation
from domain.games.tile_joust import events
from domain.games.tile_joust.guards import (
    check_is_the_chooser,
    check_phase_is,
    is_whole_number,
)
from domain.games.tile_joust.state import BIDDING, NEXT_TILE, Auction, State
from domain.games.tile_joust.tiles import BALANCE, LABELS, group_start, grouped_id
from domain.games.tile_joust.turn import Turn

Args = Mapping[str, Any]


# Opening groups and auctions


def open_set(turn: Turn, set_number: int) -> None:
    """Group 1 of a set starts with its Balance tile; the starter opens it (TJ-R22)."""
    state = turn.state
    turn.emit(events.group_opened(set_number, 1, colours(state, set_number, 1), BALANCE))
    turn.emit(events.auction_opened(set_number, 1, BALANCE, state.starter))


def colours(state: State, set_number: int, group: int) -> dict[str, str]:
    return {label: state.tiles[grouped_id(set_number, group, label)].colour for label in LABELS}


def open_next_auction(turn: Turn) -> None:
    """After an award or the next-tile choice: the group's next label, or the next group.
    The winner of the previous auction opens, across groups too (TJ-R22)."""
    state = turn.state
    group = state.current_group()
    if len(group.sold) == len(LABELS):
        open_group(turn, group.number + 1)
        return
    label = group.next_label if len(group.sold) == 1 else unsold(state)[0]
    turn.emit(events.auction_opened(state.stage, group.number, label, state.last_winner))


def open_group(turn: Turn, number: int) -> None:
    """The tile nearest the value of the previous group's third tile starts (TJ-R4)."""
    state = turn.state
    set_number, previous = state.stage, state.current_group()
    reference = state.tiles[grouped_id(set_number, previous.number, previous.sold[-1])].value
    values = {label: state.tiles[grouped_id(set_number, number, label)].value for label in LABELS}
    start = group_start(values, reference)
    turn.emit(
        events.group_start_computed(set_number, number, start),
        events.group_opened(set_number, number, colours(state, set_number, number), start.label),
        events.auction_opened(set_number, number, start.label, state.last_winner),
    )


def unsold(state: State) -> list[str]:
    sold = state.current_group().sold
    return [label for label in LABELS if label not in sold]


# Bidding


def can_act(state: State, player: str) -> bool:
    """The opener can open when they hold the minimum opening bid; a reply must raise."""
    auction = state.current_auction()
    chips = state.chips[player]
    if auction.high_bid is None:
        return chips >= state.setup.min_opening_bid
    return chips > auction.high_bid


def check_is_to_act(auction: Auction, player: str) -> None:
    if player != auction.to_act:
        raise RuleViolation("NOT_YOUR_TURN", f"it is {auction.to_act}'s turn to bid")


def check_amount_is_whole(amount: object) -> int:
    if not is_whole_number(amount) or amount < 0:
        raise RuleViolation("INVALID_AMOUNT", "bid a whole number of chips, 0 or more")
    return amount


def check_bid_is_above_current(state: State, amount: int) -> None:
    auction = state.current_auction()
    if auction.high_bid is None and amount < state.setup.min_opening_bid:
        raise RuleViolation(
            "BID_NOT_ABOVE_CURRENT", f"the opening bid is at least {state.setup.min_opening_bid}"
        )
    if auction.high_bid is not None and amount <= auction.high_bid:
        raise RuleViolation("BID_NOT_ABOVE_CURRENT", f"raise above {auction.high_bid}")


def check_player_can_pay(state: State, player: str, amount: int) -> None:
    if amount > state.chips[player]:
        raise RuleViolation("BID_EXCEEDS_CHIPS", f"you hold {state.chips[player]} chips")


def bid(turn: Turn, player: str, args: Args) -> None:
    state = turn.state
    check_phase_is(state, BIDDING, "bid")
    auction = state.current_auction()
    check_is_to_act(auction, player)
    amount = check_amount_is_whole(args.get("amount"))
    check_bid_is_above_current(state, amount)
    check_player_can_pay(state, player, amount)
    turn.emit(events.bid_placed(state.stage, auction.group, auction.label, player, amount))


def fold(turn: Turn, player: str, args: Args) -> None:
    state = turn.state
    check_phase_is(state, BIDDING, "fold")
    check_is_to_act(state.current_auction(), player)
    fold_for(turn, "fold")


def fold_for(turn: Turn, reason: str) -> None:
    """The player to act folds: by choice, on timeout, or because they cannot raise."""
    state = turn.state
    auction = state.current_auction()
    turn.emit(events.folded(state.stage, auction.group, auction.label, auction.to_act, reason))


def fold_automatically(turn: Turn) -> None:
    fold_for(turn, "cannot_raise")


def award_tile(turn: Turn) -> None:
    """The player who did not fold wins and pays their last bid (0 if they never bid)."""
    state = turn.state
    auction = state.current_auction()
    winner = state.other(auction.folder)
    price = auction.high_bid if auction.high_bidder == winner else 0
    chips = {**state.chips, winner: state.chips[winner] - price}
    hands = {**state.hand_counts(), winner: len(state.hand(winner)) + 1}
    turn.emit(
        events.tile_won(state.stage, auction.group, auction.label, winner, price, chips, hands),
        events.tile_value_shown(winner, auction.tile, state.tiles[auction.tile]),
    )


# The next-tile choice


def choose_next_tile(turn: Turn, player: str, args: Args) -> None:
    state = turn.state
    check_phase_is(state, NEXT_TILE, "choose_next_tile")
    check_is_the_chooser(state, player)
    label = args.get("label")
    if label not in unsold(state):
        raise RuleViolation("INVALID_TILE_CHOICE", f"choose one of {', '.join(unsold(state))}")
    choose(turn, label, by_default=False)


def choose_by_default(turn: Turn) -> None:
    """Timeout: the smaller remaining label (TJ-R5), or the larger under the variant."""
    remaining = unsold(turn.state)
    smaller = turn.state.setup.default_next_tile == "smaller"
    choose(turn, remaining[0] if smaller else remaining[-1], by_default=True)


def choose(turn: Turn, label: str, by_default: bool) -> None:
    state = turn.state
    turn.emit(
        events.next_tile_chosen(
            state.stage, state.current_group().number, label, state.chooser, by_default
        )
    )
