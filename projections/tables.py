"""The view tables, on PostgreSQL and SQLite: one schema, one set of statements.

The changes of a batch of stored events are written in one transaction with the tracking row
that names the last (eventsourcing's single-row tracking refuses a position that is not past
the last one), so an event is applied exactly once however often it is delivered; the rows of
one table go in one statement.

    matches      a match's game, players, open round, last entry        (one row per match)
    entries      each entry: its public envelope, as its readers see it, and the fact a
                 summary folds (none for a command entry)
    readers      who may read an entry: "public" and each player (the host reads all)
    summaries    the game's summary for each viewer at the end of each round: a view folds
                 the facts after the last one it may use (public, host, players)
    rounds       the entries of each round that ended as each viewer reads them, in one
                 text: a view reads a row a round, and the entries since (public, host, players)
    receipts     a player's receipt for each of their commands
    dashboards   the host's dashboard                                   (one row per match)
    deadlines    the open round's deadline, until a close at it is recorded
    standings    a season as each viewer may see it                     (public, host, players)
    checkpoints  the signed checkpoints of a match
    results      the results a match published at its end (public)     (one row per match)
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import cache, cached_property
from itertools import islice
from typing import TYPE_CHECKING, Any, NamedTuple

from eventsourcing.application import Application
from eventsourcing.persistence import (
    IntegrityError,
    InternalError,
    OperationalError,
    ProgrammingError,
    Tracking,
    TrackingRecorder,
)
from eventsourcing.sqlite import SQLiteTrackingRecorder

from projections.reader import NAME, PREFIX, PostgresDialect, ViewsReader, schema_prefix
from projections.rows import Changes

if TYPE_CHECKING:
    from eventsourcing.postgres import PostgresDatastore
    from eventsourcing.sqlite import SQLiteDatastore

APPLICATION = "arbiter"

TABLES = {
    "matches": "match_id text PRIMARY KEY, season text NOT NULL, game text NOT NULL, "
               "players text NOT NULL, round integer NOT NULL, last_round integer, "
               "seq integer NOT NULL, ended integer NOT NULL",
    "entries": "match_id text NOT NULL, seq integer NOT NULL, round integer, "
               "is_public integer NOT NULL, entry text NOT NULL, shown text NOT NULL, "
               "fact text, PRIMARY KEY (match_id, seq)",
    "readers": "match_id text NOT NULL, viewer text NOT NULL, seq integer NOT NULL, "
               "PRIMARY KEY (match_id, viewer, seq)",
    "summaries": "match_id text NOT NULL, viewer text NOT NULL, round integer NOT NULL, "
                 "seq integer NOT NULL, summary text NOT NULL, "
                 "PRIMARY KEY (match_id, viewer, round)",
    "rounds": "match_id text NOT NULL, viewer text NOT NULL, round integer NOT NULL, "
              "first_seq integer NOT NULL, seq integer NOT NULL, shown text NOT NULL, "
              "PRIMARY KEY (match_id, viewer, round)",
    "receipts": "match_id text NOT NULL, seq integer NOT NULL, player text NOT NULL, "
                "receipt text NOT NULL, PRIMARY KEY (match_id, seq)",
    "dashboards": "match_id text PRIMARY KEY, dashboard text NOT NULL",
    "deadlines": "match_id text PRIMARY KEY, round integer NOT NULL, deadline text NOT NULL",
    "standings": "season text NOT NULL, viewer text NOT NULL, standings text NOT NULL, "
                 "PRIMARY KEY (season, viewer)",
    "checkpoints": "match_id text NOT NULL, idx integer NOT NULL, round integer NOT NULL, "
                   "size integer NOT NULL, note text NOT NULL, PRIMARY KEY (match_id, idx)",
    "results": "match_id text PRIMARY KEY, results text NOT NULL",
}
INDEXES = {"receipts_by_player": "receipts (match_id, player, seq)",
           "entries_by_round": "entries (match_id, round, seq)"}


class Write(NamedTuple):
    """A statement of the view tables, for one row or several at once: an insert, an upsert
    on `keys` (a row set whatever it held), or a delete of the rows `keys` name."""

    table: str
    columns: tuple[str, ...]
    keys: tuple[str, ...] = ()
    delete: bool = False

    def sql(self, rows: int) -> str:
        """The statement for `rows` rows; row n's parameters are named `column_n`."""
        if self.delete:
            (key,) = self.keys
            return (f"DELETE FROM {{p}}{self.table} WHERE {key} IN "
                    f"({', '.join(f':{key}_{n}' for n in range(rows))})")
        values = ", ".join(f"({', '.join(f':{c}_{n}' for c in self.columns)})"
                           for n in range(rows))
        text = f"INSERT INTO {{p}}{self.table} ({', '.join(self.columns)}) VALUES {values}"
        if self.keys:
            updates = ", ".join(f"{c} = excluded.{c}" for c in self.columns
                                if c not in self.keys)
            text += f" ON CONFLICT ({', '.join(self.keys)}) DO UPDATE SET {updates}"
        return text


