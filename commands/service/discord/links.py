"""Who is who: each Discord user linked to one player of a season (or to its host), kept in
the store as a small event-sourced aggregate per season beside the logs (never in them: a
Discord id is nobody else's business, and the logs stay byte for byte what they were).

A link is made by the host (`arbiter discord link`, the host's season page) or by the player
with `/join` and their personal link. A user holds one player of a season and a player one
user: linking again moves the link, and says so in the aggregate's history."""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import retry

from commands.service.tokens import Tokens
from domain.decider import HOST
from domain.edge import excerpt
from domain.errors import RuleViolation

SNOWFLAKE = re.compile(r"[0-9]{15,21}")  # a Discord user id


class DiscordLinks(Aggregate):
    @staticmethod
    def create_id(season: str) -> UUID:
        return uuid5(NAMESPACE_URL, f"arbiter/discord/links/{season}")

    @event("Started")
    def __init__(self, season: str) -> None:
        self.season = season
        self.players: dict[str, str] = {}  # Discord user id -> player (or HOST)

    @event("Linked")
    def link(self, user: str, player: str, by: str) -> None:
        """`by`: "host" or "join" (the player, with their personal link)."""
        self.players = {u: p for u, p in self.players.items() if p != player}
        self.players[user] = player

    @event("Unlinked")
    def unlink(self, user: str) -> None:
        self.players.pop(user, None)


def check_user_id(user: str) -> str:
    if not SNOWFLAKE.fullmatch(user):
        raise RuleViolation("invalid_user", f"{excerpt(user)} is not a Discord user id (the "
                            "15 to 21 digits Discord's Copy User ID gives)")
    return user


class Links:
    def __init__(self, app: Application) -> None:
        self.app = app

    def of(self, season: str) -> dict[str, str]:
        """Discord user id -> player (or HOST) in `season`."""
        try:
            links: DiscordLinks = self.app.repository.get(DiscordLinks.create_id(season))
        except AggregateNotFoundError:
            return {}
        return dict(links.players)

    @retry(IntegrityError, max_attempts=10, wait=0.01)
    def link(self, season: str, player: str, user: str, by: str) -> None:
        """Link `user` to `player` of `season`; the caller checked `player` is registered
        (or is the host)."""
        check_user_id(user)
        try:
            links: DiscordLinks = self.app.repository.get(DiscordLinks.create_id(season))
        except AggregateNotFoundError:
            links = DiscordLinks(season=season)
        if links.players.get(user) == player:
            return
        links.link(user=user, player=player, by=by)
        self.app.save(links)

    @retry(IntegrityError, max_attempts=10, wait=0.01)
    def unlink(self, season: str, user: str) -> bool:
        try:
            links: DiscordLinks = self.app.repository.get(DiscordLinks.create_id(season))
        except AggregateNotFoundError:
            return False
        if user not in links.players:
            return False
        links.unlink(user=user)
        self.app.save(links)
        return True


def personal_link(code: str) -> tuple[str, str]:
    """(match, code) of a personal link BASE/m/MATCH/join#CODE (commands.service.tokens)."""
    parts = urlsplit(code.strip())
    path = parts.path.rstrip("/").split("/")
    if len(path) < 3 or path[-3] != "m" or path[-1] != "join" or not parts.fragment:
        raise RuleViolation("invalid_link", "paste the whole personal link the host sent you "
                            "(…/m/MATCH/join#CODE)")
    return unquote(path[-2]), parts.fragment


def joining(tokens: Tokens, code: str) -> tuple[str, str]:
    """(match, player) whose personal link `code` is: its join code, or the player's API
    token in a link of the same shape; refused in words when it is no player's current link."""
    match_id, secret = personal_link(code)
    player = tokens.joiner(match_id, secret) or tokens.holder(match_id, secret)
    if player is None or player == HOST:
        raise RuleViolation("wrong_link", "this link is no player's current personal link: "
                            "ask the host for yours")
    return match_id, player
