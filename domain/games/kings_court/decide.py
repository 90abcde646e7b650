"""decide(state, command) -> events: the common checks (rulebook 6.1), then the command's own.

decide never mutates `state` and raises nothing but RuleViolation, whatever the command holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.decider import HOST, Command, Event
from domain.errors import RuleViolation
from domain.games.kings_court import aftermath, election
from domain.games.kings_court.phases import (
    AWAITING_DMO,
    DEADLOCK_COIN,
    EC_VOTE,
    ELECTION,
    KING_GIFT,
    NOT_STARTED,
    TIEBREAK,
)
from domain.games.kings_court.player_commands import GAMEPLAY, POST_GAME
from domain.games.kings_court.state import State
from domain.games.kings_court.turn import Turn

HostCommand = Callable[[Turn, Mapping[str, Any]], None]


def open_match(turn: Turn, args: Mapping[str, Any]) -> None:
    election.start_game(turn, 1)


def close_round(turn: Turn, args: Mapping[str, Any]) -> None:
    election.close_round(turn)


def close_tiebreak(turn: Turn, args: Mapping[str, Any]) -> None:
    election.close_tiebreak(turn)


# Each host command with the one phase in which it is open (else `wrong_state`).
HOST_COMMANDS: dict[str, tuple[str, HostCommand]] = {
    "open_match": (NOT_STARTED, open_match),
    "close_round": (ELECTION, close_round),
    "close_tiebreak": (TIEBREAK, close_tiebreak),
    "close_king_gift": (KING_GIFT, aftermath.close_king_gift),
    "close_ec_vote": (EC_VOTE, aftermath.close_ec_vote),
    "record_deadlock_result": (DEADLOCK_COIN, aftermath.record_deadlock_result),
    "record_dmo": (AWAITING_DMO, aftermath.record_dmo),
}


def decide(state: State, command: Command) -> list[Event]:
    turn = Turn(state, command.garnets)
    args = command.args if isinstance(command.args, Mapping) else {}
    name = command.name if isinstance(command.name, str) else None
    if command.actor == HOST:
        decide_for_host(turn, name, args)
    else:
        decide_for_player(turn, command.actor, name, args)
    return turn.events


def decide_for_host(turn: Turn, name: str | None, args: Mapping[str, Any]) -> None:
    if name in GAMEPLAY or name in POST_GAME:
        raise RuleViolation(
            "unknown_player", f"{name} is a player command; the host is not a player"
        )
    if name not in HOST_COMMANDS:
        raise RuleViolation("unknown_action", f"no command {name!r}")
    phase, handler = HOST_COMMANDS[name]
    if turn.state.phase != phase:
        raise RuleViolation(
            "wrong_state", f"{name} needs the {phase} phase; it is {turn.state.phase}"
        )
    handler(turn, args)


def decide_for_player(turn: Turn, actor: object, name: str | None, args: Mapping[str, Any]) -> None:
    state = turn.state
    player = check_actor_is_a_player(state, actor)
    check_main_match_is_on(state)
    if name in GAMEPLAY:
        check_game_is_running(state)
        GAMEPLAY[name](turn, player, args)
    elif name in POST_GAME:
        phase, handler = POST_GAME[name]
        if state.phase != phase:
            raise RuleViolation(
                "wrong_phase", f"{name} needs the {phase} phase; it is {state.phase}"
            )
        handler(turn, player, args)
    else:
        raise RuleViolation("unknown_action", f"no player command {name!r}")


def check_actor_is_a_player(state: State, actor: object) -> str:
    if not isinstance(actor, str) or actor not in state.players:
        raise RuleViolation("unknown_player", f"{actor!r} is not a player of this match")
    return actor


def check_main_match_is_on(state: State) -> None:
    if state.phase == NOT_STARTED:
        raise RuleViolation("match_not_started", "the host has not opened the match")
    if state.main_match_is_over():
        raise RuleViolation("match_over", "the Main Match is over")


def check_game_is_running(state: State) -> None:
    if not state.game_is_running():
        raise RuleViolation("game_over", "no game is running")
