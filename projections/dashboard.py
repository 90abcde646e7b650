"""The host's dashboard of a match: its deadlines, the close pending at the open round's
deadline, and who has not submitted in the open round.

Everything here is read off the match records, so the projection and the service that closes
rounds at their deadlines agree.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from domain.decider import HOST, Game
from domain.match import OPEN, Match
from domain.records import headline


def deadline_command_id(match_id: str, round: int, deadline: str) -> str:
    """The command id of a close at a deadline: a restart or a second worker sending it again
    gets the first answer back (command ids are idempotent), so a close is never doubled."""
    return f"deadline:{match_id}:{round}:{deadline}"


def deadlines_set(match: Match) -> list[dict[str, Any]]:
    """The match's own DeadlineSet entries (a game's event of that kind is the game's)."""
    return [r for r in match.records
            if r["role"] == "meta" and headline(r)["kind"] == "DeadlineSet"]


def open_deadline(match: Match) -> dict[str, Any] | None:
    """The last deadline the host set for the open round, and whether it has closed it."""
    if match.phase != OPEN:
        return None
    latest = None
    for record in deadlines_set(match):
        if headline(record)["data"]["round"] == match.round:
            latest = headline(record)["data"]["deadline"]
    if latest is None:
        return None
    command_id = deadline_command_id(match.match_id, match.round, latest)
    return {"round": match.round, "deadline": latest, "command_id": command_id,
            "closed": command_id in match.handled}


@cache
def close_commands(game: Game) -> list[str]:
    """The host commands that close whatever phase of the game is open, in the game's order."""
    return list(game.CLOSES)


def submitter(record: dict[str, Any]) -> str | None:
    """The player a command entry is from: its sender, or the player a correction entered."""
    head = headline(record)
    if head["actor"] != HOST:
        return head["actor"]
    sent = head["data"]
    return sent["args"].get("as") if sent["name"] == "correct" else None


def dashboard(match: Match) -> dict[str, Any]:
    done = set()
    if not match.ended:
        done = {submitter(r) for r in match.records
                if r["role"] == "command" and r["entry"]["round"] == match.round
                and r["entry"]["seq"] not in match.voided}
    return {
        "match": match.match_id,
        "game": match.game_id,
        "season": match.season,
        "phase": match.phase,
        "round": match.round,
        "seq": match.version,
        "deadline": open_deadline(match),
        "deadlines": [{"seq": r["entry"]["seq"], **headline(r)["data"]}
                      for r in deadlines_set(match)],
        "submitted": [p for p in match.players if p in done],
        "waiting": [] if match.ended else [p for p in match.players if p not in done],
    }
