"""The end of the match (rulebook section 7): rankings, match points, winners and ToLs, the
EC, garnets.

Whole matches come from scenarios.py; the winner and EC rules are also checked on rankings
given directly (each sum worked out in the docstring), since a 4-way tie is long to play.
"""

from __future__ import annotations

from dataclasses import replace

from domain.decider import HOST, PUBLIC
from domain.games import amalgamation as am
from domain.games.amalgamation import scoring
from domain.games.amalgamation.turn import Turn
from tests.games.amalgamation.harness import PLAYERS, Match, kinds
from tests.games.amalgamation.scenarios import quiet_match, tied_bottom_match


def test_a_quiet_match_scores_by_hand():
    match = quiet_match()
    final_kinds = kinds(match.log[-15:])
    assert final_kinds == [
        "BalancesRevealed",
        *["SubgameRanked"] * 4,
        "SubgameSpending",
        "MatchScored",
        "EcDetermined",
        "GarnetsAwarded",
        *["GarnetLedgerClosed"] * 6,
    ]
    ranked = {e.data["subgame"]: e.data for e in match.all("SubgameRanked")}
    assert ranked["kong"]["ranking"] == PLAYERS
    assert ranked["kong"]["scores"] == {
        "winning_team": "red",
        "decided_by": "gamewide_tiebreak",
        "points": {"red": 0, "white": 0},
    }
    assert ranked["minus_auction"]["ranking"] == ["p6", "p1", "p2", "p3", "p4", "p5"]
    assert ranked["minus_auction"]["scores"]["tiles"]["p1"] == [-1, -7, -13, -19, -25, -31]
    assert ranked["minus_auction"]["scores"]["scores"] == {
        "p1": -96,
        "p2": -102,
        "p3": -108,
        "p4": -114,
        "p5": -120,
        "p6": -90,
    }
    assert ranked["investment_donation"]["ranking"] == PLAYERS
    assert ranked["investment_donation"]["scores"]["miser_tokens"] == dict.fromkeys(PLAYERS, 7)
    assert ranked["chip_thief"]["ranking"] == PLAYERS
    scored = match.last("MatchScored").data
    assert scored == {
        "match_points": {"p1": 75, "p2": 57, "p3": 46, "p4": 38, "p5": 28, "p6": 32},
        "winners": ["p1"],
        "tols": {"p1": 2},
        "tols_invalidated": False,
        "ec_candidates": ["p5"],
    }
    assert match.last("EcDetermined").data == {"ec": "p5", "decided_by": "fewest_points"}
    # Garnets: Kong p1 2, p2 1; MA p6 2, p1 1; ID p1 2, p2 1; CT p1 2, p2 1.
    assert match.last("GarnetsAwarded").data["awards"] == {
        "p1": 7,
        "p2": 3,
        "p3": 0,
        "p4": 0,
        "p5": 0,
        "p6": 2,
    }
    assert match.ledger["tol"] == {"p1": 2} | dict.fromkeys(PLAYERS[1:], 0)
    assert match.ledger["ec"]["p5"] == 1 and sum(match.ledger["ec"].values()) == 1
    assert match.ledger["garnets"] == {"p1": 7, "p2": 3, "p3": 0, "p4": 0, "p5": 0, "p6": 2}
    assert am.finished(match.state) and am.round_of(match.state) == 8
    results = am.results(match.state)
    assert results["outcome"] == "winner"
    assert results["ranks"] == {"p1": 1, "p2": 2, "p3": 3, "p4": 4, "p5": 6, "p6": 5}
    assert results["details"]["ec"] == "p5"
    assert results["details"]["final_balances"] == dict.fromkeys(PLAYERS, 400)


def test_the_garnet_ledger_nets_exchanges_against_awards():
    """As the quiet match, but p2 exchanges his one garnet in round 1 (zero spending, role
    beggar with a $0 bet changes no result): $13 more, 3 garnets awarded, net +2."""
    match = Match(garnets={"p2": 1})
    match.play_round(p2={"garnets": 1})
    match.play_rounds(6)
    closed = next(e for e in match.all("GarnetLedgerClosed") if e.data["player"] == "p2")
    assert closed.audience == ("p2",)
    assert closed.data == {"player": "p2", "exchanged": 1, "awarded": 3, "net_change": 2}
    assert match.ledger["garnets"]["p2"] == 2
    assert match.garnets["p2"] == 3
    assert am.results(match.state)["details"]["final_balances"]["p2"] == 413


