"""One command's work in progress: the events so far, the state they lead to, live garnets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.decider import Event
from domain.games.amalgamation.evolve import evolve
from domain.games.amalgamation.state import State


class Turn:
    """Events are folded as they are emitted, so each later step of a command sees the earlier
    ones (the final scoring sees round 7's reveal), exactly as a replay will."""

    def __init__(self, state: State, garnets: Any) -> None:
        self.state = state
        self.events: list[Event] = []
        self.garnets = readable_balances(garnets)

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)
        for posting in event.postings:
            if posting.asset == "garnets":
                self.garnets[posting.player] = self.garnets_of(posting.player) + posting.amount

    def garnets_of(self, player: str) -> int:
        """The season balance the framework supplied, less what this command already took."""
        return self.garnets.get(player, 0)


def readable_balances(garnets: Any) -> dict[str, int]:
    """The framework's balances; anything that is not a whole number counts as zero."""
    if not isinstance(garnets, Mapping):
        return {}
    return {
        player: amount
        for player, amount in garnets.items()
        if isinstance(player, str) and isinstance(amount, int) and not isinstance(amount, bool)
    }
