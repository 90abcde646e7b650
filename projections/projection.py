"""The projection: each stored event of the `arbiter` application into the view tables.

A handler brings the event's aggregate up to the event (kept in memory from the previous
event, else loaded from the store at that version) and writes the rows `projections.rows`
computes from it, with the event's tracking row, in one transaction. A match is kept with its
follower (`projections.follow`), so each entry is folded once, whatever the match's length.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.application import Application, ProjectorFunction
from eventsourcing.domain import Aggregate, DomainEvent
from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection
from eventsourcing.utils import get_topic

from domain.checkpoints import MatchCheckpoints, SeasonCheckpoints
from domain.integrity import admit, checked
from domain.match import Match
from domain.season import Season
from projections.follow import MatchFollower
from projections.rows import Changes, match_rows, other_rows
from projections.tables import APPLICATION, NAME, ArbiterViews

# `checked` for the library's repository, which cannot infer a generic projector's types.
CHECKED: ProjectorFunction[Aggregate, DomainEvent] = checked

KEPT = 256  # aggregates held between events
MISSED = 200  # events a kept aggregate is folded through; further behind, it is loaded again


class Ledger(Application):
    """The `arbiter` application's events, as the projection reads them (it never writes)."""

    name = APPLICATION


# A season's checkpoints show in no table, but each is saved with the change it signs: followed,
# they keep the tracked position at the end of that save, where a rebuild puts it.
TOPICS = tuple(get_topic(cls)
               for aggregate in (Match, Season, MatchCheckpoints, SeasonCheckpoints)
               for cls in vars(aggregate).values()
               if isinstance(cls, type) and issubclass(cls, Aggregate.Event))


class ArbiterProjection(Projection[ArbiterViews]):
    name = NAME
    topics = TOPICS
    ledger: ClassVar[Application]  # where aggregates are loaded from; see `bound`

    def __init__(self, view: ArbiterViews) -> None:
        super().__init__(view)
        ledger = getattr(self, "ledger", None)
        if ledger is not None and ledger.mapper.cipher is not None:
            view.cipher = ledger.mapper.cipher  # the rows sealed as the events are
        self._aggregates: OrderedDict[UUID, Any] = OrderedDict()

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.view.record(self.changes(domain_event), tracking)

    def changes(self, domain_event: Any) -> Changes:
        version = domain_event.originator_version
        kept = self._advance(domain_event)
        if isinstance(kept, MatchFollower):
            return match_rows(kept, kept.match.records[version - 1])
        return other_rows(kept, version)

    def _advance(self, domain_event: Any) -> Any:
        """The event's aggregate as it stood right after the event (a match's with its
        follower, which has taken every entry before this one)."""
        key, version = domain_event.originator_id, domain_event.originator_version
        kept = self._aggregates.pop(key, None)
        aggregate = kept.match if isinstance(kept, MatchFollower) else kept
        if version == 1:
            aggregate, kept = admit(None, domain_event), None
        elif aggregate is not None and aggregate.version == version - 1:
            aggregate = admit(aggregate, domain_event)
        elif aggregate is not None and version - MISSED <= aggregate.version < version:
            # Events another process projected meanwhile (SQLite workers race for a batch):
            # those few folded, not the whole match loaded again from its last snapshot.
            before = aggregate.version
            for missed in self.ledger.repository.event_store.get(key, gt=before,
                                                                 lte=version - 1):
                aggregate = admit(aggregate, missed)
            aggregate = admit(aggregate, domain_event)
            if isinstance(kept, MatchFollower):
                kept.catch_up(aggregate.records[before:version - 1])
        else:
            aggregate = self.ledger.repository.get(key, version=version, projector_func=CHECKED)
            kept = None
        if isinstance(aggregate, Match):
            if kept is None:
                kept = MatchFollower(aggregate)
                kept.catch_up(aggregate.records[:version - 1])
        else:
            kept = aggregate
        self._aggregates[key] = kept
        if len(self._aggregates) > KEPT:
            self._aggregates.popitem(last=False)
        return kept


def bound(ledger: Application) -> type[ArbiterProjection]:
    """The projection class reading aggregates from `ledger` (the library's ProjectionRunner
    builds a projection from its view alone)."""
    return type("ArbiterProjection", (ArbiterProjection,), {"name": NAME, "ledger": ledger})
