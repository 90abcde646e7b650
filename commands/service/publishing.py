"""`arbiter publish`: each log's c2sp.org/tlog-tiles put on a shelf (a folder or a bucket:
commands.store.shelves), grown from what the shelf already holds, as `arbiter serve` answers
them under /logs/ (commands.service.tiles).

What a shelf holds of a log is read from its `arbiter/log.json` alone: the signed checkpoints
it lists must be the store's first ones (else `tile_conflict`, nothing written), and the last
one's size says which tiles are there (audit.tiles_growth). Only the tiles past it are worked
out, from the entries after the last full entry bundle and the right edge of the tree already
published (a partial tile per level, read as a tiles client reads them and checked against the
checkpoint that signs them); each new tile is written once and no tile already there is
rewritten or read again. Then the partial tiles a new full tile holds are removed, then
`arbiter/log.json` is replaced, then the checkpoint: a reader that finds a checkpoint finds
every tile it names.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from audit.bundle import PUBLIC, export
from audit.checkpoints import leaves
from audit.errors import AuditError
from audit.notes import parse_checkpoint, parse_note, parse_verifier_key
from audit.season_bundle import header_line
from audit.tiles import CHECKPOINT, WIDTH, TiledLog, TileReader
from audit.tiles_bundle import LOG_JSON, log_document
from audit.tiles_growth import growth
from commands.service.keys import check_signed_by
from commands.service.tiles import MATCH, cache_control, media_type, prefix_of
from commands.store.shelves import Placed, Shelf
from domain.checkpoints import MatchCheckpoints
from domain.errors import RuleViolation
from domain.match import Match
from domain.season import Season

if TYPE_CHECKING:
    from commands.service.arbiter import Arbiter


@dataclass(frozen=True)
class Published:
    """What `publish` did to one log's prefix: `written` tiles new, `kept` already there."""

    log: str
    name: str
    size: int
    entries: int
    written: int = 0
    kept: int = 0


@dataclass(frozen=True)
class Held:
    """What a shelf holds of a log: the signed checkpoints, the count of entries after them and
    the key its log.json lists, and its checkpoint."""

    notes: list[str]
    tail: int
    key: str | None
    checkpoint: str | None


def held(shelf: Shelf, prefix: str) -> Held | None:
    """What the shelf holds under `prefix`; None for no log.json or one that is not ours."""
    raw = shelf.get(f"{prefix}/{LOG_JSON}")
    try:
        document = json.loads(raw) if raw is not None else None
        notes, tail = document["notes"], document["tail"]  # type: ignore[index]
        key = document["header"].get("host_key")  # type: ignore[index]
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    if not (isinstance(notes, list) and all(isinstance(n, str) for n in notes)
            and isinstance(tail, list)):
        return None
    checkpoint = shelf.get(f"{prefix}/{CHECKPOINT}") if notes else None
    return Held(notes, len(tail), key if isinstance(key, str) else None,
                checkpoint.decode(errors="replace") if checkpoint else None)


