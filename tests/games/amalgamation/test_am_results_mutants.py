"""The match's result read off the state (rulebook 7.6, decisions "Results"): every detail of a
whole match worked out by hand, and nothing of the end before the end (issue 16, mutation
testing of results.py).

The quiet match (scenarios.py): nobody ever submits. GT p1 > ... > p6, red p1 p2 p3 against
white p4 p5 p6, no rate proposed (the default 13). Kong 0-0: red, the team of the GT's first,
wins; places follow the GT. Minus Auction: tile -k goes to p((k - 1) mod 6 + 1), p6 takes
five tiles (-90), the best score. Investment: everybody invests $0 (a six-way share: no Top
Investor) and donates $0 (six Misers every round). Chip Thief: every bet $0, every point 0.
Match points p1 75, p2 57, p3 46, p4 38, p5 28, p6 32: p1 wins alone, p5 alone is the EC.
"""

from __future__ import annotations

from domain.games import amalgamation as am
from tests.games.amalgamation.harness import PLAYERS, Match
from tests.games.amalgamation.scenarios import quiet_match, tied_bottom_match

MA_TILES = {
    f"p{i}": [-k for k in range(i, 36, 6)] for i in range(1, 7)
}  # p1 -1 -7 ... -31, p6 -6 ... -30


def test_the_details_of_a_whole_match_are_the_public_end_worked_by_hand():
    match = quiet_match()
    result = am.results(match.state)
    assert result["outcome"] == "winner"
    assert result["ranks"] == {"p1": 1, "p2": 2, "p3": 3, "p4": 4, "p5": 6, "p6": 5}
    assert result["details"] == {
        "gamewide_tiebreak": PLAYERS,
        "teams": {"red": ["p1", "p2", "p3"], "white": ["p4", "p5", "p6"]},
        "garnet_rate": 13,
        "rankings": {
            "kong": PLAYERS,
            "minus_auction": ["p6", "p1", "p2", "p3", "p4", "p5"],
            "investment_donation": PLAYERS,
            "chip_thief": PLAYERS,
        },
        "subgame_scores": {
            "kong": {
                "winning_team": "red",
                "decided_by": "gamewide_tiebreak",
                "points": {"red": 0, "white": 0},
            },
            "minus_auction": {
                "tiles": MA_TILES,
                "scores": {"p1": -96, "p2": -102, "p3": -108, "p4": -114, "p5": -120, "p6": -90},
            },
            "investment_donation": {
                "top_investor_tokens": dict.fromkeys(PLAYERS, 0),
                "miser_tokens": dict.fromkeys(PLAYERS, 7),
            },
            "chip_thief": {"points": dict.fromkeys(PLAYERS, 0)},
        },
        "match_points": {"p1": 75, "p2": 57, "p3": 46, "p4": 38, "p5": 28, "p6": 32},
        "winners": ["p1"],
        "tols_invalidated": False,
        "ec_candidates": ["p5"],
        "ec": "p5",
        "ec_decided_by": "fewest_points",
        # Kong p1 2 p2 1; MA p6 2 p1 1; ID p1 2 p2 1; CT p1 2 p2 1.
        "garnet_awards": {"p1": 7, "p2": 3, "p3": 0, "p4": 0, "p5": 0, "p6": 2},
        "final_balances": dict.fromkeys(PLAYERS, 400),
    }


def test_a_proposed_rate_and_the_winners_choice_reach_the_details():
    """As the tied-bottom match (p5 and p6 level at 32, p1 the winner), with proposals 8 and 9:
    rate floor((2 x 17 + 2) / 4) = 9; p1 names p6, who is the EC by the winner's choice."""
    match = Match(close_pregame=False)
    match.do("p2", "submit_garnet_rate", rate=8)
    match.do("p3", "submit_garnet_rate", rate=9)
    match.host("close_pregame")
    match.play_round(
        p1={"role": "mafia", "bet": 10, "invest": 1},
        p2={"role": "mafia", "bet": 10, "invest": 1},
        p3={"role": "mafia", "bet": 10, "invest": 1},
        p4={"role": "police"},
        p5={"role": "beggar", "bet": 1, "invest": 1},
        p6={"role": "police"},
    )
    match.play_rounds(6)
    match.do("p1", "choose_ec", candidate="p6")
    match.host("close_ec_decision")
    details = am.results(match.state)["details"]
    assert details["garnet_rate"] == 9
    assert details["ec_candidates"] == ["p5", "p6"]
    assert (details["ec"], details["ec_decided_by"]) == ("p6", "winner_choice")
    # Spent: p1 p2 p3 $11, p5 $2, p4 p6 nothing.
    assert details["final_balances"] == {
        "p1": 389,
        "p2": 389,
        "p3": 389,
        "p4": 400,
        "p5": 398,
        "p6": 400,
    }
    assert details["subgame_scores"]["chip_thief"] == {
        "points": {"p1": 10, "p2": 10, "p3": 10, "p4": 0, "p5": 2, "p6": 0}
    }


def test_before_the_end_there_is_no_outcome_and_no_end_figure():
    """Results are null before the end (7.6): in round 1 nobody has places, points, winners,
    an EC or awards yet, and the final balances are not known."""
    match = Match()
    result = am.results(match.state)
    assert result["outcome"] is None and result["ranks"] == {}
    details = result["details"]
    assert details["match_points"] == {} and details["winners"] == []
    assert details["ec_candidates"] == [] and details["tols_invalidated"] is False
    assert details["ec"] is None and details["ec_decided_by"] is None
    assert details["garnet_awards"] == {} and details["final_balances"] == {}
    assert details["rankings"] == {} and details["subgame_scores"] == {}
    assert not am.finished(match.state) and am.round_of(match.state) == 1


def test_in_the_ec_window_the_match_is_scored_but_not_over():
    """The tied-bottom match waits for p1's choice: match points and winners are known, the EC
    is not (7.3), and the match is not finished."""
    match = tied_bottom_match()
    assert not am.finished(match.state) and am.round_of(match.state) == 8
    result = am.results(match.state)
    assert result["outcome"] == "winner"
    assert result["ranks"] == {"p1": 1, "p2": 2, "p3": 3, "p4": 4, "p5": 5, "p6": 5}
    assert result["details"]["ec"] is None and result["details"]["ec_decided_by"] is None
