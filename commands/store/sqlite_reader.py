"""The view tables of an SQLite store file, read on a connection of the command's own
(commands.store.reader)."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from uuid import UUID

from commands.store.reader import StoreReader, versions_query
from commands.store.sealing import Sealing, check_key_fits, kind_of, read_key
from commands.store.settings import database_env, database_url, store_name

EVENTS = "stored_events"  # the library's table of an application's events in an SQLite file


class SQLiteReader(StoreReader):
    """The view tables and the versions of the logs of one SQLite file, read in one read
    transaction at a time on a connection that writes nothing."""

    missing = (sqlite3.OperationalError,)

    def __init__(self, path: str, cipher: Sealing) -> None:
        self.connection = sqlite3.connect(path, check_same_thread=False)
        self.connection.execute("PRAGMA query_only = 1")
        self.connection.row_factory = sqlite3.Row
        self.cipher = cipher

    @contextmanager
    def reading(self) -> Iterator[Any]:
        cursor = self.connection.cursor()
        cursor.execute("BEGIN")
        try:
            yield cursor
        finally:
            self.connection.rollback()
            cursor.close()

    def stored_versions(self, ids: Sequence[UUID]) -> list[int]:
        """The store's version of each log (0 for none)."""
        with self.reading() as curs:
            curs.execute(versions_query(EVENTS, len(ids)), [i.hex for i in ids])
            return [version or 0 for version in curs.fetchone()]

    def store_kind(self) -> str | None:
        """How the store keeps its events (commands.store.sealing.store_kind)."""
        try:
            with self.reading() as curs:
                curs.execute(f"SELECT state FROM {EVENTS} ORDER BY rowid LIMIT 1")
                first = curs.fetchone()
        except sqlite3.OperationalError:  # a file the library has not made its tables in
            return None
        return kind_of(None if first is None else bytes(first[0]))

    def close(self) -> None:
        self.connection.close()


def sqlite_reader(url: str | None) -> SQLiteReader | None:
    """A reader of the store at `url` (None: the configured one) when it is an SQLite file that
    exists, refused as the service refuses it when its key does not fit it; None otherwise."""
    url = database_url(url)
    env = database_env(url)
    path = env.get("SQLITE_DBNAME", ":memory:")
    if path == ":memory:" or path.startswith("file:") or not os.path.isfile(path):
        return None
    reader = SQLiteReader(path, Sealing(read_key()))
    try:
        check_key_fits(reader.store_kind(), reader.cipher.sealed, store_name(url))
    except BaseException:
        reader.close()
        raise
    return reader