def publish(app: Arbiter, shelf: Shelf, log: str, name: str) -> Published:
    """Put the log's tiles under `<log>/<id>/` on the shelf, growing what is there; a log the
    shelf holds as the store does (the same signed checkpoints, as many entries) is left as it
    is. `unknown_match` / `unknown_season` for no such log."""
    prefix = prefix_of(log, name)
    checkpoints = app.checkpoints(name) if log == MATCH else app.season_checkpoints(name)
    notes = [n["note"] for n in checkpoints.notes]
    sizes = [n["size"] for n in checkpoints.notes]
    aggregate = Match.create_id(name) if log == MATCH else Season.create_id(name)
    (version,) = app.stored_versions([aggregate])
    found = held(shelf, prefix)
    there = found.notes if found else []
    if notes[:len(there)] != there:
        raise RuleViolation("tile_conflict", f"{shelf.where} holds another history of {log} "
                            f"{name}: its {prefix}/{LOG_JSON} lists signed checkpoints the "
                            "store never signed; nothing was written")
    plan = growth(sizes[:len(there)], sizes)
    if found and plan.new == plan.old and found.checkpoint == (notes[-1] if notes else None) \
            and plan.new + found.tail == version:
        return Published(log, name, plan.new, version, 0, plan.kept)
    key = app.signer.verifier_key() if app.signer else None
    if key is not None:  # the checkpoints put under this key were checked when they were put
        check_signed_by(notes[len(there):] if found and found.key == key else notes,
                        parse_verifier_key(key))
    first = plan.old - plan.old % WIDTH  # where the last entry bundle of the old tree begins
    if isinstance(checkpoints, MatchCheckpoints):
        entries, document = _match(app, name, first, plan.new, notes, key, checkpoints.origin)
    else:
        entries, document = _season(app, name, first, plan.new, notes, key)
    files = []
    if plan.write:
        edge = _edge(shelf, prefix, plan.old, there[-1]) if plan.old else []
        tiled = TiledLog(leaves(entries[:plan.new - first]), plan.old, edge)
        for tile in plan.write:
            data = tiled.tile(tile, plan.new)
            assert data is not None  # the plan names tiles past the old tree, within the new
            files.append(_placed(prefix, tile.path, data))
    shelf.put(files)
    shelf.remove([f"{prefix}/{tile.path}" for tile in plan.remove])
    shelf.put([_placed(prefix, LOG_JSON, document)])
    if notes:
        shelf.put([_placed(prefix, CHECKPOINT, notes[-1].encode())])
    return Published(log, name, plan.new, first + len(entries), len(plan.write), plan.kept)


def _placed(prefix: str, path: str, data: bytes) -> Placed:
    return Placed(f"{prefix}/{path}", data, media_type(path), cache_control(path))


def _edge(shelf: Shelf, prefix: str, size: int, note: str) -> list[list[bytes]]:
    """The right edge of the tree of `size` the shelf holds (TileReader.edge), checked to hash
    to the root its checkpoint `note` signs."""
    def fetch(path: str) -> bytes:
        data = shelf.get(f"{prefix}/{path}")
        if data is None:
            raise AuditError("tile_missing", f"{shelf.where} has no {prefix}/{path}, which its "
                             f"checkpoint of {size} entries needs")
        return data

    reader = TileReader(fetch, size)
    try:
        matches = reader.root(size) == parse_checkpoint(parse_note(note).text).root
    except AuditError as error:
        raise AuditError(error.code, f"{error.message}: publish it anew to an empty place; "
                         "nothing was written") from None
    if not matches:
        raise RuleViolation("tile_conflict", f"the tiles under {shelf.where}/{prefix} do not "
                            f"hash to the checkpoint of {size} entries that names them (a tile "
                            "was changed, or they are another history of this log); nothing "
                            "was written")
    return reader.edge()


def _match(app: Arbiter, name: str, first: int, size: int, notes: list[str],
           host_key: str | None, origin: str | None) -> tuple[list[dict[str, Any]], bytes]:
    """The match's entries from `first` on (read from the nearest store snapshot, never the
    whole log again), and its log.json with the entries after `size` as its tail."""
    _, records = app.recent(name, first)
    entries = [r["entry"] for r in records]
    opening = app.match(name, version=2)  # the header is the first two entries' and the key's
    header = next(iter(export(opening, [], PUBLIC, host_key, origin)))
    return entries, log_document(header, notes, entries[size - first:])


def _season(app: Arbiter, name: str, first: int, size: int, notes: list[str],
            key: str | None) -> tuple[list[dict[str, Any]], bytes]:
    """The season's entries from `first` on, and its log.json naming each match's prefix
    (each match's own checkpoints are checked as it is published)."""
    season = app.season(name)
    entries = [r["entry"] for r in season.records[first:]]
    header = header_line(season, PUBLIC, key, len(notes))
    where = {m: f"../../{prefix_of(MATCH, m)}" for m in season.matches}
    return entries, log_document(header, notes, entries[size - first:], where)
