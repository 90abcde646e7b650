"""A seed match played step by step, keeping what `match submit --receipt` keeps of its first
vote: for the commands that check a receipt (tests and bench/read_startup.py)."""

from __future__ import annotations

from commands.cli.matchfile import MatchFile, create, prepare_season
from commands.service.arbiter import Arbiter
from commands.service.outcomes import Receipt


def played_keeping_a_receipt(app: Arbiter, file: MatchFile) -> Receipt:
    """`file` played into its season (the steps it expects refused left out); the receipt of
    its first vote."""
    prepare_season(app, file)
    create(app, file)
    for player, text in file.contributions.items():
        app.submit(file.match, player, "contribute", {"text": text})
    kept = None
    for step in file.commands:
        if not step.expect_error:
            sent = app.submit(file.match, step.actor, step.do, step.args)
            if step.do == "vote" and kept is None:
                kept = sent.receipt
    assert kept is not None, f"{file.match} has no vote with a receipt"
    return kept
