"""The final scoring's edges (rulebook section 7, AM-R31 ... AM-R33): the EC among three level
candidates, the spending totals kept for the host, the choices in GT order, the garnets
(issue 16, mutation testing of scoring.py).

Rankings are given directly, with test_am_endings' `scored` and `TWO_TOP`; each sum is worked out
in a comment."""

from __future__ import annotations

from domain.decider import HOST
from tests.games.amalgamation.harness import PLAYERS, Match
from tests.games.amalgamation.scenarios import tied_bottom_match
from tests.games.amalgamation.test_am_endings import TWO_TOP, scored

ALL_LEVEL = {
    # Kong p1 20 p2 15 p3 12 p4 10 p5 8 p6 4; MA p6 20 p5 15 p4 12 p3 10 p2 8 p1 4;
    # ID p4 20 p2 15 p6 12 p1 10 p5 8 p3 4; CT p3 20 p5 15 p1 12 p6 10 p2 8 p4 4. 46 each.
    "kong": PLAYERS,
    "minus_auction": ["p6", "p5", "p4", "p3", "p2", "p1"],
    "investment_donation": ["p4", "p2", "p6", "p1", "p5", "p3"],
    "chip_thief": ["p3", "p5", "p1", "p6", "p2", "p4"],
}


def test_nobody_choosing_among_three_candidates_names_the_lowest_in_gt():
    """Three candidates p1 p4 p6, no choice: all three level at 0, the lowest in GT is p6."""
    match = scored(TWO_TOP)
    match.host("close_ec_decision")
    assert match.last("EcChoicesCounted").data == {
        "choices": {},
        "counts": {"p1": 0, "p4": 0, "p6": 0},
    }
    assert match.last("EcDetermined").data == {"ec": "p6", "decided_by": "gamewide_tiebreak"}


def test_one_choice_among_three_candidates_decides():
    """p5 alone names p1 (higher in the GT than the others): p1 has the most choices."""
    match = scored(TWO_TOP)
    match.do("p5", "choose_ec", candidate="p1")
    match.host("close_ec_decision")
    assert match.last("EcChoicesCounted").data == {
        "choices": {"p5": "p1"},
        "counts": {"p1": 1, "p4": 0, "p6": 0},
    }
    assert match.last("EcDetermined").data == {"ec": "p1", "decided_by": "winner_choice"}


def test_the_counted_choices_are_listed_in_gt_order():
    """p5 chooses before p2; the host's count lists p2 first (winners in GT order)."""
    match = scored(TWO_TOP)
    match.do("p5", "choose_ec", candidate="p4")
    match.do("p2", "choose_ec", candidate="p4")
    match.host("close_ec_decision")
    counted = match.last("EcChoicesCounted")
    assert counted.audience == HOST
    assert list(counted.data["choices"].items()) == [("p2", "p4"), ("p5", "p4")]
    assert counted.data["counts"] == {"p1": 0, "p4": 2, "p6": 0}
    assert match.last("EcDetermined").data == {"ec": "p4", "decided_by": "winner_choice"}


def test_all_six_level_winners_under_the_variant_choose_among_all_six():
    """winners_without_tols: all six win (no ToL) and all six are candidates. Two name p3, one
    names p2: p3 is the EC by choice."""
    match = scored(ALL_LEVEL, four_plus_top_tie="winners_without_tols")
    data = match.last("MatchScored").data
    assert (data["winners"], data["tols"], data["tols_invalidated"]) == (PLAYERS, {}, True)
    assert data["ec_candidates"] == PLAYERS
    assert match.last("EcDecisionOpened").data == {"candidates": PLAYERS, "deciders": PLAYERS}
    match.do("p1", "choose_ec", candidate="p3")
    match.do("p6", "choose_ec", candidate="p3")
    match.do("p4", "choose_ec", candidate="p2")
    match.host("close_ec_decision")
    assert match.last("EcDetermined").data == {"ec": "p3", "decided_by": "winner_choice"}
    assert sum(match.ledger["tol"].values()) == 0


def test_the_money_of_each_game_is_totalled_for_the_host():
    """The tied-bottom match: p1 p2 p3 and p5 invest $1 in round 1 and donate nothing; nobody
    contributes or bids anything but 0: ID money p1 p2 p3 p5 $1, the rest $0 (AM-R25)."""
    match = tied_bottom_match()
    spending = match.last("SubgameSpending")
    assert spending.audience == HOST
    assert spending.data == {
        "kong_contributions": dict.fromkeys(PLAYERS, 0),
        "minus_auction": dict.fromkeys(PLAYERS, 0),
        "investment_donation": {"p1": 1, "p2": 1, "p3": 1, "p4": 0, "p5": 1, "p6": 0},
    }


def test_money_bid_is_totalled_at_absolute_values():
    """p3 bids -2, 3, 0, 0, 0 every round: $5 a round, $35 in the seven (AM-R20)."""
    match = Match()
    match.play_rounds(7, p3={"bids": [-2, 3, 0, 0, 0]})
    assert match.last("SubgameSpending").data["minus_auction"] == {
        "p1": 0,
        "p2": 0,
        "p3": 35,
        "p4": 0,
        "p5": 0,
        "p6": 0,
    }


def test_each_player_is_told_his_own_garnet_account():
    """The tied-bottom match, p1 choosing p5: Kong p1 2 p2 1; MA (quiet) p6 2 p1 1; ID p1 2
    p2 1; CT p1 2 p2 1: p1 7, p2 3, p6 2. Nobody exchanged."""
    match = tied_bottom_match()
    match.do("p1", "choose_ec", candidate="p5")
    match.host("close_ec_decision")
    closed = {e.data["player"]: e for e in match.all("GarnetLedgerClosed")}
    assert list(closed) == PLAYERS
    awarded = {"p1": 7, "p2": 3, "p3": 0, "p4": 0, "p5": 0, "p6": 2}
    for player in PLAYERS:
        assert closed[player].audience == (player,)
        assert closed[player].data == {
            "player": player,
            "exchanged": 0,
            "awarded": awarded[player],
            "net_change": awarded[player],
        }


def test_the_rankings_publish_each_games_scores_under_their_names():
    """The tied-bottom match (decisions, "SubgameRanked.scores"). Investment: $1 is shared by
    four and $0 by two every round it was played, so no Top Investor token; every donation is
    $0, so six Misers in each of the seven rounds. Chip Thief: round 1 alone scores, 1 chip x
    $10 for each mafia, 2 chips x $1 for the beggar p5."""
    match = tied_bottom_match()
    ranked = {e.data["subgame"]: e.data for e in match.all("SubgameRanked")}
    assert ranked["investment_donation"]["scores"] == {
        "top_investor_tokens": dict.fromkeys(PLAYERS, 0),
        "miser_tokens": dict.fromkeys(PLAYERS, 7),
    }
    assert ranked["investment_donation"]["ranking"] == ["p1", "p2", "p3", "p5", "p4", "p6"]
    assert ranked["chip_thief"]["scores"] == {
        "points": {"p1": 10, "p2": 10, "p3": 10, "p4": 0, "p5": 2, "p6": 0}
    }
    assert ranked["chip_thief"]["ranking"] == ["p1", "p2", "p3", "p5", "p4", "p6"]
