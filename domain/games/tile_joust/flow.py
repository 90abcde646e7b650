"""advance(turn): after every accepted command, run the moves nobody decides (awards, the
next auction, the leftover step, the end checks, the next joust...) until a player must
decide or the match is over. Each move emits the events that take the phase on."""

from __future__ import annotations

from collections.abc import Callable

from domain.games.tile_joust import auctions, ending, items, jousts, leftovers
from domain.games.tile_joust.state import (
    AUCTIONS_DONE,
    BEFORE_JOUST,
    BETWEEN_AUCTIONS,
    BETWEEN_SETS,
    BIDDING,
    ITEM_WINDOW,
    JOUST_PHASE_START,
    JOUST_STEP,
    SOLD,
    State,
)
from domain.games.tile_joust.turn import Turn

Move = Callable[[Turn], None]


def advance(turn: Turn) -> None:
    while (move := next_move(turn.state)) is not None:
        move(turn)


def next_move(state: State) -> Move | None:
    phase = state.phase
    if phase == BETWEEN_SETS:
        return next_set if state.set_number() < state.setup.sets else ending.open_final
    if phase == BIDDING:
        return (
            None
            if auctions.can_act(state, state.current_auction().to_act)
            else (auctions.fold_automatically)
        )
    if phase == ITEM_WINDOW:
        return None if state.current_window().undecided() else items.close_window
    if phase == JOUST_STEP:
        return None if state.current_joust().to_act else jousts.close_step
    if phase == JOUST_PHASE_START and items.window_needed(state):
        return items.open_window
    if phase in (JOUST_PHASE_START, BEFORE_JOUST):
        return joust_or_end
    return AUTOMATIC.get(phase)


def next_set(turn: Turn) -> None:
    auctions.open_set(turn, turn.state.stage + 1)


def joust_or_end(turn: Turn) -> None:
    """The end check before every joust, the first included (TJ-R10, TJ-R11)."""
    state = turn.state
    if state.in_final() and jousts.final_is_over(state):
        ending.end_final(turn, "pool_empty")
    elif not state.in_final() and jousts.set_is_over(state):
        ending.end_set(turn, "few_tiles")
    else:
        jousts.open_joust(turn)


AUTOMATIC: dict[str, Move] = {
    SOLD: auctions.award_tile,
    BETWEEN_AUCTIONS: auctions.open_next_auction,
    AUCTIONS_DONE: leftovers.leftover_step,
}
