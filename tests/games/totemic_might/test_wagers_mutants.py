"""Wagers at submission (rules 4.5, 6.6), worked out by hand: the Snake limit counts only Snake
wagers that took place, from zero."""

from __future__ import annotations

from tests.games.totemic_might.harness import Match


def test_a_limit_of_one_snake_allows_exactly_one():
    """`snake_max_uses = 1`: p1 has taken no Snake wager, so the first is accepted (0 < 1); it
    takes place at the deadline (letter A, free), and the second is SNAKE_LIMIT."""
    match = Match(snake_max_uses=1)
    match.do("p1", "place_wager", kind="snake", letter="A")
    match.deadline()
    assert match.last("WagerSettled", "p1").data["took_place"] is True
    assert match.reject("p1", "place_wager", kind="snake", letter="B") == "SNAKE_LIMIT"
    # Another player still has their one Snake.
    match.do("p2", "place_wager", kind="snake", letter="B")


def test_a_limit_of_zero_snakes_allows_none():
    match = Match(snake_max_uses=0)
    assert match.reject("p1", "place_wager", kind="snake", letter="A") == "SNAKE_LIMIT"
