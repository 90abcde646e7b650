"""Joust records that other tests leave unread (issue 16, mutation testing): the numbers of
each step, passes by choice and by timeout, the spent tiles, and what a resolution shows under
Conceal limited to the concealer's own tiles (TJ-R15, TJ-R18; rulebook sections 4.5 and 7).

Set 1 of the Death Match (tj_harness), sold 6-6: ann holds groups 1-2 (g1 B5 M2 G9), bob
groups 3-4 (g3 G12 M4 B10). FM set 1 sold 6-6: ann g1 B6 (black) M0 G13, bob g3 B8 M1 G12
(black)."""

from __future__ import annotations

from tests.games.tile_joust.tj_harness import ANN, BOB, Match

INVERSION_FOR_ANN = {"item_allocation": {ANN: ["tile_inversion"], BOB: ["equaliser", "conceal"]}}


def set_one() -> Match:
    match = Match()
    match.sell_all([ANN] * 6 + [BOB] * 6)
    return match


def test_each_step_is_numbered_and_a_chosen_pass_is_not_a_default():
    match = set_one()
    match.step("s1g1G", "s1g3G")  # step 1: 9 and 12
    match.step("s1g1M", None)  # step 2: 2; bob passes
    opened = [e.data["step"] for e in match.all("JoustStepOpened")]
    assert opened == [1, 2, 3]
    assert match.last("StepPassed").data == {
        "set": 1,
        "joust": 1,
        "step": 2,
        "player": BOB,
        "by_default": False,
    }
    closed = match.all("JoustStepClosed")[-1].data
    assert (closed["set"], closed["joust"], closed["step"]) == (1, 1, 2)
    match.timeout(ANN)  # step 3: ann times out
    assert match.last("StepPassed").data == {
        "set": 1,
        "joust": 1,
        "step": 3,
        "player": ANN,
        "by_default": True,
    }
    match.pass_(BOB)
    assert match.last("JoustStepClosed").data["step"] == 3
    assert match.last("JoustTilesSpent").data == {
        "set": 1,
        "joust": 1,
        "tiles": {ANN: ["s1g1G", "s1g1M"], BOB: ["s1g3G"]},
    }
    # Joust 2 numbers its steps from 1 again.
    assert match.last("JoustStepOpened").data["joust"] == 2
    assert match.last("JoustStepOpened").data["step"] == 1


def test_own_tiles_conceal_hides_only_the_concealers_groups_in_the_resolution():
    match = Match("final_match", conceal_scope="own_tiles", **INVERSION_FOR_ANN)
    match.sell_all([ANN] * 6 + [BOB] * 6)
    match.do(ANN, "use_items", items=[])
    match.do(BOB, "use_items", items=["conceal"])
    match.step("s1g1B", "s1g3G")  # 6 and 12
    match.step(None, None)
    resolved = match.last("JoustResolved").data
    assert resolved["tiles"] == {
        ANN: [{"value": 6, "colour": "BLACK", "group": 1}],
        BOB: [{"value": 12, "colour": "BLACK", "group": "hidden"}],
    }
    assert resolved["gains"] == {ANN: 0, BOB: 6}
