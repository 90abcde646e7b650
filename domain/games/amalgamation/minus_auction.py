"""Minus Auction (rulebook 6.2): tiles to the smallest bid, the MA order, dry rounds, streaks."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

PENALTY = 20
DRY_LIMIT = 2  # rounds without a tile that cost one penalty (AM-R18)


@dataclass(frozen=True)
class TileAward:
    tile: int
    winner: str
    lowest_bid: int
    tied: tuple[str, ...]  # everyone at the lowest bid, in MA order (one: no tie)
    moved_to_end: bool
    order_after: tuple[str, ...]


def award_tile(
    tile: int, bids: Mapping[str, int], order: Sequence[str], every_winner_moves: bool
) -> TileAward:
    """The numerically smallest bid takes the tile (AM-R15); a tie goes to the one nearest the
    front of the order, who then moves to the back (AM-R16, or every winner with the variant)."""
    lowest = min(bids.values())
    tied = tuple(p for p in order if bids[p] == lowest)
    winner = tied[0]
    moves = len(tied) > 1 or every_winner_moves
    after = (*(p for p in order if p != winner), winner) if moves else tuple(order)
    return TileAward(tile, winner, lowest, tied, moves, after)


def dry_rounds_after(dry: Mapping[str, int], took_a_tile: Mapping[str, bool]) -> dict[str, int]:
    """Step P's counter before the penalty resets it: a tile resets it, else it grows."""
    return {p: 0 if took_a_tile[p] else dry[p] + 1 for p in dry}


def streaks(tiles: Sequence[int]) -> list[list[int]]:
    """Maximal runs of consecutive values, each nearest zero first: -16 -17 -18, then -21."""
    runs: list[list[int]] = []
    for tile in sorted(tiles, reverse=True):
        if runs and runs[-1][-1] == tile + 1:
            runs[-1].append(tile)
        else:
            runs.append([tile])
    return runs


def score(tiles: Sequence[int], per_tile: bool) -> int:
    """Each streak is worth its value nearest zero, once (AM-R19), or once per tile of it."""
    return sum(run[0] * (len(run) if per_tile else 1) for run in streaks(tiles))


def ranking(
    players: Sequence[str],
    scores: Mapping[str, int],
    spent: Mapping[str, int],
    gt_place: Callable[[str], int],
) -> list[str]:
    """Score descending (nearest zero first), then more money bid, then higher in the GT."""
    return sorted(players, key=lambda p: (-scores[p], -spent[p], gt_place(p)))
