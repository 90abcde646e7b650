"""Wagers at the deadline (rules 6.6, 6.6.1, 7), worked out by hand with the harness weights
(a totem's weight is its place in the canonical order): the wagerer's whole answer, taken place
or lapsed, and the host's record of the Snake assignment."""

from __future__ import annotations

from tests.games.totemic_might.harness import ORDER_1A, ORDER_1B, PLAYERS, Match


def ordered_round(match: Match) -> None:
    """Everyone bids the default 1 and ranks the items with the garnet last: in A all tie in
    priority order p7 p1 p2 p3 p4 p5 p6 and the sixth, p5, takes the garnet; B sees the rotated
    list p6 p7 p1 p2 p3 p4 p5 and p4 takes it. Garnets after the auction: p7 12, p1 10, p2 8,
    p3 8, p4 6, p5 4, p6 0."""
    for player in PLAYERS:
        match.do(player, "set_pick_order", series="A", order=ORDER_1A)
        match.do(player, "set_pick_order", series="B", order=ORDER_1B)


def test_the_answer_echoes_the_wager_that_took_place():
    """A Bear on Void-Sky (10): the band 1-10, 2 garnets paid."""
    match = Match()
    ordered_round(match)
    match.do("p3", "place_wager", kind="bear", totems=["Void-Sky"])
    match.deadline()
    assert match.last("WagerSettled", "p3").data == {
        "round": 1, "player": "p3", "cost": 2, "kind": "bear",
        "wager": {"kind": "bear", "totems": ["Void-Sky"], "fine": False},
        "took_place": True, "answer": [1, 10],
    }


def test_a_lapsed_answer_names_the_wager_that_did_not_take_place():
    """p7 (12 garnets, no series garnet this round) places a Bear, then a season trade leaves 1
    garnet: at the deadline it lapses, free, and the answer still says which wager it was."""
    match = Match()
    ordered_round(match)
    match.do("p7", "place_wager", kind="bear", totems=["Winter-Sky"], fine=True)
    match.balances["p7"] = 1
    match.deadline()
    assert match.last("WagerSettled", "p7").data == {
        "round": 1, "player": "p7", "cost": 0, "kind": "bear",
        "wager": {"kind": "bear", "totems": ["Winter-Sky"], "fine": True},
        "took_place": False, "lapsed": "insufficient_garnets",
    }


def test_the_host_record_of_the_snake_assignment():
    """Deadline 1: p1 (10 garnets) and p2 (8) ask for C, p6 (0) for A; p3's Bear is no Snake.
    Rank p1, p2, p6. Direct: A to p6; C to p1, p2 bumped, then D. Deadline 2: p1 asks for A,
    taken before: bumped, gets B, the first letter after A not taken."""
    match = Match()
    ordered_round(match)
    for player, letter in {"p2": "C", "p1": "C", "p6": "A"}.items():
        match.do(player, "place_wager", kind="snake", letter=letter)
    match.do("p3", "place_wager", kind="bear", totems=["Void-Sky"])
    match.deadline()
    snake = match.last("WagersSettled").data["snake"]
    assert snake["taken_before"] == []
    assert snake["requests"] == {"p1": "C", "p2": "C", "p6": "A"}
    assert snake["ranking"] == ["p1", "p2", "p6"]
    assert snake["assigned"] == {"p1": "C", "p2": "D", "p6": "A"}
    assert snake["bumped"] == ["p2"]
    assert sorted(snake["taken_after"]) == ["A", "C", "D"]
    assert snake["refreshes"] == 0

    match.do("p1", "place_wager", kind="snake", letter="A")
    match.deadline()
    snake = match.last("WagersSettled").data["snake"]
    assert sorted(snake["taken_before"]) == ["A", "C", "D"]
    assert snake["requests"] == {"p1": "A"}
    assert snake["ranking"] == ["p1"]
    assert snake["assigned"] == {"p1": "B"}
    assert snake["bumped"] == ["p1"]
    assert sorted(snake["taken_after"]) == ["A", "B", "C", "D"]
    assert match.last("WagerSettled", "p1").data["letter"] == "B"


def test_nobody_asking_for_a_letter_leaves_the_snake_record_empty():
    match = Match()
    match.do("p3", "place_wager", kind="bear", totems=["Void-Sky"])
    match.deadline()
    snake = match.last("WagersSettled").data["snake"]
    assert (snake["requests"], snake["ranking"], snake["assigned"]) == ({}, [], {})