def test_kong_decided_by_the_first_to_reach_the_common_count():
    """White scores in rounds 1 and 4 (p4, then p5 give $5), red in rounds 2 and 3 (p1, then
    p2): 2-2, red's second point came first. Red: p1 and p2 gave 5 (p1 higher in GT), p3 0.
    White ascending: p6 0, then p4 and p5 at 5, p4 the better place."""
    match = Match()
    match.play_round(p4={"kd": 5})
    match.play_round(p1={"kd": 5})
    match.play_round(p2={"kd": 5})
    match.play_round(p5={"kd": 5})
    match.play_rounds(3)
    kong = next(e.data for e in match.all("SubgameRanked") if e.data["subgame"] == "kong")
    assert kong["ranking"] == ["p1", "p2", "p3", "p6", "p4", "p5"]
    assert kong["scores"] == {
        "winning_team": "red",
        "decided_by": "first_to_reach",
        "points": {"red": 2, "white": 2},
    }
    spending = match.last("SubgameSpending")
    assert spending.audience == HOST
    assert spending.data["kong_contributions"] == {"p1": 5, "p2": 5, "p3": 0} | {
        "p4": 5,
        "p5": 5,
        "p6": 0,
    }


# The EC decision window: tied_bottom_match leaves p5 and p6 tied for fewest, p1 the winner.


def test_a_tie_for_fewest_opens_the_window_for_the_winners():
    match = tied_bottom_match()
    assert match.last("MatchScored").data["ec_candidates"] == ["p5", "p6"]
    assert match.last("EcDecisionOpened").data == {"candidates": ["p5", "p6"], "deciders": ["p1"]}
    assert match.state.phase == "ec_decision" and not am.finished(match.state)


def test_the_winners_choice_decides_and_the_last_valid_one_counts():
    match = tied_bottom_match()
    chosen = match.do("p1", "choose_ec", candidate="p6")
    assert chosen[0].audience == ("p1",)
    match.do("p1", "choose_ec", candidate="p5")
    match.host("close_ec_decision")
    assert match.last("EcChoicesCounted").data == {
        "choices": {"p1": "p5"},
        "counts": {"p5": 1, "p6": 0},
    }
    assert match.last("EcDetermined").data == {"ec": "p5", "decided_by": "winner_choice"}
    assert am.finished(match.state)
    assert match.ledger["garnets"] == {"p1": 7, "p2": 3, "p3": 0, "p4": 0, "p5": 0, "p6": 2}


def test_no_choice_falls_back_to_the_lowest_in_gt():
    match = tied_bottom_match()
    match.host("close_ec_decision")
    assert match.last("EcDetermined").data == {"ec": "p6", "decided_by": "gamewide_tiebreak"}
    assert match.ledger["ec"]["p6"] == 1


def scored(rankings: dict[str, list[str]], **variants: object) -> Match:
    """A match at the end of round 7 whose sub-game rankings are `rankings`."""
    match = Match(variants=variants)
    match.state = replace(match.state, rankings=rankings)
    turn = Turn(match.state, match.garnets)
    scoring.award_match(turn)
    match.record(turn.events)
    return match


