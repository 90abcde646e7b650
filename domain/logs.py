"""A match's logs as a reader names them without loading them: their ids in the store, and the
phases a match goes through. The aggregates (domain.match, domain.checkpoints) make their ids
here, so that a command reading the view tables finds a log's version without the rules or
the event-sourcing library."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from uuid import NAMESPACE_URL, UUID, uuid5

from domain.audiences import HOST, PUBLIC
from domain.errors import RuleViolation

CONFIGURED, OPEN, ENDED = "configured", "open", "ended"


@lru_cache(maxsize=4096)  # every command and read names its match by its id
def match_log(match_id: str) -> UUID:
    """The id of a match's log (`domain.match.Match`)."""
    return uuid5(NAMESPACE_URL, f"arbiter/match/{match_id}")


def checkpoints_log(match_id: str) -> UUID:
    """The id of the log of a match's signed checkpoints (`domain.checkpoints.MatchCheckpoints`)."""
    return uuid5(NAMESPACE_URL, f"arbiter/checkpoints/{match_id}")


READERS = (PUBLIC, HOST)  # who reads a match besides its players


def check_plays(who: str, players: Sequence[str], match: str, also: Sequence[str] = (),
                refusal: Callable[[str, str], Exception] = RuleViolation) -> None:
    """`unknown_player` unless `who` plays in `match` (or is one of `also`), raised as
    `refusal(code, words)`: each caller's error type (a rule, an audit, an HTTP answer)."""
    if who not in also and who not in players:
        from domain.edge import excerpt  # the edge's specs are the rules': a reader needs none

        raise refusal("unknown_player", f"{excerpt(who)} does not play in {match}")
