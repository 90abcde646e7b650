"""The EC decision's records that other tests leave unread (issue 16, mutation testing),
worked out from KC-R25: party majority (strict: 5 // 2 + 1 = 3 of the Dukes), else fewest
garnets, else the deadlock coin that the host records."""

from __future__ import annotations

from domain.decider import HOST
from tests.games.kings_court.kc_harness import PLAYERS, Match


def ec_tie(garnets: dict[str, int]) -> Match:
    """Dukes win; Nobles p7-p10 tie at 0 and each missed all five votes (-5 garnets)."""
    match = Match(garnets={**dict.fromkeys(PLAYERS, 10), **garnets})
    for player in ("p1", "p6", "p2", "p3", "p11"):
        match.elect(player)
    assert match.last("GameEnded").data["ec_tied"] == ["p7", "p8", "p9", "p10"]
    return match


def test_a_decision_by_garnets_records_the_majority_that_was_needed():
    match = ec_tie({"p9": 9})
    match.do("p1", "ec_vote", candidate="p8")
    match.host("close_ec_vote")
    assert match.last("EcDecided").data == {
        "ec": "p9",
        "decided_by": "garnets",
        "counts": {"p7": 0, "p8": 1, "p9": 0, "p10": 0},
        "needed": 3,
        "garnets": {"p7": 5, "p8": 5, "p9": 4, "p10": 5},
    }


def test_the_deadlock_coin_records_the_ballots_the_majority_and_the_garnets():
    match = ec_tie({"p7": 9, "p10": 9})
    match.do("p2", "ec_vote", candidate="p7")
    match.host("close_ec_vote")
    assert match.last("DeadlockCoinOpened").data == {
        "candidates": ["p7", "p10"],
        "counts": {"p7": 1, "p8": 0, "p9": 0, "p10": 0},
        "needed": 3,
        "garnets": {"p7": 4, "p8": 5, "p9": 5, "p10": 4},
    }
    match.host("record_deadlock_result", ec="p7")
    decided = match.last("EcDecided")
    assert decided.actor == HOST
    assert decided.data["ec"] == "p7" and decided.data["decided_by"] == "deadlock_coin"
