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

import re
from abc import ABC
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache, cached_property
from itertools import islice
from typing import TYPE_CHECKING, Any, NamedTuple

import orjson
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

from domain.decider import HOST, PUBLIC, Event, Posting
from domain.games import get_game
from domain.records import may_see, shown, to_event
from projections.follow import is_fact
from projections.rows import Changes

if TYPE_CHECKING:
    from eventsourcing.postgres import PostgresDatastore
    from eventsourcing.sqlite import SQLiteDatastore

NAME = "arbiter_views"
APPLICATION = "arbiter"
PREFIX = f"{NAME}_"

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


# A padding entry is nobody's to read: its "shown" is JSON null (sealed like any other, so
# only its reader can tell), and it has no readers.
SHOWN_TO_HOST = ("SELECT {column} FROM {p}entries WHERE match_id = :match_id "
                 "AND seq > :after AND seq <= :upto ORDER BY seq")
# From the viewer's readers rows to their entries: SQLite without statistics would otherwise
# walk every entry in the range to find the few the public reads.
SHOWN_TO = ("SELECT e.{column} FROM {p}readers r JOIN {p}entries e "
            "ON e.match_id = r.match_id AND e.seq = r.seq "
            "WHERE r.match_id = :match_id AND r.viewer = :viewer AND r.seq > :after "
            "AND r.seq <= :upto AND e.is_public <= :public ORDER BY r.seq")
UNBOUNDED = 2**62


def parsed(texts: list[str]) -> list[Any]:
    """JSON texts (of one value each, or of several joined by commas; empty for none) as one
    list, in one parse."""
    return orjson.loads("[" + ",".join(text for text in texts if text) + "]")


def event_of(fact: dict[str, Any]) -> Event:
    """A fact as `projections.rows.fact_of` wrote it, as the event a summary folds."""
    audience = fact["audience"]
    return Event(fact["kind"], fact["data"],
                 audience=audience if isinstance(audience, str) else tuple(audience),
                 actor=fact["actor"], postings=tuple(Posting(**p) for p in fact["postings"]))


# What a view row may hold that the public may not see is encrypted with the store's key
# (commands.store.sealing), and the viewer it is for is keyed: a reader of the database learns
# neither what a player was told nor who was told something. Match ids, seqs, rounds, the public
# envelope of each entry, checkpoints and published results stay in the clear.
SEALED = {"entries": ("shown", "fact"), "summaries": ("summary",), "rounds": ("shown",),
          "receipts": ("receipt",), "dashboards": ("dashboard",), "standings": ("standings",)}
TAGGED = {"readers": "viewer", "summaries": "viewer", "rounds": "viewer", "receipts": "player",
          "standings": "viewer"}


class Clear:
    """The view cipher of a store without a key: everything as it is."""

    def tag(self, viewer: str) -> str:
        return viewer

    def seal_text(self, text: str) -> str:
        return text

    def open_text(self, text: str) -> str:
        return text


