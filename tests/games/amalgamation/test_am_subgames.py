"""The sub-games' rules on their own (rulebook 6.1-6.4), with the rulings' worked examples."""

from __future__ import annotations

import pytest

from domain.games.amalgamation import chip_thief, investment, kong, minus_auction
from tests.games.amalgamation.harness import PLAYERS

TEAMS = {"red": ["p1", "p2", "p3"], "white": ["p4", "p5", "p6"]}


def gt_place(player: str) -> int:
    """GT p1 > p2 > ... > p6."""
    return PLAYERS.index(player)


# Kong's Dilemma


def test_kong_the_larger_team_total_scores_and_the_losing_total_is_known():
    """Red 10 + 20 + 0 = 30 against white 25 + 0 + 4 = 29."""
    result = kong.resolve_round(TEAMS, {"p1": 10, "p2": 20, "p3": 0, "p4": 25, "p5": 0, "p6": 4})
    assert result.totals == {"red": 30, "white": 29}
    assert (result.result, result.losing_team_total) == ("red", 29)


def test_kong_equal_totals_are_a_tie_with_no_losing_total():
    result = kong.resolve_round(TEAMS, {"p1": 5, "p2": 0, "p3": 0, "p4": 0, "p5": 0, "p6": 5})
    assert (result.result, result.losing_team_total) == ("tie", None)


def test_kong_more_points_wins():
    points = {"red": 2, "white": 3}
    rounds = {"red": (1, 2), "white": (3, 4, 5)}
    assert kong.winning_team(points, rounds, TEAMS, PLAYERS) == ("white", "points")


def test_kong_level_points_go_to_the_first_to_reach_them():
    """2-2: red's second point came in round 6, white's in round 4 (AM-R11)."""
    points = {"red": 2, "white": 2}
    rounds = {"red": (1, 6), "white": (3, 4)}
    assert kong.winning_team(points, rounds, TEAMS, PLAYERS) == ("white", "first_to_reach")


def test_kong_nil_all_goes_to_the_team_of_the_gt_first():
    points, rounds = {"red": 0, "white": 0}, {"red": (), "white": ()}
    assert kong.winning_team(points, rounds, TEAMS, ["p5", *PLAYERS[:4], "p6"]) == (
        "white",
        "gamewide_tiebreak",
    )


def test_kong_ranking_winners_descending_losers_ascending_gt_first_in_both():
    """Red won. Red: p2 30, p1 and p3 10 each: p2, then p1 (higher GT) before p3. White
    (ascending): p6 0, then p4 and p5 at 5: p4 (higher GT) takes the better place (AM-R13)."""
    contributions = {"p1": 10, "p2": 30, "p3": 10, "p4": 5, "p5": 5, "p6": 0}
    assert kong.ranking(TEAMS, "red", contributions, gt_place) == [
        "p2",
        "p1",
        "p3",
        "p6",
        "p4",
        "p5",
    ]


# Minus Auction


def test_ma_the_numerically_smallest_bid_wins_and_the_order_stays():
    award = minus_auction.award_tile(
        -7, {"p1": 0, "p2": -5, "p3": 3, "p4": 0, "p5": -1, "p6": 0}, PLAYERS, False
    )
    assert (award.winner, award.lowest_bid, award.moved_to_end) == ("p2", -5, False)
    assert award.order_after == tuple(PLAYERS)


def test_ma_a_tie_goes_to_the_front_of_the_order_who_moves_to_the_back():
    order = ("p3", "p1", "p2", "p4", "p5", "p6")
    award = minus_auction.award_tile(
        -7, {"p1": -2, "p2": -2, "p3": 0, "p4": -2, "p5": 0, "p6": 1}, order, False
    )
    assert (award.winner, award.tied, award.moved_to_end) == ("p1", ("p1", "p2", "p4"), True)
    assert award.order_after == ("p3", "p2", "p4", "p5", "p6", "p1")


def test_ma_every_winner_moves_with_the_variant():
    award = minus_auction.award_tile(
        -7, {"p1": 0, "p2": -5, "p3": 3, "p4": 0, "p5": -1, "p6": 0}, PLAYERS, True
    )
    assert award.winner == "p2" and award.order_after == ("p1", "p3", "p4", "p5", "p6", "p2")


@pytest.mark.parametrize(
    ("tiles", "score"),
    [
        ([-17, -18, -19, -20], -17),
        ([-17, -19, -21], -57),
        ([-11, -16, -17, -18, -19, -20, -21], -27),
        ([-21, -11, -19, -17, -16, -20, -18], -27),  # in any order
        ([], 0),
        ([-35], -35),
    ],
)
def test_ma_each_streak_counts_its_value_nearest_zero_once(tiles, score):
    assert minus_auction.score(tiles, per_tile=False) == score


def test_ma_per_tile_streak_scoring_variant():
    """{-17 ... -20} counts -17 four times; -11 alone counts once."""
    assert minus_auction.score([-17, -18, -19, -20], per_tile=True) == -68
    assert minus_auction.score([-11, -17, -18], per_tile=True) == -11 - 34


def test_ma_ranking_score_then_money_bid_then_gt():
    scores = {"p1": -10, "p2": -10, "p3": 0, "p4": -10, "p5": -40, "p6": -10}
    spent = {"p1": 5, "p2": 9, "p3": 0, "p4": 5, "p5": 100, "p6": 0}
    assert minus_auction.ranking(PLAYERS, scores, spent, gt_place) == [
        "p3",
        "p2",
        "p1",
        "p4",
        "p6",
        "p5",
    ]


