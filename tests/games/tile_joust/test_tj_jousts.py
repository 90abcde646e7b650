"""Jousts (rulebook sections 4.5, 4.6, 7; TJ-R7 to TJ-R11): steps, what they show, resolution,
the set's end, and the final joust. Set 1 of most tests: ann holds 5 2 9 7 1 13 (groups 1 and 2),
bob 12 4 10 11 3 6 (groups 3 and 4); x1 is discarded (6-6)."""

from __future__ import annotations

from domain.decider import HOST, PUBLIC
from tests.games.tile_joust.tj_harness import ANN, BOB, Match, kinds


def set_one(**options) -> Match:
    match = Match(**options)
    match.sell_all([ANN] * 6 + [BOB] * 6)
    return match


def test_the_worked_joust_example_of_the_rulebook():
    match = set_one()
    assert match.last("JoustOpened").data == {"set": 1, "joust": 1}
    step = match.last("JoustStepOpened").data
    assert step == {"set": 1, "joust": 1, "step": 1, "eligible": [ANN, BOB], "auto_passed": []}
    match.step("s1g1G", "s1g3G")  # 9 and 12
    match.step("s1g1M", None)  # 2; bob passes
    events = match.step(None, None)
    closed = [e.data for e in match.all("JoustStepClosed")]
    assert [c["plays"] for c in closed] == [
        {
            ANN: {"committed": True, "colour": "WHITE", "group": 1},
            BOB: {"committed": True, "colour": "BLACK", "group": 3},
        },
        {ANN: {"committed": True, "colour": "BLACK", "group": 1}, BOB: {"committed": False}},
        {ANN: {"committed": False}, BOB: {"committed": False}},
    ]
    resolved = match.last("JoustResolved")
    assert resolved.audience == PUBLIC
    assert resolved.data == {
        "set": 1,
        "joust": 1,
        "tiles": {
            ANN: [
                {"value": 9, "colour": "WHITE", "group": 1},
                {"value": 2, "colour": "BLACK", "group": 1},
            ],
            BOB: [{"value": 12, "colour": "BLACK", "group": 3}],
        },
        "sums": {ANN: 11, BOB: 12},
        "winner": BOB,
        "gains": {ANN: 0, BOB: 2},
        "totals": {ANN: 0, BOB: 2},
        "hands": {ANN: 4, BOB: 5},
    }
    spent = match.last("JoustTilesSpent")
    assert spent.audience == HOST
    assert spent.data["tiles"] == {ANN: ["s1g1G", "s1g1M"], BOB: ["s1g3G"]}
    assert kinds(events)[-5:] == [
        "JoustStepClosed",
        "JoustResolved",
        "JoustTilesSpent",
        "JoustOpened",
        "JoustStepOpened",
    ]
    assert match.state.spent == ("s1g1G", "s1g1M", "s1g3G")


def test_equal_sums_score_both_and_a_side_that_commits_nothing_gains_nothing():
    match = set_one()
    match.step("s1g1G", "s1g3G")
    match.step("s1g1M", None)
    match.step(None, None)  # bob 2, as in the worked example
    # Joust 2: 13 against 10 + 3: equal sums, both gain the other side's smallest.
    match.step("s1g2G", "s1g3B")
    match.step(None, "s1g4M")
    match.step(None, None)
    tie = match.last("JoustResolved").data
    assert (tie["sums"], tie["winner"]) == ({ANN: 13, BOB: 13}, "tie")
    assert tie["gains"] == {ANN: 3, BOB: 13} and tie["totals"] == {ANN: 3, BOB: 15}
    # Joust 3: ann commits 5, bob nothing: ann wins and gains 0 (TJ-R8); bob keeps his tiles.
    match.step("s1g1B", None)
    match.step(None, None)
    alone = match.last("JoustResolved").data
    assert alone["tiles"] == {ANN: [{"value": 5, "colour": "WHITE", "group": 1}], BOB: []}
    assert (alone["winner"], alone["gains"]) == (ANN, {ANN: 0, BOB: 0})
    assert alone["hands"] == {ANN: 2, BOB: 3}
    # Joust 4: ann empties her hand (7 then 1) against bob's 11; she then passes by herself.
    match.step("s1g2B", "s1g4G")
    match.step("s1g2M", None)
    assert match.last("JoustStepOpened").data["auto_passed"] == [ANN]
    match.step(None, None)
    last = match.last("JoustResolved").data
    assert (last["sums"], last["gains"]) == ({ANN: 8, BOB: 11}, {ANN: 0, BOB: 1})
    # ann has no tile left: the set ends before a fifth joust, bob stores 4 and 6.
    assert match.last("SetEnded").data == {
        "set": 1,
        "reason": "few_tiles",
        "tiles_left": {ANN: 0, BOB: 2},
        "stored": {ANN: 0, BOB: 2},
    }
    assert match.state.stored == {ANN: (), BOB: ("s1g3M", "s1g4B")}
    assert match.state.points == {ANN: {"1": 3}, BOB: {"1": 16}}
    assert match.last("AuctionOpened").data == {"set": 2, "group": 1, "label": "B", "opener": ANN}


