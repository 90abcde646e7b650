"""decide(state, command) -> events: the common checks of rulebook 4.6 (1-4), then the command's
own. decide never mutates `state` and raises nothing but RuleViolation, whatever it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from domain.decider import HOST, Command, Event
from domain.errors import RuleViolation
from domain.games.amalgamation import player_commands, pregame, rounds, scoring
from domain.games.amalgamation.guards import Args
from domain.games.amalgamation.state import EC_DECISION, NOT_STARTED, PREGAME, ROUND, State
from domain.games.amalgamation.turn import Turn

Run = Callable[[Turn, str, Args], None]
MaySend = Callable[[State, str], bool]


@dataclass(frozen=True)
class Rule:
    """When a command is accepted, who may send it, and what it does."""

    phase: str
    by_host: bool
    may_send: MaySend
    who: str  # named in the refusal
    run: Run


def anyone(state: State, actor: str) -> bool:
    return True


def the_host(state: State, actor: str) -> bool:
    return actor == HOST


def the_mm_winner(state: State, actor: str) -> bool:
    return actor == state.setup.mm_winner


def the_dm_winner(state: State, actor: str) -> bool:
    return actor == state.setup.dm_winner


def a_winner(state: State, actor: str) -> bool:
    return actor in state.ending().winners


def host_rule(phase: str, run: Run) -> Rule:
    return Rule(phase, True, the_host, "the host", run)


def player_rule(phase: str, run: Run, may_send: MaySend = anyone, who: str = "a player") -> Rule:
    return Rule(phase, False, may_send, who, run)


RULES: dict[str, Rule] = {
    "open_match": host_rule(NOT_STARTED, pregame.open_match),
    "submit_garnet_rate": player_rule(PREGAME, player_commands.submit_garnet_rate),
    "submit_ma_order": player_rule(
        PREGAME, player_commands.submit_ma_order, the_mm_winner, "the MM winner"
    ),
    "submit_teams": player_rule(
        PREGAME, player_commands.submit_teams, the_dm_winner, "the DM winner"
    ),
    "close_pregame": host_rule(PREGAME, pregame.close_pregame),
    "submit_round": player_rule(ROUND, player_commands.submit_round),
    "close_round": host_rule(ROUND, rounds.close_round),
    "choose_ec": player_rule(EC_DECISION, player_commands.choose_ec, a_winner, "a winner"),
    "close_ec_decision": host_rule(EC_DECISION, scoring.close_ec_decision),
}


def decide(state: State, command: Command) -> list[Event]:
    turn = Turn(state, command.garnets)
    actor = command.actor
    args: Mapping[str, Any] = command.args if isinstance(command.args, Mapping) else {}
    check_actor_is_known(state, actor)
    rule = check_command_is_known(command.name)
    check_host_is_not_playing(rule, actor)
    check_phase_accepts(state, rule, command.name)
    check_actor_may_send(state, rule, actor, command.name)
    rule.run(turn, actor, args)
    return turn.events


def check_actor_is_known(state: State, actor: object) -> None:
    if actor != HOST and (not isinstance(actor, str) or actor not in state.players):
        raise RuleViolation("unknown_player", f"{actor!r} is not a player of this match")


def check_command_is_known(name: object) -> Rule:
    if not isinstance(name, str) or name not in RULES:
        raise RuleViolation("malformed_command", f"no command {name!r}")
    return RULES[name]


def check_host_is_not_playing(rule: Rule, actor: str) -> None:
    """The host is not one of the six: a player's command from him is check 1's refusal."""
    if actor == HOST and not rule.by_host:
        raise RuleViolation("unknown_player", "the host is not a player of this match")


def check_phase_accepts(state: State, rule: Rule, name: str) -> None:
    if state.phase != rule.phase:
        raise RuleViolation(
            "phase_closed", f"{name} is accepted in the {rule.phase} phase; it is {state.phase}"
        )


def check_actor_may_send(state: State, rule: Rule, actor: str, name: str) -> None:
    if not rule.may_send(state, actor):
        raise RuleViolation("not_authorized", f"only {rule.who} may {name}")
