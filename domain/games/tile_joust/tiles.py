"""Tiles: values, colours, ids, the groups an ordering makes, and where a group starts.

A tile keeps its id for the whole match (rulebook section 2.2); its value and colour may change
once, through Tile Inversion, so both live in `Tile` and the state replaces the record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

FINAL = "final"  # the stage of the final joust; sets are numbered 1, 2, 3
REMAINING = "remaining"  # the points key of the remaining-tile points

MINUTE, BALANCE, GIANT = "M", "B", "G"
LABELS = (MINUTE, BALANCE, GIANT)  # smallest to largest, also the order of "the smaller label"
BLACK, WHITE = "BLACK", "WHITE"
LEFTOVER = "leftover"  # the group a leftover tile shows (TJ-R15)
GROUPS = 4
GROUP_SIZE = 3
AUCTIONED = GROUPS * GROUP_SIZE
INVERSION_BASE = 13  # Tile Inversion: X becomes 13 - X


@dataclass(frozen=True)
class Tile:
    set: int
    group: int | str  # 1..4, or LEFTOVER
    label: str | None  # M, B or G; None for a leftover
    value: int
    colour: str


def colour_of(value: int) -> str:
    return BLACK if value % 2 == 0 else WHITE


def grouped_id(set_number: int, group: int, label: str) -> str:
    return f"s{set_number}g{group}{label}"


def leftover_id(set_number: int, index: int) -> str:
    return f"s{set_number}x{index}"


def deal(set_number: int, ordering: Sequence[int]) -> dict[str, Tile]:
    """The tiles of one set: positions 1-3 group 1 ... 10-12 group 4, the rest leftovers;
    inside a group the labels follow the values."""
    tiles: dict[str, Tile] = {}
    for group in range(1, GROUPS + 1):
        triple = sorted(ordering[(group - 1) * GROUP_SIZE : group * GROUP_SIZE])
        for label, value in zip(LABELS, triple, strict=True):
            tile = Tile(set_number, group, label, value, colour_of(value))
            tiles[grouped_id(set_number, group, label)] = tile
    for index, value in enumerate(ordering[AUCTIONED:], start=1):
        tiles[leftover_id(set_number, index)] = Tile(
            set_number, LEFTOVER, None, value, colour_of(value)
        )
    return tiles


def leftovers_of(set_number: int, count: int) -> list[str]:
    return [leftover_id(set_number, index) for index in range(1, count + 1)]


@dataclass(frozen=True)
class GroupStart:
    """Which label opens group g >= 2, and why (rulebook section 7: nearest, ties to Balance)."""

    label: str
    reference: int
    distances: dict[str, int]
    tie: bool


def group_start(values: Mapping[str, int], reference: int) -> GroupStart:
    distances = {label: abs(values[label] - reference) for label in LABELS}
    nearest = min(distances.values())
    closest = [label for label in LABELS if distances[label] == nearest]
    tie = len(closest) > 1
    return GroupStart(BALANCE if tie else closest[0], reference, distances, tie)


def inverted(value: int) -> int:
    return INVERSION_BASE - value
