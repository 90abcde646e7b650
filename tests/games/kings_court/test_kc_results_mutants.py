"""The results' details, every field, as the framework publishes them at the end (issue 16,
mutation testing of results.py), worked out from rulebook 5.5 and section 8 (KC-R19..R26)
on the standard court of kc_harness: King p11, Dukes p1-p5, Nobles p6-p10."""

from __future__ import annotations

from domain.games import kings_court as kc
from tests.games.kings_court.kc_harness import Match
from tests.games.kings_court.test_kc_endings import (
    DUKES,
    elect_all,
    four_early_kings,
    king_wins,
    scripted_team_win,
)

NO_AFTERMATH = {"winner": None, "awards": {}, "king_gift": None, "ec_scores": {}, "ec_tied": [],
                "ec": None, "ec_decided_by": None, "dmo": None}


def test_before_the_first_game_no_game_was_played():
    details = kc.results(Match(open_match=False).state)["details"]
    assert details == {"games_played": 0, "kings": [], "early_ends": 0, "court": [],
                       "death_match": [], **NO_AFTERMATH}


def test_after_four_early_kings_there_is_no_winner_gift_or_ec():
    details = kc.results(four_early_kings().state)["details"]
    assert details == {"games_played": 4, "kings": ["p11", "p1", "p2", "p3"], "early_ends": 4,
                       "court": [], "death_match": ["p11", "p1", "p2", "p3"], **NO_AFTERMATH}


def test_a_team_win_lists_its_awards_scores_ec_and_dmo():
    """Court p1 p6 p2 p3 p11: three Dukes to one Noble, the Dukes win (1 ToL and 2 garnets
    each); p4 and p5 are outside the court, so no single Opal. The Nobles are the EC pool:
    votes p6 1 (+4, elected second), p7 2, p8 3, p9 3, p10 3; p7 alone lowest."""
    match = scripted_team_win()
    match.host("record_dmo", dmo="p9")
    details = kc.results(match.state)["details"]
    assert details == {
        "games_played": 1, "kings": ["p11"], "early_ends": 0,
        "court": ["p1", "p6", "p2", "p3", "p11"], "death_match": [],
        "winner": "dukes",
        "awards": {p: {"tol": 1, "garnets": 2, "opal": 0} for p in DUKES},
        "king_gift": None,
        "ec_scores": {"p6": {"votes": 1, "bonus": 4, "score": 5},
                      "p7": {"votes": 2, "bonus": 0, "score": 2},
                      "p8": {"votes": 3, "bonus": 0, "score": 3},
                      "p9": {"votes": 3, "bonus": 0, "score": 3},
                      "p10": {"votes": 3, "bonus": 0, "score": 3}},
        "ec_tied": ["p7"], "ec": "p7", "ec_decided_by": "lowest_score", "dmo": "p9",
    }


def test_a_king_win_names_the_gift():
    """Two Dukes and two Nobles beside the King: his win; the gift left to its default goes to
    the earliest elected Duke and Noble, p1 and p6."""
    match = king_wins()
    match.host("close_king_gift")
    details = kc.results(match.state)["details"]
    assert details["winner"] == "king" and details["king_gift"] == ["p1", "p6"]
    assert details["awards"] == {"p11": {"tol": 3, "garnets": 2, "opal": 0}}


def test_an_early_end_counts_the_game_it_starts():
    """p11, game 1's King, elected first: an early end, and game 2 is under way."""
    match = Match(games=None)
    elect_all(match, "p11")
    assert kc.results(match.state)["details"]["games_played"] == 2
