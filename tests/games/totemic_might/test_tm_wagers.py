"""Hope's Wagers (rules 4.5, 6.6, 6.6.1, TM-R14-R20, TM-R36), worked out by hand with the
harness weights (a totem's weight is its place in the canonical order) and hints A..J with
lifts 11..20."""

from __future__ import annotations

import hashlib

from domain.decider import HOST, Posting
from domain.games.totemic_might.snake import assign_letters
from tests.games.totemic_might.harness import (
    ORDER_1A,
    ORDER_1B,
    PLAYERS,
    Match,
    after_round_one,
)


def H(seed: str, *parts: object) -> int:
    text = "|".join(["totemic_might", seed, *(str(part) for part in parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")


def ordered_round(match: Match, garnet_first: str | None = None) -> None:
    """Everyone ranks the items of round 1 with the garnet last (all bid 1: p5 takes the A
    garnet, p4 the B garnet), or `garnet_first` wants the A garnet first."""
    for player in PLAYERS:
        order_a = ["GARNET", *ORDER_1A[:-1]] if player == garnet_first else ORDER_1A
        match.do(player, "set_pick_order", series="A", order=order_a)
        match.do(player, "set_pick_order", series="B", order=ORDER_1B)


def snakes(match: Match, requests: dict[str, str]) -> dict[str, dict]:
    for player, letter in requests.items():
        match.do(player, "place_wager", kind="snake", letter=letter)
    match.deadline()
    return {p: match.last("WagerSettled", p).data for p in requests}


def test_more_garnets_win_a_letter_and_the_other_takes_the_next_free_one():
    match = Match()
    ordered_round(match)
    answers = snakes(match, {"p2": "C", "p1": "C"})  # p1 10 garnets, p2 8
    assert (answers["p1"]["letter"], answers["p1"]["bumped"]) == ("C", False)
    assert answers["p1"]["hint"] == "hint C" and answers["p1"]["lift"] == 13
    assert answers["p1"]["balloon"] == "snake-p1-1"
    assert (answers["p2"]["letter"], answers["p2"]["bumped"]) == ("D", True)
    assert answers["p2"]["lift"] == 14


def test_equal_garnets_go_to_the_priority_list():
    match = Match()
    ordered_round(match)
    answers = snakes(match, {"p3": "C", "p2": "C"})  # 8 each; p2 is above p3
    assert (answers["p2"]["letter"], answers["p3"]["letter"]) == ("C", "D")


def test_the_series_garnet_of_this_deadline_counts():
    """p3 takes the A garnet first (9 garnets after step 3) and beats p2 (8)."""
    match = Match()
    ordered_round(match, garnet_first="p3")
    answers = snakes(match, {"p2": "C", "p3": "C"})
    assert (answers["p3"]["letter"], answers["p2"]["letter"]) == ("C", "D")


def test_a_letter_taken_earlier_or_received_before_is_bumped():
    match = Match()
    snakes(match, {"p1": "C"})
    answers = snakes(match, {"p2": "C", "p3": "J"})
    assert (answers["p2"]["letter"], answers["p2"]["bumped"]) == ("D", True)
    assert answers["p3"]["letter"] == "J"
    answers = snakes(match, {"p1": "C"})  # p1's second use: C is taken and already its own
    assert (answers["p1"]["letter"], answers["p1"]["bumped"]) == ("E", True)
    assert match.state.snake_uses["p1"] == 2


def test_a_direct_request_is_never_displaced_by_a_bumped_player():
    match = Match()
    answers = snakes(match, {"p1": "C", "p2": "C", "p3": "D"})
    assert [answers[p]["letter"] for p in ("p1", "p2", "p3")] == ["C", "E", "D"]


def test_the_search_wraps_from_j_to_a():
    match = Match()
    snakes(match, {"p1": "J"})
    answers = snakes(match, {"p2": "J"})
    assert answers["p2"]["letter"] == "A"


def eight_taken() -> Match:
    """A..D at deadline 1, E..H at deadline 2."""
    match = Match()
    snakes(match, {"p1": "A", "p2": "B", "p3": "C", "p4": "D"})
    snakes(match, {"p5": "E", "p6": "F", "p7": "G", "p1": "H"})
    assert match.state.snake_taken == tuple("ABCDEFGH")
    return match


def test_a_refresh_after_the_direct_phase_frees_the_requested_letter():
    """I and J go directly; all ten are taken, so only I and J stay taken. p4 asked for A
    (taken before the refresh), is bumped, and gets A after all: not flagged."""
    match = eight_taken()
    answers = snakes(match, {"p2": "I", "p3": "J", "p4": "A"})
    assert [answers[p]["letter"] for p in ("p2", "p3", "p4")] == ["I", "J", "A"]
    assert answers["p4"]["bumped"] is False
    record = match.last("WagersSettled").data["snake"]
    assert (record["refreshes"], record["taken_after"], record["bumped"]) == (
        1, ["A", "I", "J"], ["p4"])


def test_a_refresh_in_the_bump_phase():
    """p2 (asks A) and p3 (asks B) are both bumped; ranked p2 then p3 (8 garnets each, p2
    above p3). p2 gets I; p3 gets J, which fills the cycle: only I and J stay taken."""
    match = eight_taken()
    answers = snakes(match, {"p3": "B", "p2": "A"})
    assert (answers["p2"]["letter"], answers["p3"]["letter"]) == ("I", "J")
    assert match.state.snake_taken == ("I", "J")


def test_no_letter_left_means_no_wager():
    """Three Snake uses each. Deadline 2 fills the cycle (refresh: F..J stay taken); deadline 3
    takes A, B, C. At deadline 4 p1 takes D directly; p5 also asked for D and is bumped: E is
    its own old letter, every other is taken. No hint, no balloon, not counted."""
    match = Match(snake_max_uses=3)
    snakes(match, {"p1": "A", "p2": "B", "p3": "C", "p4": "D", "p5": "E"})
    snakes(match, {"p6": "F", "p7": "G", "p1": "H", "p2": "I", "p3": "J"})
    assert match.state.snake_taken == tuple("FGHIJ")
    snakes(match, {"p4": "A", "p6": "B", "p7": "C"})
    answers = snakes(match, {"p1": "D", "p5": "D"})
    assert answers["p1"]["letter"] == "D"
    assert answers["p5"]["took_place"] is False and answers["p5"]["lapsed"] == "no_letter"
    assert "balloon" not in answers["p5"]
    assert match.state.snake_uses["p5"] == 1
    assert len(match.held("p5").balloons) == 1


def test_two_snake_wagers_a_match():
    match = Match()
    snakes(match, {"p1": "A"})
    snakes(match, {"p1": "B"})
    assert match.reject("p1", "place_wager", kind="snake", letter="C") == "SNAKE_LIMIT"


def test_wolf_answers_the_difference_mod_8_and_hides_the_balloon_lift():
    match = Match(seed="wolf-seed")
    match.do("p1", "place_wager", kind="wolf", totems=["Void-Sky", "Winter-Sky"])
    match.deadline()
    answer = match.last("WagerSettled", "p1")
    assert answer.audience == ("p1",)
    assert (answer.data["answer"], answer.data["balloon"]) == (2, "wolf-p1-1")  # |10-20| mod 8
    assert "lift" not in answer.data and answer.postings == ()
    lift = [1, 2][H("wolf-seed", "wolf_lift", 1, "p1") % 2]
    record = match.last("WagersSettled")
    assert record.audience == HOST
    assert record.data["balloons"] == [{"player": "p1", "id": "wolf-p1-1", "lift": lift}]
    assert record.data["draws"][0]["key"] == "wolf_lift|1|p1"
    assert match.held("p1").balloons[0].lift == lift


def test_wolf_modulus_and_its_season_restriction_variant():
    match = Match(wolf_modulus=3, wolf_restriction="season")
    assert match.reject("p1", "place_wager", kind="wolf",
                        totems=["Summer-Sky", "Void-Sky"]) == "WOLF_OWN_SPIRIT"
    match.do("p1", "place_wager", kind="wolf", totems=["Spring-Sky", "Void-Secret"])
    match.deadline()
    assert match.last("WagerSettled", "p1").data["answer"] == 0  # |15-6| = 9, mod 3


def test_the_wolf_rule_uses_the_spirits_held_when_the_round_opened():
    match = after_round_one()
    match.do("p7", "choose_spirit_totem", totem="Void-Sky")
    match.do("p7", "place_wager", kind="wolf", totems=["Void-Sky", "Summer-Land"])
    match.deadline()  # granted Void-Sky at the same deadline: no matter
    assert match.last("WagerSettled", "p7").data["answer"] == 6  # |10-4|
    assert match.reject("p7", "place_wager", kind="wolf",
                        totems=["Void-Sky", "Summer-Land"]) == "WOLF_OWN_SPIRIT"


def test_bear_bands_and_costs():
    match = Match()
    ordered_round(match)  # the series garnets go to p5 and p4
    match.do("p1", "place_wager", kind="bear", totems=["Void-Sky", "Winter-Sky"])
    match.do("p2", "place_wager", kind="bear", totems=["Void-Sky", "Winter-Sky"], fine=True)
    match.do("p3", "place_wager", kind="bear", params={"totems": ["Void-Secret"], "fine": True})
    match.do("p4", "place_wager", kind="bear", totems=["Summer-Secret"], fine="yes")
    match.deadline()
    answers = {p: match.last("WagerSettled", p) for p in ("p1", "p2", "p3", "p4")}
    assert answers["p1"].data["answer"] == [21, 30]  # 30 in bands of 10
    assert answers["p2"].data["answer"] == [26, 30]  # 30 in bands of 5
    assert answers["p3"].data["answer"] == [6, 10]  # 6 in bands of 5
    assert answers["p4"].data["answer"] == [1, 10]  # only `true` buys the fine band
    assert answers["p1"].postings == (Posting("p1", "garnets", -2, "bear_wager"),)
    assert answers["p2"].postings == (Posting("p2", "garnets", -3, "bear_wager"),)
    assert answers["p4"].postings == (Posting("p4", "garnets", -2, "bear_wager"),)
    assert match.balances["p1"] == 8 and match.balances["p2"] == 5


def test_fox_answers_the_sum_paid_in_garnets_or_with_a_balloon():
    match = Match(seed="fox-seed")
    totems = ["Summer-Secret", "Void-Creature", "Spring-Future"]  # 1 + 7 + 13
    match.do("p1", "place_wager", kind="fox", totems=totems, payment="garnets")
    match.do("p2", "place_wager", kind="fox", totems=totems, payment="balloon")
    match.deadline()
    paid = match.last("WagerSettled", "p1")
    assert (paid.data["answer"], paid.data["balloon"], paid.data["cost"]) == (21, None, 4)
    assert paid.postings == (Posting("p1", "garnets", -4, "fox_wager"),)
    ballooned = match.last("WagerSettled", "p2")
    assert (ballooned.data["answer"], ballooned.data["balloon"]) == (21, "fox-p2-1")
    assert ballooned.postings == ()
    lift = [1, 2, 3, 4, 5][H("fox-seed", "fox_lift", 1, "p2") % 5]
    assert match.held("p2").balloons[0].lift == lift


def test_balloons_count_per_player_across_wagers():
    match = Match(draws={"wolf_lift|2|p2": 2, "fox_lift|3|p2": 5})
    for wager in (
        {"kind": "snake", "letter": "A"},
        {"kind": "wolf", "totems": ["Void-Sky", "Winter-Sky"]},
        {"kind": "fox", "totems": ["Summer-Secret", "Void-Future", "Spring-Sky"],
         "payment": "balloon"},
    ):
        match.do("p2", "place_wager", **wager)
        match.deadline()
    assert [(b.id, b.lift) for b in match.held("p2").balloons] == [
        ("snake-p2-1", 11), ("wolf-p2-2", 2), ("fox-p2-3", 5)]


def test_one_standing_wager_replaced_or_cancelled():
    match = Match()
    ordered_round(match)  # the series garnets go to p5 and p4
    match.do("p1", "place_wager", kind="bear", totems=["Void-Sky"])
    (replaced,) = match.do("p1", "place_wager", kind="snake", letter="A")
    assert replaced.data["replaced"] is True
    match.do("p2", "place_wager", kind="bear", totems=["Void-Sky"])
    (cancelled,) = match.do("p2", "cancel_wager")
    assert cancelled.data["cancelled"] is True
    (nothing,) = match.do("p3", "cancel_wager")
    assert nothing.data["cancelled"] is False
    match.deadline()
    assert match.last("WagerSettled", "p1").data["kind"] == "snake"
    assert match.last("WagerSettled", "p2").data == {
        "round": 1, "player": "p2", "cost": 0, "kind": None, "wager": None, "took_place": False}
    assert match.ledger["garnets"]["p1"] == 0


def test_a_wager_lapses_if_the_balance_fell_below_its_price():
    match = Match()
    match.do("p4", "place_wager", kind="bear", totems=["Void-Sky"])
    match.balances["p4"] = 1  # a season garnet trade after submission
    match.deadline()
    answer = match.last("WagerSettled", "p4")
    assert (answer.data["took_place"], answer.data["lapsed"], answer.postings) == (
        False, "insufficient_garnets", ())
    assert match.state.wagers_taken.get("p4", 0) == 0


def test_wagers_are_open_in_the_final_weighing_round():
    match = after_round_one(starting_chips=16)
    match.do("p1", "place_wager", kind="bear", totems=["Winter-Sky"])
    match.deadline()
    assert match.last("WagerSettled", "p1").data["answer"] == [11, 20]
    assert match.state.phase == "final_challenge"


def test_the_rulebooks_snake_examples():
    """docs/games/totemic_might.md 11.3, through the assignment alone."""
    deal = assign_letters({"p1": "C", "p2": "C", "p3": "A"}, ["p1", "p2", "p3"], ["A", "B"], {})
    assert deal.assigned == {"p1": "C", "p2": "D", "p3": "E"}
    assert deal.bumped == ("p2", "p3")
    deal = assign_letters({"p1": "J", "p2": "J"}, ["p1", "p2"], list("ABCDEFGHI"), {})
    assert deal.assigned == {"p1": "J", "p2": "A"}
    assert (deal.bumped, deal.refreshes, deal.taken_after) == (("p2",), 1, ("A", "J"))
