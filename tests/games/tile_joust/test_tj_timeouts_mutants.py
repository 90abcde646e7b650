"""`timeout {player}` applies the default only to the decision that player owes (rulebook
sections 5 and 6: nothing pending for that player -> WRONG_PHASE), issue 16, mutation testing
of timeouts.py.

FM set 1 (tj_harness) sold 7 to ann, 5 to bob: bob, with fewer tiles, chooses a leftover
(x1 = 4, x2 = 10); ann only waits for what she will be given."""

from __future__ import annotations

from tests.games.tile_joust.tj_harness import ANN, BOB, Match

FIXED = {"item_allocation": {ANN: ["tile_inversion"], BOB: ["equaliser", "conceal"]}}


def test_a_timeout_for_the_receiver_of_a_leftover_is_refused():
    match = Match("final_match", **FIXED)
    match.sell_all([ANN] * 7 + [BOB] * 5)
    assert match.state.phase == "leftover_choice" and match.state.chooser == BOB
    assert match.reject("host", "timeout", player=ANN) == "WRONG_PHASE"
    # The chooser's own timeout keeps the higher (10) and gives the 4.
    match.timeout(BOB)
    kept = match.last("LeftoverKept").data
    assert (kept["kept"], kept["given"]) == ("s1x2", "s1x1")
    assert match.last("LeftoverSplit").data["by_default"] is True


def test_a_timeout_for_a_player_with_nothing_to_decide_is_refused_everywhere():
    """The item pick (only the first picker owes it), a next-tile choice (only the winner), a
    bidding turn (only the player to act): the other player's timeout is WRONG_PHASE."""
    match = Match("final_match")  # ann picks
    assert match.reject("host", "timeout", player=BOB) == "WRONG_PHASE"
    match.do(ANN, "pick_item", item="conceal")  # bob holds the Equaliser and opens
    assert match.reject("host", "timeout", player=ANN) == "WRONG_PHASE"
    match.do(BOB, "fold")  # ann wins the B tile for 0 and chooses the next label
    assert match.state.chooser == ANN
    assert match.reject("host", "timeout", player=BOB) == "WRONG_PHASE"
    for nobody in ("carol", "host", "", None, 1, ["ann"]):
        assert match.reject("host", "timeout", player=nobody) == "WRONG_PHASE"
