"""Bearer tokens: the host's, and one per player per match that the host issues; and join
codes, the secret of a personal link, which open the pages and nothing else.

Only their SHA-256 digests are stored, in two small event-sourced aggregates of the `arbiter`
application beside (not inside) the match logs: `HostToken` and one `PlayerTokens` per
match. Issuing a token or a code again replaces the old one (so a new link revokes the old
one, and every browser signed in with it). Each is shown once, when issued, and never logged.

A token or a code is exactly what `new_token` makes, 43 URL-safe characters: anything else
cannot be one, and is refused without a store read (`could_be`).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import sys
import time
from collections import OrderedDict
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


SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32), to the character


def new_token() -> str:
    return secrets.token_urlsafe(32)


def could_be(secret: str) -> bool:
    """Whether `secret` has the shape of a token or a code: one that has not cannot be one."""
    return SHAPE.fullmatch(secret) is not None


def join_link(base_url: str, match_id: str, code: str) -> str:
    """A player's personal link, BASE/m/MATCH/join#CODE (docs/pages.md): the join code rides
    in the fragment, which browsers never send, so no server or proxy log ever holds it."""
    return f"{base_url.rstrip('/')}/m/{quote(match_id, safe='')}/join#{code}"


def host_link(base_url: str, code: str) -> str:
    """The host's link to their dashboard, BASE/host/join#CODE."""
    return f"{base_url.rstrip('/')}/host/join#{code}"


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

    @event("JoinIssued")
    def issue_join(self, digest: str) -> None:
        self.join = digest

    def opens(self, digest: str) -> bool:
        """Whether `digest` is the current join code's (none before the first was issued)."""
        return hmac.compare_digest(getattr(self, "join", ""), digest)


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

    @event("JoinIssued")
    def issue_join(self, player: str, digest: str) -> None:
        self.joins = {**getattr(self, "joins", {}), player: digest}

    def holder(self, digest: str) -> str | None:
        return next((player for player, known in self.digests.items()
                     if hmac.compare_digest(known, digest)), None)

    def joiner(self, digest: str) -> str | None:
        """The player whose current join code has `digest`."""
        return next((player for player, known in getattr(self, "joins", {}).items()
                     if hmac.compare_digest(known, digest)), None)


# Stores written before commands/ had its rooms name these aggregates' events by the module's
# old place; the library resolves those topics here.
register_topic("commands.http.tokens", sys.modules[__name__])

FRESH = 1.0  # seconds a token check may rely on what it read before
KEPT = 10_000  # aggregates remembered (one a match)
UNKNOWN = 0.2  # seconds between store reads of one aggregate for tokens it did not know


