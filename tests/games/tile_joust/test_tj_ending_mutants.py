"""The end reveal of a Final Match (TJ-R24; tile_joust-decisions.md: `SetupRevealed`
publishes the orderings and the item allocation), which other tests read only for a Death
Match, where nobody holds an item (issue 16, mutation testing)."""

from __future__ import annotations

from tests.games.tile_joust.tj_harness import ANN, BOB, FM_SET_1, Match

INVERSION_FOR_ANN = {"item_allocation": {ANN: ["tile_inversion"], BOB: ["equaliser", "conceal"]}}


def test_the_final_match_reveal_lists_each_players_allocated_items():
    # As in test_tj_items: one set, ann wins one tile and bob eleven; ann empties her hand.
    match = Match("final_match", sets=1, **INVERSION_FOR_ANN)
    match.sell_all([ANN] + [BOB] * 11)
    match.do(ANN, "keep_leftover", tile="s1x2")
    match.skip_window()
    match.step("s1g1B", "s1g3M")
    match.step("s1x2", None)
    match.step(None, None)
    revealed = match.last("SetupRevealed")
    assert match.log[-1] == revealed
    assert revealed.data == {
        "orderings": {"1": FM_SET_1},
        "items": {ANN: ["tile_inversion"], BOB: ["equaliser", "conceal"]},
    }
