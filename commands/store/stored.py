"""What the store hands back is checked before anything uses it.

The repository folds every stored event through `domain.integrity.admit` (no missing event,
every entry hashing, chaining and opening its commitments), and the mapper names a row the
store cipher does not authenticate (commands.store.sealing) or that no longer parses. So no command
extends, and no view shows, a log that was changed outside Arbiter; `arbiter check`
(commands.service.check) goes further, against the signed checkpoints and the rules.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.application import Repository
from eventsourcing.persistence import Cipher, Mapper, MapperDeserialisationError, StoredEvent

from commands.store.reader import versions_query
from commands.store.sealing import CIPHER_KEY, SealError, Sealing
from domain.errors import RuleViolation
from domain.integrity import UnreadableRow, checked


class StoreCipher(Sealing, Cipher):
    """The store key's cipher (commands.store.sealing) in the library's place for a cipher
    (`CIPHER_TOPIC` names it): every event and snapshot state goes through it."""

    def __init__(self, environment: Any) -> None:
        super().__init__(environment.get(CIPHER_KEY) or None)


class CheckedMapper(Mapper):
    """The library's mapper, saying which stored event it could not read, and why."""

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        try:
            return super().to_domain_event(stored_event)
        except MapperDeserialisationError as error:
            cause = error.__cause__
            if isinstance(cause, SealError) and cause.code != "forged_entry":
                raise RuleViolation(cause.code, cause.why) from None  # the key, not a row
            why = cause.why if isinstance(cause, SealError) else \
                "cannot be read back: its stored bytes were changed"
            raise UnreadableRow(stored_event.originator_version, why) from None


class CheckedRepository(Repository):
    """The library's repository, folding every stored event through `admit`."""

    def get(self, aggregate_id: Any, *, projector_func: Any = checked, **options: Any) -> Any:
        return super().get(aggregate_id, projector_func=projector_func, **options)


class StoredVersions:
    """The store's version of each of some logs now (0 for none), in one query: a writer
    holding a match's lock asks this once, instead of asking the store for the new events of
    the match and of its season in turn. And every log the store holds (`logs`).

    On an SQLite file it asks on a read-only connection of its own per thread: the library's
    pooled transaction costs several times the query itself."""

    def __init__(self, recorder: Any, env: Mapping[str, str]) -> None:
        self.recorder = recorder
        self.postgres = type(recorder).__module__ == "eventsourcing.postgres"
        self.table = recorder.events_table_name
        self.placeholder = "%s" if self.postgres else "?"
        self.position = "notification_id" if self.postgres else "rowid"  # the order stored in
        # The primary key's index, walked from one log's id to the next (a loose index scan:
        # a step per log, however many entries each holds), then each log's first event.
        after = f"(SELECT originator_id FROM {self.table} {{}}ORDER BY originator_id LIMIT 1)"
        self.first_events = (
            f"WITH RECURSIVE logs(id) AS (SELECT {after.format('')} UNION ALL "
            f"SELECT {after.format('WHERE originator_id > logs.id ')} FROM logs "
            "WHERE logs.id IS NOT NULL) "
            f"SELECT e.originator_id, e.topic FROM logs JOIN {self.table} e "
            "ON e.originator_id = logs.id AND e.originator_version = "
            f"(SELECT MIN(originator_version) FROM {self.table} WHERE originator_id = logs.id) "
            f"ORDER BY e.{self.position}")
        path = env.get("SQLITE_DBNAME", "")
        memory = path in ("", ":memory:") or path.startswith("file:")
        self.path = None if memory else os.path.abspath(path)  # as the library opened it
        self.local = threading.local()
        self.opened: list[sqlite3.Connection] = []

    def statement(self, ids: Sequence[UUID]) -> str:
        return versions_query(self.table, len(ids), self.placeholder)

    def with_the_lock(self, ids: Sequence[UUID]) -> tuple[str, list[Any]] | None:
        """The query for PostgreSQL's writer to ask with its lock, in the same round trip
        (commands.service.writers); None on SQLite, where asking costs no round trip."""
        return (self.statement(ids), list(ids)) if self.postgres and ids else None

    def __call__(self, ids: Sequence[UUID]) -> list[int]:
        (row,) = self.rows(self.statement(ids), ids)
        return [version or 0 for version in row]

    def with_newest(self, ids: Sequence[UUID]) -> tuple[list[int], int]:
        """The store's version of each of `ids` and the notification id of the newest entry
        among them (0 for none), in one query: whether the view tables, which read the
        notifications in order, hold all of these logs."""
        if not ids:
            return [], 0
        newest = ", ".join(
            f"(SELECT {self.position} FROM {self.table} WHERE originator_id = {self.placeholder} "
            f"ORDER BY originator_version DESC LIMIT 1) AS n{i}" for i in range(len(ids)))
        (row,) = self.rows(f"{self.statement(ids)}, {newest}", [*ids, *ids])
        return [v or 0 for v in row[:len(ids)]], max(n or 0 for n in row[len(ids):])

    def logs(self) -> list[tuple[UUID, str]]:
        """Every log (aggregate) of the store, in the order it began, with the topic of its
        first stored event: what reading every stored event finds, in a step per log."""
        return [(UUID(str(oid)), topic) for oid, topic in self.rows(self.first_events, [])]

    def rows(self, query: str, ids: Sequence[UUID]) -> list[tuple[Any, ...]]:
        if self.postgres:
            with self.recorder.datastore.cursor() as cursor:  # autocommit: one round trip
                cursor.execute(query, list(ids))
                return [tuple(row.values()) for row in cursor.fetchall()]
        if self.path is None:
            with self.recorder.datastore.transaction(commit=False) as cursor:
                cursor.execute(query, [i.hex for i in ids])
                return [tuple(row) for row in cursor.fetchall()]
        return self.connection().execute(query, [i.hex for i in ids]).fetchall()

    def connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self.local, "conn", None)
        if conn is None:
            assert self.path is not None
            conn = sqlite3.connect(self.path, check_same_thread=False)
            conn.execute("PRAGMA query_only = 1")
            self.local.conn = conn
            self.opened.append(conn)
        return conn

    def close(self) -> None:
        for conn in self.opened:
            conn.close()
        self.opened.clear()
