"""Roles, the annoyed pair, name lists, and the Judge's view of them (rulebook section 4, KC-R3)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

KING, DUKE, NOBLE = "king", "duke", "noble"
TEAM_ROLES = (DUKE, NOBLE)
LIST_LENGTH = 3


class JudgeSettings(Protocol):
    """The Setup options that decide where the Judge lies (KC-R3, KC-R13, KC-R27)."""

    # read-only properties, so that a frozen Setup with Literal options matches
    @property
    def annoyed_scope(self) -> str: ...
    @property
    def lists_use(self) -> str: ...
    @property
    def lists_may_include_king(self) -> bool: ...
    @property
    def peek_uses_judge_view(self) -> bool: ...


@dataclass(frozen=True)
class Secrets:
    """What one game hides: every role, the annoyed Duke and Noble, and every name list."""

    roles: Mapping[str, str]
    annoyed_duke: str
    annoyed_noble: str
    lists: Mapping[str, tuple[str, ...]]

    @property
    def king(self) -> str:
        return next(player for player, role in self.roles.items() if role == KING)

    def judge(self, player: str) -> str:
        """The Judge's claim: the annoyed Duke and Noble are swapped, the King is the King."""
        if player == self.annoyed_duke:
            return NOBLE
        if player == self.annoyed_noble:
            return DUKE
        return self.roles[player]

    def shown(self, player: str, judge_lies: bool) -> str:
        return self.judge(player) if judge_lies else self.roles[player]

    def team(self, role: str, seat_order: Iterable[str]) -> list[str]:
        return [player for player in seat_order if self.roles[player] == role]


def judge_lies_in_looks(settings: JudgeSettings) -> bool:
    """The King's opening look counts as a check (KC-R3 variants)."""
    return settings.annoyed_scope != "pair_checks_only"


def judge_lies_in_peeks(settings: JudgeSettings) -> bool:
    return settings.peek_uses_judge_view and settings.annoyed_scope != "pair_checks_only"


def judge_lies_in_lists(settings: JudgeSettings) -> bool:
    """Lists follow the Judge only when both KC-R3 and KC-R13 say so (the narrower wins)."""
    return settings.lists_use == "judge_view" and settings.annoyed_scope == "all_judge_info"


def list_is_valid(names: Iterable[str], view: Callable[[str], str], king_allowed: bool) -> bool:
    """A name list holds at least one Duke and one Noble as `view` shows them (KC-R13)."""
    shown = [view(name) for name in names]
    if KING in shown and not king_allowed:
        return False
    return DUKE in shown and NOBLE in shown


def list_view(secrets: Secrets, settings: JudgeSettings) -> Callable[[str], str]:
    lying = judge_lies_in_lists(settings)
    return lambda player: secrets.shown(player, lying)
