"""The auction at a deadline (rules 6.1, 6.2, TM-R2-R4, TM-R9): all-pay sealed bids on series A
then B, allocation in bid order, the tie rotation of the priority list, and who is owed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.games.totemic_might import events
from domain.games.totemic_might.bidding import can_bid, current_bet
from domain.games.totemic_might.draws import Draw, draw
from domain.games.totemic_might.grid import GARNET, SERIES, series_items
from domain.games.totemic_might.state import State
from domain.games.totemic_might.turn import Turn


def run_auction(turn: Turn) -> None:
    """Step 3 and 4 of an auction deadline."""
    state = turn.state
    bids = {series: effective_bids(state, series) for series in SERIES}  # chips before paying
    gained_a_totem: set[str] = set()
    for series in SERIES:
        allocation = resolve_series(turn, series, bids[series])
        gained_a_totem.update(p for p, item in allocation.items() if item not in (None, GARNET))
    chips = {
        player: state.chips[player] - sum(bids[series].get(player, 0) for series in SERIES)
        for player in state.players
    }
    turn.emit(events.chips_updated(state.round, chips))
    turn.emit(events.priority_list_updated(state.round, list(turn.state.priority)))
    owed = [player for player in state.players if player not in gained_a_totem]
    turn.emit(events.spirit_totems_owed(state.round, owed))


def effective_bids(state: State, series: str) -> dict[str, int]:
    """Every player who can bid on the series, with their bet or the default minimum."""
    return {
        player: current_bet(state, player, series)
        for player in state.players
        if can_bid(state, player, series)
    }


def bid_order(priority: Sequence[str], bids: Mapping[str, int]) -> list[str]:
    """Highest bid first; equal bids in priority order (the sort is stable)."""
    by_priority = [player for player in priority if player in bids]
    return sorted(by_priority, key=lambda player: -bids[player])


def tie_groups(order: Sequence[str], bids: Mapping[str, int]) -> list[list[str]]:
    """Runs of two or more equal bids, highest bid first."""
    groups: list[list[str]] = []
    for player in order:
        if groups and bids[groups[-1][0]] == bids[player]:
            groups[-1].append(player)
        else:
            groups.append([player])
    return [group for group in groups if len(group) > 1]


def rotate(priority: Sequence[str], groups: list[list[str]], first_only: bool) -> list[str]:
    """Winners of a tie by priority move to the bottom, one after the other (TM-R4): all but the
    last of each group, or only the first with `tie_rotation = first_only`."""
    rotated = list(priority)
    for group in groups:
        for player in group[:1] if first_only else group[:-1]:
            rotated.remove(player)
            rotated.append(player)
    return rotated


def resolve_series(turn: Turn, series: str, bids: Mapping[str, int]) -> dict[str, str | None]:
    state = turn.state
    order = bid_order(state.priority, bids)
    first_only = state.setup.tie_rotation == "first_only"
    after = rotate(state.priority, tie_groups(order, bids), first_only)
    available = series_items(state.series[series])
    taken: dict[str, str | None] = dict.fromkeys(state.players)
    draws: list[Draw] = []
    for player in order:
        if not available:
            break
        pick_order = state.window.orders.get(player, {}).get(series)
        if pick_order is not None:
            item = next(item for item in pick_order if item in available)
        else:
            drawn = draw(state.setup, state.seed, available, "pick", state.round, series, player)
            draws.append(drawn)
            item = drawn.outcome
        available.remove(item)
        taken[player] = item
    turn.emit(events.series_bids_recorded(
        state.round, series, bids=dict(bids), order=order, priority_before=list(state.priority),
        priority_after=after, draws=[drawn.record() for drawn in draws],
    ))
    garnet_taker = next((p for p, item in taken.items() if item == GARNET), None)
    turn.emit(events.series_resolved(state.round, series, taken, garnet_taker))
    return taken
