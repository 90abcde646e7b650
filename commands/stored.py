"""What the store hands back is checked before anything uses it.

Every aggregate the application loads, for a command or for a read, is folded from its stored
events through `admit`: the events must follow one another (a deleted row is `missing_entry`,
naming the seq), and each entry of a match or a season log must hash to its `hash`, follow
the entry before it and open its commitments (an edited row is `forged_entry`). A row the
store cipher cannot authenticate is `forged_entry` too (commands.sealing). So no command
extends, and no view shows, a log that was changed outside Arbiter; `arbiter check`
(commands.check) goes further, against the signed checkpoints and the rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from eventsourcing.application import Repository
from eventsourcing.domain import Snapshot
from eventsourcing.persistence import Mapper, MapperDeserialisationError, StoredEvent

from domain.checkpoints import MatchCheckpoints, SeasonCheckpoints
from domain.envelope import EVENT_PREFIX, GENESIS_PREV, SEASON_PREFIX, forgery
from domain.errors import RuleViolation
from domain.match import Match, parse_salt_key
from domain.season import Season

A = TypeVar("A")
ADVICE = "the store was changed outside Arbiter; `arbiter check` tells more"


class UnreadableRow(Exception):
    """A stored event whose state the store cipher refuses (commands.sealing)."""

    def __init__(self, version: int, why: str) -> None:
        super().__init__(f"event {version}: {why}")
        self.version = version
        self.why = why


class CheckedMapper(Mapper):
    """The library's mapper, saying which stored event it could not read, and why."""

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        from commands.sealing import SealError

        try:
            return super().to_domain_event(stored_event)
        except MapperDeserialisationError as error:
            cause = error.__cause__
            if isinstance(cause, SealError) and cause.code != "forged_entry":
                raise RuleViolation(cause.code, cause.why) from None  # the key, not a row
            why = cause.why if isinstance(cause, SealError) else \
                "cannot be read back: its stored bytes were changed"
            raise UnreadableRow(stored_event.originator_version, why) from None


def log_name(aggregate: Any, event: Any = None) -> str:
    """What a person calls the log an aggregate (or, before it, its event) belongs to."""
    found = aggregate if aggregate is not None else event
    record = getattr(found, "record", None)
    if isinstance(found, Match) or (record and "match" in record.get("entry", {})):
        return f"match {found.match_id if isinstance(found, Match) else record['entry']['match']}"
    if isinstance(found, Season) or (record and "season" in record.get("entry", {})):
        return f"season {found.name if isinstance(found, Season) else record['entry']['season']}"
    if isinstance(found, MatchCheckpoints) or hasattr(found, "match_id"):
        return f"the checkpoints of match {found.match_id}"
    if isinstance(found, SeasonCheckpoints) or hasattr(found, "season"):
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
        return event.mutate(None)
    expected = 1 if aggregate is None else aggregate.version + 1
    if event.originator_version != expected:
        word, found = unit(aggregate, event), event.originator_version
        after = f"{word} {found} comes after {word} {expected - 1}" if expected > 1 else \
            f"the first stored is {word} {found}"
        raise RuleViolation("missing_entry", f"{log_name(aggregate, event)}: {word} {expected} "
                            f"is missing from the store ({after}); {ADVICE}")
    record = getattr(event, "record", None)
    if isinstance(event, Match.Created | Match.Appended):
        check_entry(aggregate, record, season=False)
    elif isinstance(event, Season.Created | Season.Appended):
        check_entry(aggregate, record, season=True)
    return event.mutate(aggregate)


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


class CheckedRepository(Repository):
    """The library's repository, folding every stored event through `admit`."""

    def get(self, aggregate_id: Any, *, projector_func: Any = checked, **options: Any) -> Any:
        return super().get(aggregate_id, projector_func=projector_func, **options)

