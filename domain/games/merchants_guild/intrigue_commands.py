"""The week-4 investigations and the week-5 blackmail decisions (rulebook §5.2, MG-R19..R21),
checks in the listed order after the common ones."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import RuleViolation
from domain.games.merchants_guild import events
from domain.games.merchants_guild.checks import check_can_afford, check_is_target, check_week_is
from domain.games.merchants_guild.guild import (
    BLACKMAIL_WEEK,
    EXTRA_INVESTIGATION_PRICE,
    HOUSES,
    INVESTIGATED_HOUSES,
    INVESTIGATION_WEEK,
)
from domain.games.merchants_guild.state import State
from domain.games.merchants_guild.turn import Turn

Args = Mapping[str, Any]


def investigate(turn: Turn, actor: str, args: Args) -> None:
    """The free investigation: replaceable during week 4."""
    state = turn.state
    target, houses = check_investigation(state, actor, args)
    if target in extra_targets(state, actor):
        raise RuleViolation("duplicate_investigation_target", f"your extra one targets {target}")
    turn.emit(events.investigation_submitted(state.week, actor, target, houses, False, 0))


def extra_investigate(turn: Turn, actor: str, args: Args) -> None:
    """5 garnets, irrevocable, on another player than the free one (MG-R20)."""
    state = turn.state
    target, houses = check_investigation(state, actor, args)
    if len(state.extras.get(actor, ())) >= state.setup.max_extra_investigations:
        raise RuleViolation("investigation_limit", "you have bought your extra investigation")
    free = state.investigations.get(actor)
    if target in extra_targets(state, actor) or (free and free.target == target):
        raise RuleViolation("duplicate_investigation_target", f"you investigate {target} already")
    check_can_afford(turn, actor, EXTRA_INVESTIGATION_PRICE)
    turn.emit(
        events.investigation_submitted(
            state.week, actor, target, houses, True, EXTRA_INVESTIGATION_PRICE
        )
    )


def check_investigation(state: State, actor: str, args: Args) -> tuple[str, list[str]]:
    check_week_is(state, INVESTIGATION_WEEK)
    target = check_is_target(state, args.get("target"))
    if target == actor:
        raise RuleViolation("cannot_target_self", "investigate another player")
    return target, check_houses(args.get("houses"))


def check_houses(value: object) -> list[str]:
    if (
        not isinstance(value, list)
        or len(value) != INVESTIGATED_HOUSES
        or any(not isinstance(house, str) or house not in HOUSES for house in value)
        or len(set(value)) != INVESTIGATED_HOUSES
    ):
        raise RuleViolation("invalid_houses", f"name 3 distinct houses of {', '.join(HOUSES)}")
    return list(value)


def extra_targets(state: State, player: str) -> list[str]:
    return [extra.target for extra in state.extras.get(player, ())]


def blackmail(turn: Turn, actor: str, args: Args) -> None:
    """Replaces the actor's decision on this target; without one, nothing happens (MG-R21)."""
    state = turn.state
    check_week_is(state, BLACKMAIL_WEEK)
    target = check_is_target(state, args.get("target"))
    if (actor, target) not in state.rights:
        raise RuleViolation("no_blackmail_right", f"you found no full match on {target}")
    proceed = args.get("proceed")
    if not isinstance(proceed, bool):
        raise RuleViolation("invalid_decision", "proceed is true or false")
    turn.emit(events.blackmail_decided(state.week, actor, target, proceed))
