"""The configuration values of rules 2.6 that other files do not exercise: each variant changes
exactly what it names."""

from __future__ import annotations

from tests.games.totemic_might.harness import HINTS, Match, standard_setup

BEAR = {"kind": "bear", "totems": ["Void-Sky"]}
FOX = {"kind": "fox", "totems": ["Summer-Secret", "Void-Creature", "Spring-Future"],
       "payment": "garnets"}


def test_bet_limits():
    match = Match(bet_min_per_series=2, bet_max_per_series=12, bet_max_per_round=20)
    assert match.reject("p1", "place_bet", series="A", amount=1) == "BET_BELOW_MIN"
    assert match.reject("p1", "place_bet", series="A", amount=13) == "BET_ABOVE_SERIES_MAX"
    match.do("p1", "place_bet", series="A", amount=12)
    assert match.reject("p1", "place_bet", series="B", amount=9) == "ROUND_BET_LIMIT"
    match.do("p1", "place_bet", series="B", amount=8)
    match.deadline()
    bids = match.all("SeriesBidsRecorded")
    assert bids[0].data["bids"]["p2"] == 2  # the default is the minimum
    assert match.state.chips["p1"] == 100 and match.state.chips["p2"] == 116


def test_with_a_minimum_of_two_three_chips_bid_on_a_only():
    match = Match(bet_min_per_series=2, starting_chips=3, end_player_count=7,
                  end_chip_threshold=0)
    assert match.reject("p1", "place_bet", series="B", amount=2) == "INSUFFICIENT_CHIPS"
    match.deadline()
    assert "p1" not in match.all("SeriesBidsRecorded")[1].data["bids"]
    assert match.state.chips["p1"] == 1
    assert match.reject("p1", "place_bet", series="A", amount=2) == "INSUFFICIENT_CHIPS"


def test_the_end_condition_values():
    match = Match(starting_chips=20, end_chip_threshold=18, end_player_count=7)
    match.deadline()  # everyone at 18: all seven at or below 18
    assert match.state.phase == "final_weighing"
    match = Match(starting_chips=20, end_chip_threshold=17, end_player_count=1)
    match.deadline()  # everyone at 18
    assert match.state.phase == "auction"


def test_weighings_per_round():
    match = Match(weighings_per_round=1)
    match.do("p1", "weigh", left=["S:Summer-Secret"])
    assert match.reject("p1", "weigh", left=["S:Summer-Secret"]) == "WEIGHING_LIMIT"


def test_wager_prices():
    match = Match(bear_cost=1, bear_fine_extra=2, fox_garnet_cost=1,
                  garnets={"p1": 3, "p2": 3, "p3": 1, "p4": 2, "p5": 0, "p6": 0, "p7": 0})
    match.do("p1", "place_wager", **BEAR, fine=True)  # 1 + 2
    match.do("p3", "place_wager", **FOX)  # 1
    match.do("p4", "place_wager", **BEAR)  # 1
    assert match.reject("p4", "place_wager", **BEAR, fine=True) == "INSUFFICIENT_GARNETS"
    match.deadline()
    costs = {p: match.last("WagerSettled", p).data["cost"] for p in ("p1", "p3", "p4")}
    assert costs == {"p1": 3, "p3": 1, "p4": 1}


def test_snake_lifts_need_not_be_distinct_in_the_variant():
    hints = [{**hint, "lift": 20} for hint in HINTS]
    match = Match(snake_hints=hints, snake_lifts_distinct=False)
    match.do("p1", "place_wager", kind="snake", letter="A")
    match.deadline()
    assert match.last("WagerSettled", "p1").data["lift"] == 20


def test_the_default_setup_needs_nothing_but_players_and_hints():
    setup = standard_setup(weights=None, starting_totems=None, spirit_pool=None, series=None)
    assert sorted(setup) == ["players", "snake_hints"]
    match = Match(weights=None, starting_totems=None, spirit_pool=None, series=None)
    assert len(match.state.pool) == 10
