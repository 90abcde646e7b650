"""COMMANDS declares exactly the commands the rules accept, with exactly the arguments they read."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from domain.decider import Arg, Command, CommandSpec
from domain.games import kings_court as kc
from domain.games.kings_court.decide import HOST_COMMANDS
from domain.games.kings_court.player_commands import GAMEPLAY, POST_GAME
from tests.games.kings_court import kc_scenes as scenes
from tests.games.kings_court.kc_harness import Match

# The command table of docs/games/kings_court.md (6.2 and 6.3), written out again.
RULEBOOK_PLAYER_COMMANDS = {
    "vote": {"candidate"},
    "pair_check": {"targets"},
    "king_learn": {"targets"},
    "tiebreak": {"choice"},
    "peek": {"target"},
    "annoyed_check": set(),
    "king_gift": {"duke", "noble"},
    "ec_vote": {"candidate"},
}
RULEBOOK_HOST_COMMANDS = {
    "close_round": set(),
    "close_tiebreak": set(),
    "close_king_gift": set(),
    "close_ec_vote": set(),
    "record_deadlock_result": {"ec"},
    "record_dmo": {"dmo"},
}
KINDS = {"int", "bool", "text", "player", "list", "object"}


def test_every_command_of_the_rulebook_is_declared_with_its_arguments():
    declared = {name: set(spec.args) for name, spec in kc.COMMANDS.items()}
    assert declared == RULEBOOK_PLAYER_COMMANDS | RULEBOOK_HOST_COMMANDS
    for name, spec in kc.COMMANDS.items():
        assert isinstance(spec, CommandSpec) and spec.label
        assert spec.actor == ("player" if name in RULEBOOK_PLAYER_COMMANDS else "host")
        for arg in spec.args.values():
            assert isinstance(arg, Arg) and arg.kind in KINDS and arg.label and arg.required


def test_the_declarations_match_what_decide_dispatches():
    players = {name for name, spec in kc.COMMANDS.items() if spec.actor == "player"}
    host = {name for name, spec in kc.COMMANDS.items() if spec.actor == "host"}
    assert players == set(GAMEPLAY) | set(POST_GAME)
    assert host == set(HOST_COMMANDS) - {"open_match"}  # the opening is the match's own


def test_lists_of_players_say_what_they_hold_and_are_bounded_as_the_rules_bound_them():
    for name in ("pair_check", "king_learn"):
        targets = kc.COMMANDS[name].args["targets"]
        assert (targets.kind, targets.items, targets.max_items) == ("list", "player", 2)
        assert "two" in targets.label and "players" in targets.label


class Reading(Mapping[str, Any]):
    """Arguments that remember which names the rules asked for."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return self.values[key]

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.read.add(key)
        return key in self.values

    def __iter__(self) -> Iterator[str]:
        raise AssertionError("the rules walked the arguments instead of naming them")

    def __len__(self) -> int:
        return len(self.values)


# Each command where the rules accept it, with plausible values of its declared arguments.
# Standard court: King p11, Dukes p1-p5, Nobles p6-p10 (kc_scenes).
ACCEPTED: list[tuple[Callable[[], Match], str, str, dict[str, Any]]] = [
    (scenes.round_one, "p1", "vote", {"candidate": "p2"}),
    (scenes.round_two, "p1", "pair_check", {"targets": ["p2", "p3"]}),
    (scenes.round_one, "p11", "king_learn", {"targets": ["p1", "p6"]}),
    (scenes.tiebreak_phase, "p11", "tiebreak", {"choice": "p1"}),
    (scenes.round_one, "p1", "peek", {"target": "p2"}),
    (scenes.round_one, "p1", "annoyed_check", {}),
    (scenes.king_gift_phase, "p11", "king_gift", {"duke": "p1", "noble": "p6"}),
    (scenes.ec_vote_phase, "p1", "ec_vote", {"candidate": "p7"}),
    (scenes.round_one, "host", "close_round", {}),
    (scenes.tiebreak_phase, "host", "close_tiebreak", {}),
    (scenes.king_gift_phase, "host", "close_king_gift", {}),
    (scenes.ec_vote_phase, "host", "close_ec_vote", {}),
    (scenes.deadlock_phase, "host", "record_deadlock_result", {"ec": "p7"}),
    (scenes.dmo_phase, "host", "record_dmo", {"dmo": "p1"}),
]


def test_every_declared_command_is_covered():
    assert {name for _, _, name, _ in ACCEPTED} == set(kc.COMMANDS)


@pytest.mark.parametrize("scene, actor, name, args", ACCEPTED, ids=[r[2] for r in ACCEPTED])
def test_declared_arguments_suffice_and_nothing_undeclared_is_read(scene, actor, name, args):
    assert set(args) == set(kc.COMMANDS[name].args)
    match = scene()
    reading = Reading(args)
    events = kc.decide(match.state, Command(name, actor, reading, dict(match.balances)))
    assert events, "accepted with its declared arguments"
    assert reading.read == set(kc.COMMANDS[name].args)
