"""Snake letter assignment for all Snake wagers of one deadline together (rules 6.6.1, TM-R17)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from domain.games.totemic_might.grid import LETTERS


@dataclass(frozen=True)
class SnakeDeal:
    assigned: Mapping[str, str | None]  # requester -> letter, None when no letter qualified
    bumped: tuple[str, ...]  # in rank order
    taken_after: tuple[str, ...]
    refreshes: int


def assign_letters(
    requests: Mapping[str, str],
    ranking: Sequence[str],
    taken: Iterable[str],
    received: Mapping[str, Sequence[str]],
) -> SnakeDeal:
    """`ranking`: every player, more garnets first, ties by the priority list."""
    before = set(taken)
    ranked = [player for player in ranking if player in requests]
    assigned: dict[str, str | None] = {}
    bumped: set[str] = set()
    for letter in LETTERS:  # the direct phase
        asking = [player for player in ranked if requests[player] == letter]
        free = [p for p in asking if letter not in before and letter not in received.get(p, ())]
        if free:
            assigned[free[0]] = letter
        bumped.update(player for player in asking if player not in free[:1])
    cycle = Cycle(before | {v for v in assigned.values() if v is not None}, assigned)
    cycle.refresh_if_full()
    for player in (p for p in ranked if p in bumped):  # the bump phase, in rank order
        found = next(
            (
                candidate
                for candidate in letters_from(requests[player])
                if candidate not in cycle.taken and candidate not in received.get(player, ())
            ),
            None,
        )
        assigned[player] = found
        if found is not None:
            cycle.taken.add(found)
            cycle.refresh_if_full()
    return SnakeDeal(
        assigned={player: assigned[player] for player in ranked},
        bumped=tuple(p for p in ranked if p in bumped),
        taken_after=tuple(sorted(cycle.taken)),
        refreshes=cycle.refreshes,
    )


class Cycle:
    """The letters taken in the current cycle; once all ten are taken, only the letters handed
    out at this deadline stay taken (a refresh)."""

    def __init__(self, taken: set[str], assigned: Mapping[str, str | None]) -> None:
        self.taken = taken
        self.assigned = assigned
        self.refreshes = 0

    def refresh_if_full(self) -> None:
        if len(self.taken) == len(LETTERS):
            self.taken = {letter for letter in self.assigned.values() if letter is not None}
            self.refreshes += 1


def letters_from(letter: str) -> list[str]:
    """All ten letters starting at `letter`, going up and wrapping from J to A."""
    start = LETTERS.index(letter)
    return [*LETTERS[start:], *LETTERS[:start]]
