"""Final Match items (rulebook sections 2.3, 4.4; TJ-R17 to TJ-R20): the pick, the item window,
Tile Inversion, Conceal and the Equaliser.

FM set 1 (tj_harness): g1 {0 B, 6 B, 13 W} g2 {2 B, 5 W, 9 W} g3 {1 W, 8 B, 12 B}
g4 {3 W, 7 W, 11 W}, x1 4, x2 10; sold by default as B6 M0 G13 | G9 M2 B5 | B8 M1 G12 |
G11 M3 B7, so 6-6 gives ann groups 1-2 and bob groups 3-4."""

from __future__ import annotations

from domain.decider import HOST, PUBLIC
from tests.games.tile_joust.tj_harness import ANN, BOB, Match, kinds

INVERSION_FOR_ANN = {"item_allocation": {ANN: ["tile_inversion"], BOB: ["equaliser", "conceal"]}}
EQUALISER_FOR_ANN = {"item_allocation": {ANN: ["equaliser"], BOB: ["tile_inversion", "conceal"]}}


def test_the_first_picker_picks_and_the_equaliser_holder_starts():
    match = Match("final_match")
    assert kinds(match.log) == ["TileJoustOpened", "OrderingsRecorded", "ItemPickOpened"]
    assert match.log[0].data["starter"] is None and match.log[0].data["first_picker"] == ANN
    assert match.log[2].data == {"picker": ANN, "items": ["tile_inversion", "equaliser", "conceal"]}
    assert match.state.round == 1
    events = match.do(ANN, "pick_item", item="equaliser")
    assert events[0].audience == PUBLIC
    assert events[0].data == {
        "items": {ANN: ["equaliser"], BOB: ["tile_inversion", "conceal"]},
        "equaliser_holder": ANN,
        "how": "picked",
    }
    assert events[-1].data == {"set": 1, "group": 1, "label": "B", "opener": ANN}
    match = Match("final_match")
    match.do(ANN, "pick_item", item="conceal")
    assert match.last("ItemsAllocated").data["items"] == {
        ANN: ["conceal"],
        BOB: ["tile_inversion", "equaliser"],
    }
    assert match.last("AuctionOpened").data["opener"] == BOB
    assert match.state.starter == BOB


def test_the_pick_is_the_first_pickers_and_defaults_to_tile_inversion():
    match = Match("final_match")
    assert match.reject(BOB, "pick_item", item="equaliser") == "NOT_YOUR_CHOICE"
    assert match.reject(ANN, "pick_item", item="sword") == "UNKNOWN_ITEM"
    assert match.reject(ANN, "pick_item") == "UNKNOWN_ITEM"
    assert match.reject(ANN, "bid", amount=1) == "WRONG_PHASE"
    match.timeout(ANN)
    allocated = match.last("ItemsAllocated")
    assert allocated.data["items"] == {ANN: ["tile_inversion"], BOB: ["equaliser", "conceal"]}
    assert allocated.data["how"] == "timeout"
    assert match.last("AuctionOpened").data["opener"] == BOB


def test_a_fixed_allocation_is_published_at_the_opening():
    match = Match("final_match", **INVERSION_FOR_ANN)
    assert kinds(match.log)[:3] == ["TileJoustOpened", "OrderingsRecorded", "ItemsAllocated"]
    assert match.log[0].data["starter"] == BOB
    assert match.log[1].audience == HOST
    assert match.log[1].data["items"] == INVERSION_FOR_ANN["item_allocation"]
    assert match.log[2].data["how"] == "fixed"
    assert match.reject(ANN, "pick_item", item="conceal") == "WRONG_PHASE"


def window_of_set_one(**options) -> Match:
    match = Match("final_match", **{**INVERSION_FOR_ANN, **options})
    match.sell_all([ANN] * 6 + [BOB] * 6)
    return match