TWO_TOP = {
    # Kong p1 20 p2 15 p3 12 p4 10 p5 8 p6 4; MA p5 20 p6 15 p4 12 p2 10 p1 8 p3 4;
    # ID p3 20 p2 15 p4 12 p1 10 p6 8 p5 4; CT p5 20 p6 15 p2 12 p3 10 p4 8 p1 4.
    # p1 42, p2 52, p3 46, p4 42, p5 52, p6 42: winners p2 p5, candidates p1 p4 p6.
    "kong": PLAYERS,
    "minus_auction": ["p5", "p6", "p4", "p2", "p1", "p3"],
    "investment_donation": ["p3", "p2", "p4", "p1", "p6", "p5"],
    "chip_thief": ["p5", "p6", "p2", "p3", "p4", "p1"],
}
THREE_TOP = {
    # Kong p1 20 p2 15 p3 12 p4 10 p5 8 p6 4; MA p4 20 p5 15 p3 12 p6 10 p2 8 p1 4;
    # ID p2 20 p4 15 p5 12 p6 10 p3 8 p1 4; CT p5 20 p6 15 p2 12 p4 10 p1 8 p3 4.
    # p1 36, p2 55, p3 36, p4 55, p5 55, p6 39.
    "kong": PLAYERS,
    "minus_auction": ["p4", "p5", "p3", "p6", "p2", "p1"],
    "investment_donation": ["p2", "p4", "p5", "p6", "p3", "p1"],
    "chip_thief": ["p5", "p6", "p2", "p4", "p1", "p3"],
}
FOUR_TOP = {
    # Kong p1 20 p2 15 p3 12 p4 10 p5 8 p6 4; MA p6 20 p1 15 p3 12 p4 10 p2 8 p5 4;
    # ID p5 20 p6 15 p4 12 p3 10 p1 8 p2 4; CT p2 20 p5 15 p4 12 p3 10 p6 8 p1 4.
    # p1 47, p2 47, p3 44, p4 44, p5 47, p6 47.
    "kong": PLAYERS,
    "minus_auction": ["p6", "p1", "p3", "p4", "p2", "p5"],
    "investment_donation": ["p5", "p6", "p4", "p3", "p1", "p2"],
    "chip_thief": ["p2", "p5", "p4", "p3", "p6", "p1"],
}
ALL_LEVEL = {
    # Kong p1 20 p2 15 p3 12 p4 10 p5 8 p6 4; MA p6 20 p5 15 p4 12 p3 10 p2 8 p1 4;
    # ID p4 20 p2 15 p6 12 p1 10 p5 8 p3 4; CT p3 20 p5 15 p1 12 p6 10 p2 8 p4 4.
    # 46 each.
    "kong": PLAYERS,
    "minus_auction": ["p6", "p5", "p4", "p3", "p2", "p1"],
    "investment_donation": ["p4", "p2", "p6", "p1", "p5", "p3"],
    "chip_thief": ["p3", "p5", "p1", "p6", "p2", "p4"],
}


def test_two_joint_winners_get_one_tol_each_and_decide_together():
    match = scored(TWO_TOP)
    data = match.last("MatchScored").data
    assert data["match_points"] == {"p1": 42, "p2": 52, "p3": 46, "p4": 42, "p5": 52, "p6": 42}
    assert (data["winners"], data["tols"]) == (["p2", "p5"], {"p2": 1, "p5": 1})
    assert data["ec_candidates"] == ["p1", "p4", "p6"]
    assert match.ledger["tol"] == {"p1": 0, "p2": 1, "p3": 0, "p4": 0, "p5": 1, "p6": 0}
    assert am.results(match.state)["outcome"] == "joint_winners"
    # Level choices: the lowest in GT among the level candidates (p4, p6) is p6.
    match.do("p2", "choose_ec", candidate="p4")
    match.do("p5", "choose_ec", candidate="p6")
    match.host("close_ec_decision")
    assert match.last("EcDetermined").data == {"ec": "p6", "decided_by": "gamewide_tiebreak"}


def test_two_winners_agreeing_decide_the_ec():
    match = scored(TWO_TOP)
    match.do("p2", "choose_ec", candidate="p1")
    match.do("p5", "choose_ec", candidate="p1")
    match.host("close_ec_decision")
    assert match.last("EcDetermined").data == {"ec": "p1", "decided_by": "winner_choice"}


def test_three_joint_winners_plurality():
    match = scored(THREE_TOP)
    data = match.last("MatchScored").data
    assert data["match_points"] == {"p1": 36, "p2": 55, "p3": 36, "p4": 55, "p5": 55, "p6": 39}
    assert data["winners"] == ["p2", "p4", "p5"] and data["tols"] == dict.fromkeys(
        data["winners"], 1
    )
    assert data["ec_candidates"] == ["p1", "p3"]
    match.do("p2", "choose_ec", candidate="p3")
    match.do("p4", "choose_ec", candidate="p1")
    match.do("p5", "choose_ec", candidate="p3")
    match.host("close_ec_decision")
    assert match.last("EcDetermined").data == {"ec": "p3", "decided_by": "winner_choice"}


def test_three_winners_one_each_and_one_silent_fall_back_to_gt():
    match = scored(THREE_TOP)
    match.do("p2", "choose_ec", candidate="p1")
    match.do("p4", "choose_ec", candidate="p3")
    match.host("close_ec_decision")
    assert match.last("EcDetermined").data == {"ec": "p3", "decided_by": "gamewide_tiebreak"}


