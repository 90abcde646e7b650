"""Closing a round when the deadline the host set for it passes.

The close is the host's own close command (the rules accept closes only from the host), sent
with the command id `deadline:<match>:<round>:<deadline>` and `at` = the deadline text: a
restart, a second worker or a second service sending it again gets the first answer back, and
a replay of the log needs no clock. Which close: the game's `CLOSES` in turn, until the rules
accept one (a tie-break, a post-game phase).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime

from commands.service.arbiter import Arbiter
from commands.service.outcomes import Outcome
from domain.decider import HOST
from domain.errors import RuleViolation
from projections.dashboard import close_commands, open_deadline
from projections.tables import ArbiterViews

log = logging.getLogger("arbiter.deadlines")


def due(deadline: str, now: datetime) -> bool:
    """An ISO 8601 deadline (UTC when it names no zone) that has passed; never for others."""
    try:
        moment = datetime.fromisoformat(deadline)
    except ValueError:
        return False
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)) <= now


class Deadlines:
    def __init__(self, arbiter: Arbiter, views: ArbiterViews, submit: Callable[..., Outcome],
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        """`submit` records a command as the service does (`Service.submit`)."""
        self.arbiter, self.views, self.submit, self.clock = arbiter, views, submit, clock
        self._given_up: set[str] = set()

    def run(self, stop: threading.Event, interval: float) -> None:
        while not stop.wait(interval):
            self.tick()

    def tick(self) -> None:
        """Close every match whose open round's deadline has passed (the projected deadlines
        say where to look; the match itself is checked before closing)."""
        now = self.clock()
        for row in self.views.pending_deadlines():
            if due(row["deadline"], now):
                try:
                    self.close(row["match_id"], now)
                except Exception:
                    log.exception("closing %s at its deadline failed", row["match_id"])

    def close(self, match_id: str, now: datetime) -> Outcome | None:
        match = self.arbiter.match(match_id)
        pending = open_deadline(match)
        if (pending is None or pending["closed"] or pending["command_id"] in self._given_up
                or not due(pending["deadline"], now)):
            return None
        for name in close_commands(match.game):
            try:
                outcome = self.submit(match_id, HOST, name, {}, pending["command_id"],
                                      at=pending["deadline"], expect_round=pending["round"])
            except RuleViolation as error:  # not this phase's close (each game has its codes)
                log.debug("%s refused %s at its deadline: %s", match_id, name, error)
                continue
            log.info("closed %s round %s at its deadline (%s)", match_id, pending["round"], name)
            return outcome
        self._given_up.add(pending["command_id"])
        log.warning("%s: no close of round %s was accepted at its deadline", match_id,
                    pending["round"])
        return None