def test_item_decisions_are_secret_until_both_are_in_then_applied_and_announced():
    match = window_of_set_one()
    opened = match.last("ItemWindowOpened")
    assert opened.data == {"set": 1, "pending": [ANN, BOB]}
    assert match.state.round == 13
    events = match.do(ANN, "use_items", items=[{"item": "tile_inversion", "tile": "s1g1M"}])
    assert kinds(events) == ["ItemsChosen"] and events[0].audience == (ANN,)
    events = match.do(BOB, "use_items", items=["conceal"])
    assert kinds(events)[:4] == ["ItemsChosen", "ItemWindowClosed", "TileInverted", "JoustOpened"]
    closed, inverted = events[1], events[2]
    assert closed.audience == PUBLIC
    assert closed.data == {"set": 1, "used": {ANN: ["tile_inversion"], BOB: ["conceal"]}}
    assert inverted.audience == (ANN,)
    assert inverted.data == {
        "set": 1,
        "player": ANN,
        "tile": "s1g1M",
        "old": 0,
        "new": 13,
        "colour": "WHITE",
    }
    # Conceal hides the group of every tile played, also at resolution.
    match.step("s1g1M", "s1g3G")  # 13 (inverted from 0), 12
    match.step(None, None)
    plays = match.all("JoustStepClosed")[0].data["plays"]
    assert plays == {
        ANN: {"committed": True, "colour": "WHITE", "group": "hidden"},
        BOB: {"committed": True, "colour": "BLACK", "group": "hidden"},
    }
    resolved = match.last("JoustResolved").data
    assert resolved["tiles"] == {
        ANN: [{"value": 13, "colour": "WHITE", "group": "hidden"}],
        BOB: [{"value": 12, "colour": "BLACK", "group": "hidden"}],
    }
    assert resolved["gains"] == {ANN: 12, BOB: 0}
    assert match.state.used_items == ("tile_inversion", "conceal")


def test_variant_conceal_scope_own_tiles_and_inversion_colour_unchanged():
    match = window_of_set_one(conceal_scope="own_tiles", inversion_colour="unchanged")
    match.do(ANN, "use_items", items=[{"item": "tile_inversion", "tile": "s1g1M"}])
    match.do(BOB, "use_items", items=["conceal"])
    assert match.last("TileInverted").data["colour"] == "BLACK"
    match.step("s1g1M", "s1g3G")
    assert match.last("JoustStepClosed").data["plays"] == {
        ANN: {"committed": True, "colour": "BLACK", "group": 1},
        BOB: {"committed": True, "colour": "BLACK", "group": "hidden"},
    }


def test_conceal_lasts_for_its_set_and_each_item_is_used_once():
    match = window_of_set_one()
    match.do(ANN, "use_items", items=[{"item": "tile_inversion", "tile": "s1g1M"}])
    match.do(BOB, "use_items", items=["conceal"])
    match.step(None, None)  # an empty joust ends set 1
    # FM set 2 is 0..13 in order: g1 {0, 1, 2} starts with B1; 6-6 gives ann groups 1-2.
    match.sell_all([ANN] * 6 + [BOB] * 6)
    assert [e.data["set"] for e in match.all("ItemWindowOpened")] == [1]  # nothing left to use
    match.step("s2g1B", None)
    assert match.last("JoustStepClosed").data["plays"][ANN] == {
        "committed": True,
        "colour": "WHITE",
        "group": 1,
    }


def test_a_window_timeout_uses_nothing():
    match = window_of_set_one()
    match.timeout(BOB)
    assert match.last("ItemsChosen").data == {
        "set": 1,
        "player": BOB,
        "uses": [],
        "by_default": True,
    }
    assert match.last("ItemsChosen").audience == (BOB,)
    match.do(ANN, "use_items", items=[])
    assert match.last("ItemWindowClosed").data["used"] == {ANN: [], BOB: []}
    assert "TileInverted" not in kinds(match.log)


def test_an_item_may_be_used_in_a_phase_that_ends_at_once():
    match = Match("final_match", **EQUALISER_FOR_ANN)
    match.sell_all([ANN] * 12)
    match.timeout(BOB)  # bob keeps x2 (10) and gives ann x1 (4): 13 tiles against 1
    assert match.last("ItemWindowOpened").data == {"set": 1, "pending": [BOB]}
    match.do(BOB, "use_items", items=["conceal"])
    assert kinds(match.log)[-4:-2] == ["ItemWindowClosed", "SetEnded"]
    assert match.state.used_items == ("conceal",)
    match.sell_all([ANN] * 12)
    match.timeout(BOB)
    assert match.last("ItemWindowOpened").data == {"set": 2, "pending": [BOB]}
    assert match.reject(BOB, "use_items", items=["conceal"]) == "ITEM_ALREADY_USED"


