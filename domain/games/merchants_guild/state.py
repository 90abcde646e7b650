"""The state the decider folds. Frozen values only: `evolve` builds new ones and `decide` reads.

`week` is 0 before the opening, then the week now open (1..8); `over` once the week-8
deadline has run the settlement. Per-week submissions are cleared when the next ballot opens.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.games.merchants_guild.setup import Bill, Setup


@dataclass(frozen=True)
class Investigation:
    target: str
    houses: tuple[str, ...]  # in the order named


@dataclass(frozen=True)
class State:
    setup: Setup
    seed: str
    week: int = 0
    over: bool = False
    # Fixed at the opening (host only).
    partners: Mapping[int, int] = field(default_factory=dict)
    alignments: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Public.
    houses: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    ballot: tuple[tuple[int, int], ...] = ()  # listed [lower, higher], by lower (MG-R7)
    presented: frozenset[int] = frozenset()
    passed: tuple[tuple[int, ...], ...] = ()  # per resolved week
    # Hidden, carried across weeks.
    priorities: Mapping[int, int] = field(default_factory=dict)  # non-zero ones only
    known_partners: Mapping[str, frozenset[int]] = field(default_factory=dict)
    pass_counts: Mapping[str, int] = field(default_factory=dict)
    spent: Mapping[str, int] = field(default_factory=dict)  # garnets spent in this match
    rights: frozenset[tuple[str, str]] = frozenset()  # (investigator, target)
    blackmails: tuple[tuple[str, str], ...] = ()  # registered (blackmailer, target)
    # This week's submissions; the latest accepted one counts.
    votes: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    nominations: Mapping[str, tuple[int, str]] = field(default_factory=dict)  # (bill, direction)
    pushes: Mapping[str, tuple[int, str]] = field(default_factory=dict)
    lookups: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    investigations: Mapping[str, Investigation] = field(default_factory=dict)  # the free ones
    extras: Mapping[str, tuple[Investigation, ...]] = field(default_factory=dict)
    decisions: Mapping[str, Mapping[str, bool]] = field(default_factory=dict)  # who -> target
    settlement: Mapping[str, Any] | None = None  # the public MatchSettled payload

    @property
    def players(self) -> list[str]:
        return self.setup.players

    def bill(self, number: int) -> Bill:
        return next(bill for bill in self.setup.bills if bill.number == number)

    def on_ballot(self) -> list[int]:
        return [bill for pair in self.ballot for bill in pair]

    def priority(self, bill: int) -> int:
        return self.priorities.get(bill, 0)

    def is_open(self) -> bool:
        return self.week > 0 and not self.over
