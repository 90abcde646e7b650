"""The trial scale (rules 4.4, 6.4, TM-R12): private weighings of the pieces a player holds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from domain.errors import RuleViolation
from domain.games.totemic_might import events
from domain.games.totemic_might.grid import BALLOON, SPIRIT, TRIAL, parse_token, trial_totems
from domain.games.totemic_might.state import Holdings, State
from domain.games.totemic_might.turn import Turn

Args = Mapping[str, Any]

LEFT_HEAVIER, RIGHT_HEAVIER, BALANCED = "LEFT_HEAVIER", "RIGHT_HEAVIER", "BALANCED"


def net_weight(state: State, held: Holdings, tokens: Sequence[str]) -> int:
    """Of validated tokens: totem pieces add their weight, balloons take off their lift; the
    net may go below zero."""
    total = 0
    for value in tokens:
        kind, _, name = value.partition(":")
        balloon = held.balloon(name) if kind == BALLOON else None
        total += -balloon.lift if balloon else state.weights[name]
    return total


def compare(left: int, right: int) -> str:
    if left == right:
        return BALANCED
    return LEFT_HEAVIER if left > right else RIGHT_HEAVIER


# Guards, in the order of 4.4


def check_has_a_weighing_left(state: State, player: str) -> None:
    if len(state.window.weighed(player)) >= state.setup.weighings_per_round:
        raise RuleViolation("WEIGHING_LIMIT",
                            f"{state.setup.weighings_per_round} weighings a round")


def side(value: object) -> list[object] | None:
    """A side as given: a missing side is empty; anything but a list is malformed (None)."""
    if value is None:
        return []
    return list(value) if isinstance(value, list) else None


def check_something_is_weighed(left: list[object] | None, right: list[object] | None) -> None:
    if left == [] and right == []:
        raise RuleViolation("EMPTY_WEIGHING", "put something on the scale")


def check_each_token(state: State, player: str, tokens: list[object] | None) -> list[str]:
    if tokens is None:
        raise RuleViolation("UNKNOWN_PIECE", "each side is a list of piece tokens")
    held = state.held(player)
    for value in tokens:
        parsed = parse_token(value)
        if parsed is None or parsed[0] not in (SPIRIT, TRIAL, BALLOON):
            raise RuleViolation("UNKNOWN_PIECE", f"{value!r} is not a piece you can weigh")
        kind, name = parsed
        if kind == SPIRIT and name not in held.spirits:
            raise RuleViolation("PIECE_NOT_HELD", f"you hold no spirit totem {name}")
        if kind == BALLOON and not may_weigh_balloon(state, held, name):
            raise RuleViolation("PIECE_NOT_HELD", f"you cannot weigh balloon {name}")
    return [str(value) for value in tokens]


def may_weigh_balloon(state: State, held: Holdings, balloon_id: str) -> bool:
    return state.setup.balloons_on_trial_scale and held.balloon(balloon_id) is not None


def check_no_piece_twice(tokens: list[str]) -> None:
    """Spirit totems and balloons are single pieces; trial copies are counted below."""
    unique = [t for t in tokens if not t.startswith(f"{TRIAL}:")]
    if len(unique) != len(set(unique)):
        raise RuleViolation("DUPLICATE_PIECE", "a spirit totem or balloon is one piece")


def check_copies_are_free(state: State, player: str, tokens: list[str]) -> None:
    held, window = state.held(player), state.window
    wanted = Counter(trial_totems(tokens))
    locked = window.committed_copies(player)
    for totem, count in wanted.items():  # in order of first appearance
        if count > held.copies(totem):
            raise RuleViolation("PIECE_NOT_HELD", f"you hold {held.copies(totem)} of {totem}")
        if count > held.copies(totem) - locked[totem]:
            raise RuleViolation("PIECE_LOCKED", f"copies of {totem} are promised in a transfer")


# Command


def weigh(turn: Turn, player: str, args: Args) -> None:
    state = turn.state
    check_has_a_weighing_left(state, player)
    left, right = side(args.get("left")), side(args.get("right"))
    check_something_is_weighed(left, right)
    left_tokens = check_each_token(state, player, left)
    right_tokens = check_each_token(state, player, right)
    every = [*left_tokens, *right_tokens]
    check_no_piece_twice(every)
    check_copies_are_free(state, player, every)
    result = None
    if state.setup.weighing_results == "immediate":
        result = weighing_result(state, player, left_tokens, right_tokens)
    use = len(state.window.weighed(player)) + 1
    turn.emit(
        events.weighing_performed(state.round, player, use, left_tokens, right_tokens, result)
    )


def weighing_result(state: State, player: str, left: Sequence[str], right: Sequence[str]) -> str:
    held = state.held(player)
    return compare(net_weight(state, held, left), net_weight(state, held, right))


def deadline_answers(state: State, player: str) -> list[dict[str, Any]]:
    """Variant `weighing_results = at_deadline`: every weighing of the round, answered now."""
    return [
        {"use": use, "left": list(left), "right": list(right),
         "result": weighing_result(state, player, left, right)}
        for use, (left, right) in enumerate(state.window.weighed(player), start=1)
    ]
