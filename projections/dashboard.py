"""The host's dashboard of a match: the game's phase, its deadlines, the close pending at the
open round's deadline, and who still has to act in the open phase; and the host's words for
them (the phase in the game's words, who acts, what a close does).

Everything here is read off the match records through one follower (`projections.follow`),
so the projection, this reference and the service that closes rounds at their deadlines
agree.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from domain.decider import HOST, Game
from domain.games import get_game
from domain.match import Reading
from projections import words
from projections.follow import deadline_command_id, follow, submitter

__all__ = ["close_commands", "dashboard", "deadline_command_id", "open_deadline", "phase_line",
           "phase_now", "phase_words", "still_to_act", "submitter", "what_closing_does"]

def open_deadline(match: Reading) -> dict[str, Any] | None:
    """The last deadline the host set for the open round, and whether it has closed it."""
    return follow(match, viewers=()).open_deadline()


@cache
def close_commands(game: Game) -> list[str]:
    """The host commands that close whatever phase of the game is open, in the game's order."""
    return list(game.CLOSES)


def dashboard(match: Reading) -> dict[str, Any]:
    return follow(match, viewers=(HOST,)).dashboard()


def phase_now(match: Reading) -> dict[str, Any]:
    """The open round, the phase open now and the phase the round opened with (the game's
    names, from the host's summary): what a close aimed at a round or a phase is held to."""
    follower = follow(match, viewers=(HOST,))
    return {"round": match.round, "phase": follower.phase(),
            "opening": follower.opening_phase()}


# -- the host's words -------------------------------------------------------------------------

phase_words = words.phase  # the phase in the game's words, shared with the pages and the CLI
named = words.names


def phase_line(board: dict[str, Any]) -> str:
    """ "Round 4: the tie-break; only grace acts." as the host reads the dashboard."""
    phase = board["phase"]
    if phase in ("configured", "not_started") and board["round"] == 0:
        return "Not opened yet: players may add to the seed until the host opens the match."
    if phase in ("ended", "over"):
        return "The match is over."
    said = phase_words(board["game"], phase)
    acting = board.get("acting")
    if acting is None:
        who = ""
    elif not acting:
        who = "; only the host acts"
    elif len(acting) == 1:
        who = f"; only {acting[0]} acts"
    else:
        who = f"; {len(acting)} players act"
    return f"Round {board['round']}: {said}{who}."


def still_to_act(board: dict[str, Any]) -> str:
    """Who this phase still waits on, in a sentence."""
    waiting = board["waiting"]
    if board["phase"] in ("configured", "ended", "over"):
        return ""
    if not waiting:
        if board.get("acting") == []:
            return "Nobody but the host: the next step is yours."
        return "Nobody: everyone who acts in this phase has acted."
    return f"Still to act ({len(waiting)}): {named(waiting)}."


def what_closing_does(view: dict[str, Any], board: dict[str, Any]) -> str:
    """What the host's close does now, in the game's words where it says, else plainly."""
    said = getattr(get_game(view["game"]), "on_close", None)
    found = said(view["summary"], board["waiting"]) if said else None
    if found:
        return str(found)
    waiting = board["waiting"]
    if not waiting:
        return "Everyone has acted: the phase closes and its results are revealed."
    return (f"{len(waiting)} player{'s have' if len(waiting) != 1 else ' has'} not acted "
            f"({named(waiting)}): the rules' defaults fill their gaps, and the results are "
            "revealed.")
