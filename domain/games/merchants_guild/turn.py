"""One command's work in progress: the events so far, the state they lead to, live balances."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.decider import Event
from domain.games.merchants_guild.evolve import evolve
from domain.games.merchants_guild.state import State


class Turn:
    """Events are folded as they are emitted, so each later step of a deadline sees the earlier
    ones (the settlement sees week 8's votes), exactly as a replay will."""

    def __init__(self, state: State, garnets: Any) -> None:
        self.state = state
        self.events: list[Event] = []
        self.balances = readable_balances(garnets)

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)
        for posting in event.postings:
            if posting.asset == "garnets":
                self.balances[posting.player] = self.balance(posting.player) + posting.amount

    def balance(self, player: str) -> int:
        """The live season balance the framework supplied, less what this command debited."""
        return self.balances.get(player, 0)


def readable_balances(garnets: Any) -> dict[str, int]:
    """The framework's balances; anything that is not a whole number counts as zero."""
    if not isinstance(garnets, Mapping):
        return {}
    return {
        player: amount
        for player, amount in garnets.items()
        if isinstance(player, str) and isinstance(amount, int) and not isinstance(amount, bool)
    }
