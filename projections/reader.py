"""The view tables as a reader reads them: the views, the inbox, the dashboard, the standings
and the audit, read back from the tables projections.tables writes, on whatever connection
`reading` opens: the library's datastore where the tables are written (`ArbiterViews`), or a
command's own connection to an SQLite file (commands.store.reader), which needs neither the
event-sourcing library nor the rules: a view from the tables folds the facts since the last
kept summary with the game's summary alone.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import orjson

from domain.audiences import HOST, PUBLIC
from domain.games import get_game
from domain.records import is_fact, made_event, may_see, shown, to_event

if TYPE_CHECKING:
    from domain.decider import Event

NAME = "arbiter_views"
PREFIX = f"{NAME}_"

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
    return made_event(fact["kind"], fact["data"], fact["audience"], fact["actor"],
                      fact["postings"])




class Clear:
    """The view cipher of a store without a key: everything as it is."""

    def tag(self, viewer: str) -> str:
        return viewer

    def seal_text(self, text: str) -> str:
        return text

    def open_text(self, text: str) -> str:
        return text


class ViewsReader(ABC):
    """The views, read back from the tables: every method reads in one transaction
    (`reading`), each viewer's rows found by their tag and opened with the store's `cipher`."""

    prefix = PREFIX
    snapshot: str | None = None  # a statement that makes a multi-table read consistent
    exists_query = f"SELECT 1 FROM sqlite_master WHERE name = '{PREFIX}matches'"
    missing: tuple[type[Exception], ...] = ()  # what a read raises where no tables were made
    cipher: Any = Clear()  # the store's (commands.store.sealing.Sealing)

    @abstractmethod
    def reading(self) -> AbstractContextManager[Any]:
        """A cursor in one read transaction: the statements of one method read one state of
        the tables."""

    def _open(self, text: str) -> Any:
        return orjson.loads(self.cipher.open_text(text))

    def sql(self, text: str) -> str:
        return text.replace("{p}", self.prefix)

    def execute(self, curs: Any, query: str, params: dict[str, Any]) -> None:
        curs.execute(query, params)

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
        except self.missing:
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


def schema_prefix(schema: str) -> str:
    """What names a view table in a PostgreSQL schema, before its own name."""
    return f'"{schema}".{PREFIX}'


class PostgresDialect(ViewsReader, ABC):
    """The view tables read on PostgreSQL, whoever holds the connection: the tables' writer
    (projections.tables) or a command's own (commands.store.postgres_reader): each read one snapshot
    of them, psycopg's placeholders."""

    snapshot = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"
    exists_query = f"SELECT 1 FROM pg_tables WHERE tablename = '{PREFIX}matches'"

    def sql(self, text: str) -> str:
        """psycopg's placeholders are %(name)s where sqlite3's are :name."""
        return re.sub(r":(\w+)", r"%(\1)s", super().sql(text))
