"""The first line of a bundle, read strictly: a match bundle's `Header`, a season bundle's
`SeasonHeader` (docs/audit.md has every field).

Each field has exactly its JSON type (a count is an integer, never its text or a boolean), no
field the format does not name, every required one present, and a header once read cannot be
changed. Plain checks rather than a validation library: `arbiter verify` reads a header first,
and an auditor who verifies many bundles pays for every import on each run.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from audit.checkpoints import is_origin_of

MAX_SAFE_INTEGER = 2**53 - 1
MATCH_FORMAT, SEASON_FORMAT = "arbiter-bundle/1", "arbiter-season-bundle/1"
_HEX64 = re.compile(r"[0-9a-f]{64}")
_ABSENT = object()


class HeaderError(ValueError):
    """A header that is not one: `field` names where (empty for the whole header)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field or 'header'}: {message}")
        self.field = field
        self.message = message


Check = Callable[[Any], str | None]  # None when the value is fine, else what it must be


def text(value: Any) -> str | None:
    return None if isinstance(value, str) else "must be a string"


def texts(value: Any) -> str | None:
    ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    return None if ok else "must be a list of strings"


def hex64(value: Any) -> str | None:
    ok = isinstance(value, str) and _HEX64.fullmatch(value) is not None
    return None if ok else "must be 64 lower-case hex digits"


def count(least: int) -> Check:
    def check(value: Any) -> str | None:
        ok = type(value) is int and least <= value <= MAX_SAFE_INTEGER
        return None if ok else f"must be an integer from {least} to {MAX_SAFE_INTEGER}"
    return check


def one_of(*allowed: Any) -> Check:
    def check(value: Any) -> str | None:
        ok = any(value == a and type(value) is type(a) for a in allowed)
        return None if ok else f"must be {' or '.join(repr(a) for a in allowed)}"
    return check


def nullable(check: Check) -> Check:
    def checked(value: Any) -> str | None:
        return None if value is None else check(value)
    return checked


H = TypeVar("H", bound="Strict")


class Strict:
    """A frozen dataclass read from a JSON object field by field (`CHECKS`)."""

    CHECKS: ClassVar[dict[str, Check]] = {}

    @classmethod
    def read(cls: type[H], value: Any) -> H:
        """The header `value` holds; HeaderError naming the first field that is wrong."""
        if not isinstance(value, dict):
            raise HeaderError("", "must be an object")
        known = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        for name in value:
            if name not in known:
                raise HeaderError(str(name), "is not a field of the header")
        for name, field in known.items():
            found = value.get(name, _ABSENT)
            if found is _ABSENT:
                if field.default is dataclasses.MISSING:
                    raise HeaderError(name, "is required")
                continue
            wrong = cls.CHECKS[name](found)
            if wrong is not None:
                raise HeaderError(name, wrong)
        header = cls(**value)
        header.check()
        return header

    def check(self) -> None:
        """What no single field says (each kind of header adds its own)."""


@dataclass(frozen=True)
class Header(Strict):
    """A match bundle's first line: what match this is, what it committed to, who signs it."""

    format: str
    kind: str
    match: str
    origin: str
    game: str
    rules_version: str
    season: str
    players: list[str]
    seed_commitment: str
    setup_commitment: str
    host_key: str | None
    entries: int
    checkpoints: int | None = None
    host_seed: str | None = None
    salt_key: str | None = None
    weak_seed: bool | None = None
    unsigned: bool | None = None

    CHECKS: ClassVar[dict[str, Check]] = {
        "format": one_of(MATCH_FORMAT), "kind": one_of("public", "full"),
        "match": text, "origin": text, "game": text, "rules_version": text, "season": text,
        "players": texts, "seed_commitment": hex64, "setup_commitment": hex64,
        "host_key": nullable(text), "entries": count(2), "checkpoints": nullable(count(0)),
        "host_seed": nullable(text), "salt_key": nullable(hex64),
        "weak_seed": nullable(one_of(True)), "unsigned": nullable(one_of(True)),
    }

    def check(self) -> None:
        has_secrets = (self.host_seed is not None, self.salt_key is not None)
        if has_secrets != ((True, True) if self.kind == "full" else (False, False)):
            raise HeaderError("", "a full bundle has host_seed and salt_key, a public one "
                              "neither")
        if not is_origin_of(self.origin, "match", self.match):
            raise HeaderError("origin", f"must be PREFIX/match/{self.match}")

    def secrets(self) -> tuple[str, str]:
        """A full bundle's host seed and salt key (`check` made sure of both)."""
        assert self.host_seed is not None and self.salt_key is not None, "a public bundle"
        return self.host_seed, self.salt_key


@dataclass(frozen=True)
class SeasonHeader(Strict):
    """A season bundle's first line: which season, under which origin, its matches, who signs."""

    format: str
    kind: str
    season: str
    origin: str
    matches: list[str]
    host_key: str | None
    entries: int
    checkpoints: int | None = None
    salt_key: str | None = None

    CHECKS: ClassVar[dict[str, Check]] = {
        "format": one_of(SEASON_FORMAT), "kind": one_of("public", "full"),
        "season": text, "origin": text, "matches": texts, "host_key": nullable(text),
        "entries": count(1), "checkpoints": nullable(count(0)), "salt_key": nullable(hex64),
    }

    def check(self) -> None:
        if (self.salt_key is not None) != (self.kind == "full"):
            raise HeaderError("", "a full bundle has the season's salt_key, a public one none")
        if not is_origin_of(self.origin, "season", self.season):
            raise HeaderError("origin", f"must be PREFIX/season/{self.season}")
        if len(set(self.matches)) != len(self.matches):
            raise HeaderError("matches", "must be distinct")

    @property
    def prefix(self) -> str:
        return self.origin[:-len(f"/season/{self.season}")]