class ArbiterViews(TrackingRecorder, ABC):
    """Writes the changes of each event with its tracking row; reads the views back."""

    # Given by the library's recorder the views are mixed into (SQLite's or PostgreSQL's).
    datastore: Any
    _insert_tracking: Callable[[Any, Tracking], None]
    create_table: Callable[[], None]
    prefix: str
    snapshot: str | None = None  # a statement that makes a multi-table read consistent
    forget: str  # deletes the application's tracking row
    exists_query: str  # finds the matches table
    cipher: Any = Clear()  # the store's (commands.store.sealing.StoreCipher), set by `open_views`
    channel: str | None = None  # where each write is told, as it commits (projections.notices)

    def view_statements(self) -> list[str]:
        return [*(f"CREATE TABLE IF NOT EXISTS {self.prefix}{name} ({columns})"
                  for name, columns in TABLES.items()),
                *(f"CREATE INDEX IF NOT EXISTS {PREFIX}{name} ON {self.prefix}{on}"
                  for name, on in INDEXES.items())]

    def sql(self, text: str) -> str:
        return text.replace("{p}", self.prefix)

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

    def _open(self, text: str) -> Any:
        return orjson.loads(self.cipher.open_text(text))

    def execute(self, curs: Any, query: str, params: dict[str, Any]) -> None:
        curs.execute(query, params)

    # -- reading --------------------------------------------------------------------------

    @contextmanager
    def reading(self) -> Iterator[Any]:
        with self.datastore.transaction(commit=False) as curs:
            if self.snapshot:
                self.execute(curs, self.snapshot, {})
            yield curs

    def rows(self, curs: Any, query: str, **params: Any) -> list[dict[str, Any]]:
        self.execute(curs, self.sql(query), params)
        return [dict(row) for row in curs.fetchall()]

    def one(self, curs: Any, query: str, **params: Any) -> dict[str, Any] | None:
        found = self.rows(curs, query, **params)
        return found[0] if found else None

    def _readable(self, curs: Any, match_id: str, viewer: str, column: str = "shown",
                  after: int = 0, upto: int = UNBOUNDED, private: bool = False) -> list[Any]:
        """The JSON texts in `column` ("shown" or "fact") of the entries `viewer` may read in
        (after, upto], parsed in one go."""
        return parsed(self._texts(curs, match_id, viewer, column, after, upto, private))

    def _texts(self, curs: Any, match_id: str, viewer: str, column: str = "shown",
               after: int = 0, upto: int = UNBOUNDED, private: bool = False) -> list[str]:
        if after >= upto:
            return []
        query = (SHOWN_TO_HOST if viewer == HOST else SHOWN_TO).replace("{column}", column)
        if column == "fact":
            query = query.replace(" ORDER BY", " AND fact IS NOT NULL ORDER BY")
        self.execute(curs, self.sql(query), {"match_id": match_id,
                                             "viewer": self.cipher.tag(viewer),
                                             "after": after, "upto": upto,
                                             "public": 0 if private else 1})
        texts = [self.cipher.open_text(row[column]) for row in curs.fetchall()]
        return [text for text in texts if text != "null"]

    def _shown_upto(self, curs: Any, match_id: str, viewer: str, round: int,
                    upto: int) -> list[Any]:
        """The entries `viewer` may read up to seq `upto`, the last of `round`: one row for
        each round that ended (`rounds`), the entries themselves for the rest (the open
        round's, and those of any round without its row: tables projected before rows were
        kept a round), parsed in one go."""
        kept = self.rows(curs, "SELECT first_seq, seq, shown FROM {p}rounds WHERE match_id = "
                               ":match_id AND viewer = :viewer AND round <= :round "
                               "AND seq <= :upto ORDER BY round",
                         match_id=match_id, viewer=self.cipher.tag(viewer), round=round,
                         upto=upto)
        texts: list[str] = []
        seen = 0
        for row in kept:
            texts += self._texts(curs, match_id, viewer, after=seen, upto=row["first_seq"] - 1)
            texts.append(self.cipher.open_text(row["shown"]))
            seen = row["seq"]
        return parsed([*texts, *self._texts(curs, match_id, viewer, after=seen, upto=upto)])

    def shown(self, curs: Any, match_id: str, viewer: str, after: int = 0,
              private: bool = False) -> list[dict[str, Any]]:
        """The entries `viewer` may read after seq `after`, as they read them (`private`:
        only those the public may not)."""
        return self._readable(curs, match_id, viewer, after=after, private=private)

    def head(self, match_id: str) -> dict[str, Any] | None:
        """What the tables know of a match: its game, players, open round, the round of its
        last entry (`last_round`), how many entries they hold (`seq`), whether it ended; None
        when they hold none of it (or there are no tables yet)."""
        try:
            with self.reading() as curs:
                found = self.one(curs, "SELECT game, players, round, last_round, seq, ended "
                                       "FROM {p}matches WHERE match_id = :match_id",
                                 match_id=match_id)
        except (OperationalError, ProgrammingError):
            if self.exists():
                raise
            return None
        if found is None:
            return None
        return {**found, "players": orjson.loads(found["players"]), "ended": bool(found["ended"])}

    def exists(self) -> bool:
        """Whether the tables have been made (a reader does not make them)."""
        with self.reading() as curs:
            self.execute(curs, self.exists_query, {})
            return bool(curs.fetchall())

    def view(self, match_id: str, viewer: str,
             round: int | None = None) -> dict[str, Any] | None:
        """`projections.views.view(match, viewer, round)` as projected, or None if it is not:
        the match or the viewer unknown (yet), or `round` not a round the projection has seen
        end. The summary is the one kept at the end of the last round the view covers, with
        the viewer's facts since folded in."""
        head = self.head(match_id)
        if head is None or viewer not in (PUBLIC, HOST, *head["players"]) or (
                round is not None and round >= head["last_round"]):
            return None
        return self.view_after(match_id, viewer, round, head["game"], ())

    def view_after(self, match_id: str, viewer: str, round: int | None, game_id: str,
                   later: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
        """The view of `viewer` as of the end of `round` (None: now), from the tables and then
        `later`, the log's records after the last entry the tables hold (those of the rounds
        up to `round` at least; a record of a later round ends the view). The summary folds
        from the last one kept at a round's end: never from the first entry, however far the
        tables lag, unless they kept none. None when the tables hold no entry up to `round`
        and `later` none either. Whatever the tables took meanwhile past `later`'s first is
        left to `later`: no entry is read twice."""
        cap = later[0]["entry"]["seq"] - 1 if later else UNBOUNDED
        later = [r for r in later if round is None or r["entry"]["round"] <= round]
        with self.reading() as curs:
            if round is None:
                last = self.one(curs, "SELECT seq, round FROM {p}entries WHERE match_id = "
                                      ":match_id AND seq <= :cap ORDER BY seq DESC LIMIT 1",
                                match_id=match_id, cap=cap)
            else:
                last = self.one(curs, "SELECT seq, round FROM {p}entries WHERE match_id = "
                                      ":match_id AND round <= :round AND seq <= :cap "
                                      "ORDER BY round DESC, seq DESC LIMIT 1",
                                match_id=match_id, round=round, cap=cap)
            ending = later[-1]["entry"] if later else last
            if ending is None:  # a round before the first
                return None
            held = last["seq"] if last else 0
            upto, as_of_round = ending["seq"], ending["round"]
            kept = self.one(curs, "SELECT seq, summary FROM {p}summaries WHERE match_id = "
                                  ":match_id AND viewer = :viewer AND round <= :round "
                                  "AND seq <= :held ORDER BY round DESC LIMIT 1",
                            match_id=match_id, viewer=self.cipher.tag(viewer),
                            round=as_of_round, held=held)
            after = kept["seq"] if kept else 0
            events = self._shown_upto(curs, match_id, viewer, as_of_round, held) \
                if held else []
            facts = [event_of(f) for f in
                     self._readable(curs, match_id, viewer, "fact", after=after, upto=held)]
        seen = [r for r in later if may_see(r, viewer)]
        events += [shown(r) for r in seen]
        facts += [to_event(r) for r in seen if is_fact(r)]
        game = get_game(game_id)
        summary = self._open(kept["summary"]) if kept else game.summary_start(viewer)
        for fact in facts:
            game.summary_step(summary, fact)
        return {"match": match_id, "game": game_id, "viewer": viewer,
                "as_of": {"round": as_of_round, "seq": upto},
                "summary": summary, "events": events}

    def entries_since(self, match_id: str, viewer: str, after: int) -> list[dict[str, Any]]:
        with self.reading() as curs:
            return self.shown(curs, match_id, viewer, after)

    def inbox(self, match_id: str, player: str) -> dict[str, Any] | None:
        """What the player alone (with the host) was told, and their receipts."""
        with self.reading() as curs:
            head = self.one(curs, "SELECT players FROM {p}matches WHERE match_id = :match_id",
                            match_id=match_id)
            if head is None or player not in orjson.loads(head["players"]):
                return None
            told = self.shown(curs, match_id, player, private=True)
            receipts = self.rows(curs, "SELECT receipt FROM {p}receipts WHERE match_id = "
                                       ":match_id AND player = :player ORDER BY seq",
                                 match_id=match_id, player=self.cipher.tag(player))
        return {"match": match_id, "player": player, "told": told,
                "receipts": [self._open(row["receipt"]) for row in receipts]}

    def dashboard(self, match_id: str) -> dict[str, Any] | None:
        with self.reading() as curs:
            found = self.one(curs, "SELECT dashboard FROM {p}dashboards WHERE match_id = "
                                   ":match_id", match_id=match_id)
        return None if found is None else self._open(found["dashboard"])

    def standings(self, season: str, viewer: str) -> dict[str, Any] | None:
        with self.reading() as curs:
            found = self.one(curs, "SELECT standings FROM {p}standings WHERE season = :season "
                                   "AND viewer = :viewer", season=season,
                            viewer=self.cipher.tag(viewer))
        return None if found is None else self._open(found["standings"])

    def audit(self, match_id: str) -> dict[str, Any] | None:
        """Every entry as the public log holds it (hashes, commitments) and the checkpoints."""
        with self.reading() as curs:
            if self.one(curs, "SELECT seq FROM {p}matches WHERE match_id = :match_id",
                        match_id=match_id) is None:
                return None
            entries = self.rows(curs, "SELECT entry FROM {p}entries WHERE match_id = :match_id "
                                      "ORDER BY seq", match_id=match_id)
            checkpoints = self.rows(curs, "SELECT round, size, note FROM {p}checkpoints WHERE "
                                          "match_id = :match_id ORDER BY idx", match_id=match_id)
        return {"match": match_id, "entries": [orjson.loads(row["entry"]) for row in entries],
                "checkpoints": checkpoints}

    def checkpoints(self, match_id: str) -> list[dict[str, Any]]:
        with self.reading() as curs:
            return self.rows(curs, "SELECT round, size, note FROM {p}checkpoints WHERE "
                                   "match_id = :match_id ORDER BY idx", match_id=match_id)

    def matches(self, season: str | None = None,
                match_id: str | None = None) -> list[dict[str, Any]]:
        """Every projected match (of `season`, or the one `match_id`): game, players, open
        round, whether it ended, and the results it published at its end."""
        where = ("WHERE m.match_id = :match_id " if match_id is not None
                 else "WHERE m.season = :season " if season is not None else "")
        with self.reading() as curs:
            found = self.rows(curs, "SELECT m.match_id, m.season, m.game, m.players, m.round, "
                                    "m.ended, r.results FROM {p}matches m LEFT JOIN {p}results r "
                                    f"ON r.match_id = m.match_id {where}ORDER BY m.match_id",
                              season=season, match_id=match_id)
        return [{"match": row["match_id"], "season": row["season"], "game": row["game"],
                 "players": orjson.loads(row["players"]), "round": row["round"],
                 "ended": bool(row["ended"]),
                 "results": orjson.loads(row["results"]) if row["results"] else None}
                for row in found]

    def seasons(self) -> list[str]:
        with self.reading() as curs:
            found = self.rows(curs, "SELECT season FROM {p}standings WHERE viewer = :viewer "
                                    "ORDER BY season", viewer=self.cipher.tag(PUBLIC))
        return [row["season"] for row in found]

    def seqs(self, match_ids: Iterable[str]) -> dict[str, int]:
        """The projected length of each match's log."""
        names = {f"m{i}": match_id for i, match_id in enumerate(match_ids)}
        if not names:
            return {}
        with self.reading() as curs:
            found = self.rows(curs, "SELECT match_id, seq FROM {p}matches WHERE match_id IN "
                                    f"({', '.join(':' + n for n in names)})", **names)
        return {row["match_id"]: row["seq"] for row in found}

    def pending_deadlines(self) -> list[dict[str, Any]]:
        with self.reading() as curs:
            return self.rows(curs, "SELECT match_id, round, deadline FROM {p}deadlines "
                                   "ORDER BY match_id")


@cache
def postgres_views() -> Callable[..., ArbiterViews]:
    """The view tables' recorder on PostgreSQL, made when a PostgreSQL store is opened: its
    driver is a command line's dearest import (about 50 ms), and an SQLite store never needs
    it."""
    from eventsourcing.postgres import PostgresTrackingRecorder
    from psycopg.sql import SQL, Composed, Identifier

    class PostgresViews(ArbiterViews, PostgresTrackingRecorder):
        snapshot = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"
        exists_query = f"SELECT 1 FROM pg_tables WHERE tablename = '{PREFIX}matches'"

        def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
            super().__init__(datastore, **kwargs)
            self.prefix = f'"{datastore.schema}".{PREFIX}'
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

        def sql(self, text: str) -> str:
            """psycopg's placeholders are %(name)s where sqlite3's are :name."""
            return re.sub(r":(\w+)", r"%(\1)s", super().sql(text))

    return PostgresViews


class SQLiteViews(ArbiterViews, SQLiteTrackingRecorder):
    prefix = PREFIX
    exists_query = f"SELECT 1 FROM sqlite_master WHERE name = '{PREFIX}matches'"
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
