"""What the Judge tells: pair checks, the King's opening look, peeks, annoyed self-checks.

Standard court: King p11, Dukes p1-p5, Nobles p6-p10, annoyed Duke p5 (shown as a noble),
annoyed Noble p10 (shown as a duke).
"""

from __future__ import annotations

import hashlib

import pytest

from domain.decider import Posting
from tests.games.kings_court.kc_harness import Match, kinds, role_set


def h(seed: str, *parts: object) -> int:
    """docs/games/randomness.md written out again, independently of the code under test."""
    text = "|".join(["kings_court", seed, *(str(part) for part in parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")


def pair_check_result(first: str, second: str) -> str:
    match = Match()
    match.elect("p1")
    match.do("p1", "pair_check", targets=[first, second])
    events = match.host("close_round")
    answer = events[0]
    assert answer.kind == "PairCheckAnswered" and answer.audience == ("p1",)
    return answer.data["result"]


@pytest.mark.parametrize(
    ("first", "second", "result"),
    [
        ("p2", "p3", "same"),  # Duke + Duke
        ("p6", "p7", "same"),  # Noble + Noble
        ("p2", "p6", "different"),  # Duke + Noble
        ("p2", "p5", "different"),  # Duke + annoyed Duke
        ("p2", "p10", "same"),  # Duke + annoyed Noble
        ("p6", "p5", "same"),  # Noble + annoyed Duke
        ("p6", "p10", "different"),  # Noble + annoyed Noble
        ("p5", "p10", "different"),  # annoyed Duke + annoyed Noble
        ("p2", "p11", "different"),  # anyone with the King
        ("p6", "p11", "different"),
        ("p5", "p11", "different"),
        ("p10", "p11", "different"),
    ],
)
def test_pair_checks_lie_about_the_annoyed(first, second, result):
    assert pair_check_result(first, second) == result


def test_a_pair_check_is_answered_at_the_next_deadline_before_the_tally():
    match = Match()
    match.elect("p1")
    submitted = match.do("p1", "pair_check", targets=["p2", "p3"])
    assert kinds(submitted) == ["PairCheckSubmitted"]
    assert submitted[0].audience == ("p1",)
    events = match.round({"p3": "p2"})
    assert kinds(events)[:2] == ["PairCheckAnswered", "MissedVotePenalised"]
    assert kinds(events).index("PairCheckAnswered") < kinds(events).index("VotesTallied")
    assert events[0].data == {
        "game": 1,
        "round": 2,
        "checker": "p1",
        "targets": ["p2", "p3"],
        "result": "same",
    }


def test_a_pair_check_not_sent_is_forfeited():
    match = Match()
    match.elect("p1")
    events = match.elect("p2")
    assert "PairCheckAnswered" not in kinds(events)
    assert match.reject("p1", "pair_check", targets=["p3", "p4"]) == "no_check_right"
    match.do("p2", "pair_check", targets=["p3", "p4"])  # the new joiner has the right now


def test_a_pair_check_is_answered_even_when_the_tally_ends_the_game():
    match = Match()
    match.elect("p1")
    match.do("p1", "pair_check", targets=["p2", "p6"])
    events = match.elect("p11")  # the King, second to join: an early end
    order = kinds(events)
    assert order.index("PairCheckAnswered") < order.index("VotesTallied")
    assert order.index("VotesTallied") < order.index("EarlyKingFound")
    assert events[0].data["result"] == "different"


def test_a_tiebreak_joiner_gets_the_check_right():
    match = Match()
    match.round({"p1": "p2", "p2": "p1"})
    match.do("p11", "tiebreak", choice="p2")
    match.host("close_tiebreak")
    assert match.reject("p1", "pair_check", targets=["p3", "p4"]) == "no_check_right"
    match.do("p2", "pair_check", targets=["p3", "p4"])


def test_the_kings_opening_look_uses_the_judges_view_and_is_answered_at_once():
    match = Match()
    events = match.do("p11", "king_learn", targets=["p5", "p10"])
    assert kinds(events) == ["KingLookAnswered"]
    assert events[0].audience == ("p11",)
    assert events[0].data["roles_shown"] == ["noble", "duke"]
    match = Match()
    assert match.do("p11", "king_learn", targets=["p6", "p1"])[0].data["roles_shown"] == [
        "noble",
        "duke",
    ]


def test_the_look_is_fresh_in_a_replayed_game():
    second = role_set(king="p1", dukes=("p11", "p2", "p3", "p4", "p5"), lists={})
    match = Match(games=[role_set(), second])
    match.do("p11", "king_learn", targets=["p1", "p2"])
    match.elect("p11")
    match.do("p1", "king_learn", targets=["p11", "p6"])
    assert match.last("KingLookAnswered").data["roles_shown"] == ["duke", "noble"]


def test_a_peek_shows_the_judges_view_and_costs_eight():
    match = Match(garnets=40)
    shown = {}
    for target in ("p2", "p5", "p6", "p10"):
        event = match.do("p1", "peek", target=target)[0]
        assert event.audience == ("p1",)
        assert event.postings == (Posting("p1", "garnets", -8, "peek"),)
        shown[target] = event.data["role_shown"]
    assert shown == {"p2": "duke", "p5": "noble", "p6": "noble", "p10": "duke"}
    assert match.balances["p1"] == 40 - 4 * 8


def test_a_peek_at_the_king_takes_explicit_answers_then_a_seeded_coin():
    match = Match(king_peek_answers=["noble", "duke"])
    answers = [match.do(p, "peek", target="p11")[0].data["role_shown"] for p in ("p1", "p2", "p3")]
    coin = ("duke", "noble")[h("test-seed", "king_peek", 1, "p3") % 2]
    assert answers == ["noble", "duke", coin]


def test_peeks_are_open_in_a_tiebreak_and_at_court_members():
    match = Match()
    match.elect("p1")
    match.round({"p2": "p3", "p3": "p2"})
    assert match.state.phase == "tiebreak"
    assert match.do("p2", "peek", target="p1")[0].data["role_shown"] == "duke"


def test_peek_limits_restart_in_a_replayed_game():
    second = role_set(king="p1", dukes=("p11", "p2", "p3", "p4", "p5"), lists={})
    match = Match(games=[role_set(), second], garnets=30)
    match.do("p2", "peek", target="p3")
    match.do("p2", "annoyed_check")
    match.elect("p11")
    match.do("p2", "peek", target="p3")
    match.do("p2", "annoyed_check")
    assert match.balances["p2"] == 30 - 8 - 3 - 1 - 8 - 3  # p2 missed the round-1 vote


@pytest.mark.parametrize(("player", "annoyed"), [("p5", True), ("p10", True), ("p1", False)])
def test_the_annoyed_self_check_is_true_and_costs_three(player, annoyed):
    match = Match()
    event = match.do(player, "annoyed_check")[0]
    assert event.kind == "AnnoyedCheckAnswered" and event.audience == (player,)
    assert event.data["annoyed"] is annoyed
    assert event.postings == (Posting(player, "garnets", -3, "annoyed_check"),)


def test_variant_peeks_without_the_judges_view():
    match = Match(peek_uses_judge_view=False)
    assert match.do("p1", "peek", target="p5")[0].data["role_shown"] == "duke"


def test_variant_pair_checks_only_lie_in_pair_checks():
    match = Match(annoyed_scope="pair_checks_only", garnets=20)
    assert match.do("p11", "king_learn", targets=["p5", "p10"])[0].data["roles_shown"] == [
        "duke",
        "noble",
    ]
    assert match.do("p1", "peek", target="p5")[0].data["role_shown"] == "duke"
    match.elect("p1")
    match.do("p1", "pair_check", targets=["p2", "p5"])
    assert match.host("close_round")[0].data["result"] == "different"


def test_variant_checks_and_peeks_lie_everywhere_but_in_lists():
    match = Match(annoyed_scope="checks_and_peeks")
    assert match.do("p11", "king_learn", targets=["p5", "p10"])[0].data["roles_shown"] == [
        "noble",
        "duke",
    ]
    assert match.do("p1", "peek", target="p5")[0].data["role_shown"] == "noble"
