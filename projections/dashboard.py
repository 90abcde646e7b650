"""The host's dashboard of a match: the game's phase, its deadlines, the close pending at the
open round's deadline, and who has not submitted in the open round.

Everything here is read off the match records through one follower (`projections.follow`),
so the projection, this reference and the service that closes rounds at their deadlines
agree.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from domain.decider import HOST, Game
from domain.match import Reading
from projections.follow import deadline_command_id, follow, submitter

__all__ = ["close_commands", "dashboard", "deadline_command_id", "open_deadline", "submitter"]


def open_deadline(match: Reading) -> dict[str, Any] | None:
    """The last deadline the host set for the open round, and whether it has closed it."""
    return follow(match, viewers=()).open_deadline()


@cache
def close_commands(game: Game) -> list[str]:
    """The host commands that close whatever phase of the game is open, in the game's order."""
    return list(game.CLOSES)


def dashboard(match: Reading) -> dict[str, Any]:
    return follow(match, viewers=(HOST,)).dashboard()
