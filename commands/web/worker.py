"""One worker process of the service: the application service, the view tables, the
tokens, and its background loops (the projection, deadlines, stream wake-ups (on PostgreSQL
at each NOTIFY of the views, projections.notices), and with
Discord configured its posts, and with witnesses named the checkpoints brought to them
to cosign)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from audit import cosign
from audit.keys import Signer
from audit.notes import NoteError, VerifierKey
from commands.service.arbiter import Arbiter
from commands.service.built import Builds, built_folder
from commands.service.cosigning import Cosigning, Log, WitnessEndpoint, match_log, season_log
from commands.service.deadlines import Deadlines
from commands.service.discord.interactions import Interactions
from commands.service.discord.posts import Poster
from commands.service.discord.rest import Rest
from commands.service.discord.settings import DiscordSettings, discord_settings
from commands.service.keys import signer_from
from commands.service.outcomes import Outcome
from commands.service.reading import ReadSide
from commands.service.tiles import Tiles
from commands.service.tokens import Tokens
from commands.store.settings import URL_VARIABLE, database_url, persistence_env
from commands.web.hub import Hub
from domain.decider import HOST
from domain.errors import RuleViolation
from projections import notices, runner
from projections.tables import APPLICATION, datastore_of, open_views

DEFAULT_PUBLIC_URL = "http://127.0.0.1:8000"  # `arbiter serve`'s own address by default


@dataclass(frozen=True)
class Settings:
    url: str | None = None
    interval: float = 1.0  # seconds between deadline checks
    stream_interval: float = 0.2  # seconds between looks for new entries of open streams
    # (on PostgreSQL the views' NOTIFY wakes them at once; the look is the fallback)
    projections: bool = True  # keep the views current from this process
    projection_interval: float = 0.5  # seconds between looks at the log (SQLite) or the lock
    signer: Signer | None = None  # the host's key (default: its key file, as the CLI finds it)
    rate: float = 0.0  # requests a second per player or host, or per address (0: no limits)
    burst: int = 40  # requests one may send at once
    failures: int = 20  # refused tokens or codes an address may send a minute (with a rate)
    trusted_proxies: tuple[str, ...] = ()  # addresses whose X-Forwarded-For names the client
    cors_origins: tuple[str, ...] = ()  # origins whose pages may call the API (none)
    discord: DiscordSettings | None = None  # Discord's interactions and posts (docs/discord.md)
    post_interval: float = 2.0  # seconds between looks for Discord posts to send
    public_url: str = DEFAULT_PUBLIC_URL  # where the service is reached: every link starts so
    witnesses: tuple[WitnessEndpoint, ...] = ()  # where each new checkpoint goes to be cosigned
    witness_interval: float = 2.0  # seconds between passes over the checkpoints to cosign


INTERVAL_VARIABLE = "ARBITER_SERVE_INTERVAL"
PUBLIC_URL_VARIABLE = "ARBITER_PUBLIC_URL"
PROXIES_VARIABLE = "ARBITER_TRUSTED_PROXIES"
FAILURES_VARIABLE = "ARBITER_FAILURES"
PROJECTIONS_VARIABLE = "ARBITER_SERVE_PROJECTIONS"
RATE_VARIABLE, BURST_VARIABLE = "ARBITER_RATE", "ARBITER_BURST"
CORS_VARIABLE = "ARBITER_CORS_ORIGINS"
WITNESSES_VARIABLE = "ARBITER_WITNESSES"  # "URL VKEY" pairs, comma-separated


def settings_from_environment() -> Settings:
    """The settings `arbiter serve` hands its worker processes through their environment:
    generous rate limits unless told otherwise (20 a second, 40 at once, per player, per host
    and per address; 20 refused tokens a minute per address)."""
    return Settings(url=os.environ.get(URL_VARIABLE),
                    interval=float(os.environ.get(INTERVAL_VARIABLE, "1")),
                    projections=os.environ.get(PROJECTIONS_VARIABLE, "1") == "1",
                    rate=float(os.environ.get(RATE_VARIABLE) or "20"),
                    burst=int(os.environ.get(BURST_VARIABLE) or "40"),
                    failures=int(os.environ.get(FAILURES_VARIABLE) or "20"),
                    trusted_proxies=listed(PROXIES_VARIABLE),
                    cors_origins=listed(CORS_VARIABLE),
                    public_url=os.environ.get(PUBLIC_URL_VARIABLE) or DEFAULT_PUBLIC_URL,
                    discord=discord_settings(),
                    witnesses=witnesses_from(os.environ.get(WITNESSES_VARIABLE, "")))


def listed(variable: str) -> tuple[str, ...]:
    return tuple(o.strip() for o in os.environ.get(variable, "").split(",") if o.strip())


def witnesses_from(text: str) -> tuple[WitnessEndpoint, ...]:
    """The witnesses a setting names: `URL VKEY` pairs separated by commas."""
    found = []
    for pair in (p.strip() for p in text.split(",") if p.strip()):
        url, _, vkey = pair.partition(" ")
        found.append(WitnessEndpoint(url, witness_key(vkey.strip())))
    return tuple(found)


def witness_key(vkey: str) -> VerifierKey:
    """A witness's cosignature key (vkey type 0x04), or invalid_input in words."""
    try:
        return cosign.witness_key(vkey)
    except NoteError as error:
        raise RuleViolation("invalid_input", f"witness key {vkey[:60]!r}: {error.message}") \
            from None


