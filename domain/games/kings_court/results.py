"""round_of, finished and results: what the framework reads off the state."""

from __future__ import annotations

from typing import Any

from domain.games.kings_court.phases import OVER
from domain.games.kings_court.state import State

WINNER_RANK, OTHER_RANK, EC_RANK = 1, 2, 3


def round_of(state: State) -> int:
    """Election rounds counted across the match; a tie-break belongs to its round; after a
    normal end every post-game phase is one round more."""
    return state.match_round


def finished(state: State) -> bool:
    """After `record_dmo`, or after the fourth early end."""
    return state.phase == OVER


def results(state: State) -> dict[str, Any]:
    return {"outcome": outcome(state), "ranks": ranks(state), "details": details(state)}


def outcome(state: State) -> str | None:
    if state.death_match:
        return "four_early_kings"
    return state.aftermath.winner if state.aftermath else None


def ranks(state: State) -> dict[str, int]:
    """Dense ranks: the winners 1, everyone else 2, the EC 3; after four early ends everyone 1
    but the four Kings 2. Empty while there is no outcome."""
    if state.death_match:
        return {p: OTHER_RANK if p in state.death_match else WINNER_RANK for p in state.players}
    if state.aftermath is None:
        return {}
    after = state.aftermath

    def rank(player: str) -> int:
        if player in after.party:
            return WINNER_RANK
        return EC_RANK if player == after.ec else OTHER_RANK

    return {player: rank(player) for player in state.players}


def court(state: State) -> list[str]:
    """The court in joining order: of the game being played, or of the game that ended
    normally. After four early Kings no game ended normally, so there is none (a ruling)."""
    if state.game is None or state.death_match:
        return []
    return list(state.game.court)


def details(state: State) -> dict[str, Any]:
    game, after = state.game, state.aftermath
    found: dict[str, Any] = {
        "games_played": game.number if game else 0,
        "kings": list(state.kings),
        "early_ends": state.early_ends,
        "court": court(state),
        "death_match": list(state.death_match),
    }
    if after is None:
        return found | {
            "winner": None,
            "awards": {},
            "king_gift": None,
            "ec_scores": {},
            "ec_tied": [],
            "ec": None,
            "ec_decided_by": None,
            "dmo": None,
        }
    return found | {
        "winner": after.winner,
        "awards": {p: dict(after.awards[p]) for p in state.players if p in after.awards},
        "king_gift": list(after.gift) or None,
        "ec_scores": {p: dict(after.ec_scores[p]) for p in state.players if p in after.ec_scores},
        "ec_tied": list(after.ec_tied),
        "ec": after.ec,
        "ec_decided_by": after.ec_decided_by,
        "dmo": after.dmo,
    }