def test_four_at_the_top_means_no_winner_and_no_tol():
    match = scored(FOUR_TOP)
    data = match.last("MatchScored").data
    assert data["match_points"] == {"p1": 47, "p2": 47, "p3": 44, "p4": 44, "p5": 47, "p6": 47}
    assert (data["winners"], data["tols"], data["tols_invalidated"]) == ([], {}, True)
    assert match.last("EcDetermined").data == {"ec": "p4", "decided_by": "gamewide_tiebreak"}
    assert "EcDecisionOpened" not in kinds(match.log)
    assert sum(match.ledger["tol"].values()) == 0
    assert am.results(match.state)["outcome"] == "no_winner"
    # Kong p1 2 p2 1; MA p6 2 p1 1; ID p5 2 p6 1; CT p2 2 p5 1.
    assert match.last("GarnetsAwarded").data["awards"] == {
        "p1": 3,
        "p2": 3,
        "p3": 0,
        "p4": 0,
        "p5": 3,
        "p6": 3,
    }


def test_four_at_the_top_decide_without_tols_with_the_variant():
    match = scored(FOUR_TOP, four_plus_top_tie="winners_without_tols")
    data = match.last("MatchScored").data
    assert (data["winners"], data["tols"], data["tols_invalidated"]) == (
        ["p1", "p2", "p5", "p6"],
        {},
        True,
    )
    assert match.last("EcDecisionOpened").data["deciders"] == ["p1", "p2", "p5", "p6"]
    for winner in ("p1", "p2", "p5"):
        match.do(winner, "choose_ec", candidate="p3")
    match.do("p6", "choose_ec", candidate="p4")
    match.host("close_ec_decision")
    assert match.last("EcDetermined").data == {"ec": "p3", "decided_by": "winner_choice"}
    assert am.results(match.state)["outcome"] == "joint_winners"


def test_six_level_no_winner_the_last_in_gt_is_the_ec():
    match = scored(ALL_LEVEL)
    data = match.last("MatchScored").data
    assert data["match_points"] == dict.fromkeys(PLAYERS, 46)
    assert data["winners"] == [] and data["ec_candidates"] == PLAYERS
    assert match.last("EcDetermined").data == {"ec": "p6", "decided_by": "gamewide_tiebreak"}
    assert am.results(match.state)["ranks"] == dict.fromkeys(PLAYERS, 1)


def test_the_end_is_public_except_the_spending_and_the_ledgers():
    match = quiet_match()
    audiences = {e.kind: e.audience for e in match.log[-15:]}
    assert audiences["SubgameRanked"] == PUBLIC
    assert audiences["MatchScored"] == PUBLIC
    assert audiences["EcDetermined"] == PUBLIC
    assert audiences["GarnetsAwarded"] == PUBLIC
    assert audiences["SubgameSpending"] == HOST
    assert {e.audience for e in match.all("GarnetLedgerClosed")} == {(p,) for p in PLAYERS}


def streak_match(**variants: object) -> Match:
    """p2 bids -1 on every round-1 tile: he takes -1 ... -5 alone (no rotation). Then nobody
    submits: tiles -6 ... -35 go round the order p1 ... p6, so p2 adds -7 -13 -19 -25 -31."""
    match = Match(variants=variants)
    match.play_round(p2={"bids": [-1] * 5})
    match.play_rounds(6)
    return match


def test_a_streak_counts_its_value_nearest_zero_once():
    """-1 ... -5 is worth -1: -1 -7 -13 -19 -25 -31 = -96."""
    ranked = streak_match().all("SubgameRanked")[1].data
    assert ranked["scores"]["tiles"]["p2"] == [-1, -2, -3, -4, -5, -7, -13, -19, -25, -31]
    assert ranked["scores"]["scores"]["p2"] == -96


def test_the_per_tile_streak_variant_reaches_the_ranking():
    """-1 ... -5 counts -1 five times: -5 -7 -13 -19 -25 -31 = -100."""
    ranked = streak_match(ma_streak_scoring="per_tile").all("SubgameRanked")[1].data
    assert ranked["scores"]["scores"]["p2"] == -100


def test_a_player_without_a_tile_in_rounds_one_and_two_pays_in_round_two():
    """p6 takes nothing in round 1 (p2 takes all) nor in round 2 (-6 ... -10 go to p1 ... p5)."""
    match = streak_match()
    assert match.all("MinusAuctionPenaltiesApplied")[1].data["penalised"] == ["p6"]
    assert match.all("BalancesRevealed")[1].data["balances"]["p6"] == 380


def test_a_zero_investment_earns_nothing_with_the_variant():
    """As in the defaults scenario of test_am_rounds: five invest $10, p6 nothing."""
    match = Match(variants={"ti_zero_amount_eligible": False})
    match.play_round(**{p: {"invest": 10} for p in PLAYERS[:5]})
    assert match.last("InvestmentTokensAwarded").data["top_investor"] is None
