"""The public grid (rules 2.2): four seasons by five sigils, one totem per cell, and the piece
tokens players write (`S:` spirit totem, `T:` trial copy, `B:` balloon, `C:` final copy)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeGuard

SEASONS = ("Summer", "Void", "Spring", "Winter")
SIGILS = ("Secret", "Creature", "Future", "Land", "Sky")
TOTEMS = tuple(f"{season}-{sigil}" for season in SEASONS for sigil in SIGILS)  # canonical order
GARNET = "GARNET"
SERIES = ("A", "B")
LETTERS = tuple("ABCDEFGHIJ")

SPIRIT, TRIAL, BALLOON, COPY = "S", "T", "B", "C"

_PLACE = {totem: index for index, totem in enumerate(TOTEMS)}


def is_totem(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and value in _PLACE


def season_of(totem: str) -> str:
    return totem.split("-")[0]


def sigil_of(totem: str) -> str:
    return totem.split("-")[1]


def canonical(totems: Iterable[str]) -> list[str]:
    """Totems in the grid's row-major order."""
    return sorted(totems, key=_PLACE.__getitem__)


def series_items(totems: Iterable[str]) -> list[str]:
    """The six items of a series in canonical order, `GARNET` last (rules 2.4, `pick`)."""
    return [*canonical(totems), GARNET]


def token(kind: str, name: str) -> str:
    return f"{kind}:{name}"


def trial_totems(tokens: Iterable[str]) -> list[str]:
    """The totem of every `T:` token among already validated tokens, one per copy."""
    return [t.removeprefix(f"{TRIAL}:") for t in tokens if t.startswith(f"{TRIAL}:")]


def parse_token(value: object) -> tuple[str, str] | None:
    """(kind, name) of a well-formed piece token, or None. Totem kinds must name a grid totem;
    a balloon token any non-empty id."""
    if not isinstance(value, str) or value[1:2] != ":":
        return None
    kind, name = value[0], value[2:]
    if kind in (SPIRIT, TRIAL, COPY):
        return (kind, name) if is_totem(name) else None
    if kind == BALLOON:
        return (kind, name) if name else None
    return None
