"""decide(state, command) -> events: who may send what, then the command's own checks in the
rulebook's order, then `flow.advance` runs everything that follows without a decision.

decide never mutates `state` and raises nothing but RuleViolation, whatever the command holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.decider import HOST, Command, Event
from domain.errors import RuleViolation
from domain.games.tile_joust import auctions, items, jousts, leftovers, opening, timeouts
from domain.games.tile_joust.flow import advance
from domain.games.tile_joust.guards import check_phase_is
from domain.games.tile_joust.state import NOT_STARTED
from domain.games.tile_joust.turn import Turn

Args = Mapping[str, Any]
PlayerCommand = Callable[[Turn, str, Args], None]

PLAYER_COMMANDS: dict[str, PlayerCommand] = {
    "pick_item": items.pick_item,
    "bid": auctions.bid,
    "fold": auctions.fold,
    "choose_next_tile": auctions.choose_next_tile,
    "keep_leftover": leftovers.keep_leftover,
    "use_items": items.use_items,
    "submit_tile": jousts.submit_tile,
    "pass": jousts.pass_step,
}
HOST_COMMANDS = ("open_match", "timeout")


def decide(state: Any, command: Command) -> list[Event]:
    turn = Turn(state)
    args = command.args if isinstance(command.args, Mapping) else {}
    name = command.name if isinstance(command.name, str) else None
    if command.actor == HOST:
        decide_for_host(turn, name, args)
    else:
        decide_for_player(turn, command.actor, name, args)
    advance(turn)
    return turn.events


def decide_for_host(turn: Turn, name: str | None, args: Args) -> None:
    if name in PLAYER_COMMANDS:
        raise RuleViolation("NOT_A_PLAYER", f"{name} is a player's command")
    if name == "open_match":
        check_phase_is(turn.state, NOT_STARTED, "open_match")
        opening.open_match(turn)
    elif name == "timeout":
        timeouts.timeout(turn, args)
    else:
        raise RuleViolation("UNKNOWN_COMMAND", f"no host command {name!r}")


def decide_for_player(turn: Turn, actor: object, name: str | None, args: Args) -> None:
    if not isinstance(actor, str) or actor not in turn.state.players:
        raise RuleViolation("NOT_A_PLAYER", f"{actor!r} does not play in this match")
    if name in HOST_COMMANDS:
        raise RuleViolation("HOST_ONLY", f"only the host may {name}")
    if name not in PLAYER_COMMANDS:
        raise RuleViolation("UNKNOWN_COMMAND", f"no player command {name!r}")
    PLAYER_COMMANDS[name](turn, actor, args)
