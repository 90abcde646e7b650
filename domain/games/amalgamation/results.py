"""round_of, finished and results: what the framework reads off the state.

`results` lands in the public MatchEnded entry, so it holds only what the rules make public
at the end (rulebook section 8): rankings, scores, match points, winners, the EC, garnets, balances.
"""

from __future__ import annotations

from typing import Any

from domain.games.amalgamation.state import OVER, State


def round_of(state: State) -> int:
    """0 in the pre-game, then the open round; 8 for the final scoring and the EC window."""
    return state.round


def finished(state: State) -> bool:
    """Once the EC is fixed and the garnets are credited."""
    return state.phase == OVER


def results(state: State) -> dict[str, Any]:
    return {"outcome": outcome(state), "ranks": ranks(state), "details": details(state)}


def outcome(state: State) -> str | None:
    """`winner`, `joint_winners` or `no_winner` (AM-R31); None before the end."""
    if state.final is None:
        return None
    winners = state.final.winners
    if not winners:
        return "no_winner"
    return "winner" if len(winners) == 1 else "joint_winners"


def ranks(state: State) -> dict[str, int]:
    """By match points, 1 for the most; tied players share the better rank."""
    if state.final is None:
        return {}
    points = state.final.match_points
    return {p: 1 + sum(other > points[p] for other in points.values()) for p in state.players}


def details(state: State) -> dict[str, Any]:
    final = state.final
    return {
        "gamewide_tiebreak": list(state.gamewide_tiebreak) if state.tally else [],
        "teams": {team: list(members) for team, members in state.teams.items()},
        "garnet_rate": state.garnet_rate or None,
        "rankings": {game: list(places) for game, places in state.rankings.items()},
        "subgame_scores": {game: dict(scores) for game, scores in state.subgame_scores.items()},
        "match_points": dict(final.match_points) if final else {},
        "winners": list(final.winners) if final else [],
        "tols_invalidated": final.tols_invalidated if final else False,
        "ec_candidates": list(final.candidates) if final else [],
        "ec": final.ec if final else None,
        "ec_decided_by": final.ec_decided_by if final else None,
        "garnet_awards": dict(final.garnet_awards) if final else {},
        "final_balances": dict(state.balances) if final else {},
    }
