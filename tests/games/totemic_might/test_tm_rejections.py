"""Every error code of rules section 4, and the order of the checks: state, command -> code.

Rows that break two rules at once show which check comes first. States come from the harness:
`after_round_one` holds the copies listed in ROUND_ONE_HOLDINGS, with p7 the lone owed player.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import pytest

from domain.decider import Command
from domain.errors import RuleViolation
from domain.games import totemic_might as tm
from tests.games.totemic_might.harness import (
    ORDER_1A,
    P6_BALANCED,
    Match,
    after_round_one,
    final_challenge,
)


def not_opened() -> Match:
    return Match(open_match=False)


def round_one() -> Match:
    return Match()


def poor_p6() -> Match:
    """p6 has 2 garnets: a plain Bear, not a fine one, not a Fox paid in garnets."""
    return Match(garnets={"p1": 10, "p2": 8, "p3": 8, "p4": 5, "p5": 3, "p6": 2, "p7": 12})


def one_chip() -> Match:
    """p1 bets 10 + 5 twice (30 chips of 31): one chip left in round 3."""
    match = Match(starting_chips=31)
    for _ in range(2):
        match.do("p1", "place_bet", series="A", amount=10)
        match.do("p1", "place_bet", series="B", amount=5)
        match.deadline()
    return match


def no_chips() -> Match:
    """30 chips spent in two rounds: nothing left in round 3."""
    match = Match(starting_chips=30, end_player_count=7)
    for _ in range(2):
        match.do("p1", "place_bet", series="A", amount=10)
        match.do("p1", "place_bet", series="B", amount=5)
        match.deadline()
    return match


def ten_on_a() -> Match:
    match = Match()
    match.do("p1", "place_bet", series="A", amount=10)
    return match


def six_on_b_with_twelve_chips() -> Match:
    match = Match(starting_chips=12)
    match.do("p1", "place_bet", series="B", amount=6)
    return match


def seven_chips() -> Match:
    return Match(starting_chips=7)


def three_weighings() -> Match:
    match = Match()
    for _ in range(3):
        match.do("p1", "weigh", left=["S:Summer-Secret"])
    return match


def gift_pending() -> Match:
    """p1 has given away its copy of Summer-Creature; p4 has weighed its Spring-Sky."""
    match = after_round_one()
    match.do("p1", "give", to="p2", pieces=["T:Summer-Creature"])
    match.do("p4", "weigh", left=["T:Spring-Sky"])
    return match


def with_balloon() -> Match:
    """p2 won the Snake letter C at deadline 1: balloon snake-p2-1 (lift 13)."""
    match = Match()
    match.do("p2", "place_wager", kind="snake", letter="C")
    match.deadline()
    return match


def two_snakes() -> Match:
    match = Match()
    for letter in ("A", "B"):
        match.do("p2", "place_wager", kind="snake", letter=letter)
        match.deadline()
    return match


def final_weighing() -> Match:
    return after_round_one(starting_chips=16)


def challenge() -> Match:
    return final_challenge()


def balanced_p6() -> Match:
    match = final_challenge()
    match.do("p6", "attempt_balance", sides=P6_BALANCED)
    return match


def one_attempt_used() -> Match:
    match = final_challenge(final_max_attempts=1)
    pieces = list(match.state.challenge["p1"].pieces)
    match.do("p1", "attempt_balance", sides=[pieces[:1], pieces[1:2], pieces[2:]])
    return match


def over() -> Match:
    match = final_challenge()
    match.host("final_deadline")
    return match


Row = tuple[Callable[[], Match], Any, Any, dict[str, Any], str]
BEAR = {"kind": "bear", "totems": ["Void-Sky"]}

ROWS: list[Row] = [
    # Common checks, in order: the actor, the command, the window.
    (round_one, "zed", "place_bet", {"series": "Q"}, "UNKNOWN_PLAYER"),
    (round_one, None, "dance", {}, "UNKNOWN_PLAYER"),
    (round_one, "p1", "dance", {}, "UNKNOWN_COMMAND"),
    (round_one, "p1", None, {}, "UNKNOWN_COMMAND"),
    (round_one, "p1", "deadline", {}, "UNKNOWN_COMMAND"),
    (round_one, "host", "weigh", {}, "UNKNOWN_PLAYER"),
    (round_one, "host", "dance", {}, "UNKNOWN_COMMAND"),
    (round_one, "host", 7, {}, "UNKNOWN_COMMAND"),
    (not_opened, "p1", "place_bet", {"series": "A", "amount": 1}, "WRONG_PHASE"),
    (not_opened, "host", "deadline", {}, "WRONG_PHASE"),
    (round_one, "host", "open_match", {}, "WRONG_PHASE"),
    (round_one, "host", "final_deadline", {}, "WRONG_PHASE"),
    (round_one, "p1", "attempt_balance", {"sides": None}, "WRONG_PHASE"),
    (round_one, "p1", "guess_starting_totem", {"target": "p1"}, "WRONG_PHASE"),
    (round_one, "p1", "withdraw_guess", {}, "WRONG_PHASE"),
    (final_weighing, "p1", "place_bet", {"series": "Q"}, "WRONG_PHASE"),
    (final_weighing, "p1", "set_pick_order", {"series": "Q"}, "WRONG_PHASE"),
    (final_weighing, "p1", "give", {"to": "p1"}, "WRONG_PHASE"),
    (final_weighing, "p1", "propose_trade", {"with": "p1"}, "WRONG_PHASE"),
    (final_weighing, "p1", "cancel_transfer", {"id": 1}, "WRONG_PHASE"),
    (final_weighing, "host", "final_deadline", {}, "WRONG_PHASE"),
    (challenge, "p1", "weigh", {}, "WRONG_PHASE"),
    (challenge, "p1", "place_wager", {"kind": "dance"}, "WRONG_PHASE"),
    (challenge, "p1", "cancel_wager", {}, "WRONG_PHASE"),
    (challenge, "p7", "choose_spirit_totem", {"totem": "Void-Sky"}, "WRONG_PHASE"),
    (challenge, "host", "deadline", {}, "WRONG_PHASE"),
    (over, "p1", "withdraw_guess", {}, "WRONG_PHASE"),
    (over, "host", "final_deadline", {}, "WRONG_PHASE"),
    # place_bet: 4.1 checks 1-8.
    (round_one, "p1", "place_bet", {"series": "C", "amount": "x"}, "UNKNOWN_SERIES"),
    (round_one, "p1", "place_bet", {"series": ["A"], "amount": 1}, "UNKNOWN_SERIES"),
    (round_one, "p1", "place_bet", {"amount": 1}, "UNKNOWN_SERIES"),
    (no_chips, "p1", "place_bet", {"series": "A", "amount": "1"}, "INVALID_AMOUNT"),
    (round_one, "p1", "place_bet", {"series": "A", "amount": True}, "INVALID_AMOUNT"),
    (round_one, "p1", "place_bet", {"series": "A"}, "INVALID_AMOUNT"),
    (round_one, "p1", "place_bet", {"series": "A", "amount": 2.0}, "INVALID_AMOUNT"),
    (no_chips, "p1", "place_bet", {"series": "A", "amount": 1e300}, "INVALID_AMOUNT"),
    (no_chips, "p1", "place_bet", {"series": "A", "amount": 0}, "INSUFFICIENT_CHIPS"),
    (one_chip, "p1", "place_bet", {"series": "B", "amount": 0}, "BET_BELOW_MIN"),
    (round_one, "p1", "place_bet", {"series": "A", "amount": 0}, "BET_BELOW_MIN"),
    (round_one, "p1", "place_bet", {"series": "A", "amount": -3}, "BET_BELOW_MIN"),
    (one_chip, "p1", "place_bet", {"series": "B", "amount": 11}, "BET_ABOVE_SERIES_MAX"),
    (round_one, "p1", "place_bet", {"series": "B", "amount": 11}, "BET_ABOVE_SERIES_MAX"),
    (one_chip, "p1", "place_bet", {"series": "B", "amount": 1}, "INSUFFICIENT_CHIPS"),
    (round_one, "p1", "place_bet", {"series": "A", "amount": 10}, None),  # 10 + default 1
    (ten_on_a, "p1", "place_bet", {"series": "B", "amount": 6}, "ROUND_BET_LIMIT"),
    (ten_on_a, "p1", "place_bet", {"series": "B", "amount": 5}, None),
    (six_on_b_with_twelve_chips, "p1", "place_bet", {"series": "A", "amount": 10},
     "ROUND_BET_LIMIT"),
    (six_on_b_with_twelve_chips, "p1", "place_bet", {"series": "A", "amount": 7},
     "INSUFFICIENT_CHIPS"),
    (seven_chips, "p1", "place_bet", {"series": "A", "amount": 7}, "INSUFFICIENT_CHIPS"),
    (one_chip, "p1", "place_bet", {"series": "A", "amount": 2}, "INSUFFICIENT_CHIPS"),
    # set_pick_order
    (round_one, "p1", "set_pick_order", {"series": "Z", "order": []}, "UNKNOWN_SERIES"),
    (round_one, "p1", "set_pick_order", {"series": "A", "order": ORDER_1A[:5]},
     "INVALID_PICK_ORDER"),
    (round_one, "p1", "set_pick_order", {"series": "A", "order": [*ORDER_1A, "GARNET"]},
     "INVALID_PICK_ORDER"),
    (round_one, "p1", "set_pick_order", {"series": "B", "order": ORDER_1A},
     "INVALID_PICK_ORDER"),
    (round_one, "p1", "set_pick_order",
     {"series": "A", "order": [*ORDER_1A[:5], "Void-Sky"]}, "INVALID_PICK_ORDER"),
    (round_one, "p1", "set_pick_order", {"series": "A", "order": [{}, 1, None, [], 2, 3]},
     "INVALID_PICK_ORDER"),
    (round_one, "p1", "set_pick_order", {"series": "A", "order": "GARNET"},
     "INVALID_PICK_ORDER"),
    # choose_spirit_totem
    (round_one, "p7", "choose_spirit_totem", {"totem": "Void-Sky"}, "NOT_OWED_SPIRIT_CHOICE"),
    (gift_pending, "p1", "choose_spirit_totem", {"totem": "Void-Sky"},
     "NOT_OWED_SPIRIT_CHOICE"),
    (gift_pending, "p7", "choose_spirit_totem", {"totem": "Winter-Secret"},
     "TOTEM_NOT_IN_POOL"),
    (gift_pending, "p7", "choose_spirit_totem", {"totem": "Spring-Creature"},
     "TOTEM_NOT_IN_POOL"),
    (gift_pending, "p7", "choose_spirit_totem", {"totem": ["Void-Sky"]}, "TOTEM_NOT_IN_POOL"),
    # weigh: the limit, then emptiness, then token by token, then duplicates, then counts.
    (three_weighings, "p1", "weigh", {"left": []}, "WEIGHING_LIMIT"),
    (round_one, "p1", "weigh", {}, "EMPTY_WEIGHING"),
    (round_one, "p1", "weigh", {"left": [], "right": []}, "EMPTY_WEIGHING"),
    (round_one, "p1", "weigh", {"left": "S:Summer-Secret"}, "UNKNOWN_PIECE"),
    (round_one, "p1", "weigh", {"left": ["X:Summer-Secret"]}, "UNKNOWN_PIECE"),
    (round_one, "p1", "weigh", {"left": ["S:Autumn-Sky"]}, "UNKNOWN_PIECE"),
    (round_one, "p1", "weigh", {"left": ["C:Void-Sky"]}, "UNKNOWN_PIECE"),
    (round_one, "p1", "weigh", {"left": ["B:"]}, "UNKNOWN_PIECE"),
    (round_one, "p1", "weigh", {"left": [7]}, "UNKNOWN_PIECE"),
    (round_one, "p1", "weigh", {"left": ["S:Void-Sky", "junk"]}, "PIECE_NOT_HELD"),
    (round_one, "p1", "weigh", {"left": ["S:Summer-Secret"], "right": ["junk", "S:Void-Sky"]},
     "UNKNOWN_PIECE"),
    (with_balloon, "p1", "weigh", {"left": ["B:snake-p2-1"]}, "PIECE_NOT_HELD"),
    (lambda: with_balloon_no_scale(), "p2", "weigh", {"left": ["B:snake-p2-1"]},
     "PIECE_NOT_HELD"),
    (round_one, "p1", "weigh", {"left": ["S:Summer-Secret"], "right": ["S:Summer-Secret"]},
     "DUPLICATE_PIECE"),
    (with_balloon, "p2", "weigh", {"left": ["B:snake-p2-1", "T:Void-Sky", "B:snake-p2-1"]},
     "DUPLICATE_PIECE"),
    (round_one, "p1", "weigh", {"left": ["T:Void-Sky"]}, "PIECE_NOT_HELD"),
    (gift_pending, "p1", "weigh", {"left": ["T:Winter-Secret", "T:Winter-Secret"]},
     "PIECE_NOT_HELD"),
    (gift_pending, "p1", "weigh", {"left": ["T:Summer-Creature"]}, "PIECE_LOCKED"),
    (gift_pending, "p1", "weigh", {"left": ["T:Winter-Secret"], "right": ["T:Summer-Creature"]},
     "PIECE_LOCKED"),
    # place_wager: kind, totems, then the kind's own checks.
    (round_one, "p1", "place_wager", {"kind": "owl", "totems": ["junk"]}, "UNKNOWN_WAGER"),
    (round_one, "p1", "place_wager", {"totems": ["Void-Sky"]}, "UNKNOWN_WAGER"),
    (round_one, "p1", "place_wager", {"kind": "bear", "totems": ["Void-Sky", "Autumn"]},
     "UNKNOWN_TOTEM"),
    (round_one, "p6", "place_wager", {"kind": "bear", "totems": [None]}, "UNKNOWN_TOTEM"),
    (round_one, "p1", "place_wager",
     {"kind": "wolf", "totems": ["Void-Sky", "Void-Sky", "Autumn"]}, "UNKNOWN_TOTEM"),
    (round_one, "p1", "place_wager", {"kind": "wolf", "totems": ["Void-Sky", "Void-Sky"]},
     "DUPLICATE_TOTEM"),
    (round_one, "p1", "place_wager", {"kind": "snake", "letter": "K"}, "INVALID_LETTER"),
    (round_one, "p1", "place_wager", {"kind": "snake", "letter": "a"}, "INVALID_LETTER"),
    (two_snakes, "p2", "place_wager", {"kind": "snake"}, "INVALID_LETTER"),
    (two_snakes, "p2", "place_wager", {"kind": "snake", "letter": "C"}, "SNAKE_LIMIT"),
    (round_one, "p1", "place_wager", {"kind": "wolf", "totems": ["Void-Sky"]},
     "WRONG_TOTEM_COUNT"),
    (round_one, "p1", "place_wager", {"kind": "wolf"}, "WRONG_TOTEM_COUNT"),
    (round_one, "p1", "place_wager", {"kind": "wolf", "totems": ["Void-Sky", "Void-Land"]},
     "WOLF_SAME_SEASON"),
    (round_one, "p1", "place_wager",
     {"kind": "wolf", "totems": ["Summer-Secret", "Summer-Sky"]}, "WOLF_SAME_SEASON"),
    (round_one, "p1", "place_wager", {"kind": "wolf", "totems": ["Void-Sky", "Summer-Secret"]},
     "WOLF_OWN_SPIRIT"),
    (round_one, "p6", "place_wager", {"kind": "bear", "totems": []}, "WRONG_TOTEM_COUNT"),
    (round_one, "p6", "place_wager", {"kind": "bear", "totems": "Void-Sky"},
     "WRONG_TOTEM_COUNT"),
    (round_one, "p6", "place_wager", BEAR, "INSUFFICIENT_GARNETS"),
    (poor_p6, "p6", "place_wager", {**BEAR, "fine": True}, "INSUFFICIENT_GARNETS"),
    (round_one, "p1", "place_wager", {"kind": "fox", "totems": ["Void-Sky", "Summer-Land"]},
     "WRONG_TOTEM_COUNT"),
    (round_one, "p1", "place_wager",
     {"kind": "fox", "totems": ["Void-Sky", "Summer-Land", "Spring-Sky"]}, "FOX_SHARED_LINE"),
    (round_one, "p1", "place_wager",
     {"kind": "fox", "totems": ["Void-Sky", "Summer-Land", "Void-Secret"]}, "FOX_SHARED_LINE"),
    (round_one, "p1", "place_wager",
     {"kind": "fox", "totems": ["Void-Sky", "Summer-Land", "Spring-Secret"]},
     "FOX_PAYMENT_REQUIRED"),
    (round_one, "p1", "place_wager",
     {"kind": "fox", "totems": ["Void-Sky", "Summer-Land", "Spring-Secret"], "payment": "chips"},
     "FOX_PAYMENT_REQUIRED"),
    (poor_p6, "p6", "place_wager",
     {"kind": "fox", "totems": ["Void-Sky", "Summer-Land", "Spring-Secret"],
      "payment": "garnets"}, "INSUFFICIENT_GARNETS"),
    # give / propose_trade / cancel_transfer: the other party first, then the lists.
    (gift_pending, "p1", "give", {"to": "p1", "pieces": "junk"}, "SELF_TRANSFER"),
    (gift_pending, "p1", "give", {"to": "zed", "pieces": "junk"}, "UNKNOWN_PLAYER"),
    (gift_pending, "p1", "give", {"pieces": ["T:Winter-Secret"]}, "UNKNOWN_PLAYER"),
    (gift_pending, "p1", "give", {"to": "p2", "pieces": []}, "NOT_TRANSFERABLE"),
    (gift_pending, "p1", "give", {"to": "p2", "pieces": ["S:Summer-Secret"]},
     "NOT_TRANSFERABLE"),
    (with_balloon, "p2", "give", {"to": "p1", "pieces": ["B:snake-p2-1"]}, "NOT_TRANSFERABLE"),
    (gift_pending, "p1", "give", {"to": "p2", "pieces": ["C:Void-Sky"]}, "NOT_TRANSFERABLE"),
    (gift_pending, "p1", "give", {"to": "p2", "pieces": ["T:Autumn"]}, "UNKNOWN_PIECE"),
    (gift_pending, "p1", "give", {"to": "p2", "pieces": "T:Winter-Secret"}, "UNKNOWN_PIECE"),
    (gift_pending, "p1", "give", {"to": "p2", "pieces": ["T:Void-Sky"]}, "COPY_NOT_AVAILABLE"),
    (gift_pending, "p1", "give", {"to": "p3", "pieces": ["T:Summer-Creature"]},
     "COPY_NOT_AVAILABLE"),
    (gift_pending, "p4", "give", {"to": "p3", "pieces": ["T:Spring-Sky"]},
     "COPY_NOT_AVAILABLE"),
    (gift_pending, "p1", "propose_trade", {"with": "p1"}, "SELF_TRANSFER"),
    (gift_pending, "p1", "propose_trade", {"with": 3}, "UNKNOWN_PLAYER"),
    (gift_pending, "p1", "propose_trade",
     {"with": "p2", "give": ["T:Winter-Secret"], "receive": []}, "NOT_TRANSFERABLE"),
    (gift_pending, "p1", "propose_trade",
     {"with": "p2", "give": [], "receive": ["T:Autumn"]}, "NOT_TRANSFERABLE"),
    (gift_pending, "p1", "propose_trade",
     {"with": "p2", "give": ["T:Winter-Secret"], "receive": ["S:Void-Creature"]},
     "NOT_TRANSFERABLE"),
    (gift_pending, "p1", "propose_trade",
     {"with": "p2", "give": ["T:Summer-Creature"], "receive": ["T:Autumn"]}, "UNKNOWN_PIECE"),
    (gift_pending, "p1", "propose_trade",
     {"with": "p2", "give": ["T:Summer-Creature"], "receive": ["T:Spring-Secret"]},
     "COPY_NOT_AVAILABLE"),
    (gift_pending, "p1", "cancel_transfer", {"id": 2}, "UNKNOWN_TRANSFER"),
    (gift_pending, "p1", "cancel_transfer", {"id": True}, "UNKNOWN_TRANSFER"),
    (gift_pending, "p1", "cancel_transfer", {"id": 1.0}, "UNKNOWN_TRANSFER"),
    (gift_pending, "p2", "cancel_transfer", {"id": 1}, "UNKNOWN_TRANSFER"),
    (gift_pending, "p1", "cancel_transfer", {}, "UNKNOWN_TRANSFER"),
    # attempt_balance
    (balanced_p6, "p6", "attempt_balance", {"sides": None}, "ALREADY_BALANCED"),
    (one_attempt_used, "p1", "attempt_balance", {"sides": None}, "ATTEMPT_LIMIT"),
    (challenge, "p1", "attempt_balance", {"sides": P6_BALANCED[:2]}, "WRONG_SIDE_COUNT"),
    (challenge, "p1", "attempt_balance", {"sides": [*P6_BALANCED, []]}, "WRONG_SIDE_COUNT"),
    (challenge, "p1", "attempt_balance", {"sides": [[], [], "C:Void-Sky"]}, "WRONG_SIDE_COUNT"),
    (challenge, "p1", "attempt_balance", {}, "WRONG_SIDE_COUNT"),
    (challenge, "p1", "attempt_balance", {"sides": [[], ["junk"], ["junk"]]}, "EMPTY_SIDE"),
    (challenge, "p1", "attempt_balance", {"sides": P6_BALANCED}, "PIECES_MISMATCH"),
    (challenge, "p6", "attempt_balance",
     {"sides": [P6_BALANCED[0], P6_BALANCED[1], P6_BALANCED[2][:-1]]}, "PIECES_MISMATCH"),
    (challenge, "p6", "attempt_balance",
     {"sides": [P6_BALANCED[0], P6_BALANCED[1], [*P6_BALANCED[2], "S:Void-Secret"]]},
     "PIECES_MISMATCH"),
    (challenge, "p6", "attempt_balance",
     {"sides": [P6_BALANCED[0], P6_BALANCED[1], [*P6_BALANCED[2], {}]]}, "PIECES_MISMATCH"),
    # guess_starting_totem
    (challenge, "p1", "guess_starting_totem", {"target": "p1", "totem": "x"}, "GUESS_SELF"),
    (challenge, "p1", "guess_starting_totem", {"target": "zed", "totem": "x"}, "UNKNOWN_PLAYER"),
    (challenge, "p1", "guess_starting_totem", {"totem": "Void-Sky"}, "UNKNOWN_PLAYER"),
    (challenge, "p1", "guess_starting_totem", {"target": "p2", "totem": "Autumn"},
     "UNKNOWN_TOTEM"),
    (challenge, "p1", "guess_starting_totem", {"target": "p2"}, "UNKNOWN_TOTEM"),
]


def with_balloon_no_scale() -> Match:
    match = Match(balloons_on_trial_scale=False)
    match.do("p2", "place_wager", kind="snake", letter="C")
    match.deadline()
    return match


def row_id(row: Row) -> str:
    scenario, actor, name, _, code = row
    return f"{getattr(scenario, '__name__', 'scenario')}-{actor}-{name}-{code}"


@pytest.mark.parametrize("row", ROWS, ids=[row_id(row) for row in ROWS])
def test_rejections(row: Row):
    scenario, actor, name, args, code = row
    match = scenario()
    if code is None:
        match.do(actor, name, **args)
    else:
        assert match.reject(actor, name, **args) == code


def test_every_code_of_the_rulings_is_in_the_table():
    codes = {row[-1] for row in ROWS}
    assert codes >= {
        "UNKNOWN_PLAYER", "UNKNOWN_COMMAND", "WRONG_PHASE", "UNKNOWN_SERIES", "INVALID_AMOUNT",
        "INSUFFICIENT_CHIPS", "BET_BELOW_MIN", "BET_ABOVE_SERIES_MAX", "ROUND_BET_LIMIT",
        "INVALID_PICK_ORDER", "NOT_OWED_SPIRIT_CHOICE", "TOTEM_NOT_IN_POOL", "WEIGHING_LIMIT",
        "EMPTY_WEIGHING", "UNKNOWN_PIECE", "PIECE_NOT_HELD", "DUPLICATE_PIECE", "PIECE_LOCKED",
        "UNKNOWN_WAGER", "UNKNOWN_TOTEM", "DUPLICATE_TOTEM", "INVALID_LETTER", "SNAKE_LIMIT",
        "WRONG_TOTEM_COUNT", "WOLF_SAME_SEASON", "WOLF_OWN_SPIRIT", "INSUFFICIENT_GARNETS",
        "FOX_SHARED_LINE", "FOX_PAYMENT_REQUIRED", "NOT_TRANSFERABLE", "SELF_TRANSFER",
        "COPY_NOT_AVAILABLE", "UNKNOWN_TRANSFER", "ALREADY_BALANCED", "ATTEMPT_LIMIT",
        "WRONG_SIDE_COUNT", "EMPTY_SIDE", "PIECES_MISMATCH", "GUESS_SELF",
    }


def test_garbage_args_and_balances_are_rejections_not_crashes():
    match = after_round_one()
    names = ("place_bet", "set_pick_order", "choose_spirit_totem", "weigh", "place_wager",
             "give", "propose_trade", "cancel_transfer")
    for args in (None, [], "x", 5, {"series": {}, "left": {}, "kind": {}, "to": {}}):
        for garnets in (None, {"p1": "many"}, {"p1": True}, []):
            for name in names:
                with contextlib.suppress(RuleViolation):
                    tm.decide(match.state, Command(name, "p1", args, garnets))
