"""evolve(state, event) -> state: pure and total, reads only the event record, never draws.

Event data may come back from storage as plain JSON (lists, string keys), so every handler
reads lists and builds its own tuples and dicts. Kinds without a handler change nothing.
A new auction, leftover choice, item window or joust opens a new round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from domain.decider import Event
from domain.games.tile_joust.setup import CONCEAL
from domain.games.tile_joust.state import (
    AUCTIONS_DONE,
    BEFORE_JOUST,
    BETWEEN_AUCTIONS,
    BETWEEN_SETS,
    BIDDING,
    ITEM_PICK,
    ITEM_WINDOW,
    JOUST_PHASE_START,
    JOUST_STEP,
    LEFTOVER_CHOICE,
    NEXT_TILE,
    OVER,
    SOLD,
    Auction,
    Group,
    ItemWindow,
    Joust,
    Result,
    State,
    Use,
)
from domain.games.tile_joust.tiles import FINAL, GROUPS, LABELS, REMAINING, deal, grouped_id

Data = Mapping[str, Any]


def evolve(state: State, event: Event) -> State:
    handler = HANDLERS.get(event.kind)
    return handler(state, event.data) if handler else state


def _next_round(state: State, **changes: Any) -> State:
    return replace(state, round=state.round + 1, **changes)


def _with_tile(
    hands: Mapping[str, tuple[str, ...]], player: str, tile: str
) -> dict[str, tuple[str, ...]]:
    return {**hands, player: (*hands.get(player, ()), tile)}


def _without_tile(
    hands: Mapping[str, tuple[str, ...]], player: str, tile: str
) -> dict[str, tuple[str, ...]]:
    return {**hands, player: tuple(t for t in hands.get(player, ()) if t != tile)}


def _scored(state: State, stage: str, gains: Data) -> dict[str, dict[str, int]]:
    points = {player: dict(state.points.get(player, {})) for player in state.players}
    for player in state.players:
        points[player][stage] = points[player].get(stage, 0) + gains[player]
    return points


# Opening


def match_opened(state: State, data: Data) -> State:
    empty = {player: () for player in state.players}
    return replace(
        state,
        phase=BETWEEN_SETS,
        chips=dict(data["chips"]),
        points={player: {} for player in state.players},
        hands=empty,
        stored=empty,
        items=empty,
        starter=data["starter"],
        first_picker=data["first_picker"],
    )


def orderings_recorded(state: State, data: Data) -> State:
    orderings = {key: tuple(values) for key, values in data["orderings"].items()}
    tiles = {}
    for key, ordering in orderings.items():
        tiles.update(deal(int(key), ordering))
    return replace(state, orderings=orderings, tiles=tiles)


def item_pick_opened(state: State, data: Data) -> State:
    return _next_round(state, phase=ITEM_PICK)


def items_allocated(state: State, data: Data) -> State:
    items = {player: tuple(data["items"][player]) for player in state.players}
    return replace(state, items=items, starter=data["equaliser_holder"], phase=BETWEEN_SETS)


# Auctions


def group_opened(state: State, data: Data) -> State:
    return replace(state, stage=data["set"], group=Group(number=data["group"]))


def auction_opened(state: State, data: Data) -> State:
    tile = grouped_id(data["set"], data["group"], data["label"])
    auction = Auction(data["group"], data["label"], tile, data["opener"], to_act=data["opener"])
    return _next_round(state, phase=BIDDING, auction=auction)


def bid_placed(state: State, data: Data) -> State:
    bidder = data["player"]
    auction = replace(
        state.current_auction(),
        high_bid=data["amount"],
        high_bidder=bidder,
        to_act=state.other(bidder),
    )
    return replace(state, auction=auction)


def folded(state: State, data: Data) -> State:
    auction = replace(state.current_auction(), folder=data["player"])
    return replace(state, auction=auction, phase=SOLD)


def tile_won(state: State, data: Data) -> State:
    winner = data["winner"]
    group = state.current_group()
    sold = (*group.sold, data["label"])
    if len(sold) == 1:
        phase, chooser = NEXT_TILE, winner
    elif len(sold) == len(LABELS) and group.number == GROUPS:
        phase, chooser = AUCTIONS_DONE, None
    else:
        phase, chooser = BETWEEN_AUCTIONS, None
    return replace(
        state,
        phase=phase,
        chooser=chooser,
        chips=dict(data["chips"]),
        hands=_with_tile(state.hands, winner, state.current_auction().tile),
        group=replace(group, sold=sold),
        last_winner=winner,
        auction=None,
    )


def next_tile_chosen(state: State, data: Data) -> State:
    group = replace(state.current_group(), next_label=data["label"])
    return replace(state, group=group, chooser=None, phase=BETWEEN_AUCTIONS)


# The leftover step


def leftover_given(state: State, data: Data) -> State:
    hands = _with_tile(state.hands, data["player"], data["tile"])
    return replace(state, hands=hands, phase=JOUST_PHASE_START)


def leftovers_discarded(state: State, data: Data) -> State:
    discarded = (*state.discarded, *data["tiles"])
    return replace(state, discarded=discarded, phase=JOUST_PHASE_START)


def leftover_offered(state: State, data: Data) -> State:
    return _next_round(state, chooser=data["chooser"], phase=LEFTOVER_CHOICE)


def leftover_kept(state: State, data: Data) -> State:
    chooser = data["chooser"]
    hands = _with_tile(state.hands, chooser, data["kept"])
    return replace(state, hands=_with_tile(hands, state.other(chooser), data["given"]))


def leftover_split(state: State, data: Data) -> State:
    return replace(state, chooser=None, phase=JOUST_PHASE_START)


# Items


def item_window_opened(state: State, data: Data) -> State:
    return _next_round(state, window=ItemWindow(tuple(data["pending"])), phase=ITEM_WINDOW)


def items_chosen(state: State, data: Data) -> State:
    window = state.current_window()
    uses = tuple(Use(use["item"], use["tile"]) for use in data["uses"])
    window = replace(window, choices={**window.choices, data["player"]: uses})
    return replace(state, window=window)


def item_window_closed(state: State, data: Data) -> State:
    used = [item for player in state.players for item in data["used"][player]]
    concealer = next((p for p in state.players if CONCEAL in data["used"][p]), state.concealer)
    return replace(
        state,
        used_items=(*state.used_items, *used),
        concealer=concealer,
        window=None,
        phase=BEFORE_JOUST,
    )


def tile_inverted(state: State, data: Data) -> State:
    tile = replace(state.tiles[data["tile"]], value=data["new"], colour=data["colour"])
    return replace(state, tiles={**state.tiles, data["tile"]: tile})


# Jousts


def joust_opened(state: State, data: Data) -> State:
    return _next_round(state, joust=Joust(number=data["joust"]), jousts_run=data["joust"])


def joust_step_opened(state: State, data: Data) -> State:
    joust = replace(
        state.current_joust(), step=data["step"], to_act=tuple(data["eligible"]), step_tiles={}
    )
    return replace(state, joust=joust, phase=JOUST_STEP)


def tile_committed(state: State, data: Data) -> State:
    player, tile = data["player"], data["tile"]
    joust = state.current_joust()
    joust = replace(
        joust,
        committed=_with_tile(joust.committed, player, tile),
        to_act=tuple(p for p in joust.to_act if p != player),
        step_tiles={**joust.step_tiles, player: tile},
    )
    return replace(state, joust=joust, hands=_without_tile(state.hands, player, tile))


def step_passed(state: State, data: Data) -> State:
    player = data["player"]
    joust = state.current_joust()
    joust = replace(
        joust,
        to_act=tuple(p for p in joust.to_act if p != player),
        step_tiles={**joust.step_tiles, player: None},
    )
    return replace(state, joust=joust)


def joust_resolved(state: State, data: Data) -> State:
    joust = state.current_joust()
    spent = [tile for player in state.players for tile in joust.committed.get(player, ())]
    return replace(
        state,
        points=_scored(state, str(data["set"]), data["gains"]),
        spent=(*state.spent, *spent),
        joust=None,
        phase=BEFORE_JOUST,
    )


def set_ended(state: State, data: Data) -> State:
    stored = {player: (*state.stored[player], *state.hand(player)) for player in state.players}
    return replace(
        state,
        stored=stored,
        hands={player: () for player in state.players},
        concealer=None,
        joust=None,
        jousts_run=0,
        phase=BETWEEN_SETS,
    )


def final_joust_opened(state: State, data: Data) -> State:
    return replace(
        state,
        stage=FINAL,
        hands=dict(state.stored),
        stored={player: () for player in state.players},
        phase=JOUST_PHASE_START,
    )


def final_ended(state: State, data: Data) -> State:
    result = Result(data["winner"], data["loser"], data["decided_by_tiebreak"], data["reason"])
    return replace(
        state,
        points=_scored(state, REMAINING, data["remaining_points"]),
        joust=None,
        result=result,
        phase=OVER,
    )


HANDLERS: dict[str, Callable[[State, Data], State]] = {
    "TileJoustOpened": match_opened,
    "OrderingsRecorded": orderings_recorded,
    "ItemPickOpened": item_pick_opened,
    "ItemsAllocated": items_allocated,
    "GroupOpened": group_opened,
    "AuctionOpened": auction_opened,
    "BidPlaced": bid_placed,
    "Folded": folded,
    "TileWon": tile_won,
    "NextTileChosen": next_tile_chosen,
    "LeftoverGiven": leftover_given,
    "LeftoversDiscarded": leftovers_discarded,
    "LeftoverOffered": leftover_offered,
    "LeftoverKept": leftover_kept,
    "LeftoverSplit": leftover_split,
    "ItemWindowOpened": item_window_opened,
    "ItemsChosen": items_chosen,
    "ItemWindowClosed": item_window_closed,
    "TileInverted": tile_inverted,
    "JoustOpened": joust_opened,
    "JoustStepOpened": joust_step_opened,
    "TileCommitted": tile_committed,
    "StepPassed": step_passed,
    "JoustResolved": joust_resolved,
    "SetEnded": set_ended,
    "FinalJoustOpened": final_joust_opened,
    "FinalEnded": final_ended,
}
