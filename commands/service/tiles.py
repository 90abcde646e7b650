"""Each match and season log as c2sp.org/tlog-tiles (audit/tiles.py): what `arbiter serve`
answers under /logs/ and `arbiter publish` writes to a folder, resource for resource.

Every log has its prefix, `match/<id>` or `season/<id>` (the id one path segment: see
`segment`), under one root; a season's `arbiter/log.json` names its matches' prefixes
relative to its own, so a tree copied anywhere keeps working.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from audit.bundle import PUBLIC
from audit.checkpoints import leaves
from audit.notes import parse_verifier_key
from audit.tiles import CHECKPOINT, Tile, TiledLog, parse_path, tiles_of
from audit.tiles_bundle import LOG_JSON, log_document
from commands.service.keys import check_signed_by
from domain.errors import RuleViolation
from domain.match import Match
from domain.season import Season

if TYPE_CHECKING:
    from commands.service.arbiter import Arbiter

MATCH, SEASON = "match", "season"


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

    def published(self) -> Iterator[tuple[Tile, bytes]]:
        """Every tile a static copy holds: the full tiles of the last signed size, and the
        partial tiles of every signed size (c2sp.org/tlog-tiles asks for those) but the ones
        a full tile now holds (it lets a log delete those: a client reads the full tile)."""
        seen: set[Tile] = set()
        for size in self.sizes:
            for tile in tiles_of(size):
                superseded = not tile.full and Tile(tile.level, tile.index).covered() <= self.size
                if tile not in seen and (size == self.size or not tile.full) and not superseded:
                    seen.add(tile)
                    data = self.tiles.tile(tile, self.size)
                    assert data is not None  # tiles_of(size) names tiles within size
                    yield tile, data


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
    header = next(iter(app.season_bundle(name, PUBLIC, key)))
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


@dataclass
class Published:
    """What `publish` did to one log's folder."""

    log: str
    name: str
    size: int
    entries: int
    written: int = 0
    kept: int = 0


def up_to_date(app: Arbiter, log: str, name: str, root: Path) -> Published | None:
    """What `root` holds of the log, when it is the store's log as it stands (the same signed
    checkpoints, as many entries): nothing to publish; None otherwise."""
    folder = root / prefix_of(log, name)
    try:
        document = json.loads((folder / LOG_JSON).read_bytes())
        checkpoint = (folder / CHECKPOINT).read_text() if document["notes"] else None
        notes, tail = document["notes"], document["tail"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    signed = app.checkpoints(name).notes if log == MATCH else \
        app.season_checkpoints(name).notes
    aggregate = Match.create_id(name) if log == MATCH else Season.create_id(name)
    version = app.stored_versions([aggregate])[0]
    size = signed[-1]["size"] if signed else 0
    if notes != [n["note"] for n in signed] or checkpoint != (notes[-1] if notes else None) \
            or not isinstance(tail, list) or size + len(tail) != version:
        return None
    return Published(log, name, size, version)


def publish(view: TiledView, root: Path) -> Published:
    """Write the log's tiles under `root/<log>/<id>/`, as `arbiter serve` serves them.

    Incremental: a tile already there is left as it is (never rewritten), after checking it
    holds the same bytes (`tile_conflict` otherwise: the folder holds another history of this
    log, and nothing is written); the partial tiles a new full tile holds are removed. Each
    file is written whole and renamed into place, the tiles first, then log.json, then the
    checkpoint, so a reader that finds a checkpoint finds every tile it needs."""
    folder = root / prefix_of(view.log, view.name)
    done = Published(view.log, view.name, view.size, view.version)
    fresh: list[tuple[Path, bytes]] = []
    for tile, data in view.published():
        path = folder / tile.path
        if path.is_file():
            if path.read_bytes() != data:
                raise RuleViolation("tile_conflict", f"{path} holds other bytes than "
                                    f"{view.log} {view.name}'s {tile.path}: the folder holds "
                                    "another history of this log; nothing was written")
            done.kept += 1
        else:
            fresh.append((path, data))
    for path, data in fresh:
        _write(path, data)
    done.written = len(fresh)
    for path, _ in fresh:  # the partial tiles a new full tile holds are not kept
        shutil.rmtree(path.with_name(path.name + ".p"), ignore_errors=True)
    _write(folder / LOG_JSON, view.document)
    if view.notes:
        _write(folder / CHECKPOINT, view.notes[-1].encode())
    return done


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)
