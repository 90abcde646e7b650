"""King's Court (docs/games/kings_court.md) as a decider: eleven players, a secret King, Dukes and
Nobles, elections into the court, a lying Judge, and the Elimination Candidate at the end.

Modules: setup (the host's setup and variants), roles (the Judge's view), draws (every seeded
draw), state, events (payloads and audiences), decide / player_commands / election / ending /
aftermath (the rules), turn (one command's events in progress), evolve, results, summary
(one event at a time), specs (COMMANDS), narration / story (narrate, scoreboard, forms) and
picture (the court as SVG).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from domain.decider import Event, fold_summary
from domain.games.kings_court.decide import decide
from domain.games.kings_court.draws import GAME_ID
from domain.games.kings_court.evolve import evolve
from domain.games.kings_court.picture import picture
from domain.games.kings_court.player_commands import ANNOYED_CHECK_PRICE, PEEK_PRICE
from domain.games.kings_court.results import finished, results, round_of
from domain.games.kings_court.setup import SETUP_HELP, RoleSet, Setup
from domain.games.kings_court.specs import COMMANDS
from domain.games.kings_court.state import State
from domain.games.kings_court.story import PHASES, acting, forms, narrate, on_close, scoreboard
from domain.games.kings_court.summary import summary_start, summary_step
from domain.rng import Rng

RULES_VERSION = "kings_court/1"
# The host commands that close whatever phase is open (`arbiter match close-round`, deadlines).
CLOSES = ("close_round", "close_tiebreak", "close_king_gift", "close_ec_vote")
SPENDS = {"peek": PEEK_PRICE, "annoyed_check": ANNOYED_CHECK_PRICE}  # garnets per command


def initial_state(setup: Setup, rng: Rng) -> State:
    """Nothing is drawn yet: `open_match` draws game 1 from this seed and records it."""
    return State(setup=setup, seed=rng.seed)


def summarize(events: Sequence[Event], viewer: str) -> dict[str, Any]:
    return fold_summary(sys.modules[__name__], events, viewer)


__all__ = [
    "CLOSES",
    "COMMANDS",
    "GAME_ID",
    "PHASES",
    "RULES_VERSION",
    "SETUP_HELP",
    "SPENDS",
    "RoleSet",
    "Setup",
    "State",
    "acting",
    "decide",
    "evolve",
    "finished",
    "forms",
    "initial_state",
    "narrate",
    "on_close",
    "picture",
    "results",
    "round_of",
    "scoreboard",
    "summarize",
    "summary_start",
    "summary_step",
]
