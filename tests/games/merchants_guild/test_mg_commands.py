"""COMMANDS declares exactly the rulebook's commands (§5), every argument the decider reads and
nothing it does not read."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from domain.decider import Arg, Command
from domain.errors import RuleViolation
from domain.games import merchants_guild as mg
from tests.games.merchants_guild.mg_harness import PLAYERS, Match

# The rulebook's command table (§5.2 and §5.3); open_match is the match's own.
PLAYER_COMMANDS = {"vote", "nominate", "paid_push", "reveal_partner", "investigate",
                   "extra_investigate", "blackmail"}
HOST_COMMANDS = {"close_week"}


class Reading(Mapping):
    """Arguments that remember which names the rules looked at."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values
        self.read: set[str] = set()

    def __getitem__(self, name: str) -> Any:
        self.read.add(name)
        return self.values[name]

    def __contains__(self, name: object) -> bool:
        self.read.add(str(name))
        return name in self.values

    def __iter__(self) -> Iterator[str]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)


def caught_p7() -> Match:
    """Week 5: p1 named p7's three houses in week 4, so p1 may blackmail p7."""
    match = Match()
    match.skip_to(4)
    match.do("p1", "investigate", target="p7", houses=["green", "blue", "black"])
    match.week()
    return match


def week(number: int) -> Match:
    match = Match()
    match.skip_to(number)
    return match


# command -> (the situation, plausible arguments of the declared kinds)
PLAUSIBLE: dict[str, tuple[Any, dict[str, Any]]] = {
    "vote": (lambda: week(1), {"bills": [1, 3]}),
    "nominate": (lambda: week(1), {"bill": 9, "direction": "forward"}),
    "paid_push": (lambda: week(1), {"bill": 9, "direction": "back"}),
    "reveal_partner": (lambda: week(1), {"bill": 20}),
    "investigate": (lambda: week(4), {"target": "p7", "houses": ["red", "green", "blue"]}),
    "extra_investigate": (lambda: week(4), {"target": "p8", "houses": ["red", "black", "white"]}),
    "blackmail": (caught_p7, {"target": "p7", "proceed": True}),
    "close_week": (lambda: week(1), {}),
}


def test_every_command_of_the_rulebook_is_declared_and_nothing_else():
    assert set(mg.COMMANDS) == PLAYER_COMMANDS | HOST_COMMANDS
    assert {name for name, spec in mg.COMMANDS.items() if spec.actor == "player"} == (
        PLAYER_COMMANDS)
    assert {name for name, spec in mg.COMMANDS.items() if spec.actor == "host"} == HOST_COMMANDS
    assert all(spec.label for spec in mg.COMMANDS.values())
    assert set(PLAUSIBLE) == set(mg.COMMANDS)


def of_kind(value: Any, arg: Arg) -> bool:
    kinds = {"int": lambda v: isinstance(v, int) and not isinstance(v, bool),
             "bool": lambda v: isinstance(v, bool), "text": lambda v: isinstance(v, str),
             "player": lambda v: v in PLAYERS}
    if arg.kind == "list":
        fits = isinstance(value, list) and all(kinds[arg.items](item) for item in value)
        return fits and (arg.max_items is None or len(value) <= arg.max_items)
    return kinds[arg.kind](value)


@pytest.mark.parametrize("name", sorted(PLAUSIBLE))
def test_the_declared_arguments_are_exactly_what_the_rules_read(name):
    situation, values = PLAUSIBLE[name]
    spec = mg.COMMANDS[name]
    assert set(values) == set(spec.args)
    assert all(of_kind(values[arg], spec.args[arg]) for arg in values)
    match = situation()
    actor = "host" if spec.actor == "host" else "p1"
    args = Reading(values)
    events = mg.decide(match.state, Command(name, actor, args, dict(match.balances)))
    assert events, "plausible arguments are accepted"
    assert args.read <= set(spec.args), "the rules read an undeclared argument"
    required = {arg for arg, declared in spec.args.items() if declared.required}
    assert required <= args.read, "a required argument is never read"


@pytest.mark.parametrize("name", sorted(PLAUSIBLE))
def test_leaving_out_a_required_argument_is_refused_with_the_rules_code(name):
    situation, values = PLAUSIBLE[name]
    spec = mg.COMMANDS[name]
    for missing in spec.args:
        match = situation()
        actor = "host" if spec.actor == "host" else "p1"
        partial = {arg: value for arg, value in values.items() if arg != missing}
        with pytest.raises(RuleViolation) as refused:
            mg.decide(match.state, Command(name, actor, partial, dict(match.balances)))
        assert refused.value.code in {"unknown_bill", "invalid_direction", "unknown_target",
                                      "invalid_houses", "invalid_decision"}


def test_the_bounds_are_the_rulebooks():
    """Two votes a week; three houses named."""
    assert mg.COMMANDS["vote"].args["bills"].max_items == 2
    assert mg.COMMANDS["investigate"].args["houses"].max_items == 3
    assert mg.COMMANDS["extra_investigate"].args["houses"].max_items == 3
