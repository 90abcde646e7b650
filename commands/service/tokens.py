"""Bearer tokens: the host's, and one per player per match that the host issues; join codes,
the secret of a personal link, which open the pages and nothing else; and sessions, one per
browser that opened a link, which its page cookie holds.

Only their SHA-256 digests are stored, in two small event-sourced aggregates of the `arbiter`
application beside (not inside) the match logs: `HostToken` and one `PlayerTokens` per
match. Issuing a token or a code again replaces the old one; a new code also ends every
session the old one opened (so a new link revokes the old one, and signs out every browser
signed in with it). Each is shown once, when issued or opened, and never logged.

A token, a code or a session is exactly what `new_token` makes, 43 URL-safe characters:
anything else cannot be one, and is refused without a store read (`could_be`).
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
from typing import NamedTuple, TypeVar, cast
from urllib.parse import quote
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import register_topic, retry

from domain.decider import HOST

A = TypeVar("A", bound=Aggregate)
R = TypeVar("R")


TOKENS_SNAPSHOT_EVERY = 100  # events between two store snapshots of a tokens aggregate
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


LIFE = 60 * 60 * 24 * 90  # seconds a browser's session lasts: a season
SESSIONS = 10  # open sessions one player (or the host) keeps: an eleventh ends the oldest
# Sessions one personal link may open (browsers signed in with it): each is an event in the
# match's tokens log, so a player posting their code again and again cannot grow it without
# bound. Past it the link is used up: the host gives a new one.
OPENINGS = 20


class LinkUsedUp(Exception):
    """A player's join code has opened OPENINGS sessions: it opens no more."""


class Session(NamedTuple):
    """A browser's session: whose it is (a player, or HOST), its secret (the cookie) and the
    seconds it has left."""

    who: str
    secret: str
    left: int


def kept(sessions: dict[str, float], now: float) -> dict[str, float]:
    """Of `sessions` (digest -> when it was opened), those still open at `now`, the newest
    SESSIONS of them."""
    open_ = sorted(((at, digest) for digest, at in sessions.items() if now - at < LIFE),
                   reverse=True)
    return {digest: at for at, digest in open_[:SESSIONS]}


def opened_at(sessions: dict[str, float], digest: str, now: float) -> float | None:
    """When the session with `digest` was opened, if it is open at `now`. Looked up by its
    digest: the time a lookup takes says nothing of a secret."""
    at = sessions.get(digest)
    return at if at is not None and now - at < LIFE else None


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
        self.sessions: dict[str, float] = {}  # every browser the old code signed in

    @event("SessionOpened")
    def open_session(self, digest: str, opened: float) -> None:
        self.sessions = kept({**self.sessions, digest: opened}, opened)

    @event("SessionEnded")
    def end_session(self, digest: str) -> None:
        self.sessions = {known: at for known, at in self.sessions.items() if known != digest}

    def opens(self, digest: str) -> bool:
        """Whether `digest` is the current join code's (none before the first was issued)."""
        return hmac.compare_digest(getattr(self, "join", ""), digest)

    def opened(self, digest: str, now: float) -> float | None:
        """When the host's session with `digest` was opened, if it is open."""
        return opened_at(getattr(self, "sessions", {}), digest, now)


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
        # player -> their sessions (digest -> when opened): the old code's end with it
        self.sessions = {other: held for other, held in self.sessions_().items()
                         if other != player}
        self.openings = {other: n for other, n in self.openings_().items() if other != player}

    @event("SessionOpened")
    def open_session(self, player: str, digest: str, opened: float) -> None:
        held = self.sessions_().get(player, {})
        self.sessions = {**self.sessions_(), player: kept({**held, digest: opened}, opened)}
        self.openings = {**self.openings_(), player: self.openings_().get(player, 0) + 1}

    def openings_(self) -> dict[str, int]:
        """Sessions each player's current join code has opened (none before the first)."""
        return getattr(self, "openings", {})

    def used_up(self, player: str) -> bool:
        return self.openings_().get(player, 0) >= OPENINGS

    @event("SessionEnded")
    def end_session(self, player: str, digest: str) -> None:
        held = self.sessions_().get(player, {})
        self.sessions = {**self.sessions_(),
                         player: {known: at for known, at in held.items() if known != digest}}

    def sessions_(self) -> dict[str, dict[str, float]]:
        return getattr(self, "sessions", {})  # none before the first was opened

    def holder(self, digest: str) -> str | None:
        return next((player for player, known in self.digests.items()
                     if hmac.compare_digest(known, digest)), None)

    def joiner(self, digest: str) -> str | None:
        """The player whose current join code has `digest`."""
        return next((player for player, known in getattr(self, "joins", {}).items()
                     if hmac.compare_digest(known, digest)), None)

    def in_session(self, digest: str, now: float) -> tuple[str, float] | None:
        """(player, when it was opened) of the open session with `digest`."""
        return next(((player, at) for player, held in self.sessions_().items()
                     if (at := opened_at(held, digest, now)) is not None), None)


