"""The chat gets the log as it happens: each round's public story and signed checkpoint to
the season's channel webhook, and (opt-in per season) a DM to each linked player who has not
acted as a deadline nears.

Every post is first recorded in the store (`DiscordPosts`, one small aggregate per season
beside the logs) with its messages, then sent one message at a time, each marked sent once
Discord has it. A restart picks up where the last one stopped, and a post is planned once:
nothing is lost, and nothing is sent twice, but for the one message in flight if the process
dies between Discord's answer and its mark (Discord's webhooks take no idempotency key).
Sending happens in `serve`'s background loop, never in a command: a command only records.
Discord down or rate limiting: the season waits, 2 s, 4 s, ... up to 10 minutes, and tries
again."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError

from commands.service.arbiter import Arbiter
from commands.service.deadlines import due
from commands.service.discord.links import Links
from commands.service.discord.rest import Rest
from commands.service.discord.settings import DiscordSettings
from domain.decider import PUBLIC
from domain.errors import RuleViolation
from domain.season import Season
from projections.announcement import announcement, plain
from projections.dashboard import dashboard, open_deadline

log = logging.getLogger("arbiter.discord")

CHANNEL = "channel"
BACKOFF_MAX = 600.0  # seconds a failing season waits at most before trying again


class DiscordPosts(Aggregate):
    @staticmethod
    def create_id(season: str) -> UUID:
        return uuid5(NAMESPACE_URL, f"arbiter/discord/posts/{season}")

    @event("Started")
    def __init__(self, season: str, known: dict[str, int]) -> None:
        """`known`: each match's checkpoints already signed when posting began (the host
        posted those by hand, if at all)."""
        self.season = season
        self.known = dict(known)
        self.planned: dict[str, dict[str, Any]] = {}

    @event("Planned")
    def plan(self, key: str, to: str, messages: list[str]) -> None:
        self.planned[key] = {"to": to, "messages": list(messages), "sent": 0}

    @event("Covered")
    def cover(self, match: str, notes: int) -> None:
        self.known[match] = notes

    @event("Sent")
    def sent(self, key: str, part: int, message_id: str) -> None:
        self.planned[key]["sent"] = part + 1

    def unsent(self) -> list[tuple[str, dict[str, Any]]]:
        return [(k, p) for k, p in self.planned.items() if p["sent"] < len(p["messages"])]


class Poster:
    def __init__(self, arbiter: Arbiter, settings: DiscordSettings, rest: Rest,
                 clock: Callable[[], float] = time.time) -> None:
        self.arbiter, self.settings, self.rest, self.clock = arbiter, settings, rest, clock
        self.links = Links(arbiter)
        self._failures: dict[str, int] = {}
        self._woken = threading.Event()
        self._next_try: dict[str, float] = {}
        # Each match's checkpoints at this process's first look, in the seasons there then.
        self._there: dict[str, dict[str, int]] | None = None

    def run(self, stop: threading.Event, interval: float) -> None:
        """Look at once (what is signed from now on is posted), then every `interval`, or
        sooner when woken (a host command of this process may have closed a round)."""
        self.tick()
        while not stop.is_set():
            self._woken.wait(interval)
            self._woken.clear()
            if not stop.is_set():
                self.tick()

    def wake(self) -> None:
        self._woken.set()

    def seasons(self) -> list[str]:
        return sorted({*self.settings.webhooks, *self.settings.reminders})

    def tick(self) -> None:
        if self._there is None:
            self._there = self.signed_so_far()
        for season in self.seasons():
            if self.clock() < self._next_try.get(season, 0.0):
                continue
            if Season.create_id(season) not in self.arbiter.repository:
                continue  # configured before the host starts it
            try:
                with self.arbiter.writers.holding(f"discord/{season}"):
                    self.plan(season)
                    self.deliver(season)
            except IntegrityError:  # another process wrote the season's posts: next tick
                continue
            except RuleViolation as error:  # Discord refused or is away; a busy store
                self.failed(season, error)
            except Exception as error:
                log.exception("posting to Discord for season %s failed", season)
                self.failed(season, error)
            else:
                self._failures.pop(season, None)

    def signed_so_far(self) -> dict[str, dict[str, int]]:
        return {season: {m: len(self.arbiter.checkpoints(m).notes)
                         for m in self.arbiter.season(season).matches}
                for season in self.seasons() if Season.create_id(season) in self.arbiter.repository}

    def failed(self, season: str, error: Exception) -> None:
        n = self._failures[season] = self._failures.get(season, 0) + 1
        wait = min(BACKOFF_MAX, 2.0 ** n)
        self._next_try[season] = self.clock() + wait
        log.warning("Discord posts of season %s wait %.0f s: %s", season, wait, error)

    # -- what to post ---------------------------------------------------------------------

    def posts(self, season: str) -> DiscordPosts:
        """The season's posts; begun, the first time, after what was signed before this
        process first looked (a season started since has all of its rounds posted)."""
        try:
            found: DiscordPosts = self.arbiter.repository.get(DiscordPosts.create_id(season))
            return found
        except AggregateNotFoundError:
            pass
        started = DiscordPosts(season=season, known=(self._there or {}).get(season, {}))
        self.arbiter.save(started)
        return started

    def plan(self, season: str) -> None:
        posts = self.posts(season)
        if season in self.settings.webhooks:
            self.plan_rounds(season, posts)
        if season in self.settings.reminders:
            self.plan_reminders(season, posts)
        if posts.pending_events:
            self.arbiter.save(posts)

    def plan_rounds(self, season: str, posts: DiscordPosts) -> None:
        """A post for every checkpoint signed since the last one posted."""
        for match_id in self.arbiter.season(season).matches:
            notes = self.arbiter.checkpoints(match_id).notes
            start = posts.known.get(match_id, 0)
            if len(notes) <= start:
                continue
            match = self.arbiter.match(match_id)
            for i in range(start, len(notes)):
                posts.plan(key=f"round:{match_id}:{i}", to=CHANNEL,
                           messages=self.round_messages(match, notes[:i + 1]))
            posts.cover(match=match_id, notes=len(notes))

    def round_messages(self, match: Any, notes: list[dict[str, Any]]) -> list[str]:
        """`arbiter announce` of the round the last note signs: its story and checkpoint."""
        round = notes[-1]["round"]
        try:
            public = self.arbiter.view(match.match_id, PUBLIC, round).view
            return announcement(public, round, notes, self.settings.public_url)
        except RuleViolation:  # nothing public to tell: the checkpoint alone
            return [f"**{plain(match.match_id)} · round {round}**\nSigned checkpoint:\n"
                    f"```\n{notes[-1]['note'].rstrip()}\n```"]

    def plan_reminders(self, season: str, posts: DiscordPosts) -> None:
        """A DM to each linked player who has not acted, once a deadline is near."""
        now = datetime.fromtimestamp(self.clock(), UTC)
        soon = datetime.fromtimestamp(self.clock() + self.settings.remind_before, UTC)
        users = {player: user for user, player in self.links.of(season).items()}
        for match_id, m in self.arbiter.season(season).matches.items():
            if m["ended"]:
                continue
            match = self.arbiter.match(match_id)
            pending = open_deadline(match)
            if pending is None or pending["closed"] or due(pending["deadline"], now) or \
                    not due(pending["deadline"], soon):
                continue
            for player in dashboard(match)["waiting"]:
                key = f"remind:{match_id}:{pending['round']}:{pending['deadline']}:{player}"
                if player in users and key not in posts.planned:
                    posts.plan(key=key, to=f"user:{users[player]}", messages=[
                        f"Reminder: round {pending['round']} of {plain(match_id)} closes at "
                        f"{plain(pending['deadline'])} and you have not acted yet. /status "
                        "shows where you stand."])

    # -- sending --------------------------------------------------------------------------

    def deliver(self, season: str) -> None:
        posts = self.posts(season)
        for key, post in posts.unsent():
            for part in range(post["sent"], len(post["messages"])):
                text = post["messages"][part]
                if post["to"] == CHANNEL:
                    webhook = self.settings.webhooks.get(season)
                    if webhook is None:
                        break  # the channel is no longer configured: kept for when it is
                    answer = self.rest.post_webhook(webhook, text)
                else:
                    answer = self.rest.direct_message(post["to"].removeprefix("user:"), text)
                posts.sent(key=key, part=part, message_id=str(answer.get("id", "")))
                self.arbiter.save(posts)
