"""What keeps a host's slip from being irreversible, whatever sent the command (the command line,
the HTTP API, the pages, the Python API): a command aimed at a round or a phase that has moved
on is refused (`round_moved`), and so is a deadline that has already passed (`deadline_past`)
unless the host says `now`. Nothing is recorded when a guard refuses.

The guards read the match and the clock, never the log's bytes: the rules and every existing
log are unchanged (a deadline given as `now` is recorded as the instant it meant).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from commands.service.rounds import check_round
from domain.decider import HOST
from domain.errors import RuleViolation
from domain.logs import OPEN
from domain.match import Match, Reading
from domain.records import headline
from projections.dashboard import phase_now, phase_words

NOW = "now"
SET_DEADLINE = "set_deadline"
MAX_DEADLINE = 64  # characters, as the domain's edge bounds a deadline


def check_aim(match: Reading, expect_round: int | None, expect_phase: str | None,
              reading: Callable[[], Reading]) -> None:
    """`round_moved` unless the round (and the phase, by the game's name for it) the command
    was aimed at is still open; a round that never was, with the read side's codes and words
    (`invalid_round`, `round_not_reached`). `reading` gives the whole log, to name the phase."""
    if expect_round is not None and (expect_round < 0 or expect_round > match.round):
        try:
            check_round(expect_round, match.round, match.ended, match.match_id)
        except RuleViolation as error:
            raise RuleViolation(error.code, f"{error.message}; nothing was recorded") from None
    if expect_round is not None and match.round != expect_round:
        instead = "the match has ended" if match.ended else f"round {match.round} is open"
        raise RuleViolation("round_moved", f"round {expect_round} of {match.match_id} is over: "
                            f"{instead}; nothing was recorded")
    if expect_phase is None or match.ended:
        return
    now = phase_now(reading())
    if now["phase"] != expect_phase:
        game = match.game_id
        raise RuleViolation("round_moved", f"round {match.round} of {match.match_id} has moved "
                            f"on from {phase_words(game, expect_phase)} to "
                            f"{phase_words(game, now['phase'])}; nothing was recorded")


def moment(text: str) -> datetime:
    """An ISO 8601 time; UTC when it names no zone (as the deadlines read it)."""
    found = datetime.fromisoformat(text)
    return found if found.tzinfo else found.replace(tzinfo=UTC)


def deadline_args(name: str, actor: str, args: dict[str, Any], at: str | None,
                  match: Match, command_id: str | None) -> dict[str, Any]:
    """A host's `set_deadline` as it is recorded: `now` becomes the command's own time, a
    time that is not ISO 8601 is `invalid_deadline`, one before the command's time
    `deadline_past`. Any other command as it came."""
    if name != SET_DEADLINE or actor != HOST or not isinstance(args.get("deadline"), str) \
            or match.phase != OPEN:
        return args  # the rules answer it (a match not open is `wrong_state`)
    if command_id is not None and command_id in match.handled:
        first = headline(match.record(match.handled[command_id][0]))["data"]
        return dict(first["args"]) if first.get("name") == SET_DEADLINE else args
    try:
        stated = moment(at) if at else datetime.now(UTC)
    except ValueError:  # a time the caller stated in another form: the clock's
        stated = datetime.now(UTC)
    given = args["deadline"].strip()
    if len(args["deadline"]) > MAX_DEADLINE:
        return args  # the domain's edge bounds it (`too_large`)
    if given.lower() == NOW:
        return {**args, "deadline": at or stated.isoformat(timespec="seconds")}
    try:
        when = moment(given)
    except ValueError:
        raise RuleViolation("invalid_deadline", f"{given[:64]!r} is not a time: give ISO 8601 "
                            "with its zone, e.g. 2026-11-21T20:00:00Z, or `now`") from None
    if when < stated:
        raise RuleViolation("deadline_past", f"{given} has passed already (it is "
                            f"{stated.isoformat(timespec='seconds')}): a deadline in the past "
                            f"would close round {match.round} at once; give a later time, or "
                            "`now` to close it now")
    return args
