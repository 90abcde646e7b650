"""COMMANDS declares exactly the commands of the rulebook's section 4 and every argument the
decider reads, and the decider reads nothing undeclared."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from domain.decider import Command
from domain.errors import RuleViolation
from domain.games import totemic_might as tm
from domain.games.totemic_might.decide import HOST_COMMANDS, PLAYER_COMMANDS
from tests.games.totemic_might.harness import (
    ORDER_1A,
    P6_BALANCED,
    Match,
    after_round_one,
    final_challenge,
)

# Section 4 of docs/games/totemic_might.md: the players' commands, then the host's.
RULEBOOK_PLAYER = {
    "place_bet", "set_pick_order", "choose_spirit_totem", "weigh", "place_wager",
    "cancel_wager", "give", "propose_trade", "cancel_transfer", "attempt_balance",
    "guess_starting_totem", "withdraw_guess",
}
RULEBOOK_HOST = {"deadline", "final_deadline"}
KINDS = {"int", "bool", "text", "player", "list", "object"}


def test_every_command_of_the_rulebook_is_declared_and_nothing_else():
    assert set(tm.COMMANDS) == RULEBOOK_PLAYER | RULEBOOK_HOST
    assert {name for name, spec in tm.COMMANDS.items() if spec.actor == "player"} == (
        RULEBOOK_PLAYER)
    assert {name for name, spec in tm.COMMANDS.items() if spec.actor == "host"} == RULEBOOK_HOST
    # Exactly what decide dispatches, less the match's own open_match.
    assert set(tm.COMMANDS) == set(PLAYER_COMMANDS) | set(HOST_COMMANDS) - {"open_match"}


def test_every_declaration_is_well_formed():
    for name, spec in tm.COMMANDS.items():
        assert spec.label, name
        for arg_name, arg in spec.args.items():
            assert arg.kind in KINDS, (name, arg_name)
            assert (arg.items is not None) == (arg.kind == "list"), (name, arg_name)
    assert tm.COMMANDS["set_pick_order"].args["order"].max_items == 6
    assert tm.COMMANDS["attempt_balance"].args["sides"].max_items == 3
    assert tm.COMMANDS["place_wager"].args["totems"].max_items == 20


class Reading(Mapping):
    """Arguments that note every key the decider looks up."""

    def __init__(self, data: Mapping[str, Any], read: set[str]) -> None:
        self.data, self.read = dict(data), read

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


def gift_made() -> Match:
    match = after_round_one()
    match.do("p1", "give", to="p2", pieces=["T:Summer-Creature"])
    return match


def guessed() -> Match:
    match = final_challenge()
    match.do("p1", "guess_starting_totem", target="p2", totem="Void-Creature")
    return match


FOX = {"totems": ["Summer-Secret", "Void-Creature", "Spring-Future"], "payment": "garnets"}
# (state, actor, command, plausible arguments giving a value to every declared argument).
PLAUSIBLE: list[tuple[Callable[[], Match], str, str, dict[str, Any]]] = [
    (Match, "p1", "place_bet", {"series": "A", "amount": 2}),
    (Match, "p1", "set_pick_order", {"series": "A", "order": ORDER_1A}),
    (after_round_one, "p7", "choose_spirit_totem", {"totem": "Void-Sky"}),
    (after_round_one, "p1", "weigh", {"left": ["S:Summer-Secret"],
                                      "right": ["T:Summer-Creature"]}),
    (Match, "p1", "place_wager", {"kind": "fox", "letter": "A", "fine": False, **FOX}),
    (Match, "p1", "place_wager", {"kind": "fox", "params": {"kind": "fox", "letter": "A",
                                                            "fine": True, **FOX}}),
    (Match, "p1", "place_wager", {"kind": "bear", "totems": ["Void-Sky"], "fine": True}),
    (Match, "p1", "place_wager", {"kind": "snake", "letter": "A"}),
    (Match, "p1", "cancel_wager", {}),
    (after_round_one, "p1", "give", {"to": "p2", "pieces": ["T:Summer-Creature"]}),
    (after_round_one, "p1", "propose_trade", {"with": "p2", "give": ["T:Winter-Secret"],
                                              "receive": ["T:Spring-Secret"]}),
    (gift_made, "p1", "cancel_transfer", {"id": 1}),
    (final_challenge, "p6", "attempt_balance", {"sides": P6_BALANCED}),
    (final_challenge, "p1", "guess_starting_totem", {"target": "p2", "totem": "Void-Creature"}),
    (guessed, "p1", "withdraw_guess", {"target": "p2"}),
    (Match, "host", "deadline", {}),
    (final_challenge, "host", "final_deadline", {}),
]


def reads(scenario: Callable[[], Match], actor: str, name: str,
          args: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The top-level keys and the `params` keys the decider looked up; it must accept."""
    top: set[str] = set()
    nested: set[str] = set()
    wrapped = dict(args)
    if isinstance(args.get("params"), dict):
        wrapped["params"] = Reading(args["params"], nested)
    match = scenario()
    tm.decide(match.state, Command(name, actor, Reading(wrapped, top), dict(match.balances)))
    return top, nested


@pytest.mark.parametrize("row", PLAUSIBLE, ids=[f"{r[2]}-{i}" for i, r in enumerate(PLAUSIBLE)])
def test_declared_arguments_with_plausible_values_are_accepted_and_nothing_else_is_read(row):
    scenario, actor, name, args = row
    declared = set(tm.COMMANDS[name].args)
    assert set(args) <= declared
    top, nested = reads(scenario, actor, name, args)
    assert top <= declared, top - declared
    assert nested <= declared, nested - declared


def test_every_declared_argument_is_read_by_the_decider():
    read: dict[str, set[str]] = {name: set() for name in tm.COMMANDS}
    for scenario, actor, name, args in PLAUSIBLE:
        top, nested = reads(scenario, actor, name, args)
        read[name] |= top | nested
    for name, spec in tm.COMMANDS.items():
        assert set(spec.args) <= read[name], (name, set(spec.args) - read[name])


# Arguments declared required although the rules would let them out: a withdrawal naming nobody
# is accepted and changes nothing (TM-R42); the wager's kind may also come inside `params`.
LENIENT = {("withdraw_guess", "target"), ("place_wager", "kind")}


def test_required_arguments_are_those_without_which_the_rules_refuse():
    """Leaving out a required argument gets a rules code; leaving out an optional one that the
    plausible command does not need keeps it accepted."""
    needed_optional = {"params", "totems", "payment", "letter"}
    for scenario, actor, name, args in PLAUSIBLE:
        for arg_name, arg in tm.COMMANDS[name].args.items():
            if arg_name not in args or (name, arg_name) in LENIENT:
                continue
            rest = {key: value for key, value in args.items() if key != arg_name}
            match = scenario()
            command = Command(name, actor, rest, dict(match.balances))
            if arg.required:
                with pytest.raises(RuleViolation):
                    tm.decide(match.state, command)
            elif arg_name not in needed_optional:
                tm.decide(match.state, command)
