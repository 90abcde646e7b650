"""A round from submission to reveal (rulebook 3.4 and 6), worked out by hand on the standard setup:
GT p1 > ... > p6, red p1 p2 p3 v white p4 p5 p6, round 1 tiles -1 -2 -3 -4 -5 in that order."""

from __future__ import annotations

from domain.games.amalgamation import draws
from domain.rng import Rng
from tests.games.amalgamation.harness import PLAYERS, Match, kinds, round_args


def test_a_round_resolves_in_the_order_of_the_rules():
    match = Match()
    events = match.host("close_round")
    assert kinds(events) == [
        "RoundLocked",
        *["SubmissionLocked"] * 6,
        "DefaultsApplied",
        *["MoneySpent"] * 6,
        "KongRoundResolved",
        "KongRoundTotals",
        *["MinusAuctionTileAwarded", "MinusAuctionTileBids"] * 5,
        "MinusAuctionRoundClosed",
        "InvestmentTokensAwarded",
        "InvestmentAmounts",
        "ChipThiefRoundResolved",
        "ChipThiefBets",
        *["ChipThiefPointsNoted"] * 6,
        "MinusAuctionPenaltiesApplied",
        "BalancesBeforePenalties",
        "BalancesRevealed",
        "RoundOpened",
    ]
    assert match.last("RoundOpened").data == {
        "round": 2,
        "tiles": [-6, -7, -8, -9, -10],
        "ma_order": ["p6", "p1", "p2", "p3", "p4", "p5"],  # p1 ... p5 each took a tie
    }


def test_every_amount_is_spent_and_the_balance_revealed():
    """p1: Kong 10, bids 3 and -2 (|3| + |-2| = 5), invest 7, donate 2, bet 6: $30."""
    match = Match()
    match.submit("p1", kd=10, bids=[3, -2, 0, 0, 0], invest=7, donate=2, bet=6)
    match.host("close_round")
    spent = next(e.data for e in match.all("MoneySpent") if e.data["player"] == "p1")
    assert spent == {
        "player": "p1",
        "round": 1,
        "garnets_exchanged": 0,
        "money_bought": 0,
        "kd_contribution": 10,
        "ma_bids_total": 5,
        "invest": 7,
        "donate": 2,
        "ct_bet": 6,
        "total": 30,
        "balance": 370,
    }
    assert match.last("BalancesRevealed").data["balances"] == {"p1": 370} | {
        p: 400 for p in PLAYERS[1:]
    }


def test_a_later_submission_replaces_the_earlier_one():
    match = Match()
    match.submit("p1", kd=50)
    match.submit("p1", kd=20)
    match.host("close_round")
    assert match.last("BalancesRevealed").data["balances"]["p1"] == 380
    assert match.last("KongRoundResolved").data["losing_team_total"] == 0


def test_garnets_leave_on_acceptance_and_come_back_when_replaced():
    """Rates 10 and 13: mean 11.5, rounded up to 12. p1 holds 3 garnets."""
    match = Match(garnets={"p1": 3}, close_pregame=False)
    match.do("p1", "submit_garnet_rate", rate=10)
    match.do("p2", "submit_garnet_rate", rate=13)
    match.host("close_pregame")
    assert match.last("PregameClosed").data["garnet_rate"] == 12
    first = match.submit("p1", kd=412, garnets=2)  # $400 + 2 x $12 = $424 available
    assert [(p.amount, p.reason) for p in first[0].postings] == [(-2, "garnet_exchange")]
    assert match.garnets["p1"] == 1
    second = match.submit("p1", kd=410, garnets=1)
    assert [(p.amount, p.reason) for p in second[0].postings] == [
        (2, "garnet_exchange_replaced"),
        (-1, "garnet_exchange"),
    ]
    assert match.garnets["p1"] == 2
    match.host("close_round")
    spent = next(e.data for e in match.all("MoneySpent") if e.data["player"] == "p1")
    assert (spent["garnets_exchanged"], spent["money_bought"], spent["balance"]) == (1, 12, 2)


def test_the_garnets_held_include_those_the_replaced_submission_took():
    """p1 holds 2, exchanges both, then replaces the submission asking for 2 again."""
    match = Match(garnets={"p1": 2})
    match.submit("p1", garnets=2)
    assert match.garnets["p1"] == 0
    match.submit("p1", garnets=2)
    assert match.garnets["p1"] == 0
    assert match.reject("p1", "submit_round", **_args(match, garnets_to_exchange=3)) == (
        "insufficient_garnets"
    )


def _args(match: Match, **changes: object) -> dict[str, object]:
    return round_args(match) | changes