def write(table: str, columns: str, keys: str = "", delete: bool = False) -> Write:
    def names(text: str) -> tuple[str, ...]:
        return tuple(c.strip() for c in text.split(",") if c.strip())

    return Write(table, names(columns), names(keys), delete)


WRITES = {
    "entry": write("entries", "match_id, seq, round, is_public, entry, shown, fact"),
    "reader": write("readers", "match_id, viewer, seq"),
    "match": write("matches", "match_id, season, game, players, round, last_round, seq, ended",
                   keys="match_id"),
    "summary": write("summaries", "match_id, viewer, round, seq, summary"),
    "round": write("rounds", "match_id, viewer, round, first_seq, seq, shown"),
    "receipt": write("receipts", "match_id, seq, player, receipt"),
    "dashboard": write("dashboards", "match_id, dashboard", keys="match_id"),
    "deadline": write("deadlines", "match_id, round, deadline", keys="match_id"),
    "no_deadline": write("deadlines", "match_id", keys="match_id", delete=True),
    "standings": write("standings", "season, viewer, standings", keys="season, viewer"),
    "checkpoint": write("checkpoints", "match_id, idx, round, size, note"),
    "results": write("results", "match_id, results", keys="match_id"),
}
ROWS = 100  # rows a statement writes at most
REBUILT = 500  # events a rebuild writes at once


def latest(changes: Changes) -> Changes:
    """`changes` without the keyed statements that a later one on the same row overrides
    (the inserts write rows of their own): of several on one row, the last says it all."""
    last: dict[tuple[Any, ...], int] = {}
    for n, (name, params) in enumerate(changes):
        statement = WRITES[name]
        if statement.keys:
            last[(statement.table, *(params[c] for c in statement.keys))] = n
    kept = set(last.values())
    return [change for n, change in enumerate(changes)
            if not WRITES[change[0]].keys or n in kept]


# What a view row may hold that the public may not see is encrypted with the store's key
# (commands.store.sealing), and the viewer it is for is keyed: a reader of the database learns
# neither what a player was told nor who was told something. Match ids, seqs, rounds, the public
# envelope of each entry, checkpoints and published results stay in the clear.
SEALED = {"entries": ("shown", "fact"), "summaries": ("summary",), "rounds": ("shown",),
          "receipts": ("receipt",), "dashboards": ("dashboard",), "standings": ("standings",)}
TAGGED = {"readers": "viewer", "summaries": "viewer", "rounds": "viewer", "receipts": "player",
          "standings": "viewer"}


class ArbiterViews(ViewsReader, TrackingRecorder, ABC):
    """Writes the changes of each event with its tracking row; reads the views back
    (projections.reader) on the same connections."""

    # Given by the library's recorder the views are mixed into (SQLite's or PostgreSQL's).
    datastore: Any
    _insert_tracking: Callable[[Any, Tracking], None]
    create_table: Callable[[], None]
    forget: str  # deletes the application's tracking row
    missing = (OperationalError, ProgrammingError)
    channel: str | None = None  # where each write is told, as it commits (projections.notices)

    def view_statements(self) -> list[str]:
        return [*(f"CREATE TABLE IF NOT EXISTS {self.prefix}{name} ({columns})"
                  for name, columns in TABLES.items()),
                *(f"CREATE INDEX IF NOT EXISTS {PREFIX}{name} ON {self.prefix}{on}"
                  for name, on in INDEXES.items())]

    @contextmanager
    def reading(self) -> Iterator[Any]:
        with self.datastore.transaction(commit=False) as curs:
            if self.snapshot:
                self.execute(curs, self.snapshot, {})
            yield curs

    # -- writing --------------------------------------------------------------------------

    def record(self, changes: Changes, tracking: Tracking) -> None:
        """The changes of one event, or of several in a row, and the tracking row of the
        last: they commit together or not at all."""
        with self.datastore.transaction(commit=True) as curs:
            self._insert_tracking(curs, tracking)  # before the batch: it reads its answer
            with self.batched(curs):
                self._apply(curs, latest(changes))
            self.tell(curs)

    def rebuild(self, stream: Iterable[Changes], position: int) -> None:
        """Drop the tables and write the changes of every event up to notification
        `position` again, in one transaction: readers see the old tables until the new ones
        are complete."""
        with self.datastore.transaction(commit=True) as curs:
            # The tracking row first, as `record` takes it: a projection writing meanwhile
            # waits for this transaction instead of deadlocking with it.
            curs.execute(self.sql(self.forget), {"application_name": APPLICATION})
            if position:
                self._insert_tracking(curs, Tracking(APPLICATION, position))
            with self.batched(curs):
                for name in TABLES:
                    curs.execute(f"DROP TABLE IF EXISTS {self.prefix}{name}")
                for statement in self.view_statements():
                    curs.execute(statement)
                events = iter(stream)
                while batch := list(islice(events, REBUILT)):
                    self._apply(curs, latest([change for changes in batch
                                              for change in changes]))
            self.tell(curs)

    @contextmanager
    def batched(self, curs: Any) -> Iterator[None]:
        """Statements of one transaction sent without waiting for each answer, where the
        driver can."""
        yield

    def tell(self, curs: Any) -> None:
        """Tell the listeners on `channel` the views changed (sent when the write commits)."""

    def _apply(self, curs: Any, changes: Changes) -> None:
        """Write `changes`, which set no row twice (see `latest`): the rows of each statement
        in as few statements as `ROWS` allows."""
        rows: dict[str, list[dict[str, Any]]] = {}
        for name, params in changes:
            rows.setdefault(name, []).append(self._sealed(WRITES[name].table, params))
        for name, written in rows.items():
            for start in range(0, len(written), ROWS):
                chunk = written[start:start + ROWS]
                self.execute(curs, self.write_sql(name, len(chunk)),
                             {f"{column}_{n}": value for n, params in enumerate(chunk)
                              for column, value in params.items()})

    def write_sql(self, name: str, rows: int) -> str:
        text = self._write_sql.get((name, rows))
        if text is None:
            text = self._write_sql[(name, rows)] = self.sql(WRITES[name].sql(rows))
        return text

    @cached_property
    def _write_sql(self) -> dict[tuple[str, int], str]:
        return {}

    def _sealed(self, table: str, params: dict[str, Any]) -> dict[str, Any]:
        if table not in SEALED and table not in TAGGED:
            return params
        sealed = dict(params)
        for column in SEALED.get(table, ()):
            if sealed[column] is not None:
                sealed[column] = self.cipher.seal_text(sealed[column])
        if table in TAGGED:
            sealed[TAGGED[table]] = self.cipher.tag(sealed[TAGGED[table]])
        return sealed

