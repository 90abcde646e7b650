"""Helpers the games' decider tests share."""

from __future__ import annotations

import copy
import json
from collections import defaultdict
from typing import Any

import pytest

from domain.decider import Command, Event
from domain.errors import RuleViolation
from domain.rng import Rng


def is_plain_json(value: Any) -> bool:
    """Only what the log can hold: texts, integers, booleans, null, lists, objects."""
    if value is None or isinstance(value, str | bool | int):
        return True
    if isinstance(value, list):
        return all(is_plain_json(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_plain_json(v) for k, v in value.items())
    return False


def from_storage(event: Event) -> Event:
    """As the store gives it back: canonical JSON, keys sorted, tuples turned into lists."""
    data = json.loads(json.dumps(event.data, sort_keys=True))
    return Event(event.kind, data, event.audience, event.actor, event.postings)


class DeciderMatch:
    """A match at the decider level: decide, fold evolve, and keep the season ledger the way
    the framework would (balances go back in through Command.garnets). A game's harness
    subclasses it, names its `game` module and builds the Setup."""

    game: Any

    def __init__(self, setup: Any, seed: str, players: list[str], garnets: dict[str, int],
                 open_match: bool = True) -> None:
        self.setup = setup
        self.state = self.game.initial_state(setup, Rng(self.game.GAME_ID, seed))
        self.balances = dict(garnets)
        self.ledger: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(players, 0))
        self.log: list[Event] = []
        if open_match:
            self.host("open_match")

    def do(self, actor: str, name: str, **args: Any) -> list[Event]:
        command = Command(name, actor, args, dict(self.balances))
        events = self.game.decide(self.state, command)
        for event in events:
            self.state = self.game.evolve(self.state, event)
            for posting in event.postings:
                self.ledger[posting.asset][posting.player] += posting.amount
                if posting.asset == "garnets":
                    self.balances[posting.player] += posting.amount
        self.log.extend(events)
        return events

    def host(self, name: str, **args: Any) -> list[Event]:
        return self.do("host", name, **args)

    def reject(self, actor: str, name: str, **args: Any) -> str:
        """The error code; also checks that a rejection leaves the state as it was."""
        before = copy.deepcopy(self.state)
        with pytest.raises(RuleViolation) as caught:
            self.do(actor, name, **args)
        assert self.state == before
        return caught.value.code
