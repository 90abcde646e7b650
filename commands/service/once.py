"""Season commands carried out once: a command id (a host form's one-time id, a bot's message
id) is spent by the season command it came with, in the same save.

A match remembers its command ids in its own log; a season's log holds none, and must stay
byte for byte what it is. So a spent id is a small event-sourced aggregate of its own, beside
(never inside) the logs, as the tokens are: `SpentId`, whose id is a UUID made from the
command id, saved at version 1 in the one save that records the season's change. Every
process sharing the store writes it at that same place, so a second save of it (another
worker took the same form a moment earlier) fails as a whole, the season's change with it,
and the retry finds the id spent: the command is recorded once, and answered as a repeat.
A command the season refuses saves nothing, so its id stays unspent.

Each marker is one event that the store check counts among the other aggregates; it is never
read into the repository's cache (which keeps the logs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from commands.service.outcomes import Repeat
from domain.decider import HOST
from domain.edge import check_command_id, excerpt
from domain.errors import RuleViolation
from domain.integrity import checked
from domain.match import fingerprint


class SpentId(Aggregate):
    """A command id spent by a season command: which command, on which season, and a digest of
    what it asked (a command id answers for one command only)."""

    @staticmethod
    def create_id(command_id: str) -> UUID:
        return uuid5(NAMESPACE_URL, f"arbiter/season-commands/{command_id}")

    @event("Spent")
    def __init__(self, command_id: str, action: str, season: str, sent: str,
                 at: str | None) -> None:
        self.command_id = command_id
        self.action = action
        self.season = season
        self.sent = sent
        self.at = at


@dataclass(frozen=True)
class Once:
    """A season command sent with a command id: what a repeat must match."""

    command_id: str
    action: str
    season: str
    sent: str  # the digest of the action, its season and its arguments

    @staticmethod
    def of(command_id: str | None, action: str, season: str,
           args: dict[str, Any]) -> Once | None:
        """None without an id; a malformed id is refused (`invalid_text`, `too_large`)."""
        check_command_id(command_id)
        if command_id is None:
            return None
        return Once(command_id, action, season,
                    fingerprint(HOST, action, {"season": season, **args}))

    @property
    def id(self) -> UUID:
        return SpentId.create_id(self.command_id)

    def spend(self, at: str | None) -> SpentId:
        return SpentId(command_id=self.command_id, action=self.action, season=self.season,
                       sent=self.sent, at=at)


def first_sending(app: Application, once: Once | None) -> Repeat | None:
    """What the first sending of this command id did, if it was recorded (read from the store
    itself: another process may have spent it); `id_reused` when it carried another command."""
    if once is None:
        return None
    found: SpentId | None = checked(None, app.repository.event_store.get(once.id))
    if found is None:
        return None
    if found.sent != once.sent:
        raise RuleViolation("id_reused", f"command id {excerpt(once.command_id)} was used for "
                            "another command: give this one its own id")
    return Repeat(found.command_id, found.action, found.season, found.at)
