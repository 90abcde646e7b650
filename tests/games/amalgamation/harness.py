"""A match at the decider level: decide, fold evolve, keep the season ledger the way the
framework would (garnet balances are passed back in Command.garnets).

The standard setup keeps hand-working easy: GT p1 > p2 > ... > p6, red p1 p2 p3 against white
p4 p5 p6, and round r auctions -5r+4 ... -5r in that order (round 1: -1 -2 -3 -4 -5).
"""

from __future__ import annotations

import copy
from collections import defaultdict
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from domain.decider import PUBLIC, Command, Event
from domain.errors import RuleViolation
from domain.games import amalgamation as am
from domain.rng import Rng

PLAYERS = [f"p{i}" for i in range(1, 7)]
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SCHEDULE = [[-(5 * r + i) for i in range(1, 6)] for r in range(7)]
STANDARD: dict[str, Any] = {
    "gamewide_tiebreak": PLAYERS,
    "default_teams": {"red": ["p1", "p2", "p3"], "white": ["p4", "p5", "p6"]},
    "tile_schedule": SCHEDULE,
}


class Match:
    def __init__(
        self,
        garnets: int | dict[str, int] = 0,
        seed: str = "test-seed",
        open_match: bool = True,
        close_pregame: bool = True,
        **setup: Any,
    ) -> None:
        self.setup = am.Setup(players=PLAYERS, **(STANDARD | setup))
        self.state = am.initial_state(self.setup, Rng(am.GAME_ID, seed))
        start = garnets if isinstance(garnets, dict) else dict.fromkeys(PLAYERS, garnets)
        self.garnets = {p: start.get(p, 0) for p in PLAYERS}
        self.ledger: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(PLAYERS, 0))
        self.log: list[Event] = []
        if open_match:
            self.host("open_match")
            if close_pregame:
                self.host("close_pregame")

    # Acting

    def do(self, actor: str, name: str, **args: Any) -> list[Event]:
        command = Command(name, actor, args, dict(self.garnets))
        events = am.decide(self.state, command)
        self.record(events)
        return events

    def record(self, events: list[Event]) -> None:
        """Fold events into the state, the season ledger and the log."""
        for event in events:
            self.state = am.evolve(self.state, event)
            for posting in event.postings:
                self.ledger[posting.asset][posting.player] += posting.amount
                if posting.asset == "garnets":
                    self.garnets[posting.player] += posting.amount
        self.log.extend(events)

    def host(self, name: str, **args: Any) -> list[Event]:
        return self.do("host", name, **args)

    def reject(self, actor: str, name: str, **args: Any) -> str:
        """The error code; also checks that a rejection leaves everything as it was."""
        before, log_size = copy.deepcopy(self.state), len(self.log)
        with pytest.raises(RuleViolation) as caught:
            self.do(actor, name, **args)
        assert self.state == before and len(self.log) == log_size
        return caught.value.code

    def submit(
        self,
        player: str,
        kd: int = 0,
        bids: list[int] | None = None,
        invest: int = 0,
        donate: int = 0,
        role: str = "beggar",
        bet: int = 0,
        garnets: int | None = None,
    ) -> list[Event]:
        """A round submission; `bids` in the round's tile order (default: 0 on each)."""
        return self.do(
            player, "submit_round", **round_args(self, kd, bids, invest, donate, role, bet, garnets)
        )

    def play_round(self, **submissions: dict[str, Any]) -> list[Event]:
        """Submit for the named players (the others are defaulted) and close the round."""
        for player, fields in submissions.items():
            self.submit(player, **fields)
        return self.host("close_round")

    def play_rounds(self, count: int, **submissions: dict[str, Any]) -> None:
        for _ in range(count):
            self.play_round(**submissions)

    # Reading

    @property
    def tiles(self) -> list[int]:
        return list(self.state.tiles)

    def seen_by(self, viewer: str) -> list[Event]:
        return [event for event in self.log if event.seen_by(viewer)]

    def public(self) -> list[Event]:
        return [event for event in self.log if event.audience == PUBLIC]

    def last(self, kind: str) -> Event:
        return self.all(kind)[-1]

    def all(self, kind: str) -> list[Event]:
        return [event for event in self.log if event.kind == kind]

    def ranking(self, subgame: str) -> list[str]:
        return list(self.state.rankings[subgame])


def round_args(
    match: Match,
    kd: int = 0,
    bids: list[int] | None = None,
    invest: int = 0,
    donate: int = 0,
    role: str = "beggar",
    bet: int = 0,
    garnets: int | None = None,
) -> dict[str, Any]:
    tiles = match.tiles
    given = bids if bids is not None else [0] * len(tiles)
    args: dict[str, Any] = {
        "round": match.state.round,
        "kd_contribution": kd,
        "ma_bids": {str(tile): bid for tile, bid in zip(tiles, given, strict=True)},
        "invest": invest,
        "donate": donate,
        "ct_role": role,
        "ct_bet": bet,
    }
    if garnets is not None:
        args["garnets_to_exchange"] = garnets
    return args


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]
