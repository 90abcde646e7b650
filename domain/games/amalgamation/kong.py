"""Kong's Dilemma (rulebook 6.1): team totals each round, a point to the larger, the
ranking at the end."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from domain.games.amalgamation.draws import RED, WHITE

TIE = "tie"
TEAMS = (RED, WHITE)


@dataclass(frozen=True)
class KongRound:
    totals: Mapping[str, int]  # team -> this round's total
    result: str  # the team that scores, or "tie"

    @property
    def losing_team_total(self) -> int | None:
        if self.result == TIE:
            return None
        loser = WHITE if self.result == RED else RED
        return self.totals[loser]


def resolve_round(
    teams: Mapping[str, Sequence[str]], contributions: Mapping[str, int]
) -> KongRound:
    """AM-R9: this round's totals; the larger scores, equal totals score nobody."""
    totals = {team: sum(contributions[p] for p in teams[team]) for team in TEAMS}
    if totals[RED] == totals[WHITE]:
        return KongRound(totals, TIE)
    return KongRound(totals, RED if totals[RED] > totals[WHITE] else WHITE)


def winning_team(
    points: Mapping[str, int],
    point_rounds: Mapping[str, Sequence[int]],
    teams: Mapping[str, Sequence[str]],
    gamewide_tiebreak: Sequence[str],
) -> tuple[str, str]:
    """(team, how it was decided): more points; else the first to reach the common count
    (AM-R11); at 0-0 the team of the GT's first player (AM-R12)."""
    if points[RED] != points[WHITE]:
        return (RED if points[RED] > points[WHITE] else WHITE), "points"
    level = points[RED]
    if level:
        red_reached, white_reached = point_rounds[RED][level - 1], point_rounds[WHITE][level - 1]
        return (RED if red_reached < white_reached else WHITE), "first_to_reach"
    top = gamewide_tiebreak[0]
    return (RED if top in teams[RED] else WHITE), "gamewide_tiebreak"


def ranking(
    teams: Mapping[str, Sequence[str]],
    winner: str,
    contributions: Mapping[str, int],
    gt_place: Callable[[str], int],
) -> list[str]:
    """Winners by contribution descending, then losers ascending; the higher GT player gets the
    better place in both halves (AM-R13)."""
    loser = WHITE if winner == RED else RED
    first = sorted(teams[winner], key=lambda p: (-contributions[p], gt_place(p)))
    last = sorted(teams[loser], key=lambda p: (contributions[p], gt_place(p)))
    return first + last