def final_with_inversion_unused() -> Match:
    """ann wins every auctioned tile; bob keeps the higher leftover each set (10, 13, 1) and
    never uses an item: pools 39 and 3 at the final joust."""
    match = Match("final_match", **EQUALISER_FOR_ANN)
    for _ in range(3):
        match.sell_all([ANN] * 12)
        match.timeout(BOB)  # the leftover choice
        match.timeout(BOB)  # the item window of the set
    return match


def test_at_the_final_joust_only_tile_inversion_can_be_used():
    match = final_with_inversion_unused()
    assert match.last("FinalJoustOpened").data == {"pools": {ANN: 39, BOB: 3}}
    assert sorted(match.hand(BOB)) == ["s1x2", "s2x2", "s3x1"]
    assert match.last("ItemWindowOpened").data == {"set": "final", "pending": [BOB]}
    assert match.reject(BOB, "use_items", items=["conceal"]) == "ITEM_NOT_USABLE_NOW"
    assert match.reject(ANN, "use_items", items=["equaliser"]) == "ITEM_NOT_USABLE_NOW"
    assert match.reject(ANN, "use_items", items=[]) == "WRONG_PHASE"
    match.do(BOB, "use_items", items=[{"item": "tile_inversion", "tile": "s3x1"}])
    assert match.last("ItemWindowClosed").data == {
        "set": "final",
        "used": {ANN: [], BOB: ["tile_inversion"]},
    }
    assert match.last("TileInverted").data == {
        "set": "final",
        "player": BOB,
        "tile": "s3x1",
        "old": 1,
        "new": 12,
        "colour": "BLACK",
    }
    match.step(None, "s3x1")
    assert match.last("JoustStepClosed").data["plays"][BOB] == {
        "committed": True,
        "colour": "BLACK",
        "group": "leftover",
        "set": 3,
    }


def test_tile_inversion_needs_a_tile_to_turn():
    # FM, one set: ann wins one tile (6) and bob eleven; ann keeps x2 (10) and gives x1 (4).
    match = Match("final_match", sets=1, **INVERSION_FOR_ANN)
    match.sell_all([ANN] + [BOB] * 11)
    match.do(ANN, "keep_leftover", tile="s1x2")
    match.skip_window()
    match.step("s1g1B", "s1g3M")  # 6 / 1
    match.step("s1x2", None)  # 10: ann's hand is empty
    match.step(None, None)
    assert match.last("SetEnded").data["stored"] == {ANN: 0, BOB: 11}
    # ann still holds an unused Tile Inversion but has no tile: no window, and the final
    # ends at once; bob scores his 11 tiles.
    assert [e.data["set"] for e in match.all("ItemWindowOpened")] == [1]
    ended = match.last("FinalEnded").data
    assert ended["reason"] == "pool_empty" and ended["remaining_points"] == {ANN: 0, BOB: 11}
    assert ended["totals"] == {ANN: 1, BOB: 11}


def test_equal_totals_go_to_the_equaliser_holder():
    match = Match("final_match", **INVERSION_FOR_ANN)  # bob holds the Equaliser
    match.sell_all([ANN] * 6 + [BOB] * 6)
    match.skip_window()
    match.step(None, None)
    match.sell_all([ANN] * 12)
    match.timeout(BOB)
    match.skip_window()
    match.sell_all([BOB] * 12)
    match.timeout(ANN)
    match.skip_window()
    assert match.last("FinalJoustOpened").data == {"pools": {ANN: 20, BOB: 20}}
    match.skip_window()
    match.step(None, None)
    ended = match.last("FinalEnded").data
    assert ended["totals"] == {ANN: 20, BOB: 20}
    assert (ended["winner"], ended["decided_by_tiebreak"]) == (BOB, True)
