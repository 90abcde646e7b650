"""The trial scale (rules 4.4, 6.4, TM-R12, TM-R37), worked out with the harness weights:
Summer-Secret 1, Summer-Creature 2, Spring-Secret 11, Spring-Future 13, Winter-Secret 16."""

from __future__ import annotations

from domain.decider import PUBLIC
from tests.games.totemic_might.harness import (
    ORDER_1A,
    SERIES,
    Match,
    after_round_one,
    kinds,
    play_round_one,
)


def result(match: Match, player: str, **sides) -> str:
    (event,) = match.do(player, "weigh", **sides)
    assert event.audience == (player,)
    return event.data["result"]


def test_weighings_are_answered_at_once_and_privately():
    # p1 holds the spirit Summer-Secret 1 and copies of Summer-Creature 2 and Winter-Secret 16.
    match = after_round_one()
    assert result(match, "p1", left=["T:Summer-Creature"], right=["S:Summer-Secret"]) == (
        "LEFT_HEAVIER")
    assert result(match, "p1", left=["T:Summer-Creature", "S:Summer-Secret"],
                  right=["T:Winter-Secret"]) == "RIGHT_HEAVIER"
    event = match.last("WeighingPerformed")
    assert event.data == {
        "round": 2, "player": "p1", "use": 2,
        "left": ["T:Summer-Creature", "S:Summer-Secret"], "right": ["T:Winter-Secret"],
        "result": "RIGHT_HEAVIER",
    }
    assert not [e for e in match.log[-2:] if e.audience == PUBLIC]


def test_a_balloon_offsets_weight_and_a_side_may_be_empty():
    """p3 wins Snake letter C at deadline 1 (lift 13): its spirit Spring-Future (13) with the
    balloon nets 0, the same as an empty side."""
    match = Match()
    match.do("p3", "place_wager", kind="snake", letter="C")
    play_round_one(match)
    assert result(match, "p3", left=["S:Spring-Future", "B:snake-p3-1"]) == "BALANCED"
    assert result(match, "p3", right=["B:snake-p3-1"]) == "LEFT_HEAVIER"  # 0 against -13


def test_three_weighings_a_round_and_unused_ones_are_lost():
    match = after_round_one()
    for _ in range(3):
        match.do("p1", "weigh", left=["S:Summer-Secret"])
    assert match.reject("p1", "weigh", left=["S:Summer-Secret"]) == "WEIGHING_LIMIT"
    match.deadline()
    for _ in range(3):
        match.do("p1", "weigh", left=["S:Summer-Secret"])
    assert match.reject("p1", "weigh", left=["S:Summer-Secret"]) == "WEIGHING_LIMIT"


def test_used_copies_disintegrate_at_the_deadline():
    """p1 uses its Summer-Creature twice (one copy each time) and never its Winter-Secret: one
    copy destroyed, told to p1 alone; spirit totems are never consumed."""
    match = after_round_one()
    match.do("p1", "weigh", left=["T:Summer-Creature"], right=["S:Summer-Secret"])
    match.do("p1", "weigh", left=["T:Summer-Creature", "S:Summer-Secret"])
    events = match.deadline()
    destroyed = [e for e in events if e.kind == "TrialCopiesDestroyed"]
    assert [e.audience for e in destroyed] == [(p,) for p in match.state.players]
    assert destroyed[0].data == {"round": 2, "player": "p1", "copies": {"Summer-Creature": 1}}
    assert all(e.data["copies"] == {} for e in destroyed[1:])
    assert match.held("p1").copies("Summer-Creature") == 0
    assert match.held("p1").copies("Winter-Secret") == 1
    assert match.held("p1").spirits == ("Summer-Secret",)


def two_copies() -> Match:
    """Series 1 comes back in rounds 2 and 3; p1 outbids everyone on A and takes
    Summer-Creature twice."""
    match = Match(series=SERIES[:1] * 3)
    for _ in range(2):
        match.do("p1", "place_bet", series="A", amount=10)
        match.do("p1", "set_pick_order", series="A", order=ORDER_1A)
        match.deadline()
    assert match.held("p1").copies("Summer-Creature") == 2
    return match


def test_the_most_copies_used_in_one_weighing_are_destroyed():
    match = two_copies()
    match.do("p1", "weigh", left=["T:Summer-Creature", "T:Summer-Creature"])
    match.do("p1", "weigh", left=["T:Summer-Creature"], right=["S:Summer-Secret"])
    match.do("p1", "set_pick_order", series="A", order=list(reversed(ORDER_1A)))
    match.deadline()
    assert match.last("TrialCopiesDestroyed", "p1").data["copies"] == {"Summer-Creature": 2}


def test_one_copy_reused_in_every_weighing_is_one_copy_destroyed():
    match = two_copies()
    for _ in range(3):
        match.do("p1", "weigh", left=["T:Summer-Creature"])
    match.do("p1", "set_pick_order", series="A", order=list(reversed(ORDER_1A)))
    match.deadline()
    assert match.last("TrialCopiesDestroyed", "p1").data["copies"] == {"Summer-Creature": 1}
    assert match.held("p1").copies("Summer-Creature") == 1


def test_results_at_the_deadline_variant():
    match = after_round_one(weighing_results="at_deadline")
    (event,) = match.do("p1", "weigh", left=["T:Summer-Creature"], right=["S:Summer-Secret"])
    assert event.data["result"] is None
    events = match.deadline()
    answered = [e for e in events if e.kind == "WeighingsAnswered"]
    assert [e.audience for e in answered] == [(p,) for p in match.state.players]
    assert answered[0].data["results"] == [{
        "use": 1, "left": ["T:Summer-Creature"], "right": ["S:Summer-Secret"],
        "result": "LEFT_HEAVIER",
    }]
    assert all(e.data["results"] == [] for e in answered[1:])
    assert kinds(events).index("WeighingsAnswered") < kinds(events).index("TrialCopiesDestroyed")


def test_copies_received_at_a_deadline_are_weighed_from_the_next_round():
    match = Match()
    assert match.reject("p1", "weigh", left=["T:Summer-Creature"]) == "PIECE_NOT_HELD"
    play_round_one(match)
    assert result(match, "p1", left=["T:Summer-Creature"]) == "LEFT_HEAVIER"
