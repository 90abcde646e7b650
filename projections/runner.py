"""Keeping the view tables current, and rebuilding them.

Both read the notification log past the tracked position (`catch_up`) and write each batch of
events with the tracking row of its last, in one transaction: a busy service writes the views
once for every event recorded meanwhile, not once per event (a woken projection waits GATHER
for them).

PostgreSQL: every projection process offers to project, but only the holder of a session
advisory lock does (projections.sole), woken by the NOTIFY of each save (LISTEN on the lock's
own session): when it dies its session ends, the lock is free, and another resumes from the
tracking row.

SQLite has no notifications: a loop in the service process looks, woken after each command
and every `interval` seconds; the processes on one file take turns (an flock beside it).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import closing

import psycopg
from eventsourcing.persistence import (
    IntegrityError,
    InternalError,
    Notification,
    OperationalError,
    Tracking,
)
from eventsourcing.postgres import PostgresApplicationRecorder
from psycopg.sql import SQL, Identifier

from projections.projection import TOPICS, ArbiterProjection, Ledger, bound
from projections.rows import Changes
from projections.sole import PROJECTING, in_turn, sole
from projections.tables import APPLICATION, ArbiterViews, datastore_of, open_views

BATCH = 500
# Seconds a projection woken by a new event waits before reading the log, so the events
# recorded meanwhile go in the same batch: under load a batch holds several votes, not one,
# and shares its fixed cost (two queries, a transaction, the tracking row, a NOTIFY). Four
# clients voting over HTTP: 0.6 ms of the projection's CPU a vote and 1.0 ms of PostgreSQL's
# became 0.2 and 0.7 (docs/service.md, "Any client").
GATHER = 0.005
SMALL_POOLS = {"POSTGRES_POOL_SIZE": "2", "POSTGRES_MAX_OVERFLOW": "2"}  # one batch at a time
log = logging.getLogger("arbiter.projections")


def notifications(ledger: Ledger, after: int,
                  stop: int | None = None) -> Iterator[Notification]:
    """The projected events of the log past notification `after` (up to `stop`), in order."""
    while found := ledger.recorder.select_notifications(start=after + 1, limit=BATCH, stop=stop,
                                                        topics=TOPICS):
        yield from found
        after = found[-1].id


def catch_up(ledger: Ledger, views: ArbiterViews,
             projection: ArbiterProjection | None = None) -> None:
    """Apply every event past the tracked position, a batch at a time (with `projection`,
    which keeps what it folded from one call to the next). An event the checks refuse stops
    its batch: the events before it are written, then the error rises."""
    projection = projection or bound(ledger)(views)
    after = views.max_tracking_id(APPLICATION) or 0
    while found := ledger.recorder.select_notifications(start=after + 1, limit=BATCH,
                                                        topics=TOPICS):
        changes: Changes = []
        for n, notification in enumerate(found):
            try:
                changes += projection.changes(ledger.mapper.to_domain_event(notification))
            except Exception:
                if n:
                    record(views, changes, found[0].id, found[n - 1].id)
                raise
        after = record(views, changes, found[0].id, found[-1].id)
        if len(found) < BATCH and after >= found[-1].id:
            return  # the log's end: what is recorded later is told (NOTIFY, a wake)


def record(views: ArbiterViews, changes: Changes, first: int, last: int) -> int:
    """Write the changes of events `first`..`last`; the position to go on from."""
    try:
        views.record(changes, Tracking(APPLICATION, last))
    except IntegrityError:
        moved = views.max_tracking_id(APPLICATION) or 0
        if moved < first:
            raise  # not the tracking row: a bug
        return moved  # another process applied some of them first: go on after it
    return last


def rebuild(ledger: Ledger, views: ArbiterViews,
            progress: Callable[[int, int], None] | None = None) -> None:
    """Drop the view tables and project every event recorded so far again (one
    transaction); later events are the running projection's."""
    projection = bound(ledger)(views)
    last = ledger.recorder.max_notification_id() or 0

    def changes() -> Iterator[Changes]:
        for notification in notifications(ledger, 0, stop=last):
            yield projection.changes(ledger.mapper.to_domain_event(notification))
            if progress is not None:
                progress(notification.id, last)

    views.rebuild(changes(), last)


def run(env: Mapping[str, str], stop: threading.Event, wake: threading.Event | None = None,
        interval: float = 1.0) -> None:
    """Keep the views current until `stop` is set."""
    if env["PERSISTENCE_MODULE"] == "eventsourcing.postgres":
        lead(env, stop, interval)
    else:
        poll(env, stop, wake or threading.Event(), interval)


def poll(env: Mapping[str, str], stop: threading.Event, wake: threading.Event,
         interval: float) -> None:
    """The processes on one file take turns at catching up: the second reads only what the
    first left, and folds the entries the first wrote into the matches it keeps. Racing for
    each batch, the one that lost had computed its rows for nothing, and loaded its matches
    again from the store (two workers: 4 to 6 ms of CPU a vote, against 2)."""
    with closing(Ledger(env=dict(env))) as ledger:
        views = open_views(datastore_of(ledger), ledger.mapper.cipher)
        projection = bound(ledger)(views)
        while not stop.is_set():
            try:
                with in_turn(env, PROJECTING):
                    catch_up(ledger, views, projection)
            except Exception:
                log.exception("projecting failed; trying again")
            if wake.wait(interval):
                stop.wait(GATHER)
            wake.clear()


def lead(env: Mapping[str, str], stop: threading.Event, interval: float) -> None:
    """Project while holding the advisory lock; wait for it otherwise."""
    while not stop.is_set():
        try:
            with sole(env, PROJECTING) as held:
                if held is not None and held.connection is not None:
                    project(env, stop, held.connection, interval)
        except (IntegrityError, InternalError, OperationalError, psycopg.OperationalError
                ) as error:
            # Workers creating the tables at once, a rebuild, a lost connection, a server
            # refusing more (too many clients): one line, and it resumes from its tracking row.
            log.warning("the projection runner stopped (%s); restarting it",
                        " ".join(str(error).split())[:300])
        except Exception:
            log.exception("the projection runner failed; restarting it")
        stop.wait(interval)


def project(env: Mapping[str, str], stop: threading.Event, lock: psycopg.Connection,
            interval: float) -> None:
    """Catch up, then again at each NOTIFY of a save (or after `interval` seconds), until
    `stop`. Listening on the lock's session also keeps it alive."""
    with closing(Ledger(env={**env, **SMALL_POOLS})) as ledger:
        views = open_views(datastore_of(ledger), ledger.mapper.cipher)
        projection = bound(ledger)(views)
        recorder = ledger.recorder
        assert isinstance(recorder, PostgresApplicationRecorder)  # a PostgreSQL env
        lock.execute(SQL("LISTEN {0}").format(Identifier(recorder.channel_name)))
        while not stop.is_set():
            catch_up(ledger, views, projection)
            for _ in lock.notifies(timeout=interval, stop_after=1):  # all those come by
                stop.wait(GATHER)

