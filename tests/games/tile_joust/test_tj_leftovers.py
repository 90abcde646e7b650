"""The leftover step (rulebook section 4.3, TJ-R6, TJ-R16): counts of this set's tiles decide."""

from __future__ import annotations

from domain.decider import HOST, PUBLIC
from tests.games.tile_joust.tj_harness import ANN, BOB, Match, kinds

FIXED = {"item_allocation": {ANN: ["tile_inversion"], BOB: ["equaliser", "conceal"]}}


def test_dm_the_player_with_fewer_tiles_gets_x1_free_and_alone_learns_its_value():
    match = Match()
    match.sell_all([ANN] * 7 + [BOB] * 5)
    given = match.last("LeftoverGiven")
    assert given.audience == PUBLIC
    assert given.data == {"set": 1, "player": BOB, "tile": "s1x1", "hands": {ANN: 7, BOB: 6}}
    shown = match.last("TileValueShown")
    assert shown.audience == (BOB,)
    assert shown.data == {
        "player": BOB,
        "tile": "s1x1",
        "set": 1,
        "group": "leftover",
        "label": None,
        "value": 8,
        "colour": "BLACK",
    }
    assert "s1x1" in match.hand(BOB)
    assert match.state.chips == {ANN: 90, BOB: 90}  # free


def test_dm_equal_counts_discard_x1_unrevealed():
    match = Match()
    match.sell_all([ANN] * 6 + [BOB] * 6)
    discarded = match.last("LeftoversDiscarded")
    assert discarded.audience == PUBLIC and discarded.data == {"set": 1, "tiles": ["s1x1"]}
    withheld = match.last("LeftoverValuesWithheld")
    assert withheld.audience == HOST and withheld.data == {"set": 1, "values": {"s1x1": 8}}
    assert "LeftoverGiven" not in kinds(match.log)
    assert match.state.discarded == ("s1x1",)


def test_the_counts_are_of_this_sets_auctions_only():
    match = Match()
    match.sell_all([ANN] * 12)
    # bob gets x1 and holds one tile: the set's joust phase ends before its first joust.
    assert match.last("LeftoverGiven").data["player"] == BOB
    ended = match.last("SetEnded")
    assert ended.data == {
        "set": 1,
        "reason": "few_tiles",
        "tiles_left": {ANN: 12, BOB: 1},
        "stored": {ANN: 12, BOB: 1},
    }
    assert "JoustOpened" not in kinds(match.log)
    match.sell_all([ANN] * 6 + [BOB] * 6)  # 6-6 in set 2, although ann stores 12 and bob 1
    assert match.last("LeftoversDiscarded").data == {"set": 2, "tiles": ["s2x1"]}


def test_fm_the_player_with_fewer_tiles_sees_both_keeps_one_and_gives_the_other():
    match = Match("final_match", **FIXED)
    match.sell_all([ANN] * 7 + [BOB] * 5)
    offered = match.last("LeftoverOffered")
    assert offered.audience == PUBLIC and offered.data == {"set": 1, "chooser": BOB}
    values = match.last("LeftoverValuesShown")
    assert values.audience == (BOB,)
    assert values.data == {"set": 1, "chooser": BOB, "values": {"s1x1": 4, "s1x2": 10}}
    assert match.state.phase == "leftover_choice"
    events = match.do(BOB, "keep_leftover", tile="s1x1")
    assert kinds(events)[:3] == ["LeftoverKept", "TileValueShown", "LeftoverSplit"]
    kept, received, split = events[:3]
    assert kept.audience == (BOB,)
    assert kept.data == {"set": 1, "chooser": BOB, "kept": "s1x1", "given": "s1x2"}
    assert received.audience == (ANN,)
    assert (received.data["tile"], received.data["value"]) == ("s1x2", 10)
    assert split.audience == PUBLIC
    assert split.data == {
        "set": 1,
        "chooser": BOB,
        "receiver": ANN,
        "by_default": False,
        "hands": {ANN: 8, BOB: 6},
    }
    assert "s1x1" in match.hand(BOB) and "s1x2" in match.hand(ANN)
    # ann never learns the value bob kept.
    assert all(e.data.get("values", {}).get("s1x1") is None for e in match.seen_by(ANN))
    assert all(e.data.get("tile") != "s1x1" for e in match.seen_by(ANN))


def test_fm_leftover_timeout_keeps_the_higher_or_the_lower_under_the_variant():
    match = Match("final_match", **FIXED)
    match.sell_all([ANN] * 7 + [BOB] * 5)
    match.timeout(BOB)
    kept = match.last("LeftoverKept").data
    assert (kept["kept"], kept["given"]) == ("s1x2", "s1x1")  # 10 kept, 4 given
    assert match.last("LeftoverSplit").data["by_default"] is True
    match = Match("final_match", fm_leftover_default="keep_lower", **FIXED)
    match.sell_all([ANN] * 7 + [BOB] * 5)
    match.timeout(BOB)
    assert match.last("LeftoverKept").data["kept"] == "s1x1"


def test_fm_equal_counts_discard_both_unrevealed():
    match = Match("final_match", **FIXED)
    match.sell_all([ANN] * 6 + [BOB] * 6)
    assert match.last("LeftoversDiscarded").data == {"set": 1, "tiles": ["s1x1", "s1x2"]}
    withheld = match.last("LeftoverValuesWithheld")
    assert withheld.audience == HOST
    assert withheld.data["values"] == {"s1x1": 4, "s1x2": 10}


def test_only_the_chooser_chooses_and_only_this_sets_leftovers():
    match = Match("final_match", **FIXED)
    match.sell_all([ANN] * 7 + [BOB] * 5)
    assert match.reject(ANN, "keep_leftover", tile="s1x1") == "NOT_YOUR_CHOICE"
    for tile in ("s1x3", "s2x1", "s1g1B", None, ["s1x1"]):
        assert match.reject(BOB, "keep_leftover", tile=tile) == "INVALID_TILE_CHOICE"
    assert match.reject(ANN, "timeout") == "HOST_ONLY"
    assert match.state.round == 13  # twelve auctions, then the leftover choice
