"""Helpers the games' decider tests share."""

from __future__ import annotations

import copy
import json
from collections import defaultdict
from typing import Any

import pytest

from domain.decider import HOST, PUBLIC, Command, Event
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


def checked_step(game: Any, state: Any, command: Command, players: list[str],
                 ledger: dict[str, int], *, one_recipient: bool = True) -> tuple[Any, list[Event]]:
    """One command through decide and evolve, holding what every game promises: nothing but
    RuleViolation, no mutation, plain JSON data, a known audience (`one_recipient`: a private
    event goes to exactly one player), and garnets never below zero. `ledger` follows the
    garnet postings."""
    before = copy.deepcopy(state)
    try:
        events = game.decide(state, command)
    except RuleViolation:
        events = []
    assert state == before, "decide mutated the state"
    for event in events:
        assert is_plain_json(dict(event.data)), event
        assert event.audience in (PUBLIC, HOST) or (
            set(event.audience) <= set(players)
            and (len(event.audience) == 1 or not one_recipient)), event
        state = game.evolve(state, event)
        for posting in event.postings:
            if posting.asset == "garnets":
                ledger[posting.player] += posting.amount
    assert all(amount >= 0 for amount in ledger.values()), ledger
    return state, events


def check_replay_and_views(game: Any, initial: Any, state: Any, log: list[Event],
                           players: list[str]) -> None:
    """Replaying the log as the store gives it back reaches the same state; results and every
    viewer's summary can be built (and are plain JSON)."""
    replayed = initial
    for event in log:
        replayed = game.evolve(replayed, from_storage(event))
    assert replayed == state
    game.results(state)
    for viewer in ("public", "host", *players):
        json.dumps(game.summarize([e for e in log if e.seen_by(viewer)], viewer))


def step_or_refusal(game: Any, state: Any, command: Command,
                    ledger: dict[str, int]) -> tuple[Any, list[Event], str | None]:
    """One command as a twin run sees it: the new state, the events, and the refusal code (or
    None); `ledger` follows the garnet postings."""
    try:
        events = game.decide(state, command)
    except RuleViolation as rejection:
        return state, [], rejection.code
    for event in events:
        state = game.evolve(state, event)
        for posting in event.postings:
            if posting.asset == "garnets":
                ledger[posting.player] += posting.amount
    return state, events, None
