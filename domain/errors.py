"""Typed errors of the domain: a rejected command raises one and records nothing."""

from __future__ import annotations


class RuleViolation(Exception):
    """A command broke a rule. `code` is the rules file's error code."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message or code

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleViolation) and (self.code, self.message) == (
            other.code,
            other.message,
        )

    def __hash__(self) -> int:
        return hash((self.code, self.message))
