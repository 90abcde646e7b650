"""The field checks shared by the players' commands (rulebook 4.6), each raising its own code.

Rejections go only to the sender and name nothing he did not send or may not know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.errors import RuleViolation

Args = Mapping[str, Any]


def is_integer(value: object) -> bool:
    """AM-R4: an int, never a bool, a float (even 2.0) or a text."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_fields_are_present(args: Args, fields: Sequence[str]) -> None:
    """Check 5: `null` counts as absent."""
    for field in fields:
        if args.get(field) is None:
            raise RuleViolation("missing_field", f"{field} is required")


def check_is_an_object(value: object, field: str) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise RuleViolation("malformed_command", f"{field} must be an object")
    return value


def check_is_a_list(value: object, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise RuleViolation("malformed_command", f"{field} must be a list")
    return value


def check_is_an_integer(value: object, field: str) -> int:
    if not is_integer(value):
        raise RuleViolation("not_an_integer", f"{field} must be a whole number")
    assert isinstance(value, int)
    return value


def check_is_not_negative(value: int, field: str) -> None:
    if value < 0:
        raise RuleViolation("negative_amount", f"{field} cannot be negative")
