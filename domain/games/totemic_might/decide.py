"""decide(state, command) -> events: the common checks of section 4 (UNKNOWN_PLAYER, then
UNKNOWN_COMMAND, then WRONG_PHASE), then the command's own, in the rulebook's order.

decide never mutates `state` and raises nothing but RuleViolation, whatever the command holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.decider import HOST, Command, Event
from domain.errors import RuleViolation
from domain.games.totemic_might import bidding, challenge, spirits, transfers, wagers
from domain.games.totemic_might.deadline import close_round, open_match
from domain.games.totemic_might.scale import weigh
from domain.games.totemic_might.state import (
    AUCTION,
    FINAL_CHALLENGE,
    FINAL_WEIGHING,
    NOT_STARTED,
)
from domain.games.totemic_might.turn import Turn

Args = Mapping[str, Any]
PlayerCommand = Callable[[Turn, str, Args], None]
HostCommand = Callable[[Turn, Args], None]

AUCTION_ONLY = (AUCTION,)
WEIGHING_ROUNDS = (AUCTION, FINAL_WEIGHING)
CHALLENGE_ONLY = (FINAL_CHALLENGE,)

# Each command with the phases in which its window is open (else WRONG_PHASE).
PLAYER_COMMANDS: dict[str, tuple[tuple[str, ...], PlayerCommand]] = {
    "place_bet": (AUCTION_ONLY, bidding.place_bet),
    "set_pick_order": (AUCTION_ONLY, bidding.set_pick_order),
    "choose_spirit_totem": (WEIGHING_ROUNDS, spirits.choose_spirit_totem),
    "weigh": (WEIGHING_ROUNDS, weigh),
    "place_wager": (WEIGHING_ROUNDS, wagers.place_wager),
    "cancel_wager": (WEIGHING_ROUNDS, wagers.cancel_wager),
    "give": (AUCTION_ONLY, transfers.give),
    "propose_trade": (AUCTION_ONLY, transfers.propose_trade),
    "cancel_transfer": (AUCTION_ONLY, transfers.cancel_transfer),
    "attempt_balance": (CHALLENGE_ONLY, challenge.attempt_balance),
    "guess_starting_totem": (CHALLENGE_ONLY, challenge.guess_starting_totem),
    "withdraw_guess": (CHALLENGE_ONLY, challenge.withdraw_guess),
}
HOST_COMMANDS: dict[str, tuple[tuple[str, ...], HostCommand]] = {
    "open_match": ((NOT_STARTED,), open_match),
    "deadline": (WEIGHING_ROUNDS, close_round),
    "final_deadline": (CHALLENGE_ONLY, challenge.close_challenge),
}


def decide(state: Any, command: Command) -> list[Event]:
    turn = Turn(state, command.garnets)
    args = command.args if isinstance(command.args, Mapping) else {}
    name = command.name if isinstance(command.name, str) else None
    if command.actor == HOST:
        phases, host_command = check_host_command(name)
        check_window_is_open(turn, name, phases)
        host_command(turn, args)
    else:
        player = check_actor_is_a_player(turn, command.actor)
        phases, player_command = check_player_command(name)
        check_window_is_open(turn, name, phases)
        player_command(turn, player, args)
    return turn.events


def check_actor_is_a_player(turn: Turn, actor: object) -> str:
    if not isinstance(actor, str) or actor not in turn.state.players:
        raise RuleViolation("UNKNOWN_PLAYER", f"{actor!r} is not a player of this match")
    return actor


def check_host_command(name: str | None) -> tuple[tuple[str, ...], HostCommand]:
    if name in PLAYER_COMMANDS:
        raise RuleViolation("UNKNOWN_PLAYER", f"{name} is a player command; the host is not one")
    if name not in HOST_COMMANDS:
        raise RuleViolation("UNKNOWN_COMMAND", f"no host command {name!r}")
    return HOST_COMMANDS[name]


def check_player_command(name: str | None) -> tuple[tuple[str, ...], PlayerCommand]:
    if name not in PLAYER_COMMANDS:
        raise RuleViolation("UNKNOWN_COMMAND", f"no player command {name!r}")
    return PLAYER_COMMANDS[name]


def check_window_is_open(turn: Turn, name: str | None, phases: tuple[str, ...]) -> None:
    if turn.state.phase not in phases:
        raise RuleViolation("WRONG_PHASE", f"{name} is not open in the {turn.state.phase} phase")
