"""What the fold keeps over the seven rounds of Investment & Donation (rulebook 6.3, AM-R22 ...
AM-R25): Top Investor tokens counted one each, ID money as investments plus donations (issue
16, mutation testing of evolve.py).

Round 1: p1 invests $3 and donates $2, p2 invests $1 and donates $1, the others are defaulted
($0 and $0). Investments 3, 1, 0 x4: $3 is the highest and p1's alone, so p1 takes the Top
Investor token; the smallest donation is $0, so p3 ... p6 are Misers. Rounds 2-7: nobody
submits, $0 is shared by six (no token) and all six are Misers. Totals: Top Investor p1 1;
Misers p1 6, p2 6, p3 ... p6 7; ID money p1 $5, p2 $2."""

from __future__ import annotations

from domain.decider import HOST
from tests.games.amalgamation.harness import PLAYERS, Match


def played() -> Match:
    match = Match()
    match.play_round(p1={"invest": 3, "donate": 2}, p2={"invest": 1, "donate": 1})
    match.play_rounds(6)
    return match


def test_a_top_investor_token_is_one_token_kept_to_the_end():
    match = played()
    assert match.all("InvestmentTokensAwarded")[0].data == {
        "round": 1,
        "top_investor": "p1",
        "misers": ["p3", "p4", "p5", "p6"],
    }
    ranked = {e.data["subgame"]: e.data for e in match.all("SubgameRanked")}
    assert ranked["investment_donation"]["scores"] == {
        "top_investor_tokens": {"p1": 1, "p2": 0, "p3": 0, "p4": 0, "p5": 0, "p6": 0},
        "miser_tokens": {"p1": 6, "p2": 6, "p3": 7, "p4": 7, "p5": 7, "p6": 7},
    }
    # Snake: 1st p1 (the one token); 6th among the most Misers (p3 ... p6, all $0 spent) the
    # lowest in GT, p6; 2nd p2 (no token, but $2 spent); 5th p5; 3rd p3; 4th p4.
    assert ranked["investment_donation"]["ranking"] == PLAYERS


def test_id_money_is_investments_plus_donations():
    match = played()
    spending = match.last("SubgameSpending")
    assert spending.audience == HOST
    assert spending.data["investment_donation"] == {
        "p1": 5,
        "p2": 2,
        "p3": 0,
        "p4": 0,
        "p5": 0,
        "p6": 0,
    }
    assert match.last("BalancesRevealed").data["balances"]["p1"] == 395
