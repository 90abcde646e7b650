"""decide(state, command) -> events: the common checks of rulebook §5.1, then the command's own.

decide never mutates `state` and raises nothing but RuleViolation, whatever the command holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.decider import HOST, Command, Event
from domain.errors import RuleViolation
from domain.games.merchants_guild import ballot_commands, intrigue_commands
from domain.games.merchants_guild.deadline import close_week, open_guild
from domain.games.merchants_guild.state import State
from domain.games.merchants_guild.turn import Turn

PlayerCommand = Callable[[Turn, str, Mapping[str, Any]], None]

PLAYER_COMMANDS: dict[str, PlayerCommand] = {
    "vote": ballot_commands.vote,
    "nominate": ballot_commands.nominate,
    "paid_push": ballot_commands.paid_push,
    "reveal_partner": ballot_commands.reveal_partner,
    "investigate": intrigue_commands.investigate,
    "extra_investigate": intrigue_commands.extra_investigate,
    "blackmail": intrigue_commands.blackmail,
}


def decide(state: State, command: Command) -> list[Event]:
    turn = Turn(state, command.garnets)
    args = command.args if isinstance(command.args, Mapping) else {}
    name = command.name if isinstance(command.name, str) else None
    if command.actor == HOST:
        decide_for_host(turn, name)
    else:
        decide_for_player(turn, command.actor, name, args)
    return turn.events


def decide_for_host(turn: Turn, name: str | None) -> None:
    """A player command fails the first common check whenever the host sends it; after the
    week-8 deadline every other command is answered `match_over` (rulebook §5.4, MG-R35)."""
    state = turn.state
    if name in PLAYER_COMMANDS:
        raise RuleViolation("unknown_player", f"{name} is a player command; the host is not one")
    if state.over:
        raise RuleViolation("match_over", "the week-8 deadline has passed")
    if name == "open_match":
        if state.week != 0:
            raise RuleViolation("wrong_state", "the guild is open already")
        open_guild(turn)
    elif name == "close_week":
        if not state.is_open():
            raise RuleViolation("wrong_state", "no week is open")
        close_week(turn)
    else:
        raise RuleViolation("unknown_action", f"no host command {name!r}")


def decide_for_player(turn: Turn, actor: object, name: str | None, args: Mapping[str, Any]) -> None:
    state = turn.state
    player = check_actor_is_a_player(state, actor)
    if state.week == 0:
        raise RuleViolation("match_not_started", "the host has not opened the match")
    if state.over:
        raise RuleViolation("match_over", "the week-8 deadline has passed")
    if name not in PLAYER_COMMANDS:
        raise RuleViolation("unknown_action", f"no player command {name!r}")
    PLAYER_COMMANDS[name](turn, player, args)


def check_actor_is_a_player(state: State, actor: object) -> str:
    if not isinstance(actor, str) or actor not in state.players:
        raise RuleViolation("unknown_player", f"{actor!r} is not a player of this match")
    return actor
