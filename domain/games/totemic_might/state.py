"""The state the decider folds. Frozen values only; `evolve` builds new ones. Players are always
listed in seat (setup) order; the host sees all of it, players see only what events told them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from domain.games.totemic_might.grid import trial_totems
from domain.games.totemic_might.setup import Setup, SnakeHint

NOT_STARTED = "not_started"
AUCTION = "auction"
FINAL_WEIGHING = "final_weighing"
FINAL_CHALLENGE = "final_challenge"
OVER = "over"

SNAKE, WOLF, BEAR, FOX = "snake", "wolf", "bear", "fox"


@dataclass(frozen=True)
class Balloon:
    id: str
    lift: int


@dataclass(frozen=True)
class Holdings:
    """A player's pieces: trial copies by type, spirit totems (starting one first), balloons."""

    trial: Mapping[str, int] = field(default_factory=dict)
    spirits: tuple[str, ...] = ()
    balloons: tuple[Balloon, ...] = ()

    def copies(self, totem: str) -> int:
        return self.trial.get(totem, 0)

    def balloon(self, balloon_id: str) -> Balloon | None:
        return next((b for b in self.balloons if b.id == balloon_id), None)


@dataclass(frozen=True)
class Wager:
    """A standing wager: Snake names a letter; the others name totems."""

    kind: str
    letter: str | None = None
    totems: tuple[str, ...] = ()
    fine: bool = False
    payment: str | None = None


@dataclass(frozen=True)
class Transfer:
    """An accepted gift or trade proposal, named by its proposer and number (TM-R40)."""

    proposer: str
    number: int
    kind: str  # "gift" or "trade"
    counterparty: str
    give: tuple[str, ...]  # one totem type per copy
    receive: tuple[str, ...] = ()

    def mirrors(self, other: Transfer) -> bool:
        return (
            self.kind == other.kind == "trade"
            and (other.proposer, other.counterparty) == (self.counterparty, self.proposer)
            and Counter(other.give) == Counter(self.receive)
            and Counter(other.receive) == Counter(self.give)
        )


Weighing = tuple[tuple[str, ...], tuple[str, ...]]  # (left tokens, right tokens)


@dataclass(frozen=True)
class Window:
    """What players submitted in the round now open; a new round starts a fresh one."""

    bets: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    orders: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    spirit_choice: str | None = None
    weighings: Mapping[str, tuple[Weighing, ...]] = field(default_factory=dict)
    wagers: Mapping[str, Wager] = field(default_factory=dict)
    transfers: tuple[Transfer, ...] = ()  # pending, in acceptance order
    transfer_numbers: Mapping[str, int] = field(default_factory=dict)

    def weighed(self, player: str) -> tuple[Weighing, ...]:
        return self.weighings.get(player, ())

    def used_copies(self, player: str) -> Counter[str]:
        """Per type, the most copies used in any one weighing this round (rules 6.4)."""
        used: Counter[str] = Counter()
        for left, right in self.weighed(player):
            in_this = Counter(trial_totems([*left, *right]))
            for totem, count in in_this.items():
                used[totem] = max(used[totem], count)
        return used

    def committed_copies(self, player: str) -> Counter[str]:
        """Copies locked by the player's pending outgoing gifts and trades."""
        return Counter(t for transfer in self.transfers if transfer.proposer == player
                       for t in transfer.give)


@dataclass(frozen=True)
class Challenge:
    """One player's final challenge: their piece list, attempts, marks and weight once
    balanced."""

    pieces: tuple[str, ...]
    attempts: int = 0
    marks: int = 0
    weight: int | None = None


@dataclass(frozen=True)
class State:
    setup: Setup
    seed: str
    phase: str = NOT_STARTED
    round: int = 0
    series: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # the open round's
    schedule: tuple[Mapping[str, tuple[str, ...]], ...] = ()  # every auction round's series
    weights: Mapping[str, int] = field(default_factory=dict)
    starting: Mapping[str, str] = field(default_factory=dict)
    initial_pool: tuple[str, ...] = ()
    pool: tuple[str, ...] = ()
    chips: Mapping[str, int] = field(default_factory=dict)
    priority: tuple[str, ...] = ()
    garnets_start: Mapping[str, int] = field(default_factory=dict)
    holdings: Mapping[str, Holdings] = field(default_factory=dict)
    owed: tuple[str, ...] = ()  # granted a spirit totem at the next deadline
    window: Window = field(default_factory=Window)
    snake_taken: tuple[str, ...] = ()
    snake_received: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    snake_uses: Mapping[str, int] = field(default_factory=dict)
    wagers_taken: Mapping[str, int] = field(default_factory=dict)
    challenge: Mapping[str, Challenge] = field(default_factory=dict)
    guesses: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    results: Mapping[str, object] | None = None

    @property
    def players(self) -> list[str]:
        return self.setup.players

    def held(self, player: str) -> Holdings:
        return self.holdings.get(player, Holdings())

    def lone_owed(self) -> str | None:
        """The one player owed a spirit totem, who chooses it; None for none or a group."""
        return self.owed[0] if len(self.owed) == 1 else None

    def hint(self, letter: str) -> SnakeHint:
        return next(h for h in self.setup.snake_hints if h.letter == letter)
