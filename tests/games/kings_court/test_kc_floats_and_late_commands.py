"""The rules see a command before the log does: a number where a player is named gets the rules'
own code, and so does every command sent once the match is over. Nothing is recorded for either.

King's Court has no integer argument: every argument names players (docs/games/kings_court.md,
Commands). A float or a huge integer there is "not a player of this match", so each command
answers the code its rules give for a bad value of that argument.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from commands.cli.matchfile import MatchFile, load, play
from commands.service.arbiter import Arbiter
from domain.errors import RuleViolation
from tests.games.kings_court.kc_harness import Match
from tests.games.kings_court.kc_scenes import (
    deadlock_phase,
    dmo_phase,
    ec_vote_phase,
    king_gift_phase,
    round_one,
    round_two,
    tiebreak_phase,
)
from tests.support.host_key import SIGNER

ROOT = Path(__file__).resolve().parents[3]
KING_WIN = ROOT / "seeds" / "kings_court-king-win.json"
TEAM_WIN = ROOT / "seeds" / "kings_court-team-win.json"
FOUR_EARLY = Path(__file__).resolve().parent / "data" / "four_early_kings.json"

NUMBERS = [2.0, 0.5, -0.0, 1e300, 2**53, -(2**63), 10**30]

# (scene, actor, command, args with X where the number goes, the rules' code). The scenes are
# the standard court: King p11, Dukes p1-p5, Nobles p6-p10 (tests/games/kings_court/kc_scenes).
Row = tuple[Callable[[], Match], str, str, dict[str, Any], str]


class Slot:
    """Where the number goes; a steady repr keeps the test ids the same in every process."""

    def __repr__(self) -> str:
        return "X"


X = Slot()
ROWS: list[Row] = [
    (round_one, "p1", "vote", {"candidate": X}, "unknown_target"),
    (round_two, "p1", "pair_check", {"targets": X}, "invalid_targets"),
    (round_two, "p1", "pair_check", {"targets": [X, "p3"]}, "unknown_target"),
    (round_two, "p1", "pair_check", {"targets": ["p2", X]}, "unknown_target"),
    (round_two, "p1", "pair_check", {"targets": [X, X]}, "unknown_target"),
    (round_one, "p11", "king_learn", {"targets": X}, "invalid_targets"),
    (round_one, "p11", "king_learn", {"targets": [X, "p1"]}, "unknown_target"),
    (round_one, "p11", "king_learn", {"targets": ["p1", X]}, "unknown_target"),
    (tiebreak_phase, "p11", "tiebreak", {"choice": X}, "not_tied"),
    (round_one, "p1", "peek", {"target": X}, "unknown_target"),
    (king_gift_phase, "p11", "king_gift", {"duke": X, "noble": "p6"}, "invalid_gift"),
    (king_gift_phase, "p11", "king_gift", {"duke": "p1", "noble": X}, "invalid_gift"),
    (ec_vote_phase, "p1", "ec_vote", {"candidate": X}, "not_ec_candidate"),
    (deadlock_phase, "host", "record_deadlock_result", {"ec": X}, "invalid_deadlock_result"),
    (dmo_phase, "host", "record_dmo", {"dmo": X}, "invalid_dmo"),
]


def filled(args: Any, number: Any) -> Any:
    if args is X:
        return number
    if isinstance(args, dict):
        return {key: filled(value, number) for key, value in args.items()}
    if isinstance(args, list):
        return [filled(value, number) for value in args]
    return args


@pytest.mark.parametrize("number", NUMBERS, ids=repr)
@pytest.mark.parametrize("row", ROWS, ids=[f"{r[2]}-{r[3]}-{r[4]}" for r in ROWS])
def test_a_number_where_a_player_is_named_gets_the_rules_code(row: Row, number: Any):
    scene, actor, name, args, code = row
    match = scene()
    assert match.reject(actor, name, **filled(args, number)) == code  # the state is unchanged


# The same through the match aggregate on a real store: the refusal records nothing.


def played_until(app: Arbiter, path: Path, closes: int, after: str = "close_round") -> str:
    """Plays a seed match up to (and including) its `closes`-th `after` command."""
    file = load(path)
    steps, seen = [], 0
    for step in file.commands:
        steps.append(step)
        if step.actor == "host" and step.do == after:
            seen += 1
            if seen == closes:
                break
    match_id = f"{file.match}-{after}-{closes}"
    file = file.model_copy(update={"commands": steps, "expect": None, "match": match_id})
    assert play(app, file)[1] == []
    return file.match


def refused(app: Arbiter, match_id: str, actor: str, name: str, args: dict[str, Any]) -> str:
    before = app.match(match_id).version
    with pytest.raises(RuleViolation) as caught:
        app.submit(match_id, actor, name, args)
    assert app.match(match_id).version == before
    return caught.value.code


def test_floats_and_big_integers_through_the_match_record_nothing(sqlite_url):
    """King-win seed: King grace; alice joined at the first deadline; round 3 tied bob and ivan;
    the King won at the fifth; erin and ken tie for EC."""
    app = Arbiter(sqlite_url, signer=SIGNER)
    round_1 = played_until(app, KING_WIN, 1, after="open_match")
    round_2 = played_until(app, KING_WIN, 1)
    tiebreak = played_until(app, KING_WIN, 3)
    gift = played_until(app, KING_WIN, 5)
    ec_vote = played_until(app, KING_WIN, 1, after="close_king_gift")
    dmo = played_until(app, KING_WIN, 1, after="close_ec_vote")
    for number in (2.0, 1e300, 2**63):
        cases = [
            (round_1, "alice", "vote", {"candidate": number}, "unknown_target"),
            (round_1, "grace", "king_learn", {"targets": [number, "ken"]}, "unknown_target"),
            (round_1, "grace", "king_learn", {"targets": number}, "invalid_targets"),
            (round_1, "bob", "peek", {"target": number}, "unknown_target"),
            (round_2, "alice", "pair_check", {"targets": ["bob", number]}, "unknown_target"),
            (round_2, "alice", "pair_check", {"targets": number}, "invalid_targets"),
            (tiebreak, "grace", "tiebreak", {"choice": number}, "not_tied"),
            (gift, "grace", "king_gift", {"duke": "dave", "noble": number}, "invalid_gift"),
            (ec_vote, "grace", "ec_vote", {"candidate": number}, "not_ec_candidate"),
            (dmo, "host", "record_dmo", {"dmo": number}, "invalid_dmo"),
        ]
        for match_id, actor, name, args, code in cases:
            assert refused(app, match_id, actor, name, args) == code, (name, args)


# Every command once the match is over (rules: players `match_over`; host commands `wrong_state`
# since their phase is not open; unknown names `unknown_action`; the host is not a player).

PLAYER_COMMANDS = {
    "vote": {"candidate": "{b}"},
    "pair_check": {"targets": ["{b}", "{c}"]},
    "king_learn": {"targets": ["{b}", "{c}"]},
    "tiebreak": {"choice": "{b}"},
    "peek": {"target": "{b}"},
    "annoyed_check": {},
    "king_gift": {"duke": "{b}", "noble": "{c}"},
    "ec_vote": {"candidate": "{b}"},
    "dance": {},  # unknown: checked after common checks 1-2
    "close_round": {},  # a host command sent by a player is unknown to a player
}
HOST_COMMANDS = {
    "close_round": ({}, "wrong_state"),
    "close_tiebreak": ({}, "wrong_state"),
    "close_king_gift": ({}, "wrong_state"),
    "close_ec_vote": ({}, "wrong_state"),
    "record_deadlock_result": ({"ec": "{b}"}, "wrong_state"),
    "record_dmo": ({"dmo": "{b}"}, "wrong_state"),
    "open_match": ({}, "wrong_state"),
    "dance": ({}, "unknown_action"),
    "vote": ({"candidate": "{b}"}, "unknown_player"),  # the host is not one of the 11
}


def named(args: Any, players: list[str]) -> Any:
    if isinstance(args, dict):
        return {key: named(value, players) for key, value in args.items()}
    if isinstance(args, list):
        return [named(value, players) for value in args]
    return args.format(b=players[1], c=players[2]) if isinstance(args, str) else args


@pytest.mark.parametrize("path", [KING_WIN, TEAM_WIN, FOUR_EARLY], ids=lambda p: p.stem)
def test_every_command_after_the_end_gets_the_rules_code(sqlite_url, path):
    app = Arbiter(sqlite_url, signer=SIGNER)
    file: MatchFile = load(path)
    outcome, mismatches = play(app, file)
    assert mismatches == [] and outcome["ended"]
    players = file.players
    for actor in players:
        for name, args in PLAYER_COMMANDS.items():
            code = refused(app, file.match, actor, name, named(args, players))
            assert code == "match_over", (actor, name)
    for name, (args, code) in HOST_COMMANDS.items():
        assert refused(app, file.match, "host", name, named(args, players)) == code, name


def test_four_early_kings_end_with_no_court(sqlite_url):
    """The ruling: after four early Kings no game ended normally, so the result names no court
    (not the fourth game's p4, p9, p7); the logged MatchEnded says the same."""
    app = Arbiter(sqlite_url, signer=SIGNER)
    file = load(FOUR_EARLY)
    outcome, mismatches = play(app, file)
    assert mismatches == []
    assert outcome["outcome"] == "four_early_kings"
    assert outcome["details"]["court"] == []
    records = app.match(file.match).records
    (ended,) = [r["entry"]["public"] for r in records if r["entry"]["kind"] == "MatchEnded"]
    assert ended["results"]["details"]["court"] == []
    assert ended["results"]["details"]["kings"] == ["p11", "p3", "p1", "p7"]
    assert ended["results"]["ranks"] == {
        p: 2 if p in ("p11", "p3", "p1", "p7") else 1 for p in file.players
    }