@cache
def postgres_views() -> Callable[..., ArbiterViews]:
    """The view tables' recorder on PostgreSQL, made when a PostgreSQL store is opened: its
    driver is a command line's dearest import (about 50 ms), and an SQLite store never needs
    it."""
    from eventsourcing.postgres import PostgresTrackingRecorder
    from psycopg.sql import SQL, Composed, Identifier

    class PostgresViews(PostgresDialect, ArbiterViews, PostgresTrackingRecorder):
        def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
            super().__init__(datastore, **kwargs)
            self.prefix = schema_prefix(datastore.schema)
            self.forget = (f'DELETE FROM "{datastore.schema}"."{self.tracking_table_name}" '
                           "WHERE application_name = :application_name")
            self.channel = f"{NAME}_{datastore.schema}"  # one a database and schema
            self.notify = SQL("NOTIFY {0}").format(Identifier(self.channel))
            self.sql_create_statements.extend(Composed([SQL(s)]) for s in self.view_statements())

        @contextmanager
        def batched(self, curs: Any) -> Iterator[None]:
            """A pipeline, with no server-side prepared statement made in it (the library's
            tracking insert asks for one): psycopg forgets them all when it reads a DROP or a
            ROLLBACK, which in a pipeline it may do after it has prepared another."""
            conn = curs.connection
            threshold, conn.prepare_threshold = conn.prepare_threshold, None
            try:
                with conn.pipeline():
                    yield
            finally:
                conn.prepare_threshold = threshold

        def execute(self, curs: Any, query: str, params: dict[str, Any]) -> None:
            curs.execute(query, params, prepare=False)  # see `batched`

        def tell(self, curs: Any) -> None:
            curs.execute(self.notify, prepare=False)

    return PostgresViews


class SQLiteViews(ArbiterViews, SQLiteTrackingRecorder):
    prefix = PREFIX
    forget = "DELETE FROM tracking WHERE application_name = :application_name"

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(), *self.view_statements()]


def datastore_of(application: Application) -> PostgresDatastore | SQLiteDatastore:
    """The datastore under an application's recorder: every store Arbiter opens has one."""
    datastore: PostgresDatastore | SQLiteDatastore | None = getattr(
        application.recorder, "datastore", None)
    if datastore is None:
        raise TypeError(f"no datastore under {type(application.recorder).__name__}")
    return datastore


def lost_create_race(error: Exception) -> bool:
    """Whether creating tables failed only because another process created them at the same
    moment (a duplicate key in PostgreSQL's catalog, or a deadlock on it): then try again. A
    server that cannot be reached is not a race, and is said at once."""
    if isinstance(error, IntegrityError | InternalError):
        return True
    cause = type(error.__cause__).__name__
    return isinstance(error, OperationalError) and cause in ("DeadlockDetected",
                                                             "SerializationFailure")


def open_views(datastore: Any, cipher: Any = None, create: bool = True) -> ArbiterViews:
    """The view tables beside an application's own, on its connections, read and written
    with its store cipher (`application.mapper.cipher`); made if missing, unless `create` is
    false (a reader: tables missing hold nothing, `ArbiterViews.head`)."""
    if type(datastore).__module__ == "eventsourcing.postgres":
        views: ArbiterViews = postgres_views()(datastore,
                                               tracking_table_name=f"{NAME}_tracking")
    else:
        views = SQLiteViews(datastore)
    if cipher is not None:
        views.cipher = cipher
    for attempt in range(5 if create else 0):
        try:
            views.create_table()  # workers starting together race on CREATE TABLE
            break
        except (IntegrityError, InternalError, OperationalError) as error:
            if attempt == 4 or not lost_create_race(error):
                raise
    return views
