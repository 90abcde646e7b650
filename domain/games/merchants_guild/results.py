"""round_of, finished and results: what the framework reads off the state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games.merchants_guild.state import State

WINNER_RANK, OTHER_RANK, LOSER_RANK = 1, 2, 3


def round_of(state: State) -> int:
    """The week now open: 0 before the opening; the settlement belongs to week 8."""
    return state.week


def finished(state: State) -> bool:
    return state.over


def results(state: State) -> dict[str, Any]:
    settled = state.settlement
    if settled is None:
        return {"outcome": None, "ranks": {}, "details": {"week": state.week}}
    return {
        "outcome": settled["outcome"],
        "ranks": {player: rank(settled, player) for player in state.players},
        "details": {
            "week": state.week,
            "passed": [list(bills) for bills in state.passed],
            **{
                key: settled[key]
                for key in (
                    "ranking",
                    "gold",
                    "blackmails",
                    "transfers",
                    "losers",
                    "winners",
                    "awards",
                    "never_presented",
                )
            },
        },
    }


def rank(settled: Mapping[str, Any], player: str) -> int:
    """Dense: the most-gold winners 1, the losers (ECs) 3, everyone else 2."""
    if player in settled["winners"]:
        return WINNER_RANK
    return LOSER_RANK if player in settled["losers"] else OTHER_RANK
