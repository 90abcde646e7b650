"""round_of, finished and results: what the framework reads off the state."""

from __future__ import annotations

import json
from typing import Any

from domain.games.totemic_might.state import OVER, State


def round_of(state: State) -> int:
    """Auction rounds 1..R, the final weighing round R+1, the final challenge R+2."""
    return state.round


def finished(state: State) -> bool:
    """After the final deadline: results published and the setup opened."""
    return state.phase == OVER


def results(state: State) -> dict[str, Any]:
    """The outcome is the winner's id; ranks are strict (1..7); details are the public results."""
    if state.results is None:
        return {"outcome": None, "ranks": {}, "details": {}}
    details = json.loads(json.dumps(state.results))  # a plain copy: the state stays untouched
    ranks = {player: details["players"][player]["rank"] for player in state.players}
    return {"outcome": details["winner"], "ranks": ranks, "details": details}
