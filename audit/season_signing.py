"""What the host signs after each change of a season: a C2SP checkpoint of the season log whose
extension lines pin the public standings and the latest checkpoint of each of its matches, so
one signed note pins the whole season.

    <prefix>/season/<id>
    <size>
    <base64 Merkle root>
    standings <hex SHA-256 of the public standings>
    match <size> <base64 root> <match id>        one line per match with a checkpoint

The match lines come in the order the matches were added; the id comes last, so an id may hold
anything a checkpoint line may.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from audit.canonical import canonical, entry_bytes
from audit.checkpoints import leaves
from audit.errors import AuditError
from audit.keys import Signer
from audit.merkle import TreeBuilder, root
from audit.notes import checkpoint_body, parse_checkpoint, parse_note
from domain.season import Season, public_standings

STANDINGS_PREFIX = b"arbiter/standings/v1\n"
_STANDINGS = re.compile(r"standings ([0-9a-f]{64})")
_MATCH = re.compile(r"match (0|[1-9][0-9]{0,15}) ([A-Za-z0-9+/]{43}=) (.+)")


class MatchMark(NamedTuple):
    """A match's checkpoint as a season checkpoint names it."""

    match: str
    size: int
    root: str  # base64, as the match's own note spells it


class SeasonClose(NamedTuple):
    standings: str
    matches: tuple[MatchMark, ...]


def standings_hash(standings: dict[str, Any]) -> str:
    return hashlib.sha256(STANDINGS_PREFIX + canonical(standings)).hexdigest()


def mark_of(match: str, note: str) -> MatchMark:
    """The size and root a match's signed note claims."""
    return MatchMark(match, *_size_and_root(note))


@lru_cache(maxsize=4096)
def _size_and_root(note: str) -> tuple[int, str]:
    text = parse_note(note).text
    return parse_checkpoint(text).size, text.split("\n")[2]


def extensions(standings: str, marks: list[MatchMark]) -> list[str]:
    return [f"standings {standings}", *(f"match {m.size} {m.root} {m.match}" for m in marks)]


def parse_season_extensions(lines: tuple[str, ...]) -> SeasonClose:
    """Exactly the lines `extensions` writes, or malformed_checkpoint."""
    if not lines or not (found := _STANDINGS.fullmatch(lines[0])):
        raise AuditError("malformed_checkpoint", "a season checkpoint's first extension line is "
                         "'standings HEX'")
    marks = []
    for line in lines[1:]:
        match = _MATCH.fullmatch(line)
        if match is None:
            raise AuditError("malformed_checkpoint", f"expected 'match SIZE ROOT ID', got "
                             f"{line[:80]!r}")
        marks.append(MatchMark(match[3], int(match[1]), match[2]))
    return SeasonClose(found[1], tuple(marks))


def season_checkpoint_text(season: Season, latest: Mapping[str, str],
                           log_root: bytes | None = None) -> str:
    """The checkpoint body for `season`'s log as it stands; `latest` maps a match id to its
    latest signed note (matches without one are left out); `log_root`, the log's Merkle root
    when the caller keeps it."""
    if log_root is None:
        log_root = root(leaves(record["entry"] for record in season.records))
    marks = [mark_of(match, latest[match]) for match in season.matches if match in latest]
    return checkpoint_body(season.origin, season.version, log_root,
                           extensions(standings_hash(public_standings(season)), marks))


def sign_season(signer: Signer, season: Season, latest: Mapping[str, str],
                log_root: bytes | None = None) -> str:
    return signer.sign_note(season_checkpoint_text(season, latest, log_root))


class SeasonTree:
    """A season log's Merkle root kept leaf by leaf between changes, so signing after each one
    does not re-hash the whole season. Starts over if the log it saw is not a prefix of the
    one it is given (an evicted change)."""

    def __init__(self) -> None:
        self.tree = TreeBuilder()
        self.last: str | None = None

    def root(self, season: Season) -> bytes:
        size = self.tree.size
        if size > len(season.records) or (size and
                                          season.records[size - 1]["entry"]["hash"] != self.last):
            self.tree, size = TreeBuilder(), 0
        for record in season.records[size:]:
            self.tree.append(entry_bytes(record["entry"]))
        self.last = season.records[-1]["entry"]["hash"]
        return self.tree.root()
