"""A match at the decider level: decide, fold evolve, keep the log; helpers to sell tiles and
play jousts in a line or two. Players: ann (seat 1) and bob (seat 2)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from domain.decider import PUBLIC, Command, Event
from domain.errors import RuleViolation
from domain.games import tile_joust as tj
from domain.games.tile_joust.state import BIDDING, NEXT_TILE
from domain.rng import Rng

ANN, BOB = "ann", "bob"
PLAYERS = [ANN, BOB]

# DM set orderings worked by hand in the tests.
# Set 1: g1 {2 B, 5 W, 9 W}  g2 {1 W, 7 W, 13 W}  g3 {4 B, 10 B, 12 B}  g4 {3 W, 6 B, 11 W}  x1 8
# With every next-tile choice left to its default the auctions run:
#   g1 B5 M2 G9 | g2 (nearest 9: B7) B7 M1 G13 | g3 (nearest 13: G12) G12 M4 B10
#   | g4 (nearest 10: G11) G11 M3 B6
DM_SET_1 = [5, 9, 2, 13, 1, 7, 4, 12, 10, 3, 11, 6, 8]
DM_ORDER_1 = [
    "s1g1B", "s1g1M", "s1g1G", "s1g2B", "s1g2M", "s1g2G",
    "s1g3G", "s1g3M", "s1g3B", "s1g4G", "s1g4M", "s1g4B",
]  # fmt: skip
# Set 2: g1 {1, 6, 11}  g2 {3, 8, 13}  g3 {2, 7, 12}  g4 {4, 9, 10}  x1 5
# Defaults: g1 B6 M1 G11 | g2 nearest 11: G13 (2) vs B8 (3): G13, M3, B8
#   | g3 nearest 8: B7 (1) vs ... : B7 M2 G12 | g4 nearest 12: G10 (2): G10 M4 B9
DM_SET_2 = [11, 1, 6, 13, 3, 8, 12, 2, 7, 9, 10, 4, 5]
DM_ORDER_2 = [
    "s2g1B", "s2g1M", "s2g1G", "s2g2G", "s2g2M", "s2g2B",
    "s2g3B", "s2g3M", "s2g3G", "s2g4G", "s2g4M", "s2g4B",
]  # fmt: skip
DM_SET_3 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
# Set 3: g1 {1,2,3} g2 {4,5,6} g3 {7,8,9} g4 {10,11,12} x1 13. Defaults:
#   g1 B2 M1 G3 | g2 nearest 3: M4 then B5 G6 | g3 nearest 6: M7 B8 G9 | g4 nearest 9: M10 B11 G12
DM_ORDER_3 = [
    "s3g1B", "s3g1M", "s3g1G", "s3g2M", "s3g2B", "s3g2G",
    "s3g3M", "s3g3B", "s3g3G", "s3g4M", "s3g4B", "s3g4G",
]  # fmt: skip
DM_ORDERINGS = [DM_SET_1, DM_SET_2, DM_SET_3]

# FM set 1: g1 {0 B, 6 B, 13 W}  g2 {2 B, 5 W, 9 W}  g3 {1 W, 8 B, 12 B}  g4 {3 W, 7 W, 11 W}
# leftovers x1 = 4, x2 = 10. Defaults: g1 B6 M0 G13 | g2 nearest 13: G9 M2 B5
#   | g3 nearest 5: B8 (3) vs M1 (4): B8 M1 G12 | g4 nearest 12: G11 M3 B7
FM_SET_1 = [13, 0, 6, 5, 9, 2, 12, 1, 8, 7, 3, 11, 4, 10]
FM_ORDER_1 = [
    "s1g1B", "s1g1M", "s1g1G", "s1g2G", "s1g2M", "s1g2B",
    "s1g3B", "s1g3M", "s1g3G", "s1g4G", "s1g4M", "s1g4B",
]  # fmt: skip
FM_SET_2 = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
FM_SET_3 = [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
FM_ORDERINGS = [FM_SET_1, FM_SET_2, FM_SET_3]


def setup(variant: str = "death_match", **options: Any) -> tj.Setup:
    """The hand-worked orderings (as many as there are sets), DMO ann or first picker ann."""
    sets = options.get("sets", 3)
    if variant == "death_match":
        options = {"dmo": ANN, "orderings": DM_ORDERINGS[:sets], **options}
    elif "item_allocation" not in options:
        options = {"first_picker": ANN, "orderings": FM_ORDERINGS[:sets], **options}
    else:
        options = {"orderings": FM_ORDERINGS[:sets], **options}
    return tj.Setup(players=PLAYERS, variant=variant, **options)


class Match:
    def __init__(
        self,
        variant: str = "death_match",
        seed: str = "test-seed",
        open_match: bool = True,
        **options: Any,
    ) -> None:
        self.setup = setup(variant, **options)
        self.state = tj.initial_state(self.setup, Rng(tj.GAME_ID, seed))
        self.log: list[Event] = []
        if open_match:
            self.host("open_match")

    # Acting

    def do(self, actor: str, name: str, **args: Any) -> list[Event]:
        events = tj.decide(self.state, Command(name, actor, args))
        for event in events:
            self.state = tj.evolve(self.state, event)
        self.log.extend(events)
        return events

    def host(self, name: str, **args: Any) -> list[Event]:
        return self.do("host", name, **args)

    def timeout(self, player: str) -> list[Event]:
        return self.host("timeout", player=player)

    def reject(self, actor: str, name: str, **args: Any) -> str:
        """The error code; also checks that a rejection leaves the state as it was."""
        before = copy.deepcopy(self.state)
        with pytest.raises(RuleViolation) as caught:
            self.do(actor, name, **args)
        assert self.state == before
        return caught.value.code

    def sell(self, winner: str, price: int = 0) -> None:
        """The open auction goes to `winner` for `price`: the winner bids it and the other
        folds; when the other opens, they fold at once (price 0) or open one chip lower."""
        auction = self.state.auction
        assert self.state.phase == BIDDING and auction is not None
        loser = next(p for p in PLAYERS if p != winner)
        if auction.to_act == loser and price > 0:
            self.do(loser, "bid", amount=price - 1)
        if self.state.auction.to_act == winner:
            self.do(winner, "bid", amount=price)
        if self.state.phase == BIDDING:
            self.do(loser, "fold")

    def sell_all(self, winners: list[str], prices: list[int] | None = None) -> None:
        """Sell the next auctions in turn; next-tile choices are left to their default."""
        for index, winner in enumerate(winners):
            self.sell(winner, prices[index] if prices else 0)
            if self.state.phase == NEXT_TILE:
                self.timeout(self.state.chooser)

    def skip_window(self) -> None:
        """Every player who still owes an item decision times out (uses nothing)."""
        while self.state.phase == "item_window":
            self.timeout(self.state.window.undecided()[0])

    def commit(self, player: str, tile: str) -> list[Event]:
        return self.do(player, "submit_tile", tile=tile)

    def pass_(self, player: str) -> list[Event]:
        return self.do(player, "pass")

    def step(self, ann: str | None, bob: str | None) -> list[Event]:
        """One joust step: each eligible player commits the tile given, or passes (None)."""
        events: list[Event] = []
        for player, tile in ((ANN, ann), (BOB, bob)):
            joust = self.state.joust
            if joust is not None and player in joust.to_act:
                act = self.commit(player, tile) if tile else self.pass_(player)
                events.extend(act)
        return events

    # Reading

    def seen_by(self, viewer: str) -> list[Event]:
        return [event for event in self.log if event.seen_by(viewer)]

    def public(self) -> list[Event]:
        return [event for event in self.log if event.audience == PUBLIC]

    def last(self, kind: str) -> Event:
        return [event for event in self.log if event.kind == kind][-1]

    def all(self, kind: str) -> list[Event]:
        return [event for event in self.log if event.kind == kind]

    def hand(self, player: str) -> list[str]:
        return list(self.state.hand(player))


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]