def test_a_missing_submission_gets_the_defaults_and_a_seeded_role():
    """p1-p5 invest $10, donate $1 and bid $1 on every tile; p6 sends nothing. His $0
    investment is the only unique amount (Top Investor), his $0 donation the smallest (the only
    Miser), and his 0 bids take all five tiles, with no tie, so the order does not move."""
    match = Match(seed="defaults")
    for player in PLAYERS[:5]:
        match.submit(player, bids=[1] * 5, invest=10, donate=1)
    match.host("close_round")
    drawn = draws.random_role(Rng(draws.GAME_ID, "defaults"), 1, "p6")
    locked = {e.data["player"]: e.data for e in match.all("SubmissionLocked")}
    assert locked["p6"] == {
        "player": "p6",
        "round": 1,
        "defaulted": True,
        "drawn_ct_role": drawn,
    }
    assert locked["p1"]["defaulted"] is False and locked["p1"]["drawn_ct_role"] is None
    assert match.last("DefaultsApplied").data == {
        "round": 1,
        "defaulted": ["p6"],
        "roles": {"p6": drawn},
    }
    assert match.last("ChipThiefRoundResolved").data["roles"]["p6"] == drawn
    assert match.last("InvestmentTokensAwarded").data == {
        "round": 1,
        "top_investor": "p6",
        "misers": ["p6"],
    }
    assert [e.data["winner"] for e in match.all("MinusAuctionTileAwarded")] == ["p6"] * 5
    assert match.last("MinusAuctionRoundClosed").data["order_after"] == PLAYERS
    assert match.last("BalancesRevealed").data["balances"] == {p: 384 for p in PLAYERS[:5]} | {
        "p6": 400
    }


def test_kong_publishes_the_winner_and_the_losing_total_only():
    match = Match()
    match.play_round(p1={"kd": 10}, p4={"kd": 3})
    assert match.last("KongRoundResolved").data == {
        "round": 1,
        "result": "red",
        "losing_team_total": 3,
        "tie_total": None,
        "points": {"red": 1, "white": 0},
    }
    assert match.last("KongRoundTotals").data == {"round": 1, "totals": {"red": 10, "white": 3}}
    match.play_round(p1={"kd": 5}, p4={"kd": 5})
    assert match.last("KongRoundResolved").data == {
        "round": 2,
        "result": "tie",
        "losing_team_total": None,
        "tie_total": None,
        "points": {"red": 1, "white": 0},
    }


def test_kong_tie_amount_with_the_variant():
    match = Match(variants={"kd_tie_reveals_amount": True})
    match.play_round(p1={"kd": 5}, p4={"kd": 5})
    assert match.last("KongRoundResolved").data["tie_total"] == 5


def test_minus_auction_tiles_winners_and_the_order_move_tile_by_tile():
    """-1: p2 bids -3, alone: p2, no move. -2: p3 and p5 bid -1: p3 (front), to the back.
    -3: everyone 0: p1 (front) to the back. -4: p1 and p4 at -2: p4 is now ahead of p1: p4.
    -5: p6 bids -9: p6."""
    match = Match()
    match.play_round(
        p1={"bids": [0, 0, 0, -2, 0]},
        p2={"bids": [-3, 0, 0, 0, 0]},
        p3={"bids": [0, -1, 0, 0, 0]},
        p4={"bids": [0, 0, 0, -2, 0]},
        p5={"bids": [0, -1, 0, 0, 0]},
        p6={"bids": [0, 0, 0, 0, -9]},
    )
    awarded = [(e.data["tile"], e.data["winner"]) for e in match.all("MinusAuctionTileAwarded")]
    assert awarded == [(-1, "p2"), (-2, "p3"), (-3, "p1"), (-4, "p4"), (-5, "p6")]
    bids = [e.data for e in match.all("MinusAuctionTileBids")]
    assert [(b["lowest_bid"], b["tied"], b["moved_to_end"]) for b in bids] == [
        (-3, ["p2"], False),
        (-1, ["p3", "p5"], True),
        (0, ["p1", "p2", "p4", "p5", "p6", "p3"], True),
        (-2, ["p4", "p1"], True),
        (-9, ["p6"], False),
    ]
    # p1 p2 p3 p4 p5 p6 -> (p3 back) p1 p2 p4 p5 p6 p3 -> (p1 back) p2 p4 p5 p6 p3 p1
    # -> (p4 back) p2 p5 p6 p3 p1 p4
    assert match.last("MinusAuctionRoundClosed").data["order_after"] == [
        "p2",
        "p5",
        "p6",
        "p3",
        "p1",
        "p4",
    ]
    assert match.last("RoundOpened").data["ma_order"] == ["p2", "p5", "p6", "p3", "p1", "p4"]


