"""The five houses' resources and what passed bills do to them (rulebook §3.2 and §7.2, MG-R2).

A house state is {house: {resource: value}}; values are integers that never go below 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.games.merchants_guild.guild import HOUSES, RESOURCES, STARTING_RESOURCE
from domain.games.merchants_guild.setup import Add, Bill, Effect, Set, Swap, Transfer

Houses = Mapping[str, Mapping[str, int]]


def opening_houses() -> dict[str, dict[str, int]]:
    return {house: dict.fromkeys(RESOURCES, STARTING_RESOURCE) for house in HOUSES}


def apply_bills(houses: Houses, bills: Iterable[Bill]) -> dict[str, dict[str, int]]:
    """Each bill's effects in listed order, the bills in the order given (ascending number)."""
    result = {house: dict(values) for house, values in houses.items()}
    for bill in bills:
        for effect in bill.effects:
            apply_effect(result, effect)
    return result


def apply_effect(houses: dict[str, dict[str, int]], effect: Effect) -> None:
    if isinstance(effect, Add):
        values = houses[effect.house]
        values[effect.resource] = max(0, values[effect.resource] + effect.amount)
    elif isinstance(effect, Transfer):
        moved = min(effect.amount, houses[effect.source][effect.resource])
        houses[effect.source][effect.resource] -= moved
        houses[effect.destination][effect.resource] += moved
    elif isinstance(effect, Swap):
        first, second = (houses[house] for house in effect.houses)
        first[effect.resource], second[effect.resource] = (
            second[effect.resource],
            first[effect.resource],
        )
    elif isinstance(effect, Set):
        houses[effect.house][effect.resource] = effect.value


def listed(houses: Houses) -> list[dict[str, Any]]:
    """The published form: one entry per house in canonical order (MG-R38)."""
    return [{"house": house, **{r: houses[house][r] for r in RESOURCES}} for house in HOUSES]


def from_listing(listing: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    return {entry["house"]: {r: entry[r] for r in RESOURCES} for entry in listing}
