"""One command's work in progress: the events so far and the state they lead to."""

from __future__ import annotations

from domain.decider import Event
from domain.games.tile_joust.evolve import evolve
from domain.games.tile_joust.state import State


class Turn:
    """Events are folded as they are emitted, so each later step of a command sees the earlier
    ones (an award sees the fold, the next auction sees the award), exactly as a replay will."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)
