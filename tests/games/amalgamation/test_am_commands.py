"""COMMANDS declares exactly the commands of the rulebook (4.1) with exactly the arguments the
decider reads: each command, fed its declared arguments in its own phase, is accepted and reads
nothing else; each required one missing is `missing_field`; each integer is `not_an_integer`
as a float; the bounded lists and objects are full at their bound."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from domain.decider import Command
from domain.games import amalgamation as am
from domain.games.amalgamation.decide import RULES
from tests.games.amalgamation.harness import PLAYERS, Match, round_args
from tests.games.amalgamation.scenarios import tied_bottom_match

# The rulebook's table 4.1 (the rulings' commands, with lock_round + open_round as close_round).
PLAYER_COMMANDS = (
    "submit_garnet_rate",
    "submit_ma_order",
    "submit_teams",
    "submit_round",
    "choose_ec",
)
HOST_COMMANDS = ("close_pregame", "close_round", "close_ec_decision")


def test_every_command_of_the_rulebook_is_declared_and_nothing_else():
    assert set(am.COMMANDS) == {*PLAYER_COMMANDS, *HOST_COMMANDS}
    for name in PLAYER_COMMANDS:
        assert am.COMMANDS[name].actor == "player"
    for name in HOST_COMMANDS:
        assert am.COMMANDS[name].actor == "host"
        assert am.COMMANDS[name].args == {}
    # Everything decide answers, but the match's own opening.
    assert set(RULES) - {"open_match"} == set(am.COMMANDS)
    assert all(spec.label for spec in am.COMMANDS.values())


def pregame() -> Match:
    return Match(close_pregame=False, mm_winner="p2", dm_winner="p3")


def round_one() -> Match:
    return Match(garnets={"p1": 2})


# (a state, the sender, plausible values of every declared argument)
SAMPLES: dict[str, tuple[Callable[[], Match], str, Callable[[Match], dict[str, Any]]]] = {
    "submit_garnet_rate": (pregame, "p1", lambda m: {"rate": 10}),
    "submit_ma_order": (pregame, "p2", lambda m: {"order": list(reversed(PLAYERS))}),
    "submit_teams": (
        pregame,
        "p3",
        lambda m: {"red": ["p1", "p4", "p5"], "white": ["p2", "p3", "p6"]},
    ),
    "submit_round": (
        round_one,
        "p1",
        lambda m: (
            round_args(m, kd=1, bids=[3, -2, 0, 1, -1], invest=2, donate=1, bet=4)
            | {"garnets_to_exchange": 1}
        ),
    ),
    "choose_ec": (tied_bottom_match, "p1", lambda m: {"candidate": "p6"}),
    "close_pregame": (pregame, "host", lambda m: {}),
    "close_round": (round_one, "host", lambda m: {}),
    "close_ec_decision": (tied_bottom_match, "host", lambda m: {}),
}


class Reading(Mapping[str, Any]):
    """Arguments that note every name the decider reads."""

    def __init__(self, args: dict[str, Any]) -> None:
        self.args, self.read = args, set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return self.args[key]

    def __iter__(self) -> Iterator[str]:
        raise AssertionError("the decider walked the arguments instead of reading them by name")

    def __len__(self) -> int:
        return len(self.args)


def test_the_samples_cover_every_command():
    assert set(SAMPLES) == set(am.COMMANDS)


@pytest.mark.parametrize("name", sorted(am.COMMANDS))
def test_the_declared_arguments_are_accepted_and_nothing_else_is_read(name):
    state, actor, build = SAMPLES[name]
    match = state()
    args = build(match)
    assert set(args) == set(am.COMMANDS[name].args)
    reading = Reading(args)
    events = am.decide(match.state, Command(name, actor, reading, dict(match.garnets)))
    assert events
    assert reading.read <= set(am.COMMANDS[name].args)


@pytest.mark.parametrize("name", sorted(am.COMMANDS))
def test_every_required_argument_is_read_and_every_optional_one_may_be_left_out(name):
    state, actor, build = SAMPLES[name]
    for arg, spec in am.COMMANDS[name].args.items():
        match = state()
        args = {key: value for key, value in build(match).items() if key != arg}
        if spec.required:
            assert match.reject(actor, name, **args) == "missing_field", arg
        else:
            match.do(actor, name, **args)


@pytest.mark.parametrize("name", sorted(am.COMMANDS))
def test_every_integer_argument_refuses_a_float(name):
    state, actor, build = SAMPLES[name]
    for arg, spec in am.COMMANDS[name].args.items():
        match = state()
        args = build(match)
        if spec.kind == "int":
            args[arg] = 2.0
        elif spec.kind == "object" and spec.items == "int":
            first = next(iter(args[arg]))
            args[arg] = args[arg] | {first: 2.0}
        else:
            continue
        assert match.reject(actor, name, **args) == "not_an_integer", arg


def test_the_bounded_arguments_are_full_at_their_bound():
    """The rules want exactly six in an order, three per team and five bids."""
    for name, (state, _, build) in SAMPLES.items():
        args = build(state())
        for arg, spec in am.COMMANDS[name].args.items():
            if spec.max_items is not None:
                assert len(args[arg]) == spec.max_items, (name, arg)
    assert am.COMMANDS["submit_ma_order"].args["order"].max_items == 6
    assert am.COMMANDS["submit_teams"].args["red"].max_items == 3
    assert am.COMMANDS["submit_round"].args["ma_bids"].max_items == 5


def test_the_kinds_are_what_the_rulebook_says():
    kinds = {
        (name, arg): (spec.kind, spec.items)
        for name, command in am.COMMANDS.items()
        for arg, spec in command.args.items()
    }
    assert kinds == {
        ("submit_garnet_rate", "rate"): ("int", None),
        ("submit_ma_order", "order"): ("list", "player"),
        ("submit_teams", "red"): ("list", "player"),
        ("submit_teams", "white"): ("list", "player"),
        ("submit_round", "round"): ("int", None),
        ("submit_round", "kd_contribution"): ("int", None),
        ("submit_round", "ma_bids"): ("object", "int"),
        ("submit_round", "invest"): ("int", None),
        ("submit_round", "donate"): ("int", None),
        ("submit_round", "ct_role"): ("text", None),
        ("submit_round", "ct_bet"): ("int", None),
        ("submit_round", "garnets_to_exchange"): ("int", None),
        ("choose_ec", "candidate"): ("player", None),
    }
    optional = [
        (name, arg)
        for name, command in am.COMMANDS.items()
        for arg, spec in command.args.items()
        if not spec.required
    ]
    assert optional == [("submit_round", "garnets_to_exchange")]
