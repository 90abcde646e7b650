"""A tiny sealed-bid game that exercises the match machinery in service tests.

Each round every player may bid 0..9 (replaceable); a player may buy a hint for 2 garnets
(the host's secret number); the host closes the round: the highest bid wins a point (ties:
nobody), a missing bid costs 1 garnet (clamped). After `rounds` rounds the top scorer gets a
ToL and the secret number, drawn from the seed (label `secret`), is opened in public.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import ConfigDict

from domain.decider import HOST, Command, Event, Posting, to_all, to_player
from domain.errors import RuleViolation
from domain.rng import Rng
from domain.setup import SetupBase

GAME_ID = "sealed_bid"
RULES_VERSION = "sealed_bid/1"
CLOSES = ("close_round",)


class Setup(SetupBase):
    model_config = ConfigDict(extra="forbid")
    rounds: int = 2


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rounds: int
    seed: str
    round: int = 0
    secret: int | None = None
    bids: dict[str, int] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)
    done: bool = False


def initial_state(setup: Setup, rng: Rng) -> State:
    return State(tuple(setup.players), setup.rounds, rng.seed)


def decide(state: State, command: Command) -> list[Event]:
    if command.name == "open_match":
        secret = Rng(GAME_ID, state.seed).choice(list(range(10)), "secret")
        return [Event("SecretDrawn", {"secret": secret}, audience=HOST), to_all("RoundOpened")]
    if state.done:
        raise RuleViolation("match_over", "the game is over")
    if command.name == "bid":
        amount = command.args.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool) or not 0 <= amount <= 9:
            raise RuleViolation("invalid_bid", "bid 0..9")
        return [to_player(command.actor, "BidPlaced", actor=command.actor,
                          player=command.actor, amount=amount)]
    if command.name == "hint":
        if command.garnets.get(command.actor, 0) < 2:
            raise RuleViolation("insufficient_garnets", "a hint costs 2")
        return [Event("HintGiven", {"secret": state.secret}, audience=(command.actor,),
                      actor=command.actor,
                      postings=(Posting(command.actor, "garnets", -2, "hint"),))]
    if command.name == "close_round":
        if command.actor != HOST:
            raise RuleViolation("host_only", "host closes")
        events = []
        for p in state.players:
            if p not in state.bids and command.garnets.get(p, 0) > 0:
                events.append(Event("Penalised", {"player": p}, audience=(p,),
                                    postings=(Posting(p, "garnets", -1, "no bid"),)))
        top = max(state.bids.values(), default=None)
        winners = [p for p in state.players if state.bids.get(p) == top]
        events.append(to_all("RoundClosed", round=state.round,
                             winner=winners[0] if len(winners) == 1 else None))
        if state.round == state.rounds:
            points = dict(state.points)
            if len(winners) == 1:
                points[winners[0]] = points.get(winners[0], 0) + 1
            best = max(points.values(), default=0)
            champs = [p for p in state.players if points.get(p, 0) == best and best > 0]
            events.append(Event("GameOver", {"champions": champs},
                                postings=tuple(Posting(p, "tol", 1, "champion")
                                               for p in champs),
                                opens=("SecretDrawn",)))
        else:
            events.append(to_all("RoundOpened"))
        return events
    raise RuleViolation("unknown_action", command.name)


def evolve(state: State, event: Event) -> State:
    d = event.data
    if event.kind == "SecretDrawn":
        return replace(state, secret=d["secret"])
    if event.kind == "RoundOpened":
        return replace(state, round=state.round + 1, bids={})
    if event.kind == "BidPlaced":
        return replace(state, bids={**state.bids, d["player"]: d["amount"]})
    if event.kind == "RoundClosed" and d["winner"]:
        return replace(state, points={**state.points,
                                      d["winner"]: state.points.get(d["winner"], 0) + 1})
    if event.kind == "GameOver":
        return replace(state, done=True)
    return state


def round_of(state: State) -> int:
    return state.round


def finished(state: State) -> bool:
    return state.done


def results(state: State) -> dict[str, Any]:
    ranked = sorted(state.players, key=lambda p: -state.points.get(p, 0))
    return {"outcome": "over" if state.done else None,
            "ranks": {p: 1 + sorted({-v for v in state.points.values()} | {0}).index(
                -state.points.get(p, 0)) for p in ranked},
            "details": {"points": dict(state.points)}}


def summary_start(viewer: str) -> dict[str, Any]:
    return {"events": 0, "winners": []}


def summary_step(view: dict[str, Any], event: Event) -> None:
    view["events"] += 1
    if event.kind == "RoundClosed":
        view["winners"].append(event.data["winner"])


def summarize(events: Sequence[Event], viewer: str) -> dict[str, Any]:
    view = summary_start(viewer)
    for event in events:
        summary_step(view, event)
    return view
