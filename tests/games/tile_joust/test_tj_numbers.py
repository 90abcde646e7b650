"""Floats and huge integers meet the rules' own codes (docs/games/tile_joust.md, section 5),
through the real match aggregate: the rules see a command before the log's JSON check, and a
refused command records nothing.

`bid` has the one integer argument (`amount`: INVALID_AMOUNT for anything but a whole number
of chips, 0 or more). Every other argument names something (an item, a label, a tile, a
player); a number there names nothing, and gets the code the rules give for an invalid value
of that argument. The actors' checks still come first."""

from __future__ import annotations

from copy import deepcopy
from typing import Any

import pytest

from domain.decider import HOST, Command
from domain.errors import RuleViolation
from domain.match import Match
from tests.games.tile_joust.tj_seeds import DM_SEED, FM_SEED, before, played

FLOATS = [2.0, 0.5, -1.5, 1e300, float("inf")]
HUGE = [2**53, 2**64, -(2**64)]


def dm_first_bid() -> Match:
    """Set 1's first auction: mira (the DMO) to open, 90 chips each."""
    return played(DM_SEED, before("bid"))


def dm_next_tile() -> Match:
    """theo bought s1g1B and chooses the next label."""
    return played(DM_SEED, before("choose_next_tile"))


def dm_joust() -> Match:
    """Set 1, joust 1, step 1: both to act."""
    return played(DM_SEED, before("submit_tile"))


def fm_pick() -> Match:
    """penzo, the first picker, to pick."""
    return played(FM_SEED, before("pick_item"))


def fm_leftover() -> Match:
    """7-5 after set 1's auctions: jkitty sees x1 and x2 and keeps one."""
    return played(FM_SEED, before("keep_leftover"))


def fm_window() -> Match:
    """Set 1's item window: penzo (Tile Inversion, holds s1g1M) and jkitty (Conceal)."""
    return played(FM_SEED, before("use_items"))


Row = tuple[Any, str, str, dict[str, Any], str]


def rows() -> list[Row]:
    table: list[Row] = []
    for number in FLOATS:
        table += [
            (dm_first_bid, "mira", "bid", {"amount": number}, "INVALID_AMOUNT"),
            (dm_first_bid, "theo", "bid", {"amount": number}, "NOT_YOUR_TURN"),
            (dm_next_tile, "theo", "choose_next_tile", {"label": number}, "INVALID_TILE_CHOICE"),
            (dm_next_tile, "mira", "choose_next_tile", {"label": number}, "NOT_YOUR_CHOICE"),
            (dm_joust, "mira", "submit_tile", {"tile": number}, "TILE_NOT_HELD"),
            (dm_joust, HOST, "timeout", {"player": number}, "WRONG_PHASE"),
            (fm_pick, "penzo", "pick_item", {"item": number}, "UNKNOWN_ITEM"),
            (fm_pick, "jkitty", "pick_item", {"item": number}, "NOT_YOUR_CHOICE"),
            (fm_leftover, "jkitty", "keep_leftover", {"tile": number}, "INVALID_TILE_CHOICE"),
            (fm_leftover, "penzo", "keep_leftover", {"tile": number}, "NOT_YOUR_CHOICE"),
            (fm_window, "penzo", "use_items", {"items": number}, "UNKNOWN_ITEM"),
            (fm_window, "penzo", "use_items", {"items": [number]}, "UNKNOWN_ITEM"),
            (fm_window, "penzo", "use_items", {"items": [{"item": number}]}, "UNKNOWN_ITEM"),
            (
                fm_window,
                "penzo",
                "use_items",
                {"items": [{"item": "tile_inversion", "tile": number}]},
                "TILE_NOT_HELD",
            ),
            (
                fm_window,
                "penzo",
                "use_items",
                {"items": [{"item": "tile_inversion", "tile": "s1g1M"}, number]},
                "UNKNOWN_ITEM",  # the uses in list order: the second one names no item
            ),
        ]
    for number in HUGE:
        # A whole number: above the bidder's 90 chips, or below 0.
        code = "INVALID_AMOUNT" if number < 0 else "BID_EXCEEDS_CHIPS"
        table += [
            (dm_first_bid, "mira", "bid", {"amount": number}, code),
            (dm_next_tile, "theo", "choose_next_tile", {"label": number}, "INVALID_TILE_CHOICE"),
            (dm_joust, "theo", "submit_tile", {"tile": number}, "TILE_NOT_HELD"),
            (dm_joust, HOST, "timeout", {"player": number}, "WRONG_PHASE"),
            (fm_pick, "penzo", "pick_item", {"item": number}, "UNKNOWN_ITEM"),
            (fm_leftover, "jkitty", "keep_leftover", {"tile": number}, "INVALID_TILE_CHOICE"),
            (
                fm_window,
                "penzo",
                "use_items",
                {"items": [{"item": "tile_inversion", "tile": number}]},
                "TILE_NOT_HELD",
            ),
        ]
    # Numbers of other shapes that are still no whole number of chips.
    table += [
        (dm_first_bid, "mira", "bid", {"amount": "5"}, "INVALID_AMOUNT"),
        (dm_first_bid, "mira", "bid", {"amount": True}, "INVALID_AMOUNT"),
        (dm_first_bid, "mira", "bid", {"amount": [5]}, "INVALID_AMOUNT"),
        (dm_first_bid, "mira", "bid", {"amount": {"chips": 5}}, "INVALID_AMOUNT"),
        (dm_first_bid, "mira", "bid", {"amount": 91}, "BID_EXCEEDS_CHIPS"),
    ]
    return table


ROWS = rows()


def refused(match: Match, actor: str, name: str, args: dict[str, Any]) -> str:
    """The code; the match records nothing and its state is as it was."""
    version, records, state = match.version, len(match.records), deepcopy(match.state)
    with pytest.raises(RuleViolation) as caught:
        match.handle(Command(name, actor, args))
    assert (match.version, len(match.records)) == (version, records)
    assert match.state == state
    return caught.value.code


@pytest.mark.parametrize(
    ("make", "actor", "name", "args", "code"),
    ROWS,
    ids=[f"{make.__name__}-{actor}-{name}-{args}" for make, actor, name, args, _ in ROWS],
)
def test_a_number_the_rules_do_not_take_gets_their_code_and_records_nothing(
    make, actor, name, args, code
):
    assert refused(make(), actor, name, args) == code


def test_the_same_commands_with_sound_arguments_are_accepted():
    """The table's moments are the right ones: the seed's own commands go through there."""
    sound = [
        (dm_first_bid, "mira", "bid", {"amount": 4}),
        (dm_next_tile, "theo", "choose_next_tile", {"label": "G"}),
        (dm_joust, "mira", "submit_tile", {"tile": "s1g1G"}),
        (dm_joust, HOST, "timeout", {"player": "theo"}),
        (fm_pick, "penzo", "pick_item", {"item": "tile_inversion"}),
        (fm_leftover, "jkitty", "keep_leftover", {"tile": "s1x2"}),
        (fm_window, "penzo", "use_items", {"items": [{"item": "tile_inversion", "tile": "s1g1M"}]}),
    ]
    for make, actor, name, args in sound:
        match = make()
        assert match.handle(Command(name, actor, args)), (name, args)


def test_an_argument_a_command_does_not_take_is_refused_and_records_nothing():
    """`fold` and `pass` take no argument: the match's edge refuses one before the rules."""
    assert refused(dm_first_bid(), "mira", "fold", {"amount": 2.5}) == "unknown_argument"
    assert refused(dm_joust(), "mira", "pass", {"step": 1e300}) == "unknown_argument"
