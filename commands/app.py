"""The application service: every command is load -> decide -> one atomic save."""

from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, InternalError

from audit.keys import Signer
from audit.signing import sign_round
from commands.store import database_url, persistence_env
from domain.checkpoints import MatchCheckpoints
from domain.decider import HOST, Command
from domain.envelope import GENESIS_PREV, forgery, salt
from domain.errors import RuleViolation
from domain.match import Match, MatchSnapshot, parse_salt_key
from domain.records import may_see, own_parts, shown
from domain.season import Season

RETRIES = 20
SNAPSHOT_EVERY = 200  # entries between two store snapshots of a match
READ_CACHE = 256  # matches whose reader copy is kept between reads
T = TypeVar("T")


def check_stored(match: Match | None, record: dict[str, Any]) -> None:
    """Views refuse to show an entry whose stored bytes do not match its hash."""
    if match is None:  # the genesis entry: it hashes alone, and names the key of the rest
        salt_key, prev = bytes(32), GENESIS_PREV
    else:
        salt_key = parse_salt_key(match.salt_key)
        prev = match.record(match.version)["entry"]["hash"]
    problem = forgery(record, salt_key, prev)
    if problem is not None:
        raise RuleViolation("forged_entry", f"match {record['entry']['match']}: {problem} "
                            "(the store was changed outside Arbiter; `arbiter check` tells more)")


@dataclass(frozen=True)
class Receipt:
    """What a submitter keeps: the entry of their command as the log holds it, and the salt and
    plaintext of each sealed part that is theirs. With it alone they can show what they sent
    (each part opens its commitment) and, with any later checkpoint, that it is in the log
    (`arbiter receipt verify`, docs/audit.md)."""

    entry: dict[str, Any]
    salts: dict[int, str]
    parts: dict[int, dict[str, Any]]

    @property
    def match(self) -> str:
        return self.entry["match"]

    @property
    def seq(self) -> int:
        return self.entry["seq"]

    @property
    def hash(self) -> str:
        return self.entry["hash"]

    def as_dict(self) -> dict[str, Any]:
        return {"match": self.match, "seq": self.seq, "hash": self.hash, "entry": self.entry,
                "salts": {str(i): s for i, s in self.salts.items()},
                "parts": {str(i): p for i, p in self.parts.items()}}


@dataclass(frozen=True)
class Outcome:
    match: str
    seqs: list[int]
    receipt: Receipt | None
    told: list[dict[str, Any]] = field(default_factory=list)


