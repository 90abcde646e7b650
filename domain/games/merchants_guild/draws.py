"""The two seeded draws of rulebook §3.5, with exactly their labels; used only for what the host
left out of the setup. Draws run at `open_match` and are recorded in a host-only event;
`evolve` never draws."""

from __future__ import annotations

from domain.games.merchants_guild.guild import BILL_NUMBERS, COMBINATIONS, GAME_ID, HOUSES
from domain.games.merchants_guild.setup import Setup
from domain.rng import Rng


def alignments(setup: Setup, seed: str) -> dict[str, list[str]]:
    """Player -> 3 houses in canonical order: the host's, else a uniformly random bijection
    onto the combinations (players ordered by (H("alignment", id), id))."""
    if setup.alignments is not None:
        return {
            player: [house for house in HOUSES if house in setup.alignments[player]]
            for player in setup.players
        }
    order = Rng(GAME_ID, seed).order(setup.players, "alignment")
    drawn = dict(zip(order, COMBINATIONS, strict=True))
    return {player: list(drawn[player]) for player in setup.players}


def pairs(setup: Setup, seed: str) -> list[list[int]]:
    """The 30 pairs as [lower, higher] by ascending lower number: the host's, else the bills
    ordered by (H("pairs", n), n) and paired off first with second, third with fourth, ..."""
    if setup.pairs is not None:
        found = [sorted(pair) for pair in setup.pairs]
    else:
        order = Rng(GAME_ID, seed).order(BILL_NUMBERS, "pairs")
        found = [sorted(order[i : i + 2]) for i in range(0, len(order), 2)]
    return sorted(found)