# Whether the view tables held every log of the page about to be drawn for anyone, as
# `page_versions` found it: then the page says nothing of their lag on other logs.
SHOWN_HELD: ContextVar[bool] = ContextVar("shown_held", default=False)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Service:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.env = persistence_env(database_url(settings.url))
        self.arbiter = Arbiter(settings.url, signer=settings.signer or signer_from())
        self.views = open_views(datastore_of(self.arbiter), self.arbiter.mapper.cipher)
        self.read_side = ReadSide.of(self.arbiter, self.views)
        self.tokens = Tokens(self.arbiter)
        self.tiles = Tiles(self.arbiter)
        self.hub = Hub(self.views)
        # Pages anyone may read, drawn once per change of the logs and the views they come from.
        self.pages = Builds(self.page_versions, folder=built_folder())
        self.deadlines = Deadlines(self.arbiter, self.views, self.submit)
        found = settings.discord
        rest = None if found is None else Rest(found.api, found.bot_token)
        self.discord = None if found is None or rest is None else Interactions(
            self.arbiter, self.tokens, found, self.submit, self.views.seasons, rest)
        self.poster = None if found is None or rest is None else Poster(self.arbiter, found, rest)
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._threads: list[threading.Thread] = []

    def submit(self, match_id: str, actor: str, name: str, args: Mapping[str, Any],
               command_id: str | None = None, at: str | None = None,
               expect_round: int | None = None, expect_phase: str | None = None) -> Outcome:
        """One command, stated at `at` (default: now); the application service holds the
        match's writer lock across workers (commands.service.writers)."""
        outcome = self.arbiter.submit(match_id, actor, name, args, at=at or now(),
                                      command_id=command_id, expect_round=expect_round,
                                      expect_phase=expect_phase)
        self.recorded()
        if actor == HOST and self.poster is not None:  # a close: its post goes out now
            self.poster.wake()
        return outcome

    def start(self) -> Service:
        env, channel = self.env, self.views.channel
        loops: list[Callable[[], None]] = [
            lambda: self.hub.run(self._stop, self.settings.stream_interval) if channel is None
            else notices.watch(env, channel, self._stop, self.settings.stream_interval,
                               self.hub.poll),
            lambda: self.deadlines.run(self._stop, self.settings.interval),
        ]
        if self.poster is not None:
            poster = self.poster
            loops.append(lambda: poster.run(self._stop, self.settings.post_interval))
        if self.settings.witnesses:
            cosigning = Cosigning(self.arbiter, self.settings.witnesses, self.signed_logs)
            loops.append(lambda: cosigning.run(env, self._stop,
                                               self.settings.witness_interval))
        if self.settings.projections:
            loops.append(lambda: runner.run(env, self._stop, self._wake,
                                            self.settings.projection_interval))
        self._threads = [threading.Thread(target=loop, daemon=True) for loop in loops]
        for thread in self._threads:
            thread.start()
        return self

    def page_versions(self, ids: Sequence[UUID]) -> list[int]:
        """What a page anyone may read rests on: the store's versions of the logs it shows
        (`ids`; none: every log) and, while the view tables have still to read an entry of
        those logs, how far the tables and the store have come (a page read from them, and
        its "updating" line, change as they move). A vote in one match, which the tables
        read a moment later, so draws no other match's page again."""
        log, read = self.positions()
        if not ids:
            return [log, read]
        versions, newest = self.arbiter.stored_versions.with_newest(ids)
        held = read >= newest
        SHOWN_HELD.set(held)  # the drawing that follows says "updating" only if not
        return [*versions, *((0, 0) if held else (log, read))]

    def positions(self) -> tuple[int, int]:
        """The store's last notification, and the last one the view tables have read."""
        return (self.arbiter.recorder.max_notification_id() or 0,
                self.views.max_tracking_id(APPLICATION) or 0)

    def signed_logs(self) -> list[Log]:
        """Every match and season the views hold, for the witnesses' passes."""
        return [*(match_log(self.arbiter, m["match"]) for m in self.views.matches()),
                *(season_log(self.arbiter, s) for s in self.views.seasons())]

    def recorded(self) -> None:
        """A command was recorded: the SQLite projection looks now, not at its next poll."""
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self.poster is not None:
            self.poster.wake()
        self.hub.close()
        for thread in self._threads:
            thread.join(timeout=10)
        if self.discord is not None:
            self.discord.close()
        self.arbiter.close()
