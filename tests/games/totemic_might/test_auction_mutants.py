"""The auction's tie rotation (rules 6.1 step 4, TM-R4), worked out by hand: only groups of two
or more equal bids rotate, in either variant."""

from __future__ import annotations

from tests.games.totemic_might.harness import Match, play_round_one


def record(match: Match, series: str) -> dict:
    return next(e.data for e in match.all("SeriesBidsRecorded") if e.data["series"] == series)


def test_first_only_without_a_tie_moves_nobody():
    """Round one of the harness: seven different bids on A and on B, so no tie group; with
    `first_only` the priority list (p7 p1 p2 p3 p4 p5 p6) stays as it was after both series."""
    match = Match(tie_rotation="first_only")
    play_round_one(match)
    start = ["p7", "p1", "p2", "p3", "p4", "p5", "p6"]
    assert record(match, "A")["priority_after"] == start
    assert record(match, "B")["priority_after"] == start
    assert list(match.state.priority) == start


def test_first_only_moves_only_the_tied_groups_first():
    """A: p1 9, p2 9, the rest 4, 3, 2 ... distinct. Order p1 p2 (tied), p3 .. p7 alone. Only
    p1, the first of the one tie group, moves to the bottom: p7 p2 p3 p4 p5 p6 p1. B: everyone
    bids the default 1 (one group of seven) and with `first_only` only its first, p7, moves."""
    match = Match(tie_rotation="first_only")
    bets = {"p1": 9, "p2": 9, "p3": 6, "p4": 5, "p5": 4, "p6": 3, "p7": 2}
    for player, amount in bets.items():
        match.do(player, "place_bet", series="A", amount=amount)
        match.do(player, "place_bet", series="B", amount=1)
    match.deadline()
    assert record(match, "A")["order"] == ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]
    assert record(match, "A")["priority_after"] == ["p7", "p2", "p3", "p4", "p5", "p6", "p1"]
    assert record(match, "B")["priority_after"] == ["p2", "p3", "p4", "p5", "p6", "p1", "p7"]
