"""round_of, finished and results: what the framework reads off the state."""

from __future__ import annotations

from typing import Any

from domain.games.tile_joust.state import OVER, State
from domain.games.tile_joust.tiles import FINAL, REMAINING

WINNER_RANK, LOSER_RANK = 1, 2


def round_of(state: State) -> int:
    """0 before the opening; then one round per auction, FM leftover choice, item window
    and joust (and the FM item pick), counted across the match."""
    return state.round


def finished(state: State) -> bool:
    return state.phase == OVER


def results(state: State) -> dict[str, Any]:
    """The outcome is the winner's id; the season layer decides what the result means."""
    result = state.result
    ranks = {} if result is None else {result.winner: WINNER_RANK, result.loser: LOSER_RANK}
    return {
        "outcome": None if result is None else result.winner,
        "ranks": ranks,
        "details": {
            "variant": state.setup.variant,
            "winner": None if result is None else result.winner,
            "loser": None if result is None else result.loser,
            "decided_by_tiebreak": None if result is None else result.decided_by_tiebreak,
            "final_ended_by": None if result is None else result.reason,
            "starter": state.starter,
            "totals": state.totals(),
            "points": {player: points_by_stage(state, player) for player in state.players},
            "chips": dict(state.chips),
            "items": {player: list(state.items.get(player, ())) for player in state.players},
            "items_used": list(state.used_items),
        },
    }


def points_by_stage(state: State, player: str) -> dict[str, int]:
    """Points of each set's jousts, of the final jousts, and for remaining tiles."""
    stages = [str(number) for number in range(1, state.setup.sets + 1)] + [FINAL, REMAINING]
    scored = state.points.get(player, {})
    return {stage: scored.get(stage, 0) for stage in stages}
