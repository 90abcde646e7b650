"""Stored events checked as they are folded into an aggregate.

Every aggregate the service loads, for a command or for a read, and every event the read side
projects, is folded through `admit`: the events must follow one another (a deleted row is
`missing_entry`, naming the seq), and each entry of a match or a season log must hash to its
`hash`, follow the entry before it and open its commitments (an edited row is
`forged_entry`). A row the store could not read back (commands.store.stored) is `forged_entry`
too. Pure: the store hands the events in.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar, cast

from eventsourcing.domain import Aggregate, Snapshot

from domain.envelope import EVENT_PREFIX, GENESIS_PREV, SEASON_PREFIX, forgery
from domain.errors import RuleViolation
from domain.match import Match, parse_salt_key
from domain.season import Season

A = TypeVar("A", bound=Aggregate)
# The events of a log, each with its `record`. eventsourcing's @event makes them (Appended and
# the `record` attribute) at run time, where mypy does not look.
SEASON_EVENTS: tuple[type[Any], ...] = (Season.Created, Season.Appended)  # type: ignore[attr-defined]
LOG_EVENTS: tuple[type[Any], ...] = (Match.Created, Match.Appended, *SEASON_EVENTS)  # type: ignore[attr-defined]
ADVICE = "the store was changed outside Arbiter; `arbiter check` tells more"


class UnreadableRow(Exception):
    """A stored event whose state could not be read back (a row the store cipher does not
    authenticate, or bytes that no longer parse)."""

    def __init__(self, version: int, why: str) -> None:
        super().__init__(f"event {version}: {why}")
        self.version = version
        self.why = why


def log_name(aggregate: Any, event: Any = None) -> str:
    """What a person calls the log an aggregate (or, before it, its event) belongs to."""
    found = aggregate if aggregate is not None else event
    record = getattr(found, "record", None)
    entry = record.get("entry", {}) if isinstance(record, dict) else {}
    if isinstance(found, Match) or "match" in entry:
        return f"match {found.match_id if isinstance(found, Match) else entry['match']}"
    if isinstance(found, Season) or "season" in entry:
        return f"season {found.name if isinstance(found, Season) else entry['season']}"
    if isinstance(getattr(found, "match_id", None), str):
        return f"the checkpoints of match {found.match_id}"
    if isinstance(getattr(found, "season", None), str):
        return f"the checkpoints of season {found.season}"
    return "a log of the store" if found is None else type(found).__name__.lower()


def unit(aggregate: Any, event: Any = None) -> str:
    """Match and season logs count entries; the other aggregates, events."""
    name = log_name(aggregate, event)
    return "entry" if name.startswith(("match", "season")) else "event"


def check_entry(aggregate: Any, record: dict[str, Any], season: bool) -> None:
    """A match's or a season's stored entry against its hash, its predecessor and its
    commitments (the genesis entry hashes alone and seals nothing)."""
    entry = record["entry"]
    if aggregate is None:
        salt_key, prev = bytes(32), GENESIS_PREV
    elif season:
        salt_key, prev = parse_salt_key(aggregate.salt_key), aggregate.records[-1]["entry"]["hash"]
    else:
        salt_key = parse_salt_key(aggregate.salt_key)
        prev = aggregate.record(aggregate.version)["entry"]["hash"]
    problem = forgery(record, salt_key, prev, SEASON_PREFIX if season else EVENT_PREFIX)
    if problem is not None:
        name = f"season {entry['season']}" if season else f"match {entry['match']}"
        raise RuleViolation("forged_entry", f"{name}: {problem} ({ADVICE})")


def admit(aggregate: A | None, event: Any) -> A:
    """`event` folded into `aggregate` (None before the first), once it is the next one and,
    for a match or a season, its entry holds."""
    if isinstance(event, Snapshot):
        return cast(A, event.mutate(None))  # a snapshot of the aggregate being folded
    expected = 1 if aggregate is None else aggregate.version + 1
    if event.originator_version != expected:
        word, found = unit(aggregate, event), event.originator_version
        after = f"{word} {found} comes after {word} {expected - 1}" if expected > 1 else \
            f"the first stored is {word} {found}"
        raise RuleViolation("missing_entry", f"{log_name(aggregate, event)}: {word} {expected} "
                            f"is missing from the store ({after}); {ADVICE}")
    if isinstance(event, LOG_EVENTS):
        season = isinstance(event, SEASON_EVENTS)
        if event.record["entry"]["seq"] != expected:
            raise RuleViolation("forged_entry", f"{log_name(aggregate, event)}: entry "
                                f"{event.record['entry']['seq']} is stored as entry {expected} "
                                f"({ADVICE})")
        check_entry(aggregate, event.record, season)
    folded: A = event.mutate(aggregate)
    return folded


def checked_run(salt_key: str, last: dict[str, Any] | None, name: str,
                events: Iterable[Any]) -> list[dict[str, Any]]:
    """The records of match `name`'s stored events that follow record `last` (None: from the
    genesis entry), each checked as `admit` checks it, without folding them into the match: a
    reader taking the entries after those it holds already."""
    records: list[dict[str, Any]] = []
    key = parse_salt_key(salt_key)
    iterator = iter(events)
    while True:
        before = records[-1] if records else last
        expected = 1 if before is None else before["entry"]["seq"] + 1
        try:
            event = next(iterator)
        except StopIteration:
            return records
        except UnreadableRow as row:
            raise RuleViolation("forged_entry", f"match {name}: entry {row.version} {row.why} "
                                f"({ADVICE})") from None
        if event.originator_version != expected:
            raise RuleViolation("missing_entry", f"match {name}: entry {expected} is missing "
                                f"from the store (entry {event.originator_version} comes "
                                f"after entry {expected - 1}); {ADVICE}")
        record = event.record
        problem = f"entry {record['entry']['seq']} is stored as entry {expected}" \
            if record["entry"]["seq"] != expected else \
            forgery(record, bytes(32) if before is None else key,
                    GENESIS_PREV if before is None else before["entry"]["hash"], EVENT_PREFIX)
        if problem is not None:
            raise RuleViolation("forged_entry", f"match {name}: {problem} ({ADVICE})")
        records.append(record)


def checked(aggregate: A | None, events: Iterable[Any]) -> A | None:
    """The repository's projector: every stored event through `admit`; a row the store
    cipher refuses is named with its log."""
    iterator = iter(events)
    while True:
        try:
            event = next(iterator)
        except StopIteration:
            return aggregate
        except UnreadableRow as row:
            word = unit(aggregate)
            raise RuleViolation("forged_entry", f"{log_name(aggregate)}: {word} {row.version} "
                                f"{row.why} ({ADVICE})") from None
        aggregate = admit(aggregate, event)
