"""What the framework reads at the end (decisions, "Rounds and results"): the outcome, the
ranks and every detail of two short matches worked by hand, and nothing of the end before it
(issue 16, mutation testing of results.py).

Both matches have one set (`sets: 1`) on the harness orderings (tj_harness)."""

from __future__ import annotations

from domain.games import tile_joust as tj
from tests.games.tile_joust.tj_harness import ANN, BOB, Match

INVERSION_FOR_ANN = {"item_allocation": {ANN: ["tile_inversion"], BOB: ["equaliser", "conceal"]}}


def test_a_death_match_won_on_points_when_a_pool_runs_out():
    """DM set 1: ann (the DMO, the starter) buys all twelve for 1 chip each (90 - 12 = 78);
    bob, with fewer tiles, gets x1 (8) and holds one tile: the set ends before its first joust
    (TJ-R10). Final joust: ann puts forward G9 (s1g1G), bob his 8, then nothing: 9 > 8, ann
    scores 8. Bob's pool is empty: ann scores 1 for each of her 11 tiles left (TJ-R11).
    ann 19, bob 0."""
    match = Match(sets=1)
    match.sell_all([ANN] * 12, [1] * 12)
    assert match.last("SetEnded").data["reason"] == "few_tiles"
    match.step("s1g1G", "s1x1")
    match.step(None, None)
    assert tj.finished(match.state)
    result = tj.results(match.state)
    assert result["outcome"] == ANN
    assert result["ranks"] == {ANN: 1, BOB: 2}
    assert result["details"] == {
        "variant": "death_match",
        "winner": ANN,
        "loser": BOB,
        "decided_by_tiebreak": False,
        "final_ended_by": "pool_empty",
        "starter": ANN,
        "totals": {ANN: 19, BOB: 0},
        "points": {
            ANN: {"1": 0, "final": 8, "remaining": 11},
            BOB: {"1": 0, "final": 0, "remaining": 0},
        },
        "chips": {ANN: 78, BOB: 90},
        "items": {ANN: [], BOB: []},
        "items_used": [],
    }


def test_a_final_match_tied_on_points_goes_to_the_equaliser_holder():
    """FM, bob holds the Equaliser (the starter). Set 1 sold 6-6 for 2 chips each (90 - 12 =
    78 each): the leftovers are set aside. In the set's window ann inverts her M0 (s1g1M), bob
    uses nothing; both pass in the first joust (empty: the set ends, TJ-R9). Ann's inversion
    is used and Conceal is never usable in the final, so no window; both pass again: the final
    ends with an empty joust and each scores 1 per tile held, 6 and 6. The tie goes to the
    starter, bob (TJ-R12)."""
    match = Match("final_match", sets=1, **INVERSION_FOR_ANN)
    match.sell_all([ANN] * 6 + [BOB] * 6, [2] * 12)
    match.do(ANN, "use_items", items=[{"item": "tile_inversion", "tile": "s1g1M"}])
    match.do(BOB, "use_items", items=[])
    match.step(None, None)
    assert match.last("SetEnded").data["reason"] == "empty_joust"
    match.step(None, None)
    assert tj.finished(match.state)
    result = tj.results(match.state)
    assert result["outcome"] == BOB
    assert result["ranks"] == {BOB: 1, ANN: 2}
    assert result["details"] == {
        "variant": "final_match",
        "winner": BOB,
        "loser": ANN,
        "decided_by_tiebreak": True,
        "final_ended_by": "empty_joust",
        "starter": BOB,
        "totals": {ANN: 6, BOB: 6},
        "points": {
            ANN: {"1": 0, "final": 0, "remaining": 6},
            BOB: {"1": 0, "final": 0, "remaining": 6},
        },
        "chips": {ANN: 78, BOB: 78},
        "items": {ANN: ["tile_inversion"], BOB: ["equaliser", "conceal"]},
        "items_used": ["tile_inversion"],
    }


def test_before_the_end_there_is_no_outcome():
    """In set 1's auctions nobody has won or lost: outcome, ranks, winner, loser, the tie rule
    and the way the final ended are all null; the rest is the match so far (all points 0, the
    chips as they stand: ann paid 3 for the first tile)."""
    match = Match()
    match.sell(ANN, 3)
    # The next-tile choice is pending: no round of its own, so still the first auction's.
    assert not tj.finished(match.state) and tj.round_of(match.state) == 1
    result = tj.results(match.state)
    assert result["outcome"] is None and result["ranks"] == {}
    details = result["details"]
    assert (details["winner"], details["loser"]) == (None, None)
    assert (details["decided_by_tiebreak"], details["final_ended_by"]) == (None, None)
    assert details["starter"] == ANN
    assert details["totals"] == {ANN: 0, BOB: 0}
    zero = {"1": 0, "2": 0, "3": 0, "final": 0, "remaining": 0}
    assert details["points"] == {ANN: zero, BOB: zero}
    assert details["chips"] == {ANN: 87, BOB: 90}
