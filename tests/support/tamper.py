"""A hostile operator at the database: edit, delete and swap stored rows of an Arbiter store,
on SQLite and PostgreSQL alike.

`rewrite` goes through the application's own mapper, so it forges as someone holding the
store key would (decrypt, edit, encrypt again); `scribble` changes the stored bytes as someone
without it can. Used by the store tamper tests and bench/tampers.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from domain.envelope import entry_hash, season_entry_hash


def _table(recorder: Any) -> tuple[str, str]:
    """The events table of a recorder and its placeholder."""
    name = recorder.events_table_name
    if hasattr(recorder.datastore, "schema"):
        return f'"{recorder.datastore.schema}"."{name}"', "%s"
    return name, "?"


def _id(recorder: Any, aggregate_id: UUID) -> Any:
    return aggregate_id if hasattr(recorder.datastore, "schema") else aggregate_id.hex


def stored(app: Any, aggregate_id: UUID, version: int) -> Any:
    (found,) = app.recorder.select_events(aggregate_id, gt=version - 1, lte=version)
    return found


def write_state(app: Any, aggregate_id: UUID, version: int, state: bytes) -> None:
    table, mark = _table(app.recorder)
    with app.recorder.datastore.transaction(commit=True) as curs:
        curs.execute(f"UPDATE {table} SET state = {mark} WHERE originator_id = {mark} AND "
                     f"originator_version = {mark}",
                     (state, _id(app.recorder, aggregate_id), version))


def rewrite(app: Any, aggregate_id: UUID, version: int, edit: Callable[[Any], None]) -> None:
    """Decode one stored event, let `edit` change its `record` (or other attributes) in place,
    and store it encoded again with the application's mapper."""
    event = app.mapper.to_domain_event(stored(app, aggregate_id, version))
    edit(event)
    write_state(app, aggregate_id, version, app.mapper.to_stored_event(event).state)


def scribble(app: Any, aggregate_id: UUID, version: int) -> None:
    """Flip one byte in the middle of a stored event's state."""
    state = bytearray(stored(app, aggregate_id, version).state)
    state[len(state) // 2] ^= 0x01
    write_state(app, aggregate_id, version, bytes(state))


def delete(app: Any, aggregate_id: UUID, *versions: int) -> None:
    table, mark = _table(app.recorder)
    with app.recorder.datastore.transaction(commit=True) as curs:
        for version in versions:
            curs.execute(f"DELETE FROM {table} WHERE originator_id = {mark} AND "
                         f"originator_version = {mark}",
                         (_id(app.recorder, aggregate_id), version))


def swap(app: Any, aggregate_id: UUID, first: int, second: int) -> None:
    """Exchange the stored states of two events of one aggregate."""
    a, b = stored(app, aggregate_id, first), stored(app, aggregate_id, second)
    write_state(app, aggregate_id, first, b.state)
    write_state(app, aggregate_id, second, a.state)


def rechain(app: Any, aggregate_id: UUID, start: int, season: bool = False) -> None:
    """After an edit at `start`: the entry's hash recomputed, and every later entry's prev and
    hash, as a forger holding every key would, so each stored entry holds again."""
    hashed = season_entry_hash if season else entry_hash
    prev = None
    version = start
    while app.recorder.select_events(aggregate_id, gt=version - 1, lte=version):
        def fix(event: Any, prev: str | None = prev) -> None:
            entry = dict(event.record["entry"])
            if prev is not None:
                entry["prev"] = prev
            entry["hash"] = hashed(entry)
            event.record["entry"] = entry
        rewrite(app, aggregate_id, version, fix)
        prev = app.mapper.to_domain_event(stored(app, aggregate_id, version)) \
            .record["entry"]["hash"]
        version += 1

