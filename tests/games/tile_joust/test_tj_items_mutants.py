"""Item decisions that other tests leave unread (issue 16, mutation testing of items.py): a
decision a player sends is his own, not a default (rulebook 4.4 and section 6; decisions,
"Item window mechanics": `ItemsChosen` is a sealed receipt to its sender, with `by_default`).

FM set 1 (tj_harness) sold 6-6: ann holds groups 1-2 (B6 M0 G13 | G9 M2 B5) and Tile
Inversion; bob holds Conceal and the Equaliser. Both are asked in set 1's window."""

from __future__ import annotations

from domain.decider import SYSTEM
from tests.games.tile_joust.tj_harness import ANN, BOB, Match

INVERSION_FOR_ANN = {"item_allocation": {ANN: ["tile_inversion"], BOB: ["equaliser", "conceal"]}}


def window_of_set_one() -> Match:
    match = Match("final_match", **INVERSION_FOR_ANN)
    match.sell_all([ANN] * 6 + [BOB] * 6)
    return match


def test_a_sent_item_decision_is_the_players_own_not_a_default():
    match = window_of_set_one()
    chosen = match.do(ANN, "use_items", items=[{"item": "tile_inversion", "tile": "s1g2M"}])[0]
    assert chosen.kind == "ItemsChosen" and chosen.audience == (ANN,)
    assert chosen.actor == ANN
    assert chosen.data == {
        "set": 1,
        "player": ANN,
        "uses": [{"item": "tile_inversion", "tile": "s1g2M"}],
        "by_default": False,
    }


def test_sending_nothing_is_a_choice_and_a_timeout_is_the_default():
    """ann sends an empty list (her choice: nothing), bob stays silent and times out: only
    bob's decision is the default of section 6 (use nothing)."""
    match = window_of_set_one()
    sent = match.do(ANN, "use_items", items=[])[0]
    assert (sent.actor, sent.data["uses"], sent.data["by_default"]) == (ANN, [], False)
    timed_out = match.timeout(BOB)[0]
    assert timed_out.kind == "ItemsChosen" and timed_out.audience == (BOB,)
    assert (timed_out.actor, timed_out.data["uses"], timed_out.data["by_default"]) == (
        SYSTEM,
        [],
        True,
    )
    assert match.last("ItemWindowClosed").data == {"set": 1, "used": {ANN: [], BOB: []}}
