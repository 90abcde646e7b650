"""The unit of work under every command of the service: the store opened with its key, the
aggregates cached and loaded checked, one writer per aggregate, retries, store snapshots."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, ClassVar, TypeVar, cast
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.domain import Aggregate, Snapshot
from eventsourcing.persistence import (
    EventStore,
    IntegrityError,
    InternalError,
    OperationalError,
    Recording,
)

from commands.service.writers import Busy, writers_for
from commands.store.sealing import check_key_fits, private_file, store_kind
from commands.store.settings import database_url, persistence_env, store_name
from commands.store.stored import CheckedRepository, StoreCipher, StoredVersions
from domain.checkpoints import MatchCheckpoints, SeasonCheckpoints
from domain.edge import excerpt
from domain.errors import RuleViolation
from domain.integrity import ADVICE, checked, checked_run
from domain.match import Match, MatchSnapshot, Reading
from domain.season import Season

RETRIES = 20
log = logging.getLogger("arbiter")
SNAPSHOT_EVERY = 200  # entries between two store snapshots of a match
READ_CACHE = 256  # matches whose reader copy is kept between reads
T = TypeVar("T")


SNAPSHOTTING = "snapshots"  # the name of the thread that stores a unit of work's snapshots


def snapshot_step(match: Match, every: int) -> int:
    """Entries between a match's snapshots: `every`, doubled while a snapshot would hold at
    least twice as many entries (a long round's snapshot holds every entry since its last
    turn). Each snapshot then saves a replay at least half as long as itself, and storing
    them costs each entry a bounded share however long the round, not a share that grows
    with it (a thousand replaced votes in one round: a megabyte, 50 ms to encode and seal,
    every 200 entries). Every process finds the same steps: they depend on the match alone."""
    step = every
    while step * 2 <= match.held():
        step *= 2
    return step


def store_snapshot(store: EventStore[UUID], snapshot: Match.Snapshot) -> None:
    """A match's snapshot, stored by the unit of work's own thread (which holds nothing of
    the unit of work itself, so the unit of work is never finalized there)."""
    try:
        store.put([snapshot])
    except Exception:
        log.warning("a snapshot of %s at entry %d was not stored; the next one will be",
                    snapshot.originator_id, snapshot.originator_version, exc_info=True)


class UnitOfWork(Application):
    """Aggregates are cached between commands (replaying a long match for every vote would
    dominate a submission). Writers take the aggregate itself from the cache under a
    per-aggregate lock, and evict it when a save fails. Readers never touch it: each match has
    a reader's copy of its own, brought up to date from the store under a lock of its own,
    and a read returns an immutable snapshot of it (`MatchSnapshot`).

    Every command runs as one attempt under the writers' lock (`_retrying`), takes each
    aggregate it changes under `_writing`, loads it with `_load` and saves them all at once."""

    name = "arbiter"
    env: ClassVar[dict[str, str]] = {"AGGREGATE_CACHE_MAXSIZE": "256"}
    # A long match loads from its latest snapshot and the entries after it (domain.frozen).
    snapshotting_intervals: ClassVar[dict[type, int]] = {Match: SNAPSHOT_EVERY}

    def __init__(self, url: str | None = None, env: Mapping[str, str] | None = None) -> None:
        self.url = database_url(url)
        settings = persistence_env(self.url)
        settings.update(env or {})
        if settings["PERSISTENCE_MODULE"] == "eventsourcing.sqlite":
            private_file(settings["SQLITE_DBNAME"])
        self._locks: dict[UUID, threading.Lock] = {}
        self._locks_lock = threading.Lock()
        self._loaded: dict[UUID, int] = {}
        self._read: OrderedDict[UUID, tuple[Match, MatchSnapshot]] = OrderedDict()
        self._read_locks: dict[UUID, threading.Lock] = {}
        self._with_the_lock = threading.local()  # the versions asked with the writer's lock
        self._snapshotting = ThreadPoolExecutor(1, thread_name_prefix=SNAPSHOTTING)
        self.writers = writers_for(settings)
        # Workers starting together race on CREATE TABLE IF NOT EXISTS (a duplicate key, or a
        # deadlock on PostgreSQL's catalog); the loser retries.
        for attempt in range(5):
            try:
                super().__init__(env=settings)
                break
            except (InternalError, IntegrityError, OperationalError) as error:
                from projections.tables import lost_create_race

                if attempt == 4 or not lost_create_race(error):
                    raise
        self._check_store_key()
        self.stored_versions = StoredVersions(self.recorder, settings)

    def close(self) -> None:
        # The snapshots taken are stored first (unless the garbage collector closes this in
        # the thread that stores them, which cannot wait for itself).
        storing = threading.current_thread().name.startswith(SNAPSHOTTING)
        self._snapshotting.shutdown(wait=not storing)
        self.writers.close()
        self.stored_versions.close()
        super().close()

    def _check_store_key(self) -> None:
        cipher = cast(StoreCipher, self.mapper.cipher)  # persistence_env always names it
        check_key_fits(store_kind(self.recorder), cipher.sealed, store_name(self.url))

    def save(self, *aggregates: Aggregate) -> list[Recording[UUID]]:  # type: ignore[override]
        """The library's save, of aggregates alone: it checks each object against two runtime
        protocols first (is it an event? does it collect events?), 9 µs a save, a fiftieth of
        a vote on SQLite."""
        processing_event = ProcessingEvent[UUID]()
        for aggregate in aggregates:
            processing_event.events.extend(aggregate.collect_events())
            processing_event.aggregates[aggregate.id] = aggregate
        recordings = self._record(processing_event)
        self._take_snapshots(processing_event)
        self._notify(recordings)
        return recordings

    def _take_snapshots(self, processing_event: ProcessingEvent[UUID]) -> None:
        """The library's, except that an aggregate is snapshotted as it stands in memory, just
        saved: the library would load it from the store once more (a whole replay).

        A match's snapshot is stored by a thread of its own, after the command has answered:
        taking it is cheap (`Match.frozen` copies what the match may still change), storing it
        is not (a long round's snapshot holds every entry since its last turn: 3 to 15 ms for
        a thousand, and 100 to 160 ms on a busy machine, which a player's vote waited for). A
        snapshot not stored only means a longer replay from the one before."""
        for aggregate in processing_event.aggregates.values():
            interval = self.snapshotting_intervals.get(type(aggregate))
            if interval is None or self.snapshots is None:
                continue
            if isinstance(aggregate, Match):
                step = snapshot_step(aggregate, interval)
                if any(e.originator_version % step == 0 for e in processing_event.events
                       if e.originator_id == aggregate.id):
                    self._snapshotting.submit(store_snapshot, self.snapshots,
                                              Match.Snapshot.take(aggregate))
            elif any(e.originator_version % interval == 0 for e in processing_event.events
                     if e.originator_id == aggregate.id):
                self.snapshots.put([Snapshot.take(aggregate)])

    def construct_repository(self) -> CheckedRepository:
        """The library's repository (its cache as `env` sizes it), every stored event checked
        as it is folded."""
        size = self.env.get(self.AGGREGATE_CACHE_MAXSIZE)
        return CheckedRepository(event_store=self.events, snapshot_store=self.snapshots,
                                 cache_maxsize=int(size) if size else None)

    # -- reading ------------------------------------------------------------------------------

    def match(self, match_id: str, version: int | None = None) -> MatchSnapshot:
        """The match as the store holds it now (or as of `version`), never to be changed."""
        aggregate_id = Match.create_id(match_id)
        if version is not None:  # a replay of every entry up to it, never a store snapshot
            past = checked(None, self.repository.event_store.get(aggregate_id, lte=version))
            if past is None:
                raise RuleViolation("unknown_match", f"no match {excerpt(match_id)}")
            return past.snapshot()
        with self._locks_lock:
            lock = self._read_locks.setdefault(aggregate_id, threading.Lock())
        with lock:
            held = self._read.pop(aggregate_id, None)
            reader = held[0] if held else None
            before = reader.version if reader else 0
            reader = checked(reader, self.repository.event_store.get(
                aggregate_id, gt=before or None))
            if reader is None:
                raise RuleViolation("unknown_match", f"no match {excerpt(match_id)}")
            if held is None:
                self._check_complete(reader)
            snapshot = held[1] if held and reader.version == before else reader.snapshot()
            self._read[aggregate_id] = (reader, snapshot)
            if len(self._read) > READ_CACHE:
                self._read.popitem(last=False)
        return snapshot

    def recent(self, match_id: str, after: int) -> tuple[Reading, list[dict[str, Any]]]:
        """The match as the store holds it now, and its records after entry `after` only,
        checked: from this process's reader copy when it holds one, else from the nearest
        store snapshot and the entries after `after`, so a reader that holds the first entries
        already (the view tables) never reads a long match from its first entry."""
        aggregate_id = Match.create_id(match_id)
        if aggregate_id in self._read:
            held = self.match(match_id)
            return held, list(held.records[after:])
        (version,) = self.stored_versions([aggregate_id])
        if not version:
            raise RuleViolation("unknown_match", f"no match {excerpt(match_id)}")
        match: Match = self.repository.get(aggregate_id, version=version)
        self._check_complete(match)
        kept = match.records[max(0, after + 1 - match.first_seq):]
        if match.first_seq <= after + 1:
            return match, list(kept)
        # The snapshot keeps fewer entries than the reader lacks: those between, from the store.
        store = self.repository.event_store
        anchor: dict[str, Any] | None = None
        if after:
            (stored,) = store.get(aggregate_id, gt=after - 1, limit=1)
            anchor = cast(Any, stored).record  # a Match event (its @event makes `record`)
        between = checked_run(match.salt_key, anchor, match_id, store.get(
            aggregate_id, gt=after, lte=match.first_seq - 1))
        last = between[-1] if between else anchor
        if last is None or last["entry"]["hash"] != kept[0]["entry"]["prev"]:
            raise RuleViolation("forged_entry", f"match {match_id}: entry {match.first_seq} "
                                f"does not follow the entry before it ({ADVICE})")
        return match, [*between, *kept]

    # -- loading, locking, retrying ---------------------------------------------------------

    def _stored_now(self, match_id: UUID) -> dict[UUID, int]:
        """The store's versions of a cached match and of its season, in one query (on
        PostgreSQL asked with the writer's lock, `_retrying`): a cached log as long as the
        store's needs no read of its own (`_load`)."""
        ids = self._logs_of(match_id)
        asked = getattr(self._with_the_lock, "versions", None)
        if ids and asked is not None and all(i in asked for i in ids):
            return {i: asked[i] for i in ids}
        return dict(zip(ids, self.stored_versions(ids), strict=True)) if ids else {}

    def _logs_of(self, match_id: UUID) -> list[UUID]:
        """A cached match and its season (the season of a match never changes): the logs whose
        versions a command on it asks for; none when the match is not cached."""
        match = self._cached(match_id)
        return [match_id, Season.create_id(match.season)] if isinstance(match, Match) else []

    def _cached(self, aggregate_id: UUID) -> Any:
        cache = self.repository.cache
        try:
            return None if cache is None else cache.get(aggregate_id)
        except KeyError:
            return None

    def _load(self, aggregate_id: UUID, code: str, name: str,
              stored: Mapping[UUID, int] | None = None) -> Any:
        """The cached aggregate itself (not a copy): only under `_writing`. A cached log as
        long as the store's (`stored` versions) is taken as it is; otherwise what the store
        adds is folded in, and a log loaded from the store is checked against its last signed
        checkpoint too."""
        if stored and aggregate_id in stored:
            held = self._cached(aggregate_id)
            if held is not None and held.version == stored[aggregate_id]:
                self._loaded.setdefault(aggregate_id, held.version)
                return held
        cache = self.repository.cache
        from_store = cache is None or aggregate_id not in cache.cache
        try:
            aggregate: Aggregate = self.repository.get(aggregate_id, deepcopy_from_cache=False)
        except AggregateNotFoundError:
            what = code.removeprefix("unknown_")
            raise RuleViolation(code, f"no {what} {excerpt(name)}") from None
        if from_store and isinstance(aggregate, Match | Season):
            try:
                self._check_complete(aggregate)
            except RuleViolation:
                self._evict(aggregate_id)
                raise
        self._loaded.setdefault(aggregate_id, aggregate.version)
        return aggregate

    def _check_complete(self, log: Match | MatchSnapshot | Season) -> None:
        """A log shorter than a checkpoint the host signed has lost its last entries: no
        command extends it and no read shows it."""
        if isinstance(log, Season):
            checkpoints_id, name = SeasonCheckpoints.create_id(log.name), f"season {log.name}"
            log_id = Season.create_id(log.name)
        else:
            checkpoints_id, name = MatchCheckpoints.create_id(log.match_id), \
                f"match {log.match_id}"
            log_id = Match.create_id(log.match_id)
        try:
            notes: list[dict[str, Any]] = self.repository.get(
                checkpoints_id, deepcopy_from_cache=False).notes
        except AggregateNotFoundError:
            return
        if notes and notes[-1]["size"] > log.version and \
                notes[-1]["size"] > self._stored_version(log_id):
            signed = notes[-1]["size"]
            raise RuleViolation("missing_entry", f"{name}: entry {log.version + 1} is missing "
                                f"from the store (a signed checkpoint covers {signed} entries, "
                                f"the store holds {log.version}); {ADVICE}")

    def _stored_version(self, log_id: UUID) -> int:
        """The store's version of a log now: a writer may have saved entries and the
        checkpoint that covers them between a reader's read of the log and of its notes."""
        last = list(self.repository.event_store.get(log_id, desc=True, limit=1))
        return last[0].originator_version if last else 0

    @contextmanager
    def _writing(self, aggregate_id: UUID) -> Iterator[UUID]:
        """One writer per aggregate in this process. When the command fails after the
        aggregate changed in memory, the cached copy is ahead of the store: evict it."""
        with self._locks_lock:
            lock = self._locks.setdefault(aggregate_id, threading.Lock())
        with lock:
            try:
                yield aggregate_id
            except BaseException:
                self._evict_if_changed(aggregate_id)
                raise
            finally:
                self._loaded.pop(aggregate_id, None)

    def _evict_if_changed(self, aggregate_id: UUID) -> None:
        cached = self._cached(aggregate_id) if aggregate_id in self._loaded else None
        if cached is not None and cached.version != self._loaded[aggregate_id]:
            self._evict(aggregate_id)

    def _evict(self, aggregate_id: UUID) -> None:
        cache = self.repository.cache
        if cache is not None and aggregate_id in cache.cache:
            cache.get(aggregate_id, evict=True)

    def _retrying(self, attempt: Callable[[], T], name: str, match: UUID | None = None) -> T:
        """Each attempt holds the writer's lock of `name` across processes
        (commands.service.writers), so a stale write is rare: one left by a writer of another
        match's season changes. A command on `match` asks the versions of the match and its
        season with the lock (`_stored_now`).
        It is retried as a whole command; a command that loses every retry is `busy`."""
        for tries in range(1, RETRIES + 1):
            logs = self._logs_of(match) if match is not None else []
            try:
                with self.writers.holding(name, self.stored_versions.with_the_lock(logs)) as row:
                    self._with_the_lock.versions = None if row is None else \
                        dict(zip(logs, (v or 0 for v in row), strict=True))
                    try:
                        return attempt()
                    finally:
                        self._with_the_lock.versions = None
            except IntegrityError:
                # Exponential backoff with full jitter: lockstep retries starve one process.
                time.sleep(random.uniform(0, min(0.25, 0.002 * 2 ** tries)))
        raise Busy(f"{name}: other writers kept changing it through {RETRIES} tries; nothing "
                   "was recorded, send it again")
