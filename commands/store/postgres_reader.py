"""The view tables of a PostgreSQL store, read on a connection of the command's own: what
`arbiter view` and `arbiter checkpoint` open on PostgreSQL, as commands.store.reader opens an
SQLite file, with neither the event-sourcing library nor the rules. PostgreSQL's driver is
the one import here a read cannot do without, and the dearest of the command's start-up; this
module is loaded only for a PostgreSQL store, so an SQLite one never pays for it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import psycopg
from psycopg.errors import UndefinedTable
from psycopg.rows import dict_row

from commands.store.reader import StoreReader, versions_query
from commands.store.sealing import Sealing, check_key_fits, kind_of, read_key
from commands.store.settings import database_env, store_name
from projections.reader import PostgresDialect, schema_prefix
from projections.sole import conninfo

SCHEMA = "public"  # the library's, as no setting of Arbiter's names another
EVENTS = "arbiter_events"  # the library's table of the application's ("arbiter") events


class PostgresReader(PostgresDialect, StoreReader):
    """The view tables and the versions of the logs of one PostgreSQL database, read in one
    read-only snapshot at a time on one connection of the command's own."""

    missing = (UndefinedTable,)
    holds_logs = True  # whether the library has made its tables (`store_kind` finds out)

    def __init__(self, connection: psycopg.Connection[dict[str, Any]], schema: str,
                 cipher: Sealing) -> None:
        self.connection = connection
        self.connection.read_only = True
        self.prefix = schema_prefix(schema)
        self.events = f'"{schema}"."{EVENTS}"'
        self.cipher = cipher

    @contextmanager
    def reading(self) -> Iterator[Any]:
        with self.connection.cursor() as curs:
            try:
                if self.snapshot:
                    curs.execute(self.snapshot)  # the first statement of the transaction
                yield curs
            finally:
                self.connection.rollback()

    def stored_versions(self, ids: Sequence[UUID]) -> list[int]:
        """The store's version of each log (0 for none)."""
        with self.reading() as curs:
            curs.execute(versions_query(self.events, len(ids), "%s"), list(ids))
            return [version or 0 for version in curs.fetchone().values()]

    def store_kind(self) -> str | None:
        """How the store keeps its events (commands.store.sealing.store_kind); None too when
        the library has not made its tables in the database (`holds_logs` false)."""
        try:
            with self.reading() as curs:
                curs.execute(f"SELECT state FROM {self.events} "
                             "ORDER BY notification_id LIMIT 1")
                first = curs.fetchone()
        except UndefinedTable:
            self.holds_logs = False
            return None
        self.holds_logs = True
        return kind_of(None if first is None else bytes(first["state"]))

    def close(self) -> None:
        self.connection.close()


def postgres_reader(url: str) -> PostgresReader | None:
    """A reader of the PostgreSQL store at `url`, refused as the service refuses it when its
    key does not fit it; None when the library has not made its tables there yet (the
    service makes them)."""
    env = database_env(url)
    connection = psycopg.connect(conninfo(env), row_factory=dict_row,
                                 connect_timeout=int(env["POSTGRES_CONNECT_TIMEOUT"]))
    reader = PostgresReader(connection, env.get("POSTGRES_SCHEMA", "").strip() or SCHEMA,
                            Sealing(read_key()))
    try:
        kind = reader.store_kind()
        check_key_fits(kind, reader.cipher.sealed, store_name(url))
    except BaseException:
        reader.close()
        raise
    if not reader.holds_logs:
        reader.close()
        return None
    return reader
