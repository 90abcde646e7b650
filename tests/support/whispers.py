"""A tiny game whose player commands hide different numbers of sealed events, for the tests of
the public shape of sealed entries (tests/test_public_shape.py).

A player may `listen` (nothing is recorded but the command), `ask` (a private answer), `buy`
an answer for a garnet (the host's note of the spend, then the private answer), `shout` in
public (with a private echo when they ask for one), or `flood` (three private notes in a row:
more than the game declares, a bug the match must refuse to record). The host closes the
rounds; after `rounds` rounds the game is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from pydantic import ConfigDict

from domain.decider import (
    HOST,
    Arg,
    Command,
    CommandSpec,
    Event,
    Posting,
    to_all,
    to_player,
)
from domain.errors import RuleViolation
from domain.rng import Rng
from domain.setup import SetupBase

GAME_ID = "whispers"
RULES_VERSION = "whispers/1"
CLOSES = ("close_round",)
SEALED_RUN = 2  # a bought answer: the host's note of the spend, then the answer
COMMANDS = {
    "listen": CommandSpec("player", label="listen: nothing is recorded but the command"),
    "ask": CommandSpec("player", label="ask: a private answer"),
    "buy": CommandSpec("player", label="buy an answer for a garnet"),
    "shout": CommandSpec("player", {"echo": Arg("bool", required=False)},
                         label="shout in public, with a private echo if asked for"),
    "flood": CommandSpec("player", label="three private notes in a row (more than declared)"),
    "close_round": CommandSpec("host", label="close the round"),
}


class Setup(SetupBase):
    model_config = ConfigDict(extra="forbid")
    rounds: int = 2


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rounds: int
    round: int = 0
    done: bool = False


def initial_state(setup: Setup, rng: Rng) -> State:
    return State(tuple(setup.players), setup.rounds)


def decide(state: State, command: Command) -> list[Event]:
    actor, name = command.actor, command.name
    if name == "open_match":
        return [to_all("RoundOpened")]
    if state.done:
        raise RuleViolation("match_over", "the game is over")
    if name == "close_round":
        if actor != HOST:
            raise RuleViolation("host_only", "the host closes a round")
        return [to_all("RoundClosed", round=state.round)]
    if actor == HOST:
        raise RuleViolation("unknown_action", name)
    if name == "listen":
        return []
    if name == "ask":
        return [to_player(actor, "Answered", actor=actor, answer=state.round)]
    if name == "buy":
        if command.garnets.get(actor, 0) < 1:
            raise RuleViolation("insufficient_garnets", "an answer costs 1 garnet")
        return [Event("AnswerBought", {"player": actor}, audience=HOST, actor=actor,
                      postings=(Posting(actor, "garnets", -1, "answer"),)),
                to_player(actor, "Answered", actor=actor, answer=state.round * 10)]
    if name == "shout":
        echo = [to_player(actor, "Echoed", actor=actor)] if command.args.get("echo") else []
        return [to_all("Shouted", actor=actor, player=actor), *echo]
    if name == "flood":
        return [to_player(actor, "Noted", actor=actor, n=n) for n in range(3)]
    raise RuleViolation("unknown_action", name)


def evolve(state: State, event: Event) -> State:
    if event.kind == "RoundOpened":
        return replace(state, round=state.round + 1)
    if event.kind == "RoundClosed" and state.round == state.rounds:
        return replace(state, done=True)
    if event.kind == "RoundClosed":
        return replace(state, round=state.round + 1)
    return state


def round_of(state: State) -> int:
    return state.round


def finished(state: State) -> bool:
    return state.done


def results(state: State) -> dict[str, Any]:
    return {"outcome": "over" if state.done else None,
            "ranks": dict.fromkeys(state.players, 1), "details": {}}


def forms(view: dict[str, Any], viewer: str) -> list[dict[str, Any]]:
    """What the viewer may send (flood left out: it is the game's bug on purpose)."""
    if viewer == HOST:
        return [{"command": "close_round", "label": "close the round", "fields": []}]
    echo = {"name": "echo", "kind": "bool", "label": "a private echo", "required": False,
            "choices": [False, True]}
    return [{"command": name, "label": COMMANDS[name].label,
             "fields": [echo] if name == "shout" else []}
            for name in ("listen", "ask", "buy", "shout")]


def summary_start(viewer: str) -> dict[str, Any]:
    return {"kinds": []}


def summary_step(view: dict[str, Any], event: Event) -> None:
    view["kinds"].append(event.kind)


def summarize(events: Sequence[Event], viewer: str) -> dict[str, Any]:
    view = summary_start(viewer)
    for event in events:
        summary_step(view, event)
    return view
