"""Bearer tokens: the host's, and one per player per match that the host issues.

Only their SHA-256 digests are stored, in two small event-sourced aggregates of the `arbiter`
application beside (not inside) the match logs: `HostToken` and one `PlayerTokens` per
match. Issuing a token again replaces the old one. A token is shown once, when issued, and
never logged.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sys
import time
from collections.abc import Callable
from typing import TypeVar, cast
from urllib.parse import quote
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import register_topic, retry

A = TypeVar("A", bound=Aggregate)
R = TypeVar("R")


def new_token() -> str:
    return secrets.token_urlsafe(32)


def join_link(base_url: str, match_id: str, token: str) -> str:
    """A player's personal link, BASE/m/MATCH/join#TOKEN (docs/pages.md): the token rides in
    the fragment, which browsers never send, so no server or proxy log ever holds it."""
    return f"{base_url.rstrip('/')}/m/{quote(match_id, safe='')}/join#{token}"


def digest_of(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class HostToken(Aggregate):
    @staticmethod
    def create_id() -> UUID:
        return uuid5(NAMESPACE_URL, "arbiter/tokens/host")

    @event("Set")
    def __init__(self, digest: str) -> None:
        self.digest = digest

    @event("Replaced")
    def replace(self, digest: str) -> None:
        self.digest = digest


class PlayerTokens(Aggregate):
    @staticmethod
    def create_id(match_id: str) -> UUID:
        return uuid5(NAMESPACE_URL, f"arbiter/tokens/match/{match_id}")

    @event("Started")
    def __init__(self, match_id: str) -> None:
        self.match_id = match_id
        self.digests: dict[str, str] = {}

    @event("Issued")
    def issue(self, player: str, digest: str) -> None:
        self.digests[player] = digest

    def holder(self, digest: str) -> str | None:
        return next((player for player, known in self.digests.items()
                     if hmac.compare_digest(known, digest)), None)


# Stores written before commands/ had its rooms name these aggregates' events by the module's
# old place; the library resolves those topics here.
register_topic("commands.http.tokens", sys.modules[__name__])

FRESH = 1.0  # seconds a token check may rely on what it read before


class Tokens:
    """Issues and checks tokens, storing them through `app` (the service's Arbiter).

    A check that a token holds reads what was read less than FRESH seconds ago, so a request
    costs no store read for its token; a token that seems unknown is looked up afresh before
    it is refused (a token just issued by another process works at once), and a replaced
    token stops working within FRESH seconds."""

    def __init__(self, app: Application) -> None:
        self.app = app
        self._seen: dict[UUID, tuple[float, Aggregate | None]] = {}

    @retry(IntegrityError, max_attempts=10, wait=0.01)
    def set_host(self) -> str:
        """A new host token, replacing any other."""
        token = new_token()
        found = self._get(HostToken.create_id(), HostToken)
        if found is None:
            self.app.save(HostToken(digest=digest_of(token)))
        else:
            found.replace(digest=digest_of(token))
            self.app.save(found)
        return token

    @retry(IntegrityError, max_attempts=10, wait=0.01)
    def issue(self, match_id: str, player: str) -> str:
        """A new token for `player` of `match_id` (the caller checked they play in it)."""
        token = new_token()
        tokens = self._get(PlayerTokens.create_id(match_id), PlayerTokens) or \
            PlayerTokens(match_id=match_id)
        tokens.issue(player=player, digest=digest_of(token))
        self.app.save(tokens)
        return token

    @retry(IntegrityError, max_attempts=10, wait=0.01)
    def issue_all(self, match_id: str, players: list[str]) -> dict[str, str]:
        """A new token for every player of `match_id`, in one save, replacing earlier ones."""
        issued = {player: new_token() for player in players}
        tokens = self._get(PlayerTokens.create_id(match_id), PlayerTokens) or \
            PlayerTokens(match_id=match_id)
        for player, token in issued.items():
            tokens.issue(player=player, digest=digest_of(token))
        self.app.save(tokens)
        return issued

    def is_host(self, token: str) -> bool:
        digest = digest_of(token)

        def holds(found: HostToken | None) -> bool:
            return found is not None and hmac.compare_digest(found.digest, digest)

        return self._check(HostToken.create_id(), HostToken, holds)

    def holder(self, match_id: str, token: str) -> str | None:
        """The player `token` was issued to in `match_id`, if any."""
        digest = digest_of(token)
        return self._check(PlayerTokens.create_id(match_id), PlayerTokens,
                           lambda found: None if found is None else found.holder(digest))

    def _check(self, aggregate_id: UUID, kind: type[A], answer: Callable[[A | None], R]) -> R:
        """`answer(tokens)` from what was read lately, or from the store when that does not
        say yes."""
        seen = self._seen.get(aggregate_id)
        if seen is not None and time.monotonic() - seen[0] < FRESH:
            found = answer(cast(A | None, seen[1]))  # kept by the _get of this id
            if found:
                return found
        fresh = self._get(aggregate_id, kind)
        self._seen[aggregate_id] = (time.monotonic(), fresh)
        return answer(fresh)

    def _get(self, aggregate_id: UUID, kind: type[A]) -> A | None:
        try:
            found: Aggregate = self.app.repository.get(aggregate_id)
        except AggregateNotFoundError:
            return None
        assert isinstance(found, kind)  # each id names one kind of aggregate
        return found