# Stores written before commands/ had its rooms name these aggregates' events by the module's
# old place; the library resolves those topics here.
register_topic("commands.http.tokens", sys.modules[__name__])

FRESH = 1.0  # seconds a token check may rely on what it read before
KEPT = 10_000  # aggregates remembered (one a match)
UNKNOWN = 0.2  # seconds between store reads of one aggregate for tokens it did not know


class Tokens:
    """Issues and checks tokens, join codes and sessions, storing them through `app` (the
    service's Arbiter).

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

    @retry(IntegrityError, max_attempts=10, wait=0.01)
    def open_session(self, match_id: str, code: str, held: str | None = None) -> Session | None:
        """The session of the browser that posts `code`, a player's current join code for
        `match_id`: `held` (its cookie's) while it is open and theirs, else a new one, stored
        as its digest beside the code (`held`, another player's, ends). None for a code that
        is no player's now; LinkUsedUp once the code has opened OPENINGS sessions."""
        player = self.joiner(match_id, code)  # a made-up code costs no store read
        if player is None:
            return None
        tokens = self._get(PlayerTokens.create_id(match_id), PlayerTokens)
        if tokens is None or tokens.joiner(digest_of(code)) != player:
            return None  # replaced a moment ago
        now = time.time()
        kept = tokens.in_session(digest_of(held), now) if held and could_be(held) else None
        if kept is not None and kept[0] == player:
            return Session(player, cast(str, held), int(kept[1] + LIFE - now))
        if tokens.used_up(player):
            raise LinkUsedUp(player)
        if kept is not None:  # another player's, which this browser gives up: none can use it
            tokens.end_session(player=kept[0], digest=digest_of(cast(str, held)))
        secret = new_token()
        tokens.open_session(player=player, digest=digest_of(secret), opened=now)
        self._saved(tokens)
        return Session(player, secret, LIFE)

    @retry(IntegrityError, max_attempts=10, wait=0.01)
    def open_host_session(self, code: str, held: str | None = None) -> Session | None:
        """The session of the browser that posts `code`, the host link's current join code:
        `held` while it is open, else a new one. None for any other code."""
        if not self.is_host_join(code):
            return None
        found = self._get(HostToken.create_id(), HostToken)
        if found is None or not found.opens(digest_of(code)):
            return None
        now = time.time()
        at = found.opened(digest_of(held), now) if held and could_be(held) else None
        if at is not None:
            return Session(HOST, cast(str, held), int(at + LIFE - now))
        secret = new_token()
        found.open_session(digest=digest_of(secret), opened=now)
        self._saved(found)
        return Session(HOST, secret, LIFE)

    def in_session(self, match_id: str, secret: str) -> str | None:
        """The player whose open session of `match_id` has `secret`, if any."""
        if not could_be(secret):
            return None
        digest = digest_of(secret)

        def whose(found: PlayerTokens | None) -> str | None:
            held = None if found is None else found.in_session(digest, time.time())
            return None if held is None else held[0]

        return self._check(PlayerTokens.create_id(match_id), PlayerTokens, whose)

    def is_host_session(self, secret: str) -> bool:
        """Whether `secret` is one of the host's open sessions."""
        if not could_be(secret):
            return False
        digest = digest_of(secret)
        return self._check(HostToken.create_id(), HostToken, lambda found: found is not None
                           and found.opened(digest, time.time()) is not None)

    @retry(IntegrityError, max_attempts=10, wait=0.01)
    def end_session(self, match_id: str, secret: str) -> None:
        """End the session with `secret` (one browser's), if it is open."""
        tokens = self._get(PlayerTokens.create_id(match_id), PlayerTokens) \
            if could_be(secret) else None
        held = None if tokens is None else tokens.in_session(digest_of(secret), time.time())
        if tokens is not None and held is not None:
            tokens.end_session(player=held[0], digest=digest_of(secret))
            self._saved(tokens)

    @retry(IntegrityError, max_attempts=10, wait=0.01)
    def end_host_session(self, secret: str) -> None:
        """End the host's session with `secret` (one browser's), if it is open."""
        found = self._get(HostToken.create_id(), HostToken) if could_be(secret) else None
        if found is not None and found.opened(digest_of(secret), time.time()) is not None:
            found.end_session(digest=digest_of(secret))
            self._saved(found)

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
