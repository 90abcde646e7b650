"""Settlement details that other tests leave unread (issue 16, mutation testing), worked out
from rulebook §8 (MG-R25, MG-R29) on the STAIRS houses of test_mg_settlement: gold
from houses p1 6, p2 5, p3 5, p4 4, p5 4, p6 3, p7 3, p8 3, p9 2, p10 1; the tax is 2."""

from __future__ import annotations

from domain.games import merchants_guild as mg
from tests.games.merchants_guild.mg_harness import Match, houses
from tests.games.merchants_guild.test_mg_settlement import STAIRS, column, settled


def test_each_gold_row_names_the_players_three_houses():
    rows = column(settled(STAIRS), "houses")
    assert rows["p1"] == ["red", "green", "blue"]
    assert rows["p10"] == ["blue", "black", "white"]


def test_exactly_the_tax_is_paid_in_full_even_when_the_insolvent_keep_their_gold():
    """p9 holds 2, exactly the tax: a payer, so the take_none variant does not apply."""
    match = settled(STAIRS, insolvent_tax="take_none")
    assert column(match, "paid_tax")["p9"] is True
    assert column(match, "tax_taken")["p9"] == 2
    assert column(match, "gold_after_tax")["p9"] == 0


def test_shared_most_gold_tols_give_the_reason_most_gold():
    """red and green (2,2,2) share rank 1: p1-p3 hold 7, the most; one ToL each."""
    match = settled(houses(red=(2, 2, 2), green=(2, 2, 2)))
    awards = [e.data for e in match.all("ToLAwarded")]
    assert awards == [
        {"player": "p1", "count": 1, "reason": "most_gold"},
        {"player": "p2", "count": 1, "reason": "most_gold"},
        {"player": "p3", "count": 1, "reason": "most_gold"},
    ]



def test_the_settlement_lists_each_award_as_the_tols_given():
    """MG-R29 on STAIRS: p1 alone holds the most gold (6): both most-gold ToLs; p1 also passed
    the most bills (7 of p2's 6): the bills ToL. The public settlement lists the same awards."""
    match = settled(STAIRS, pass_counts={"p1": 7, "p2": 6})
    assert match.last("MatchSettled").data["awards"] == [
        {"player": "p1", "count": 2, "reason": "most_gold"},
        {"player": "p1", "count": 1, "reason": "bills"},
    ]


def test_before_the_settlement_the_results_name_only_the_week():
    """No outcome and no ranks until week 8 is settled; the open week is 0 before the opening,
    then 1."""
    assert mg.results(Match(open_match=False).state) == {
        "outcome": None, "ranks": {}, "details": {"week": 0}}
    assert mg.results(Match().state) == {"outcome": None, "ranks": {}, "details": {"week": 1}}


def test_the_settled_results_belong_to_week_8():
    assert mg.results(settled(STAIRS).state)["details"]["week"] == 8
