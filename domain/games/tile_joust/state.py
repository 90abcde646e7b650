"""The state the decider folds. Frozen values only; `evolve` builds new ones.

`phase` names what the match waits for. Blocking phases wait for a player (or a timeout);
the others are passed through by `flow.advance` inside the command that reached them.
Players are always listed in seat order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from domain.games.tile_joust.setup import Setup
from domain.games.tile_joust.tiles import FINAL, Tile

# Blocking: a player decides.
NOT_STARTED = "not_started"
ITEM_PICK = "item_pick"
BIDDING = "bidding"  # passed through at once when the player to act cannot raise
NEXT_TILE = "next_tile"
LEFTOVER_CHOICE = "leftover_choice"
ITEM_WINDOW = "item_window"  # passed through once every pending player has decided
JOUST_STEP = "joust_step"  # passed through once every eligible player has acted
OVER = "over"
# Passed through by flow.advance.
BETWEEN_SETS = "between_sets"
SOLD = "sold"
BETWEEN_AUCTIONS = "between_auctions"
AUCTIONS_DONE = "auctions_done"
JOUST_PHASE_START = "joust_phase_start"
BEFORE_JOUST = "before_joust"



@dataclass(frozen=True)
class Auction:
    group: int
    label: str
    tile: str
    opener: str
    to_act: str
    high_bid: int | None = None
    high_bidder: str | None = None
    folder: str | None = None


@dataclass(frozen=True)
class Group:
    number: int
    sold: tuple[str, ...] = ()  # labels in auction order
    next_label: str | None = None  # the first auction's winner's choice


@dataclass(frozen=True)
class Use:
    item: str
    tile: str | None = None  # the tile of a Tile Inversion


@dataclass(frozen=True)
class ItemWindow:
    pending: tuple[str, ...]  # who holds an unused item usable now
    choices: Mapping[str, tuple[Use, ...]] = field(default_factory=dict)

    def undecided(self) -> list[str]:
        return [player for player in self.pending if player not in self.choices]


@dataclass(frozen=True)
class Joust:
    number: int
    step: int = 0
    committed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # commit order
    to_act: tuple[str, ...] = ()  # eligible players who have not acted in this step
    step_tiles: Mapping[str, str | None] = field(default_factory=dict)  # this step: tile/pass

    def count(self, player: str) -> int:
        return len(self.committed.get(player, ()))


@dataclass(frozen=True)
class Result:
    winner: str
    loser: str
    decided_by_tiebreak: bool
    reason: str  # how the final joust ended: pool_empty or empty_joust


@dataclass(frozen=True)
class State:
    setup: Setup
    seed: str
    phase: str = NOT_STARTED
    round: int = 0
    stage: int | str = 0  # the set being played (0 before set 1), or FINAL
    tiles: Mapping[str, Tile] = field(default_factory=dict)  # the truth, host knowledge
    orderings: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    chips: Mapping[str, int] = field(default_factory=dict)
    points: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # player -> stage
    hands: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # set hand / final pool
    stored: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    spent: tuple[str, ...] = ()
    discarded: tuple[str, ...] = ()
    starter: str | None = None
    first_picker: str | None = None
    items: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    used_items: tuple[str, ...] = ()
    last_winner: str | None = None
    group: Group | None = None
    auction: Auction | None = None
    chooser: str | None = None  # of the next tile or of the FM leftovers
    window: ItemWindow | None = None
    concealer: str | None = None  # who used Conceal in this set's joust phase
    joust: Joust | None = None
    jousts_run: int = 0  # in this joust phase (a set's, or the final joust)
    result: Result | None = None

    @property
    def players(self) -> list[str]:
        return self.setup.players

    def other(self, player: str) -> str:
        first, second = self.players
        return second if player == first else first

    def hand(self, player: str) -> tuple[str, ...]:
        return self.hands.get(player, ())

    def total(self, player: str) -> int:
        return sum(self.points.get(player, {}).values())

    def totals(self) -> dict[str, int]:
        return {player: self.total(player) for player in self.players}

    def hand_counts(self) -> dict[str, int]:
        return {player: len(self.hand(player)) for player in self.players}

    def in_final(self) -> bool:
        return self.stage == FINAL

    def set_number(self) -> int:
        assert isinstance(self.stage, int), "the final joust is no set"
        return self.stage

    def current_auction(self) -> Auction:
        assert self.auction is not None, "no auction outside the bidding"
        return self.auction

    def current_group(self) -> Group:
        assert self.group is not None, "no group before the first auction"
        return self.group

    def current_window(self) -> ItemWindow:
        assert self.window is not None, "no item window open"
        return self.window

    def current_joust(self) -> Joust:
        assert self.joust is not None, "no joust running"
        return self.joust
