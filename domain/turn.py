"""One command's work in progress, for any game: the events so far, the state they lead to,
and the live garnet balances less what this command has already moved."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.decider import Event


class Turn:
    """Events are folded as they are emitted, so each later step of a command sees the earlier
    ones (a join sees the tally, a settlement sees the last week's votes), exactly as a replay
    will. A game binds its own `evolve` by subclassing (see a game's turn.py)."""

    evolve: Callable[[Any, Event], Any]

    def __init__(self, state: Any, garnets: Any = None) -> None:
        self.state = state
        self.events: list[Event] = []
        self.balances = readable_balances(garnets)

    def emit(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = type(self).evolve(self.state, event)
            for posting in event.postings:
                if posting.asset == "garnets":
                    self.balances[posting.player] = self.balance(posting.player) + posting.amount

    def balance(self, player: str) -> int:
        """The season balance the framework supplied, with what this command already moved."""
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
