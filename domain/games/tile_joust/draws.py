"""The one seeded draw (rulebook section 3.3): each set's ordering, label `ordering` and the set.

An ordering the host gave is used as given; the seed derives only the sets left out.
"""

from __future__ import annotations

from domain.games.tile_joust.setup import Setup
from domain.rng import Rng

GAME_ID = "tile_joust"


def set_ordering(setup: Setup, seed: str, set_number: int) -> list[int]:
    """The host's ordering of the set, else the values sorted by (H("ordering", s, v), v)."""
    if set_number <= len(setup.orderings):
        return list(setup.orderings[set_number - 1])
    return Rng(GAME_ID, seed).order(setup.tile_values(), "ordering", set_number)


def all_orderings(setup: Setup, seed: str) -> dict[str, list[int]]:
    """Every set's ordering, keyed by the set number as text (JSON object keys)."""
    return {str(number): set_ordering(setup, seed, number) for number in range(1, setup.sets + 1)}