def test_a_joust_with_no_tile_at_all_ends_the_sets_joust_phase():
    match = set_one()
    match.step(None, None)
    assert "JoustResolved" not in kinds(match.log)
    assert match.last("SetEnded").data == {
        "set": 1,
        "reason": "empty_joust",
        "tiles_left": {ANN: 6, BOB: 6},
        "stored": {ANN: 6, BOB: 6},
    }


def test_the_tile_cap_passes_a_player_automatically():
    match = set_one(joust_tile_cap=2)
    match.step("s1g1G", None)
    match.step("s1g1M", None)
    assert match.last("JoustStepOpened").data["auto_passed"] == [ANN]
    assert match.reject(ANN, "submit_tile", tile="s1g1B") == "JOUST_TILE_LIMIT"
    assert match.reject(ANN, "pass") == "ALREADY_ACTED"
    match.pass_(BOB)
    assert match.last("JoustResolved").data["sums"] == {ANN: 11, BOB: 0}


def test_a_step_is_secret_until_both_have_acted_and_hides_who_acted_first():
    def play(first: str) -> Match:
        match = set_one()
        tiles = {ANN: "s1g1G", BOB: "s1g3G"}
        second = BOB if first == ANN else ANN
        match.commit(first, tiles[first])
        match.commit(second, tiles[second])
        return match

    ann_first, bob_first = play(ANN), play(BOB)
    committed = ann_first.all("TileCommitted")
    assert [e.audience for e in committed] == [(ANN,), (BOB,)]
    assert committed[0].data == {"set": 1, "joust": 1, "step": 1, "player": ANN, "tile": "s1g1G"}

    def public(match: Match) -> list:
        return [(e.kind, e.data) for e in match.public()]

    assert public(ann_first) == public(bob_first)
    assert [e.audience == PUBLIC for e in ann_first.log] == [
        e.audience == PUBLIC for e in bob_first.log
    ]


def test_a_timeout_in_a_joust_step_is_a_pass():
    match = set_one()
    match.commit(ANN, "s1g1G")
    events = match.timeout(BOB)
    assert events[0].kind == "StepPassed" and events[0].audience == (BOB,)
    assert events[0].data["by_default"] is True
    assert match.last("JoustStepClosed").data["plays"][BOB] == {"committed": False}
    match.commit(ANN, "s1g1M")  # step 2: ann has acted, bob has not
    assert match.reject("host", "timeout", player=ANN) == "WRONG_PHASE"


def store_symmetrically(**options) -> Match:
    """Set 1: 6-6, an empty joust; set 2: ann wins all, bob gets x1; set 3: the reverse.
    Both players store 19 tiles and score nothing in the sets."""
    match = set_one(**options)
    match.step(None, None)
    match.sell_all([ANN] * 12)
    match.sell_all([BOB] * 12)
    return match


def test_an_empty_final_joust_scores_every_tile_left_and_a_tie_goes_to_the_dmo():
    match = store_symmetrically()
    assert match.last("FinalJoustOpened").data == {"pools": {ANN: 19, BOB: 19}}
    assert match.last("JoustOpened").data == {"set": "final", "joust": 1}
    match.step(None, None)
    ended = match.last("FinalEnded")
    assert ended.audience == PUBLIC
    assert ended.data == {
        "reason": "empty_joust",
        "remaining_points": {ANN: 19, BOB: 19},
        "totals": {ANN: 19, BOB: 19},
        "winner": ANN,
        "loser": BOB,
        "decided_by_tiebreak": True,
    }
    assert match.state.phase == "over"
    revealed = match.last("SetupRevealed")
    assert revealed.audience == PUBLIC and revealed.data["items"] == {ANN: [], BOB: []}
    assert match.log[-1] == revealed
    match = store_symmetrically(dmo=BOB)
    match.step(None, None)
    assert match.last("FinalEnded").data["winner"] == BOB


