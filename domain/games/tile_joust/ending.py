"""The ends: of a set's joust phase, of the sets (the final joust's pools), and of the match
(remaining-tile points, the winner, the tie rule, the reveal of the sealed setup)."""

from __future__ import annotations

from domain.games.tile_joust import events
from domain.games.tile_joust.state import State
from domain.games.tile_joust.turn import Turn


def end_phase(turn: Turn, reason: str) -> None:
    """reason: `few_tiles` / `pool_empty` before a joust, or `empty_joust` (TJ-R9)."""
    if turn.state.in_final():
        end_final(turn, reason)
    else:
        end_set(turn, reason)


def end_set(turn: Turn, reason: str) -> None:
    """The tiles left in the hands are stored for the final joust."""
    state = turn.state
    stored = {p: len(state.stored[p]) + len(state.hand(p)) for p in state.players}
    turn.emit(events.set_ended(state.stage, reason, state.hand_counts(), stored))


def open_final(turn: Turn) -> None:
    state = turn.state
    turn.emit(events.final_joust_opened({p: len(state.stored[p]) for p in state.players}))


def end_final(turn: Turn, reason: str) -> None:
    """Every tile still held scores 1: after an empty joust both players score (TJ-R9); when a
    pool is empty only the other player holds any (TJ-R11). Equal totals: the starter wins."""
    state = turn.state
    remaining = state.hand_counts()
    totals = {player: state.total(player) + remaining[player] for player in state.players}
    first, second = state.players
    tied = totals[first] == totals[second]
    winner = state.starter if tied else max(state.players, key=totals.__getitem__)
    turn.emit(
        events.final_ended(
            reason=reason,
            remaining_points=remaining,
            totals=totals,
            winner=winner,
            loser=state.other(winner),
            decided_by_tiebreak=tied,
        ),
        events.setup_revealed(revealed_orderings(state), items_of(state)),
    )


def revealed_orderings(state: State) -> dict[str, list[int]]:
    return {key: list(ordering) for key, ordering in state.orderings.items()}


def items_of(state: State) -> dict[str, list[str]]:
    return {player: list(state.items.get(player, ())) for player in state.players}