def test_ma_dry_round_counter():
    dry = {"p1": 0, "p2": 1, "p3": 1}
    took = {"p1": False, "p2": False, "p3": True}
    assert minus_auction.dry_rounds_after(dry, took) == {"p1": 1, "p2": 2, "p3": 0}


# Investment & Donation


@pytest.mark.parametrize(
    ("amounts", "top"),
    [
        ([30, 20, 10, 0, 0, 0], "p1"),
        ([30, 30, 20, 10, 10, 5], "p3"),  # the shared maximum is skipped
        ([10, 10, 10, 10, 10, 0], "p6"),  # $0 counts (AM-R22)
        ([10, 10, 5, 5, 0, 0], None),  # every amount shared
        ([0, 0, 0, 0, 0, 0], None),
    ],
)
def test_id_top_investor_is_the_first_unique_amount_from_the_top(amounts, top):
    assert investment.top_investor(dict(zip(PLAYERS, amounts, strict=True)), True) == top


def test_id_zero_cannot_be_top_investor_with_the_variant():
    amounts = dict(zip(PLAYERS, [10, 10, 10, 10, 10, 0], strict=True))
    assert investment.top_investor(amounts, zero_eligible=False) is None
    amounts = dict(zip(PLAYERS, [10, 10, 7, 7, 3, 0], strict=True))
    assert investment.top_investor(amounts, zero_eligible=False) == "p5"


def test_id_misers_are_everyone_at_the_smallest_donation():
    donations = dict(zip(PLAYERS, [5, 0, 3, 0, 9, 0], strict=True))
    assert investment.misers(PLAYERS, donations) == ["p2", "p4", "p6"]
    assert investment.misers(PLAYERS, dict.fromkeys(PLAYERS, 7)) == PLAYERS


def test_id_snake_placement_with_every_tie_rule():
    """1st: p1 and p2 have 2 Top Investor tokens, p2 spent more. 6th: p3 has the most Miser
    tokens (5), though he also holds a Top Investor token. 2nd: p1. 5th: p4 and p5 have 3 Miser
    tokens and spent $10 each: the lower in GT, p5, is placed first. 3rd: p4 and p6 have no
    Top Investor token and spent $10 each: the higher in GT, p4. 4th: p6, the one left."""
    ti = {"p1": 2, "p2": 2, "p3": 1, "p4": 0, "p5": 0, "p6": 0}
    mi = {"p1": 0, "p2": 0, "p3": 5, "p4": 3, "p5": 3, "p6": 1}
    spent = {"p1": 40, "p2": 50, "p3": 0, "p4": 10, "p5": 10, "p6": 10}
    assert investment.snake_ranking(PLAYERS, ti, mi, spent, gt_place) == [
        "p2",
        "p1",
        "p4",
        "p6",
        "p5",
        "p3",
    ]


def test_id_snake_bottom_prefers_less_spent():
    """Nobody has a token of either kind: 1st p1 spent most; 6th the least spender p3 ($0),
    though p6 is lower in GT; 2nd p2; 5th p6 ($5 < p4 $8 and p5 $9); 3rd p5; 4th p4."""
    zero = dict.fromkeys(PLAYERS, 0)
    spent = {"p1": 50, "p2": 20, "p3": 0, "p4": 8, "p5": 9, "p6": 5}
    assert investment.snake_ranking(PLAYERS, zero, zero, spent, gt_place) == [
        "p1",
        "p2",
        "p5",
        "p4",
        "p6",
        "p3",
    ]


# Garnet Chip Thief


def roles(*named: str) -> dict[str, str]:
    return dict(zip(PLAYERS, named, strict=True))


@pytest.mark.parametrize(
    ("given", "chips"),
    [
        # 2 mafia, 1 cartel, 1 beggar: mafia 2 each, the beggar the chip left.
        (("mafia", "mafia", "cartel", "beggar", "police", "police"), [2, 2, 0, 1, 0, 0]),
        # 2 mafia, 1 cartel, 2 beggars: the one chip left cannot be split.
        (("mafia", "mafia", "cartel", "beggar", "beggar", "police"), [2, 2, 0, 0, 0, 0]),
        # 1 mafia, 5 police: the police take nothing when mafia and cartel differ.
        (("mafia", "police", "police", "police", "police", "police"), [5, 0, 0, 0, 0, 0]),
        # 2 mafia, 2 cartel, 2 beggars: no police to take; beggars 2 each, 1 lost.
        (("mafia", "mafia", "cartel", "cartel", "beggar", "beggar"), [0, 0, 0, 0, 2, 2]),
        # six beggars: 5 chips over 6 rounds down to nothing.
        (("beggar",) * 6, [0] * 6),
        # 0 = 0 and three police: 1 each, 2 left for nobody.
        (("police", "police", "police", "beggar", "beggar", "beggar"), [1, 1, 1, 0, 0, 0]),
        # cartel outnumber mafia: 3 cartel take 1 each; 2 left to the 1 beggar.
        (("cartel", "cartel", "cartel", "mafia", "mafia", "beggar"), [1, 1, 1, 0, 0, 2]),
        # 1 mafia, 1 cartel, 1 police, 3 beggars: the police takes all 5.
        (("mafia", "cartel", "police", "beggar", "beggar", "beggar"), [0, 0, 5, 0, 0, 0]),
    ],
)
def test_ct_chips(given, chips):
    assert chip_thief.chips(PLAYERS, roles(*given)) == dict(zip(PLAYERS, chips, strict=True))


def test_ct_ranking_points_then_gt_only():
    points = {"p1": 0, "p2": 40, "p3": 40, "p4": 100, "p5": 0, "p6": 40}
    assert chip_thief.ranking(PLAYERS, points, gt_place) == ["p4", "p2", "p3", "p6", "p1", "p5"]
