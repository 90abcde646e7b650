"""The one seeded-randomness recipe of docs/games/randomness.md.

H(part1, ...) = int(SHA-256(UTF-8(game_id | seed | part1 | ...)), big-endian).
Every random draw of every game goes through `Rng`; nothing in domain/ uses `random`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")


def seed_commitment(host_seed: str) -> str:
    return hashlib.sha256(host_seed.encode()).hexdigest()


def match_seed(host_seed: str, contributions: Sequence[str | None]) -> str:
    """The match seed: host_seed alone, or mixed with the players' contributions in roster order."""
    if not any(c is not None for c in contributions):
        return host_seed
    joined = "|".join([host_seed, *(c or "" for c in contributions)])
    return hashlib.sha256(joined.encode()).hexdigest()


class Rng:
    """Draws keyed by (game_id, seed, label, parts): each label is an independent stream."""

    def __init__(self, game_id: str, seed: str) -> None:
        self.game_id = game_id
        self.seed = seed

    def h(self, *parts: object) -> int:
        text = "|".join([self.game_id, self.seed, *(str(p) for p in parts)])
        return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")

    def order(self, items: Iterable[T], *label: object) -> list[T]:
        """A random order: items sorted by (H(label..., item), item)."""
        return sorted(items, key=lambda item: (self.h(*label, item), item))

    def choice(self, options: Sequence[T], *label: object) -> T:
        """options[H(label...) mod n], options in the order the rules list them."""
        if not options:
            raise ValueError("choice from no options")
        return options[self.h(*label) % len(options)]

    def subset(self, items: Iterable[T], k: int, *label: object) -> list[T]:
        """The first k items of a random order."""
        return self.order(items, *label)[:k]
