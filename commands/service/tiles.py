"""Each match and season log as c2sp.org/tlog-tiles (audit/tiles.py): what `arbiter serve`
answers under /logs/, resource for resource, and `arbiter publish` writes to a folder or a
bucket (commands.service.publishing).

Every log has its prefix, `match/<id>` or `season/<id>` (the id one path segment: see
`segment`), under one root; a season's `arbiter/log.json` names its matches' prefixes
relative to its own, so a tree copied anywhere keeps working.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from audit.bundle import PUBLIC
from audit.checkpoints import leaves
from audit.notes import parse_verifier_key
from audit.season_bundle import header_line
from audit.tiles import CHECKPOINT, TiledLog, parse_path
from audit.tiles_bundle import LOG_JSON, log_document
from commands.service.keys import check_signed_by
from domain.season import Season

if TYPE_CHECKING:
    from commands.service.arbiter import Arbiter

MATCH, SEASON = "match", "season"
# How long a reader may keep each resource: a tile never changes once it exists, a full one or
# a partial one (its width is in its path); the checkpoint and log.json change each round.
IMMUTABLE = "public, max-age=31536000, immutable"
SHORT_LIVED = "public, max-age=5"
TYPES = {CHECKPOINT: "text/plain; charset=utf-8", LOG_JSON: "application/json"}


def media_type(path: str) -> str:
    return TYPES.get(path, "application/octet-stream")


def cache_control(path: str) -> str:
    return SHORT_LIVED if path in TYPES else IMMUTABLE


def segment(name: str) -> str:
    """A match or season id as one path segment, the same in a URL and in a folder: every
    byte but letters, digits and `-._~` percent-encoded, and a leading dot too (no `..`)."""
    encoded = quote(name, safe="-._~")
    return "%2E" + encoded[1:] if encoded.startswith(".") else encoded


def prefix_of(log: str, name: str) -> str:
    return f"{log}/{segment(name)}"


@dataclass(frozen=True)
class TiledView:
    """A log's tiles as its signed checkpoints stand: `size` entries signed by `notes[-1]`."""

    log: str
    name: str
    version: int
    notes: tuple[str, ...]
    sizes: tuple[int, ...]
    tiles: TiledLog
    document: bytes

    @property
    def size(self) -> int:
        return self.sizes[-1] if self.sizes else 0

    def resource(self, path: str) -> bytes | None:
        """The bytes at `path` under the log's prefix, or None when the log has none there."""
        if path == CHECKPOINT:
            return self.notes[-1].encode() if self.notes else None
        if path == LOG_JSON:
            return self.document
        tile = parse_path(path)
        return None if tile is None else self.tiles.tile(tile, self.size)


def match_tiles(app: Arbiter, match_id: str) -> TiledView:
    """A match's tiles, its log.json naming the key that signed it (as its bundle does)."""
    match = app.match(match_id)
    notes = tuple(n["note"] for n in app.checkpoints(match_id).notes)
    sizes = tuple(n["size"] for n in app.checkpoints(match_id).notes)
    entries = [r["entry"] for r in match.records]
    header = next(iter(app.bundle(match_id, PUBLIC)))
    document = log_document(header, notes, entries[sizes[-1] if sizes else 0:])
    return TiledView(MATCH, match_id, match.version, notes, sizes,
                     TiledLog(leaves(entries[:sizes[-1] if sizes else 0])), document)


def season_tiles(app: Arbiter, name: str) -> TiledView:
    """A season's tiles; its log.json names each match's prefix beside it."""
    season = app.season(name)
    notes_of = app.season_checkpoints(name).notes
    notes = tuple(n["note"] for n in notes_of)
    sizes = tuple(n["size"] for n in notes_of)
    key = app.signer.verifier_key() if app.signer else None
    if key is not None:
        check_signed_by(app.signed_notes(name), parse_verifier_key(key))
    header = header_line(season, PUBLIC, key, len(notes))  # no match of it loaded
    entries: list[dict[str, Any]] = [r["entry"] for r in season.records]
    signed = sizes[-1] if sizes else 0
    where = {m: f"../../{prefix_of(MATCH, m)}" for m in season.matches}
    document = log_document(header, notes, entries[signed:], where)
    return TiledView(SEASON, name, season.version, notes, sizes,
                     TiledLog(leaves(entries[:signed])), document)


class Tiles:
    """The tiles of the logs a process serves, each worked out once per signed size: a
    `TiledView` is kept while its log has neither grown nor been signed again (at most
    `KEPT` logs, the least recently asked for dropped first)."""

    KEPT = 64

    def __init__(self, app: Arbiter) -> None:
        self.app = app
        self._views: OrderedDict[tuple[str, str], TiledView] = OrderedDict()
        self._lock = threading.Lock()

    def view(self, log: str, name: str) -> TiledView:
        """The log's tiles as they stand; `unknown_match` / `unknown_season` for no such log."""
        if log == MATCH:
            version, signed = self.app.match(name).version, len(self.app.checkpoints(name).notes)
        else:
            version = self.app.season(name).version
            signed = len(self.app.season_checkpoints(name).notes)
        key = (log, name)
        with self._lock:
            kept = self._views.get(key)
            if kept is not None and (kept.version, len(kept.notes)) == (version, signed):
                self._views.move_to_end(key)
                return kept
        view = match_tiles(self.app, name) if log == MATCH else season_tiles(self.app, name)
        with self._lock:
            self._views[key] = view
            self._views.move_to_end(key)
            while len(self._views) > self.KEPT:
                self._views.popitem(last=False)
        return view


def every_log(app: Arbiter) -> list[tuple[str, str]]:
    """(log, name) of every season in the store, in the order they began, each followed by
    its matches (every match is one season's): the seasons found from the store's index (a
    step per log, however long each is), then only they are loaded."""
    from commands.service.check import stored_aggregates

    logs = []
    for aggregate_id, kind in stored_aggregates(app).items():
        if kind == "Season":
            season: Season = app.repository.get(aggregate_id)
            logs += [(SEASON, season.name), *((MATCH, m) for m in season.matches)]
    return logs
