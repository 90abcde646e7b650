"""Every error code of rulebook section 5, and the order of the checks: state, command -> code.

Rows that break two rules at once show which check comes first. A rejected command changes
nothing (Match.reject checks the state)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from domain.errors import RuleViolation
from domain.games import tile_joust as tj
from domain.match import parse_setup
from tests.games.tile_joust.tj_harness import ANN, BOB, DM_SET_1, PLAYERS, Match

FIXED = {"item_allocation": {ANN: ["tile_inversion"], BOB: ["equaliser", "conceal"]}}


def dm() -> Match:
    """Set 1, first auction: ann (the DMO) to open."""
    return Match()


def dm_bid() -> Match:
    """ann opened at 5; bob to act."""
    match = Match(starting_chips=20)
    match.do(ANN, "bid", amount=5)
    return match


def dm_choice() -> Match:
    """bob won s1g1B and chooses the next label."""
    match = Match()
    match.sell(BOB)
    return match


def fm_pick() -> Match:
    return Match("final_match")


def fm_leftover() -> Match:
    """7-5: bob chooses between s1x1 and s1x2."""
    match = Match("final_match", **FIXED)
    match.sell_all([ANN] * 7 + [BOB] * 5)
    return match


def fm_window() -> Match:
    """6-6; the item window of set 1: ann (Tile Inversion) and bob (Conceal) to decide."""
    match = Match("final_match", **FIXED)
    match.sell_all([ANN] * 6 + [BOB] * 6)
    return match


def fm_window_ann_chose() -> Match:
    match = fm_window()
    match.do(ANN, "use_items", items=[])
    return match


def fm_final_window() -> Match:
    """ann holds the Equaliser; bob kept Tile Inversion and Conceal for the final joust."""
    match = Match(
        "final_match", item_allocation={ANN: ["equaliser"], BOB: ["tile_inversion", "conceal"]}
    )
    for _ in range(3):
        match.sell_all([ANN] * 12)
        match.timeout(BOB)
        match.timeout(BOB)
    return match


def fm_final_window_conceal_used() -> Match:
    """As fm_final_window, but bob used Conceal in set 1 (where his one tile ended the set)."""
    match = Match(
        "final_match", item_allocation={ANN: ["equaliser"], BOB: ["tile_inversion", "conceal"]}
    )
    match.sell_all([ANN] * 12)
    match.timeout(BOB)
    match.do(BOB, "use_items", items=["conceal"])
    for _ in range(2):
        match.sell_all([ANN] * 12)
        match.timeout(BOB)
        match.timeout(BOB)
    return match


def joust() -> Match:
    """DM set 1, 6-6: ann holds groups 1-2, bob groups 3-4; joust 1, step 1."""
    match = Match()
    match.sell_all([ANN] * 6 + [BOB] * 6)
    return match


def joust_ann_acted() -> Match:
    match = joust()
    match.commit(ANN, "s1g1G")
    return match


def joust_after_one() -> Match:
    """Joust 1 resolved (9 and 2 against 12): those tiles are spent."""
    match = joust()
    match.step("s1g1G", "s1g3G")
    match.step("s1g1M", None)
    match.step(None, None)
    return match


def joust_at_cap() -> Match:
    match = Match(joust_tile_cap=1)
    match.sell_all([ANN] * 6 + [BOB] * 6)
    match.step("s1g1G", None)
    return match


def over() -> Match:
    match = joust()
    match.step(None, None)
    match.sell_all([ANN] * 12)
    match.sell_all([BOB] * 12)
    match.step(None, None)
    return match


Row = tuple[Callable[[], Match], str, str, dict[str, Any], str]

ROWS: list[Row] = [
    # Who may send what
    (dm, "host", "bid", {"amount": 1}, "NOT_A_PLAYER"),
    (dm, "zed", "fold", {}, "NOT_A_PLAYER"),
    (dm, ANN, "timeout", {"player": BOB}, "HOST_ONLY"),
    (dm, ANN, "open_match", {}, "HOST_ONLY"),
    (dm, ANN, "dance", {}, "UNKNOWN_COMMAND"),
    (dm, "host", "close_round", {}, "UNKNOWN_COMMAND"),
    (dm, "host", "open_match", {}, "WRONG_PHASE"),
    # pick_item
    (fm_pick, BOB, "pick_item", {"item": "sword"}, "NOT_YOUR_CHOICE"),
    (fm_pick, ANN, "pick_item", {"item": "sword"}, "UNKNOWN_ITEM"),
    (fm_pick, ANN, "pick_item", {"item": ["equaliser"]}, "UNKNOWN_ITEM"),
    (dm, ANN, "pick_item", {"item": "equaliser"}, "WRONG_PHASE"),
    # bid
    (dm, BOB, "bid", {"amount": -1}, "NOT_YOUR_TURN"),
    (dm, ANN, "bid", {"amount": -1}, "INVALID_AMOUNT"),
    (dm, ANN, "bid", {"amount": "5"}, "INVALID_AMOUNT"),
    (dm, ANN, "bid", {"amount": True}, "INVALID_AMOUNT"),
    (dm, ANN, "bid", {}, "INVALID_AMOUNT"),
    (dm_bid, BOB, "bid", {"amount": 5}, "BID_NOT_ABOVE_CURRENT"),
    (dm_bid, BOB, "bid", {"amount": 21}, "BID_EXCEEDS_CHIPS"),
    (dm_choice, BOB, "bid", {"amount": 1}, "WRONG_PHASE"),
    # fold
    (dm, BOB, "fold", {}, "NOT_YOUR_TURN"),
    (joust, ANN, "fold", {}, "WRONG_PHASE"),
    # choose_next_tile
    (dm_choice, ANN, "choose_next_tile", {"label": "X"}, "NOT_YOUR_CHOICE"),
    (dm_choice, BOB, "choose_next_tile", {"label": "B"}, "INVALID_TILE_CHOICE"),
    (dm_choice, BOB, "choose_next_tile", {"label": "minute"}, "INVALID_TILE_CHOICE"),
    (dm, ANN, "choose_next_tile", {"label": "M"}, "WRONG_PHASE"),
    # keep_leftover
    (fm_leftover, ANN, "keep_leftover", {"tile": "nothing"}, "NOT_YOUR_CHOICE"),
    (fm_leftover, BOB, "keep_leftover", {"tile": "s2x1"}, "INVALID_TILE_CHOICE"),
    (fm_window, BOB, "keep_leftover", {"tile": "s1x1"}, "WRONG_PHASE"),
    # use_items: already sent, then each use in list order, then nothing to decide
    (fm_window_ann_chose, ANN, "use_items", {"items": ["sword"]}, "ALREADY_ACTED"),
    (fm_window, ANN, "use_items", {"items": ["sword", "conceal"]}, "UNKNOWN_ITEM"),
    (fm_window, ANN, "use_items", {"items": "conceal"}, "UNKNOWN_ITEM"),
    (fm_window, ANN, "use_items", {"items": [7]}, "UNKNOWN_ITEM"),
    (fm_window, ANN, "use_items", {"items": ["conceal", "sword"]}, "ITEM_NOT_HELD"),
    (fm_window, BOB, "use_items", {"items": ["equaliser"]}, "ITEM_NOT_USABLE_NOW"),
    (fm_window, BOB, "use_items", {"items": ["conceal", "conceal", "x"]}, "DUPLICATE_ITEM_USE"),
    (
        fm_window,
        ANN,
        "use_items",
        {"items": [{"item": "tile_inversion", "tile": "s1g3G"}]},  # bob's tile
        "TILE_NOT_HELD",
    ),
    (fm_window, ANN, "use_items", {"items": ["tile_inversion"]}, "TILE_NOT_HELD"),
    (fm_final_window, BOB, "use_items", {"items": ["conceal"]}, "ITEM_NOT_USABLE_NOW"),
    (fm_final_window, ANN, "use_items", {"items": ["conceal"]}, "ITEM_NOT_HELD"),
    (fm_final_window_conceal_used, BOB, "use_items", {"items": ["conceal"]}, "ITEM_ALREADY_USED"),
    (fm_final_window_conceal_used, ANN, "use_items", {"items": ["conceal"]}, "ITEM_NOT_HELD"),
    (
        fm_final_window,
        BOB,
        "use_items",
        {"items": [{"item": "tile_inversion", "tile": "s1g1B"}]},  # ann's tile
        "TILE_NOT_HELD",
    ),
    (fm_final_window, ANN, "use_items", {"items": []}, "WRONG_PHASE"),
    (joust, ANN, "use_items", {"items": []}, "WRONG_PHASE"),
    # submit_tile: not held, then the cap, then already acted
    (joust_ann_acted, ANN, "submit_tile", {"tile": "s1g3G"}, "TILE_NOT_HELD"),
    (joust_ann_acted, ANN, "submit_tile", {"tile": "s1g1G"}, "TILE_NOT_HELD"),  # committed
    (joust_ann_acted, ANN, "submit_tile", {"tile": "s1g1B"}, "ALREADY_ACTED"),
    (joust_after_one, ANN, "submit_tile", {"tile": "s1g1M"}, "TILE_NOT_HELD"),  # spent
    (joust, ANN, "submit_tile", {"tile": "s2g1B"}, "TILE_NOT_HELD"),
    (joust, ANN, "submit_tile", {"tile": None}, "TILE_NOT_HELD"),
    (joust, ANN, "submit_tile", {"tile": {"id": "s1g1B"}}, "TILE_NOT_HELD"),
    (joust_at_cap, ANN, "submit_tile", {"tile": "s1g3G"}, "TILE_NOT_HELD"),
    (joust_at_cap, ANN, "submit_tile", {"tile": "s1g1B"}, "JOUST_TILE_LIMIT"),
    (dm, ANN, "submit_tile", {"tile": "s1g1B"}, "WRONG_PHASE"),
    # pass
    (joust_ann_acted, ANN, "pass", {}, "ALREADY_ACTED"),
    (joust_at_cap, ANN, "pass", {}, "ALREADY_ACTED"),
    (dm, ANN, "pass", {}, "WRONG_PHASE"),
    # timeout
    (dm, "host", "timeout", {"player": BOB}, "WRONG_PHASE"),
    (dm, "host", "timeout", {"player": "zed"}, "WRONG_PHASE"),
    (dm, "host", "timeout", {}, "WRONG_PHASE"),
    (joust_ann_acted, "host", "timeout", {"player": ANN}, "WRONG_PHASE"),
    (fm_window_ann_chose, "host", "timeout", {"player": ANN}, "WRONG_PHASE"),
    # after the end
    (over, ANN, "pass", {}, "WRONG_PHASE"),
    (over, "host", "timeout", {"player": ANN}, "WRONG_PHASE"),
]


@pytest.mark.parametrize(
    ("make", "actor", "name", "args", "code"),
    ROWS,
    ids=[f"{make.__name__}-{actor}-{name}-{code}" for make, actor, name, _, code in ROWS],
)
def test_each_rejection_has_its_code(make, actor, name, args, code):
    assert make().reject(actor, name, **args) == code


def test_every_code_of_the_rulings_is_in_the_table():
    codes = {row[-1] for row in ROWS}
    assert codes == {
        "NOT_A_PLAYER",
        "HOST_ONLY",
        "UNKNOWN_COMMAND",
        "NOT_YOUR_CHOICE",
        "UNKNOWN_ITEM",
        "NOT_YOUR_TURN",
        "INVALID_AMOUNT",
        "BID_NOT_ABOVE_CURRENT",
        "BID_EXCEEDS_CHIPS",
        "INVALID_TILE_CHOICE",
        "ALREADY_ACTED",
        "ITEM_NOT_HELD",
        "ITEM_ALREADY_USED",
        "ITEM_NOT_USABLE_NOW",
        "DUPLICATE_ITEM_USE",
        "TILE_NOT_HELD",
        "JOUST_TILE_LIMIT",
        "WRONG_PHASE",
    }


SETUPS: list[tuple[dict[str, Any], str]] = [
    ({"players": [ANN], "variant": "death_match", "dmo": ANN}, "players"),
    ({"players": [ANN, ANN], "variant": "death_match", "dmo": ANN}, "players"),
    ({"players": [ANN, "host"], "variant": "death_match", "dmo": ANN}, "players"),
    ({"players": PLAYERS, "variant": "death_match"}, "dmo"),
    ({"players": PLAYERS, "variant": "death_match", "dmo": "zed"}, "dmo"),
    ({"players": PLAYERS, "variant": "death_match", "dmo": ANN, "first_picker": ANN}, "items"),
    ({"players": PLAYERS, "variant": "deathmatch", "dmo": ANN}, "variant"),
    ({"players": PLAYERS, "variant": "death_match", "dmo": ANN, "chips": 5}, "chips"),
    ({"players": PLAYERS, "variant": "death_match", "dmo": ANN, "sets": 0}, "sets"),
    ({"players": PLAYERS, "variant": "death_match", "dmo": ANN, "sets": 100}, "sets"),
    # The log holds integers up to 2^53 - 1: a larger option could never be recorded.
    (
        {"players": PLAYERS, "variant": "death_match", "dmo": ANN, "starting_chips": 2**53},
        "starting_chips",
    ),
    ({"players": PLAYERS, "variant": "death_match", "dmo": ANN, "starting_chips": 90.0}, "chips"),
    ({"players": PLAYERS, "variant": "final_match"}, "first_picker"),
    ({"players": PLAYERS, "variant": "final_match", "first_picker": "zed"}, "first_picker"),
    ({"players": PLAYERS, "variant": "final_match", "dmo": ANN, "first_picker": ANN}, "dmo"),
    (
        {
            "players": PLAYERS,
            "variant": "final_match",
            "item_allocation": {ANN: ["equaliser", "conceal", "tile_inversion"], BOB: []},
        },
        "item_allocation",
    ),
    (
        {
            "players": PLAYERS,
            "variant": "final_match",
            "item_allocation": {ANN: ["equaliser"], BOB: ["equaliser", "conceal"]},
        },
        "item_allocation",
    ),
    (
        {
            "players": PLAYERS,
            "variant": "final_match",
            "first_picker": BOB,
            "item_allocation": {ANN: ["equaliser"], BOB: ["tile_inversion", "conceal"]},
        },
        "item_allocation",
    ),
    (
        {"players": PLAYERS, "variant": "death_match", "dmo": ANN, "orderings": [DM_SET_1[:12]]},
        "orderings",
    ),
    (
        {
            "players": PLAYERS,
            "variant": "final_match",
            "first_picker": ANN,
            "orderings": [DM_SET_1],
        },
        "orderings",
    ),
    (
        {"players": PLAYERS, "variant": "death_match", "dmo": ANN, "orderings": [DM_SET_1] * 4},
        "orderings",
    ),
]


@pytest.mark.parametrize(("setup", "named"), SETUPS)
def test_an_invalid_setup_is_refused_before_the_match_exists(setup, named):
    with pytest.raises(RuleViolation) as caught:
        parse_setup(tj, setup)
    assert caught.value.code == "INVALID_SETUP"  # the game's SETUP_ERROR
    assert named in caught.value.message
