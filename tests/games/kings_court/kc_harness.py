"""A match at the decider level: decide, fold evolve, keep the season ledger the way the
framework would (balances are passed back in Command.garnets)."""

from __future__ import annotations

from typing import Any

from domain.decider import PUBLIC, Event
from domain.games import kings_court as kc
from tests.support.deciders import DeciderMatch

PLAYERS = [f"p{i}" for i in range(1, 12)]

# The court used by most tests: King p11, Dukes p1-p5, Nobles p6-p10; p5 and p10 annoyed.
# The Judge therefore shows p5 as a noble and p10 as a duke.
LISTS = {
    "p1": ["p2", "p6", "p11"],
    "p2": ["p3", "p7", "p1"],
    "p3": ["p4", "p8", "p2"],
    "p4": ["p10", "p9", "p3"],
    "p5": ["p1", "p6", "p7"],
    "p6": ["p1", "p7", "p8"],
    "p7": ["p2", "p8", "p9"],
    "p8": ["p3", "p9", "p10"],
    "p9": ["p4", "p5", "p6"],
    "p10": ["p1", "p6", "p11"],
    "p11": ["p1", "p6", "p2"],
}


def role_set(
    king: str = "p11",
    dukes: tuple[str, ...] = ("p1", "p2", "p3", "p4", "p5"),
    nobles: tuple[str, ...] = ("p6", "p7", "p8", "p9", "p10"),
    annoyed_duke: str = "p5",
    annoyed_noble: str = "p10",
    lists: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    return {
        "king": king,
        "dukes": list(dukes),
        "nobles": list(nobles),
        "annoyed_duke": annoyed_duke,
        "annoyed_noble": annoyed_noble,
        "lists": LISTS if lists is None else lists,
    }


STANDARD = role_set()


class Match(DeciderMatch):
    game = kc

    def __init__(
        self,
        games: list[dict[str, Any]] | None = None,
        garnets: int | dict[str, int] = 10,
        seed: str = "test-seed",
        open_match: bool = True,
        **options: Any,
    ) -> None:
        setup = kc.Setup(players=PLAYERS, games=[STANDARD] if games is None else games, **options)
        start = garnets if isinstance(garnets, dict) else dict.fromkeys(PLAYERS, garnets)
        super().__init__(setup, seed, PLAYERS, start, open_match)

    def round(self, votes: dict[str, str]) -> list[Event]:
        """Cast the given votes and close the round."""
        for voter, candidate in votes.items():
            self.do(voter, "vote", candidate=candidate)
        return self.host("close_round")

    def elect(self, player: str) -> list[Event]:
        """One vote for `player` by the first other player outside the court (seat order)."""
        voter = next(p for p in self.state.outside() if p != player)
        return self.round({voter: player})

    # Reading

    @property
    def court(self) -> list[str]:
        return list(self.state.game.court)

    def seen_by(self, viewer: str) -> list[Event]:
        return [event for event in self.log if event.seen_by(viewer)]

    def public(self) -> list[Event]:
        return [event for event in self.log if event.audience == PUBLIC]

    def last(self, kind: str) -> Event:
        return [event for event in self.log if event.kind == kind][-1]

    def all(self, kind: str) -> list[Event]:
        return [event for event in self.log if event.kind == kind]


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]