def outlasted() -> Match:
    """ann wins all 36 auctioned tiles; bob gets each x1 (8, 5, 13) and every set ends at
    once (bob holds one tile): pools 36 and 3."""
    match = Match()
    for _ in range(3):
        match.sell_all([ANN] * 12)
    return match


def test_the_final_joust_shows_each_tiles_set_and_a_player_who_outlasts_scores_per_tile():
    match = outlasted()
    assert match.last("FinalJoustOpened").data == {"pools": {ANN: 36, BOB: 3}}
    assert sorted(match.hand(BOB)) == ["s1x1", "s2x1", "s3x1"]
    match.step("s1g2G", "s3x1")  # 13 and 13
    match.step(None, "s1x1")  # 8
    match.step(None, "s2x1")  # 5
    assert match.last("JoustStepOpened").data["auto_passed"] == [BOB]
    match.step(None, None)
    plays = match.all("JoustStepClosed")[0].data["plays"]
    assert plays == {
        ANN: {"committed": True, "colour": "WHITE", "group": 2, "set": 1},
        BOB: {"committed": True, "colour": "WHITE", "group": "leftover", "set": 3},
    }
    resolved = match.last("JoustResolved").data
    assert resolved["tiles"] == {
        ANN: [{"value": 13, "colour": "WHITE", "group": 2, "set": 1}],
        BOB: [
            {"value": 13, "colour": "WHITE", "group": "leftover", "set": 3},
            {"value": 8, "colour": "BLACK", "group": "leftover", "set": 1},
            {"value": 5, "colour": "WHITE", "group": "leftover", "set": 2},
        ],
    }
    assert (resolved["sums"], resolved["gains"]) == ({ANN: 13, BOB: 26}, {ANN: 0, BOB: 13})
    assert match.last("FinalEnded").data == {
        "reason": "pool_empty",
        "remaining_points": {ANN: 35, BOB: 0},
        "totals": {ANN: 35, BOB: 13},
        "winner": ANN,
        "loser": BOB,
        "decided_by_tiebreak": False,
    }


def test_a_tile_stored_in_another_set_is_not_in_the_hand():
    match = Match()
    match.sell_all([ANN] * 12)  # set 1 ends at once: ann stores s1g1B
    match.sell_all([ANN] * 6 + [BOB] * 6)
    assert match.reject(ANN, "submit_tile", tile="s1g1B") == "TILE_NOT_HELD"
    assert match.reject(ANN, "submit_tile", tile="s2g3G") == "TILE_NOT_HELD"  # bob's


def test_both_pools_empty_at_once_score_nothing():
    match = Match(sets=1)
    match.sell_all([ANN, ANN] + [BOB] * 10)  # ann 5 2 and x1 (8); bob the other ten
    match.step("s1g1B", "s1g2M")  # 5 / 1
    match.step("s1g1M", "s1g4M")  # 2 / 3
    match.step(None, "s1g3M")  # 4
    match.step(None, "s1g4B")  # 6
    match.step(None, "s1g2B")  # 7: bob's fifth tile
    assert match.last("JoustStepOpened").data["auto_passed"] == [BOB]
    assert match.reject(BOB, "submit_tile", tile="s1g1G") == "JOUST_TILE_LIMIT"
    match.pass_(ANN)
    assert match.last("JoustResolved").data["gains"] == {ANN: 0, BOB: 2}
    assert match.last("SetEnded").data["stored"] == {ANN: 1, BOB: 5}
    match.step("s1x1", "s1g1G")  # 8 / 9
    for tile in ("s1g2G", "s1g3G", "s1g3B", "s1g4G"):
        match.step(None, tile)
    # Step 6: ann has no tile and bob is at the cap: the step closes at once, the joust
    # resolves, and both pools are empty.
    assert match.last("JoustResolved").data["gains"] == {ANN: 0, BOB: 8}
    assert match.last("FinalEnded").data == {
        "reason": "pool_empty",
        "remaining_points": {ANN: 0, BOB: 0},
        "totals": {ANN: 0, BOB: 10},
        "winner": BOB,
        "loser": ANN,
        "decided_by_tiebreak": False,
    }
