"""Spirit totems owed for a round without a totem (rules 4.3, 6.3, TM-R9-R11, TM-R31)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import RuleViolation
from domain.games.totemic_might import events
from domain.games.totemic_might.draws import draw
from domain.games.totemic_might.turn import Turn

Args = Mapping[str, Any]


def choose_spirit_totem(turn: Turn, player: str, args: Args) -> None:
    state = turn.state
    if state.lone_owed() != player:
        raise RuleViolation("NOT_OWED_SPIRIT_CHOICE",
                            "only a lone player owed a spirit totem chooses it")
    totem = args.get("totem")
    if not isinstance(totem, str) or totem not in state.pool:
        raise RuleViolation("TOTEM_NOT_IN_POOL", "choose one of the pool you were shown")
    turn.emit(events.spirit_choice_made(state.round, player, totem))


def grant_owed_spirits(turn: Turn) -> None:
    """Step 2 of a deadline: the lone player's choice (or `spirit_default`), or one
    `spirit_shared` totem for a group of two or more; an empty pool grants nothing."""
    state = turn.state
    owed, pool, round_number = list(state.owed), list(state.pool), state.round
    if not owed:
        return
    if not pool:
        turn.emit(events.spirit_totem_granted(round_number, owed, [], pool_empty=True))
        return
    lone = state.lone_owed()
    drawn = None
    if lone is None:
        drawn = draw(state.setup, state.seed, pool, "spirit_shared", round_number)
        totem, source = drawn.outcome, "spirit_shared"
    elif state.window.spirit_choice is not None:
        totem, source = state.window.spirit_choice, "choice"
    else:
        drawn = draw(state.setup, state.seed, pool, "spirit_default", round_number, lone)
        totem, source = drawn.outcome, "spirit_default"
    turn.emit(events.spirit_grant_resolved(
        round_number, recipients=owed, totem=totem, source=source,
        draw=drawn.record() if drawn else None,
        pool_after=[other for other in pool if other != totem],
    ))
    turn.emit(events.spirit_totem_granted(round_number, owed, owed, pool_empty=False))
    for player in owed:
        turn.emit(events.spirit_totem_received(round_number, player, totem, lone is None))
