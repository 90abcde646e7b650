"""Matches brought to each phase, for the tables of refusals (standard court of kc_harness)."""

from __future__ import annotations

from tests.games.kings_court.kc_harness import Match, role_set


def not_opened() -> Match:
    return Match(open_match=False)


def round_one() -> Match:
    return Match()


def round_one_after_look_peek_check() -> Match:
    match = Match(garnets=20)
    match.do("p11", "king_learn", targets=["p1", "p6"])
    match.do("p1", "peek", target="p2")
    match.do("p1", "annoyed_check")
    return match


def poor() -> Match:
    """p1 can afford one peek and nothing more; p2 cannot afford an annoyed check."""
    match = Match(garnets={**{f"p{i}": 10 for i in range(1, 12)}, "p1": 8, "p2": 2})
    match.do("p1", "peek", target="p2")
    return match


def round_two() -> Match:
    """p1 joined at the round-1 deadline and holds the pair-check right in round 2."""
    match = Match()
    match.elect("p1")
    return match


def round_two_checked() -> Match:
    match = round_two()
    match.do("p1", "pair_check", targets=["p2", "p3"])
    return match


def tiebreak_phase() -> Match:
    """Round 1 tied between p1 and p2 (the King p11 is not tied)."""
    match = Match()
    match.round({"p1": "p2", "p2": "p1"})
    return match


def king_gift_phase() -> Match:
    """Two Dukes (p1, p2) and two Nobles (p6, p7) in court: the King p11 wins."""
    match = Match()
    for player in ("p1", "p6", "p2", "p7", "p11"):
        match.elect(player)
    return match


def ec_vote_phase() -> Match:
    """Dukes p1, p2, p3 and Noble p6 in court: the Dukes win; Nobles p7-p10 tie at 0."""
    match = Match()
    for player in ("p1", "p6", "p2", "p3", "p11"):
        match.elect(player)
    return match


def deadlock_phase() -> Match:
    """Nobody votes on the EC and p7-p10 all missed five votes: 5 garnets each, a deadlock."""
    match = ec_vote_phase()
    match.host("close_ec_vote")
    return match


def dmo_phase() -> Match:
    match = deadlock_phase()
    match.host("record_deadlock_result", ec="p7")
    return match


def over() -> Match:
    match = dmo_phase()
    match.host("record_dmo", dmo="p1")
    return match


def four_early_ends() -> Match:
    games = [
        role_set(),
        role_set(king="p1", dukes=("p11", "p2", "p3", "p4", "p5"), lists={}),
        role_set(king="p2", dukes=("p1", "p11", "p3", "p4", "p5"), lists={}),
        role_set(king="p3", dukes=("p1", "p2", "p11", "p4", "p5"), lists={}),
    ]
    match = Match(games=games)
    for king in ("p11", "p1", "p2", "p3"):
        match.elect(king)
    return match
