"""The read side every reader shares: the command line, the pages, the HTTP API and the Python
API read a view from the view tables when they hold every entry it needs, and say so when
they do not; then the entries they lack are read from the log and folded after the summary
the tables kept at the last round's end, never the whole log again (unless the tables hold
none of the match). `projections.views.view`, the fold of the whole log, stays the reference
the tests hold this to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from commands.service.rounds import check_round
from commands.service.unit_of_work import UnitOfWork
from domain.match import CONFIGURED, ENDED, OPEN, READERS, Match, check_plays
from projections.tables import ArbiterViews, datastore_of, open_views
from projections.views import RecordsLog, view


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


class ReadSide:
    """Views of the matches of one store, from its view tables and, past them, its log."""

    def __init__(self, arbiter: UnitOfWork, views: ArbiterViews | None = None) -> None:
        self.arbiter = arbiter
        # A reader never makes the tables (`arbiter serve` does, before its workers start):
        # tables missing are tables that hold nothing yet.
        self.views = views or open_views(datastore_of(arbiter), arbiter.mapper.cipher,
                                         create=False)

    def view(self, match_id: str, viewer: str, round: int | None = None) -> Seen:
        """What `viewer` ("public", "host" or a player) knows of the match, now or as of the
        end of `round`: `projections.views.view(match, viewer, round)`."""
        head = self.views.head(match_id)
        if head is not None and round is not None and 0 <= round < head["last_round"]:
            return self._projected(head, match_id, viewer, round)  # a round the tables closed
        (stored,) = self.arbiter.stored_versions([Match.create_id(match_id)])
        if head is not None and head["seq"] >= stored:
            return self._projected(head, match_id, viewer, round)
        held = head["seq"] if head is not None else 0
        match, later = self.arbiter.recent(match_id, held)
        check_plays(viewer, match.players, match_id, READERS)
        check_round(round, match.round, match.ended, match_id)
        behind, now = match.version - held, Now(match.round, match.phase)
        if head is None:
            return Seen(view(RecordsLog(match_id, match.game_id, later), viewer, round),
                        behind, held, now)
        found = self.views.view_after(match_id, viewer, round, match.game_id, later)
        assert found is not None  # the tables hold the genesis entry
        return Seen(found, behind, held, now)

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