class Arbiter(Application):
    """Aggregates are cached between commands (replaying a long match for every vote would
    dominate a submission). Writers take the aggregate itself from the cache under a
    per-aggregate lock, and evict it when a save fails. Readers never touch it: each match has
    a reader's copy of its own, brought up to date from the store under a lock of its own,
    and a read returns an immutable snapshot of it (`MatchSnapshot`).

    The host's `signer` signs a checkpoint at every round close. Without one, a match can
    only be created unsigned (on the host's say-so, recorded in its genesis entry), and a
    round of a signed match does not close: nothing is ever left unsigned by accident."""

    name = "arbiter"
    env: ClassVar[dict[str, str]] = {"AGGREGATE_CACHE_MAXSIZE": "256"}
    # A long match loads from its latest snapshot and the entries after it (domain.frozen).
    snapshotting_intervals: ClassVar[dict[type, int]] = {Match: SNAPSHOT_EVERY}

    def __init__(self, url: str | None = None, env: Mapping[str, str] | None = None,
                 signer: Signer | None = None) -> None:
        self.signer = signer
        settings = persistence_env(database_url(url))
        settings.update(env or {})
        self._locks: dict[UUID, threading.Lock] = {}
        self._locks_lock = threading.Lock()
        self._loaded: dict[UUID, int] = {}
        self._read: OrderedDict[UUID, tuple[Match, MatchSnapshot]] = OrderedDict()
        self._read_locks: dict[UUID, threading.Lock] = {}
        # Workers starting together race on CREATE TABLE IF NOT EXISTS; the loser retries.
        for attempt in range(5):
            try:
                super().__init__(env=settings)
                return
            except (InternalError, IntegrityError):
                if attempt == 4:
                    raise

    # -- seasons --------------------------------------------------------------------------

    def create_season(self, name: str) -> None:
        if not isinstance(name, str) or not name.strip():
            raise RuleViolation("invalid_season", "a season needs a name")
        try:
            self.save(Season(name=name))
        except IntegrityError:
            raise RuleViolation("season_exists", f"season {name!r} exists already") from None

    def season(self, name: str) -> Season:
        try:
            return self.repository.get(Season.create_id(name))
        except AggregateNotFoundError:
            raise RuleViolation("unknown_season", f"no season {name!r}") from None

    def register(self, season: str, player: str) -> None:
        self._season_act(season, lambda s: s.register(player))

    def grant(self, season: str, player: str, asset: str, amount: int, reason: str) -> None:
        self._season_act(season, lambda s: s.grant(player, asset, amount, reason))

    def transfer(self, season: str, giver: str, receiver: str, amount: int,
                 reason: str) -> None:
        self._season_act(season, lambda s: s.transfer(giver, receiver, amount, reason))

    def _season_act(self, name: str, act: Callable[[Season], None]) -> None:
        def attempt() -> None:
            with self._writing(Season.create_id(name)) as season_id:
                season = self._load(season_id, "unknown_season", name)
                act(season)
                self.save(season)

        self._retrying(attempt)

    # -- matches --------------------------------------------------------------------------

    def match(self, match_id: str, version: int | None = None) -> MatchSnapshot:
        """The match as the store holds it now (or as of `version`), never to be changed."""
        aggregate_id = Match.create_id(match_id)
        if version is not None:  # a replay of every entry up to it, never a store snapshot
            past = None
            for domain_event in self.repository.event_store.get(aggregate_id, lte=version):
                past = domain_event.mutate(past)
            if past is None:
                raise RuleViolation("unknown_match", f"no match {match_id!r}")
            return past.snapshot()
        with self._locks_lock:
            lock = self._read_locks.setdefault(aggregate_id, threading.Lock())
        with lock:
            held = self._read.pop(aggregate_id, None)
            reader = held[0] if held else None
            news = list(self.repository.event_store.get(
                aggregate_id, gt=reader.version if reader else None))
            for domain_event in news:
                check_stored(reader, domain_event.record)
                reader = domain_event.mutate(reader)
            if reader is None:
                raise RuleViolation("unknown_match", f"no match {match_id!r}")
            snapshot = held[1] if held and not news else reader.snapshot()
            self._read[aggregate_id] = (reader, snapshot)
            if len(self._read) > READ_CACHE:
                self._read.popitem(last=False)
        return snapshot

    def create_match(self, *, match_id: str, season: str, game: str, setup: Mapping[str, Any],
                     host_seed: str, salt_key: str, at: str | None = None,
                     allow_weak_seed: bool = False, unsigned: bool = False) -> Outcome:
        def attempt() -> Outcome:
            if Match.create_id(match_id) in self.repository:
                raise RuleViolation("match_exists", f"match {match_id!r} exists already")
            if self.signer is None and not unsigned:
                raise RuleViolation("no_host_key", "no host key to sign the match's "
                                    "checkpoints: run `arbiter init` first, or create the "
                                    "match unsigned (--unsigned)")
            with self._writing(Season.create_id(season)) as season_id:
                the_season = self._load(season_id, "unknown_season", season)
                players = list(setup.get("players") or [])
                the_season.add_match(match_id, game, players)
                match = Match.configure(match_id=match_id, season=season, game_id=game,
                                        setup=setup, host_seed=host_seed, salt_key=salt_key,
                                        garnets=the_season.garnets(players), at=at,
                                        allow_weak_seed=allow_weak_seed, unsigned=unsigned)
                self.save(match, the_season, MatchCheckpoints(match_id=match_id))
                return self._outcome(match, HOST, [1, 2])

        return self._retrying(attempt)

    def submit(self, match_id: str, actor: str, name: str, args: Mapping[str, Any] | None = None,
               *, at: str | None = None, command_id: str | None = None,
               expect_round: int | None = None) -> Outcome:
        """One command from `actor`. A command id seen before returns the first answer.
        With `expect_round`, the command is refused (`round_moved_on`) unless that round is
        still the open one: a deadline close must not close the round after it."""
        if not isinstance(actor, str) or not isinstance(name, str):
            raise RuleViolation("invalid_command", "actor and command name must be texts")
        if args is not None and not isinstance(args, Mapping):
            raise RuleViolation("invalid_command", "the arguments must be an object")
        if not all(isinstance(key, str) for key in (args or {})):
            raise RuleViolation("invalid_command", "argument names must be texts")

        def attempt() -> Outcome:
            with self._writing(Match.create_id(match_id)) as mid:
                match = self._load(mid, "unknown_match", match_id)
                if expect_round is not None and match.round != expect_round and (
                        command_id is None or command_id not in match.handled):
                    raise RuleViolation("round_moved_on", f"round {expect_round} is closed; "
                                        f"round {match.round} is open")
                with self._writing(Season.create_id(match.season)) as season_id:
                    season = self._load(season_id, "unknown_season", match.season)
                    command = Command(name, actor, dict(args or {}),
                                      season.garnets(match.players))
                    before, round_before, ended_before = match.version, match.round, match.ended
                    seqs = match.handle(command, at=at, command_id=command_id)
                    for seq in range(before + 1, match.version + 1):
                        season.post(match_id, seq, match.record(seq)["postings"])
                    closed = match.round != round_before or match.ended != ended_before
                    if closed and self.signer is None and not match.unsigned:
                        raise RuleViolation("no_host_key", "no host key to sign the checkpoint "
                                            f"of round {round_before} of {match_id}: run "
                                            "`arbiter init` first, or set ARBITER_HOST_KEY to "
                                            "the host's key file")
                    if closed and self.signer is not None and not match.unsigned:
                        with self._writing(MatchCheckpoints.create_id(match_id)) as cid:
                            checkpoints = self._load(cid, "unknown_match", match_id)
                            self._sign_checkpoint(match, checkpoints, round_before)
                            self.save(match, season, checkpoints)
                    else:
                        self.save(match, season)
                    return self._outcome(match, actor, seqs)

        return self._retrying(attempt)

    def checkpoints(self, match_id: str) -> MatchCheckpoints:
        try:
            return self.repository.get(MatchCheckpoints.create_id(match_id))
        except AggregateNotFoundError:
            raise RuleViolation("unknown_match", f"no match {match_id!r}") from None

    def _sign_checkpoint(self, match: Match, checkpoints: MatchCheckpoints,
                         round: int) -> None:
        """At every round close and at the end: the host signs the log as it now stands, with
        the round and its state root as extension lines (audit.signing)."""
        note = sign_round(self.signer, match, round)
        checkpoints.record(round=round, size=match.version, note=note)

    def _outcome(self, match: Match, actor: str, seqs: list[int]) -> Outcome:
        records = [match.record(s) for s in seqs]
        first = records[0]
        own = own_parts(first, actor)
        key = parse_salt_key(match.salt_key)
        seq = first["entry"]["seq"]
        receipt = Receipt(first["entry"], {i: salt(key, seq, i).hex() for i in own},
                          {i: first["parts"][i] for i in own})
        told = [shown(r) for r in records if may_see(r, actor)]
        return Outcome(match.match_id, seqs, receipt, told)

    # -- the unit of work -----------------------------------------------------------------

    def _load(self, aggregate_id: UUID, code: str, name: str) -> Any:
        """The cached aggregate itself (not a copy): only under `_writing`."""
        try:
            aggregate = self.repository.get(aggregate_id, deepcopy_from_cache=False)
        except AggregateNotFoundError:
            raise RuleViolation(code, f"no {code.removeprefix('unknown_')} {name!r}") from None
        self._loaded.setdefault(aggregate_id, aggregate.version)
        return aggregate

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
        cache = self.repository.cache
        if cache is None or aggregate_id not in self._loaded:
            return
        try:
            cached = cache.get(aggregate_id)
        except KeyError:
            return
        if cached.version != self._loaded[aggregate_id]:
            cache.get(aggregate_id, evict=True)

    def _retrying(self, attempt: Callable[[], T]) -> T:
        """Optimistic concurrency: a stale write is retried as a whole command."""
        for tries in range(1, RETRIES):
            try:
                return attempt()
            except IntegrityError:
                # Exponential backoff with full jitter: lockstep retries starve one process.
                time.sleep(random.uniform(0, min(0.25, 0.002 * 2 ** tries)))
        return attempt()
