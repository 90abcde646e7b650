"""One worker process of the service: the application service, the view tables, the
tokens, and three background loops (the projection, deadlines, stream wake-ups)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from audit.keys import Signer
from commands.service.arbiter import Arbiter
from commands.service.deadlines import Deadlines
from commands.service.keys import signer_from
from commands.service.outcomes import Outcome
from commands.service.reading import ReadSide
from commands.service.tokens import Tokens
from commands.store.settings import URL_VARIABLE, database_url, persistence_env
from commands.web.hub import Hub
from projections import runner
from projections.tables import datastore_of, open_views


@dataclass(frozen=True)
class Settings:
    url: str | None = None
    interval: float = 1.0  # seconds between deadline checks
    stream_interval: float = 0.2  # seconds between looks for new entries of open streams
    projections: bool = True  # keep the views current from this process
    projection_interval: float = 0.5  # seconds between looks at the log (SQLite) or the lock
    signer: Signer | None = None  # the host's key (default: its key file, as the CLI finds it)
    rate: float = 0.0  # requests a second per bearer token, on average (0: no limit)
    burst: int = 40  # requests a token may send at once
    cors_origins: tuple[str, ...] = ()  # origins whose pages may call the API (none)


INTERVAL_VARIABLE = "ARBITER_SERVE_INTERVAL"
PROJECTIONS_VARIABLE = "ARBITER_SERVE_PROJECTIONS"
RATE_VARIABLE, BURST_VARIABLE = "ARBITER_RATE", "ARBITER_BURST"
CORS_VARIABLE = "ARBITER_CORS_ORIGINS"


def settings_from_environment() -> Settings:
    """The settings `arbiter serve` hands its worker processes through their environment:
    a generous rate limit unless told otherwise (20 a second, 40 at once, per token)."""
    origins = os.environ.get(CORS_VARIABLE, "")
    return Settings(url=os.environ.get(URL_VARIABLE),
                    interval=float(os.environ.get(INTERVAL_VARIABLE, "1")),
                    projections=os.environ.get(PROJECTIONS_VARIABLE, "1") == "1",
                    rate=float(os.environ.get(RATE_VARIABLE) or "20"),
                    burst=int(os.environ.get(BURST_VARIABLE) or "40"),
                    cors_origins=tuple(o.strip() for o in origins.split(",") if o.strip()))


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Service:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.env = persistence_env(database_url(settings.url))
        self.arbiter = Arbiter(settings.url, signer=settings.signer or signer_from())
        self.views = open_views(datastore_of(self.arbiter), self.arbiter.mapper.cipher)
        self.read_side = ReadSide(self.arbiter, self.views)
        self.tokens = Tokens(self.arbiter)
        self.hub = Hub(self.views)
        self.deadlines = Deadlines(self.arbiter, self.views, self.submit)
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
        return outcome

    def start(self) -> Service:
        env = self.env
        loops: list[Callable[[], None]] = [
            lambda: self.hub.run(self._stop, self.settings.stream_interval),
            lambda: self.deadlines.run(self._stop, self.settings.interval),
        ]
        if self.settings.projections:
            loops.append(lambda: runner.run(env, self._stop, self._wake,
                                            self.settings.projection_interval))
        self._threads = [threading.Thread(target=loop, daemon=True) for loop in loops]
        for thread in self._threads:
            thread.start()
        return self

    def recorded(self) -> None:
        """A command was recorded: the SQLite projection looks now, not at its next poll."""
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self.hub.close()
        for thread in self._threads:
            thread.join(timeout=10)
        self.arbiter.close()