class Tokens:
    """Issues and checks tokens and join codes, storing them through `app` (the service's
    Arbiter).

    A check that a token holds reads what was read less than FRESH seconds ago, so a request
    costs no store read for its token; a token that seems unknown is looked up afresh before
    it is refused; but after a read that did not know a token, the next unknown tokens of that
    aggregate are refused without a read for UNKNOWN seconds (a token another process issued
    in that moment works a moment later), so a flood of made-up tokens costs no store reads.
    A token without a token's shape is refused without looking. A replaced token stops
    working within FRESH seconds."""

    def __init__(self, app: Application) -> None:
        self.app = app
        # aggregate id -> (when it was read, what was read, whether an unknown token read it)
        self._seen: OrderedDict[UUID, tuple[float, Aggregate | None, bool]] = OrderedDict()

    @retry(IntegrityError, max_attempts=10, wait=0.01)
    def set_host(self) -> str:
        """A new host token, replacing any other."""
        token = new_token()
        found = self._get(HostToken.create_id(), HostToken)
        if found is None:
            found = HostToken(digest=digest_of(token))
        else:
            found.replace(digest=digest_of(token))
        self._saved(found)
        return token

    @retry(IntegrityError, max_attempts=10, wait=0.01)
    def set_host_join(self) -> str:
        """A new join code for the host's link, replacing any other (the host token must be
        set first: `arbiter init` sets it)."""
        code = new_token()
        found = self._get(HostToken.create_id(), HostToken)
        if found is None:
            found = HostToken(digest=digest_of(new_token()))  # a token nobody was shown
        found.issue_join(digest=digest_of(code))
        self._saved(found)
        return code

    @retry(IntegrityError, max_attempts=10, wait=0.01)
    def issue(self, match_id: str, player: str) -> str:
        """A new token for `player` of `match_id` (the caller checked they play in it)."""
        token = new_token()
        tokens = self._get(PlayerTokens.create_id(match_id), PlayerTokens) or \
            PlayerTokens(match_id=match_id)
        tokens.issue(player=player, digest=digest_of(token))
        self._saved(tokens)
        return token

    @retry(IntegrityError, max_attempts=10, wait=0.01)
    def issue_all(self, match_id: str, players: list[str]) -> dict[str, str]:
        """A new token for every player of `match_id`, in one save, replacing earlier ones."""
        issued = {player: new_token() for player in players}
        tokens = self._get(PlayerTokens.create_id(match_id), PlayerTokens) or \
            PlayerTokens(match_id=match_id)
        for player, token in issued.items():
            tokens.issue(player=player, digest=digest_of(token))
        self._saved(tokens)
        return issued

    @retry(IntegrityError, max_attempts=10, wait=0.01)
    def issue_joins(self, match_id: str, players: list[str]) -> dict[str, str]:
        """A new join code for each of `players` of `match_id`, in one save: each replaces
        that player's earlier code (their old link, and every browser signed in with it)."""
        issued = {player: new_token() for player in players}
        tokens = self._get(PlayerTokens.create_id(match_id), PlayerTokens) or \
            PlayerTokens(match_id=match_id)
        for player, code in issued.items():
            tokens.issue_join(player=player, digest=digest_of(code))
        self._saved(tokens)
        return issued

    def is_host(self, token: str) -> bool:
        if not could_be(token):
            return False
        digest = digest_of(token)

        def holds(found: HostToken | None) -> bool:
            return found is not None and hmac.compare_digest(found.digest, digest)

        return self._check(HostToken.create_id(), HostToken, holds)

    def is_host_join(self, code: str) -> bool:
        """Whether `code` is the current join code of the host's link."""
        if not could_be(code):
            return False
        digest = digest_of(code)
        return self._check(HostToken.create_id(), HostToken,
                           lambda found: found is not None and found.opens(digest))

    def holder(self, match_id: str, token: str) -> str | None:
        """The player `token` was issued to in `match_id`, if any."""
        if not could_be(token):
            return None
        digest = digest_of(token)
        return self._check(PlayerTokens.create_id(match_id), PlayerTokens,
                           lambda found: None if found is None else found.holder(digest))

    def joiner(self, match_id: str, code: str) -> str | None:
        """The player whose current join code for `match_id` is `code`, if any."""
        if not could_be(code):
            return None
        digest = digest_of(code)
        return self._check(PlayerTokens.create_id(match_id), PlayerTokens,
                           lambda found: None if found is None else found.joiner(digest))

    def _check(self, aggregate_id: UUID, kind: type[A], answer: Callable[[A | None], R]) -> R:
        """`answer(tokens)` from what was read lately, or from the store when that does not
        say yes (at most once every UNKNOWN seconds)."""
        seen = self._seen.get(aggregate_id)
        if seen is not None:
            age = time.monotonic() - seen[0]
            found = answer(cast(A | None, seen[1]))  # kept by the _get of this id
            if (found and age < FRESH) or (not found and seen[2] and age < UNKNOWN):
                return found
        fresh = self._get(aggregate_id, kind)
        found = answer(fresh)
        self._remember(aggregate_id, fresh, unknown=not found)
        return found

    def _saved(self, tokens: Aggregate) -> None:
        """Save `tokens`; this process's checks know them at once."""
        self.app.save(tokens)
        self._remember(tokens.id, tokens, unknown=False)

    def _remember(self, aggregate_id: UUID, found: Aggregate | None, unknown: bool) -> None:
        self._seen.pop(aggregate_id, None)
        self._seen[aggregate_id] = (time.monotonic(), found, unknown)
        if len(self._seen) > KEPT:  # made-up match ids are forgotten first
            self._seen.popitem(last=False)

    def _get(self, aggregate_id: UUID, kind: type[A]) -> A | None:
        try:
            found: Aggregate = self.app.repository.get(aggregate_id)
        except AggregateNotFoundError:
            return None
        assert isinstance(found, kind)  # each id names one kind of aggregate
        return found
