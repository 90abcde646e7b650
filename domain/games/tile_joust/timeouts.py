"""`timeout(player)`: the clock's (the host's) command applying the default of rulebook section 6 to
that player's pending decision, so that a replay needs no clock (TJ-R13)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.errors import RuleViolation
from domain.games.tile_joust import auctions, items, jousts, leftovers
from domain.games.tile_joust.state import (
    BIDDING,
    ITEM_PICK,
    ITEM_WINDOW,
    JOUST_STEP,
    LEFTOVER_CHOICE,
    NEXT_TILE,
    State,
)
from domain.games.tile_joust.turn import Turn

Default = Callable[[Turn], None]


def timeout(turn: Turn, args: Mapping[str, Any]) -> None:
    player = args.get("player")
    default = pending_default(turn.state, player)
    if default is None:
        raise RuleViolation("WRONG_PHASE", f"nothing is pending for {player!r}")
    default(turn)


def pending_default(state: State, player: object) -> Default | None:
    """The default for the decision `player` owes now, if they owe one."""
    if not isinstance(player, str) or player not in state.players:
        return None
    phase = state.phase
    if phase == ITEM_PICK and player == state.first_picker:
        return items.pick_by_default
    if phase == BIDDING and player == state.current_auction().to_act:
        return lambda turn: auctions.fold_for(turn, "timeout")
    if phase == NEXT_TILE and player == state.chooser:
        return auctions.choose_by_default
    if phase == LEFTOVER_CHOICE and player == state.chooser:
        return leftovers.keep_by_default
    if phase == ITEM_WINDOW and player in state.current_window().undecided():
        return lambda turn: items.choose_nothing(turn, player)
    if phase == JOUST_STEP and player in state.current_joust().to_act:
        return lambda turn: jousts.pass_by_default(turn, player)
    return None
