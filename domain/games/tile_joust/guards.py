"""Checks shared by several commands. Each raises the rulebook's code (section 5) and names
nothing the sender does not already know."""

from __future__ import annotations

from typing import TypeGuard

from domain.errors import RuleViolation
from domain.games.tile_joust.state import State


def check_phase_is(state: State, phase: str, command: str) -> None:
    """Any command outside its moment is WRONG_PHASE."""
    if state.phase != phase:
        raise RuleViolation("WRONG_PHASE", f"{command} is not open now ({state.phase})")


def check_is_the_chooser(state: State, player: str) -> None:
    if player != state.chooser:
        raise RuleViolation("NOT_YOUR_CHOICE", f"this choice is {state.chooser}'s")


def is_whole_number(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
