"""Every seeded draw of rules 2.4, with exactly its labels. Whatever the host fixed in the setup
is used as given; the seed derives only the rest. Draws happen in `decide` and are recorded in
events; `evolve` never draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.games.totemic_might.grid import TOTEMS, canonical
from domain.games.totemic_might.setup import POOL_SIZE, SERIES_SIZE, Setup
from domain.rng import Rng

GAME_ID = "totemic_might"
WOLF_LIFTS = (1, 2)
FOX_LIFTS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class Draw:
    """One draw made during play: its test key, the options in rule order, the outcome, and
    whether the host pinned it in the setup (`Setup.draws`)."""

    key: str
    candidates: tuple[Any, ...]
    outcome: Any
    pinned: bool

    def record(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "candidates": list(self.candidates),
            "outcome": self.outcome,
            "pinned": self.pinned,
        }


def draw(setup: Setup, seed: str, options: Sequence[Any], label: str, *parts: object) -> Draw:
    """A choice among `options` keyed `label|parts...`: the host's pin if it is one of the
    options at this moment, else `options[H(label, parts...) mod n]`."""
    key = "|".join([label, *(str(part) for part in parts)])
    pin = setup.draws.get(key)
    if pin is not None and pin in options:
        return Draw(key, tuple(options), pin, True)
    return Draw(key, tuple(options), Rng(GAME_ID, seed).choice(options, label, *parts), False)


# Setup (rules 2.3)


def weights(setup: Setup, rng: Rng) -> dict[str, int]:
    """The k-th totem of the `weights` order weighs k."""
    if setup.weights is not None:
        return dict(setup.weights)
    ordered = rng.order(TOTEMS, "weights")
    return {totem: ordered.index(totem) + 1 for totem in TOTEMS}


def starting_totems(setup: Setup, rng: Rng) -> dict[str, str]:
    """The i-th totem of the `starting` order goes to the i-th player in setup order."""
    if setup.starting_totems is not None:
        return dict(setup.starting_totems)
    chosen = rng.subset(TOTEMS, len(setup.players), "starting")
    return dict(zip(setup.players, chosen, strict=True))


def spirit_pool(setup: Setup, rng: Rng, starting: dict[str, str]) -> list[str]:
    """Ten of the thirteen totems that are nobody's starting totem, in canonical order."""
    if setup.spirit_pool is not None:
        return canonical(setup.spirit_pool)
    others = [totem for totem in TOTEMS if totem not in starting.values()]
    return canonical(rng.subset(others, POOL_SIZE, "pool"))


def series(setup: Setup, rng: Rng, round_number: int) -> dict[str, list[str]]:
    """Round r's series: the host's if given, else the first five and next five of the order
    `series|r`."""
    if round_number <= len(setup.series):
        pair = setup.series[round_number - 1]
        return {"A": list(pair.A), "B": list(pair.B)}
    ordered = rng.order(TOTEMS, "series", round_number)
    return {"A": ordered[:SERIES_SIZE], "B": ordered[SERIES_SIZE : 2 * SERIES_SIZE]}
