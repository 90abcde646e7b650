"""The read side every reader shares: the command line, the pages, the HTTP API and the Python
API read a view from the view tables when they hold every entry it needs, and say so when
they do not; then the entries they lack are read from the log and folded after the summary
the tables kept at the last round's end, never the whole log again (unless the tables hold
none of the match). `projections.views.view`, the fold of the whole log, stays the reference
the tests hold this to.

A command that only reads opens the view tables of the store on a connection of its own
(`read_side`): a view the tables hold is read with neither the event-sourcing library nor the
rules, nor the service, which is opened only to read the log past the tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any
from uuid import UUID

from commands.service.rounds import check_round
from commands.store.reader import StoreReader
from commands.store.settings import database_env, database_url
from domain.logs import CONFIGURED, ENDED, OPEN, READERS, check_plays, checkpoints_log, match_log
from projections.reader import ViewsReader

if TYPE_CHECKING:
    from commands.service.unit_of_work import UnitOfWork
    from projections.tables import ArbiterViews


@dataclass(frozen=True)
class Now:
    """Where a match stands as a view was read: its open round (its last, once it ended) and
    its phase (`configured` before the opening, `open`, `ended`)."""

    round: int
    phase: str

    @property
    def ended(self) -> bool:
        return self.phase == ENDED


@dataclass(frozen=True)
class Seen:
    """A view, and how much of it the view tables held."""

    view: dict[str, Any]
    behind: int  # entries of the log the tables had not read (0: they held all it needs)
    held: int  # entries of the match the tables held
    now: Now  # where the match stands

    def note(self) -> str | None:
        """What a reader is told when the tables were behind, in words; None when not."""
        if not self.behind:
            return None
        match, last = self.view["match"], self.held + self.behind
        keep = "arbiter serve keeps them current, arbiter projections rebuild fills them now"
        if not self.held:
            return (f"the view tables do not hold match {match} yet, so it was read from its "
                    f"log, all {last} entries ({keep})")
        return (f"the view tables hold {self.held} of the {last} entries of match {match}: "
                f"the {self.behind} after them were read from the log ({keep})")


@dataclass(frozen=True)
class Signed:
    """A match's signed checkpoints, by the round each closed, and where the match stands."""

    round: int  # the open round (the last, once it ended)
    ended: bool
    last_closed: int  # every round of an ended match; else those before the open one
    notes: dict[int, str]

    @classmethod
    def of(cls, round: int, ended: bool, last_round: int,
           notes: list[dict[str, Any]]) -> Signed:
        """`last_round`: the round of the log's last entry; `notes`: each with its round."""
        return cls(round, ended, last_round if ended else round - 1,
                   {n["round"]: n["note"] for n in notes})


class ReadSide:
    """Views of the matches of one store, from its view tables and, past them, its log: the
    entries the tables lack are read from the store's logs, which `logs` opens when asked."""

    def __init__(self, views: ViewsReader, versions: Callable[[Sequence[UUID]], list[int]],
                 logs: Callable[[], UnitOfWork]) -> None:
        self.views = views
        self.versions = versions  # the store's version of each log now
        self.logs = logs

    @classmethod
    def of(cls, arbiter: UnitOfWork, views: ArbiterViews | None = None) -> ReadSide:
        """The read side of an open service (a web worker's, the Python API's)."""
        from projections.tables import datastore_of, open_views

        # A reader never makes the tables (`arbiter serve` does, before its workers start):
        # tables missing are tables that hold nothing yet.
        return cls(views or open_views(datastore_of(arbiter), arbiter.mapper.cipher,
                                       create=False),
                   arbiter.stored_versions, lambda: arbiter)

    def view(self, match_id: str, viewer: str, round: int | None = None) -> Seen:
        """What `viewer` ("public", "host" or a player) knows of the match, now or as of the
        end of `round`: `projections.views.view(match, viewer, round)`."""
        head = self.views.head(match_id)
        if head is not None and round is not None and 0 <= round < head["last_round"]:
            return self._projected(head, match_id, viewer, round)  # a round the tables closed
        (stored,) = self.versions([match_log(match_id)])
        if head is not None and head["seq"] >= stored:
            return self._projected(head, match_id, viewer, round)
        held = head["seq"] if head is not None else 0
        match, later = self.logs().recent(match_id, held)
        check_plays(viewer, match.players, match_id, READERS)
        check_round(round, match.round, match.ended, match_id)
        behind, now = match.version - held, Now(match.round, match.phase)
        if head is None:
            from projections.views import RecordsLog, view

            return Seen(view(RecordsLog(match_id, match.game_id, later), viewer, round),
                        behind, held, now)
        found = self.views.view_after(match_id, viewer, round, match.game_id, later)
        assert found is not None  # the tables hold the genesis entry
        return Seen(found, behind, held, now)

    def signed(self, match_id: str) -> Signed | None:
        """The match's signed checkpoints as the tables hold them, when they hold its whole
        log and every checkpoint of it (its checkpoints' log has a first event, then one a
        note); None when they do not."""
        head = self.views.head(match_id)
        if head is None:
            return None
        stored, signed = self.versions([match_log(match_id), checkpoints_log(match_id)])
        notes = self.views.checkpoints(match_id)
        if head["seq"] < stored or len(notes) + 1 != signed:
            return None
        return Signed.of(head["round"], head["ended"], head["last_round"], notes)

    def _projected(self, head: dict[str, Any], match_id: str, viewer: str,
                   round: int | None) -> Seen:
        check_plays(viewer, head["players"], match_id, READERS)
        check_round(round, head["round"], head["ended"], match_id)
        found = self.views.view_after(match_id, viewer, round, head["game"], ())
        assert found is not None  # the tables hold the genesis entry
        return Seen(found, 0, head["seq"], Now(head["round"], self._phase(match_id, head)))

    def _phase(self, match_id: str, head: dict[str, Any]) -> str:
        """The match's phase, as the tables hold it: only the host's dashboard tells a match
        not opened yet from one open in its round 0 (a game's pre-game)."""
        if head["ended"]:
            return ENDED
        if head["round"]:
            return OPEN
        board = self.views.dashboard(match_id)
        return CONFIGURED if board is not None and board["phase"] == CONFIGURED else OPEN


def read_side(url: str | None) -> ReadSide:
    """The read side of a command that only reads the store at `url`: its view tables on a
    connection of their own (commands.store.reader), an SQLite file's or a PostgreSQL
    database's, the store's logs opened only if one must be read past them; the logs' own
    connections where the store's tables are not made yet."""
    reader = store_reader(database_url(url))
    if reader is None:
        return ReadSide.of(logs(url))
    return ReadSide(reader, reader.stored_versions, cache(lambda: logs(url)))


def store_reader(url: str) -> StoreReader | None:
    """A reader of the view tables of the store at `url`, with the store's versions of its
    logs, refused as the service refuses the store when its key does not fit it; None where
    the store's own tables are not made yet (an SQLite file that does not exist, a database
    the library has not written to). PostgreSQL's driver is loaded for a PostgreSQL store
    alone, and SQLite's for an SQLite file alone."""
    if database_env(url)["PERSISTENCE_MODULE"] == "eventsourcing.postgres":
        from commands.store.postgres_reader import postgres_reader

        return postgres_reader(url)
    from commands.store.sqlite_reader import sqlite_reader

    return sqlite_reader(url)


def logs(url: str | None) -> UnitOfWork:
    """The store's logs, opened to be read: the event-sourcing library and the rules."""
    from commands.service.unit_of_work import UnitOfWork

    return UnitOfWork(url)