def test_every_winner_moves_with_the_rotation_variant():
    """Everyone 0 except p2 bidding -1 on every tile: p2 takes all five, each time to the back;
    p2 is at the back after the first tile already."""
    match = Match(variants={"ma_rotation": "every_winner"})
    match.play_round(p2={"bids": [-1] * 5})
    assert match.last("MinusAuctionRoundClosed").data["order_after"] == [
        "p1",
        "p3",
        "p4",
        "p5",
        "p6",
        "p2",
    ]


def test_the_second_dry_round_costs_20_clamped_at_zero():
    """Round 1: p1 spends $380 on Kong and $1 on each tile: $15 left, no tile (everyone else
    bids 0). Round 2: $1 on each tile again: $10 before the penalty, no tile, second dry round:
    $10 - $20 clamps to $0. Round 3: at $0 he can only submit zeros; his 0 ties and he is at
    the front of the order: he takes -11 and the counter resets."""
    match = Match()
    match.play_round(p1={"kd": 380, "bids": [1] * 5})
    assert match.last("MinusAuctionPenaltiesApplied").data["penalised"] == []
    assert match.last("MinusAuctionPenaltiesApplied").data["dry_rounds"]["p1"] == 1
    match.play_round(p1={"bids": [1] * 5})
    penalties = match.last("MinusAuctionPenaltiesApplied").data
    assert (penalties["penalised"], penalties["amount"], penalties["dry_rounds"]["p1"]) == (
        ["p1"],
        20,
        0,
    )
    assert match.last("BalancesBeforePenalties").data["balances"]["p1"] == 10
    assert match.last("BalancesRevealed").data["balances"]["p1"] == 0
    assert match.reject("p1", "submit_round", **_args(match, invest=1)) == "insufficient_funds"
    match.play_round(p1={})
    assert match.all("MinusAuctionTileAwarded")[-5].data == {
        "round": 3,
        "tile": -11,
        "winner": "p1",
    }
    assert match.last("MinusAuctionPenaltiesApplied").data["dry_rounds"]["p1"] == 0


def test_four_dry_rounds_cost_two_penalties_three_cost_one():
    """p1 bids $1 on every tile for four rounds ($5 a round): penalties in rounds 2 and 4.
    395, 390 - 20 = 370, 365, 360 - 20 = 340."""
    match = Match()
    balances = []
    for _ in range(4):
        match.play_round(p1={"bids": [1] * 5})
        balances.append(match.last("BalancesRevealed").data["balances"]["p1"])
    assert balances == [395, 370, 365, 340]
    penalised = [e.data["penalised"] for e in match.all("MinusAuctionPenaltiesApplied")]
    assert penalised == [[], ["p1"], [], ["p1"]]


def test_a_round_seven_penalty_is_applied():
    """Nobody submits in rounds 1-5 (p1 takes -25 in round 5, see scenarios.quiet_match); p1
    then bids $1 on every tile in rounds 6 and 7: 400 - 5 - 5 - 20 = 370."""
    match = Match()
    match.play_rounds(5)
    match.play_round(p1={"bids": [1] * 5})
    match.play_round(p1={"bids": [1] * 5})
    last = match.all("MinusAuctionPenaltiesApplied")[-1].data
    assert (last["round"], last["penalised"]) == (7, ["p1"])
    assert match.all("BalancesRevealed")[-1].data["balances"]["p1"] == 370


def test_chip_thief_points_are_chips_times_bet():
    """2 mafia > 1 cartel: p1 and p2 take 2 chips each; the chip left goes to the lone beggar
    p4. Points: p1 2 x 10, p2 2 x 20, p3 0 x 5, p4 1 x 7."""
    match = Match()
    match.play_round(
        p1={"role": "mafia", "bet": 10},
        p2={"role": "mafia", "bet": 20},
        p3={"role": "cartel", "bet": 5},
        p4={"role": "beggar", "bet": 7},
        p5={"role": "police"},
        p6={"role": "police"},
    )
    assert match.last("ChipThiefRoundResolved").data["chips"] == {
        "p1": 2,
        "p2": 2,
        "p3": 0,
        "p4": 1,
        "p5": 0,
        "p6": 0,
    }
    assert match.last("ChipThiefBets").data["points"] == {
        "p1": 20,
        "p2": 40,
        "p3": 0,
        "p4": 7,
        "p5": 0,
        "p6": 0,
    }
    noted = next(e for e in match.all("ChipThiefPointsNoted") if e.data["player"] == "p2")
    assert noted.audience == ("p2",)
    assert (noted.data["points"], noted.data["total"]) == (40, 40)
    assert match.last("BalancesRevealed").data["balances"]["p3"] == 395
