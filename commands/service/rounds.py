"""The rounds a reader may ask for: every entry point checks a round the same way."""

from __future__ import annotations

from domain.errors import RuleViolation


def check_round(round_: int | None, open_round: int, ended: bool, match_id: str) -> None:
    """A round a view may be asked as of: 0 up to the round now open (the last round, once the
    match has ended). A round not reached yet is refused, never shown as now."""
    if round_ is None:
        return
    if round_ < 0:
        raise RuleViolation("invalid_round", f"round {round_}: rounds count from 0 (the setup)")
    if round_ > open_round:
        now = f"ended in round {open_round}" if ended else f"is in round {open_round}"
        raise RuleViolation("round_not_reached", f"round {round_} of {match_id} has not been "
                            f"reached: the match {now}")
