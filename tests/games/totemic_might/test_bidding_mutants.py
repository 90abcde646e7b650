"""Bets (rules 4.1, TM-R1, TM-R7 and the decisions page's "can bid" with other minimums),
worked out by hand: check 6 (cannot bid on this series) comes before check 7 (the round limit)."""

from __future__ import annotations

from tests.games.totemic_might.harness import Match


def test_cannot_bid_on_b_comes_before_the_round_limit():
    """Minimum 4, 5 chips: one minimum bet (A) but not two, so B is closed to the player (check
    6, INSUFFICIENT_CHIPS). A bet of 7 on B passes checks 4 and 5 (4 <= 7 <= 10); with the
    default 4 on A it would also break the round limit of 10 (check 7, ROUND_BET_LIMIT), but
    check 6 comes first."""
    match = Match(starting_chips=5, bet_min_per_series=4, bet_max_per_round=10)
    assert match.reject("p1", "place_bet", series="B", amount=7) == "INSUFFICIENT_CHIPS"


def test_with_two_minimums_b_is_open_and_the_round_limit_applies():
    """Minimum 4, 8 chips: two minimum bets, so B is open; 7 on B plus the default 4 on A is
    11, above the round limit of 10: ROUND_BET_LIMIT."""
    match = Match(starting_chips=8, bet_min_per_series=4, bet_max_per_round=10)
    assert match.reject("p1", "place_bet", series="B", amount=7) == "ROUND_BET_LIMIT"
    # 4 on B plus the default 4 on A is 8: within the limit and the chips.
    match.do("p1", "place_bet", series="B", amount=4)


def test_a_is_open_with_one_minimum_bet():
    """Minimum 4, 5 chips: A is open, and 5 on A (the other series closed, counted 0) is
    accepted; 6 is more than the chips."""
    match = Match(starting_chips=5, bet_min_per_series=4, bet_max_per_round=10)
    match.do("p1", "place_bet", series="A", amount=5)
    assert match.reject("p1", "place_bet", series="A", amount=6) == "INSUFFICIENT_CHIPS"
