"""What a copy of a tiled log needs to grow, worked out from the signed sizes alone.

A copy published at the signed sizes up to `old` holds the full tiles of `old` and each
signed size's partial tiles (c2sp.org/tlog-tiles asks for those) but the ones a full tile
holds (the spec lets a log delete those: a client reads the full tile). To become the copy of
more signed sizes it needs the tiles it lacks, none it holds again, and the partial tiles a
new full tile now holds removed. Nothing is read to find what a copy holds: its last signed
size says it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from audit.tiles import HEIGHT, WIDTH, Tile


def partial_tiles(size: int) -> list[Tile]:
    """The partial tiles of the tree of `size`: one at each level whose count is not a
    multiple of 256, and the entry bundle beside level 0's."""
    tiles, level, count = [], 0, size
    while count:
        if count % WIDTH:
            tiles.append(Tile(level, count // WIDTH, count % WIDTH))
            if level == 0:
                tiles.append(Tile(None, count // WIDTH, count % WIDTH))
        level, count = level + 1, count >> HEIGHT
    return tiles


def full_tiles(size: int, after: int = 0) -> Iterator[Tile]:
    """The full tiles (and full entry bundles) of the tree of `size` that the tree of `after`
    lacks."""
    level = 0
    while size >> (HEIGHT * level) >= WIDTH:
        for index in range((after >> (HEIGHT * level)) // WIDTH,
                           (size >> (HEIGHT * level)) // WIDTH):
            yield Tile(level, index)
            if level == 0:
                yield Tile(None, index)
        level += 1


def superseded(tile: Tile, size: int) -> bool:
    """A partial tile the tree of `size` holds a full tile for."""
    return not tile.full and Tile(tile.level, tile.index).covered() <= size


def _partials(sizes: Iterable[int], size: int) -> dict[Tile, None]:
    """The partial tiles of the signed `sizes` a copy of the tree of `size` keeps, each once
    (in order: a dict as an ordered set)."""
    return {t: None for s in sizes for t in partial_tiles(s) if not superseded(t, size)}


@dataclass(frozen=True)
class Growth:
    """From the copy of one run of signed sizes to the copy of a longer run."""

    old: int  # the last signed size the copy holds (0: an empty copy)
    new: int  # the last signed size it is to hold
    write: list[Tile]  # the tiles it lacks
    remove: list[Tile]  # the partial tiles it holds that a new full tile holds
    kept: int  # the tiles it holds that stay as they are


def growth(published: Sequence[int], signed: Sequence[int]) -> Growth:
    """How the copy of the signed sizes `published` becomes the copy of `signed`, which
    begins with them."""
    if list(signed[:len(published)]) != list(published):
        raise ValueError("the signed sizes do not begin with the published ones")
    old = published[-1] if published else 0
    new = signed[-1] if signed else 0
    there = _partials(published, old)
    write = list(full_tiles(new, old))
    write += [t for t in _partials(signed[len(published):], new) if t not in there]
    remove = [t for t in there if superseded(t, new)]
    kept = sum(1 for _ in full_tiles(old)) + len(there) - len(remove)
    return Growth(old, new, write, remove, kept)
