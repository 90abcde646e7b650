"""The Amalgamation (docs/games/amalgamation.md) as a decider: six players, seven rounds, $400 each
spread over four simultaneous sub-games (Kong's Dilemma, Minus Auction, Investment & Donation,
Garnet Chip Thief), three twists, and the EC at the end.

Modules: setup (the host's setup and variants), draws (every seeded draw), state, events
(payloads and audiences), decide (common checks and dispatch), guards and player_commands
(the players' commands), command_specs (COMMANDS: each command's arguments), pregame (opening
and pre-game close), rounds (closing a round), kong / minus_auction / investment / chip_thief
(the sub-games' rules), scoring (the end), turn (one command's events in progress), evolve,
results, summary (the viewer's summary, one event at a time), story (narrate, scoreboard,
forms) and picture (the points race).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from domain.decider import Event, fold_summary
from domain.games.amalgamation.command_specs import COMMANDS
from domain.games.amalgamation.decide import decide
from domain.games.amalgamation.draws import GAME_ID, ROLES
from domain.games.amalgamation.evolve import evolve
from domain.games.amalgamation.picture import picture
from domain.games.amalgamation.results import finished, results, round_of
from domain.games.amalgamation.setup import SETUP_HELP, Setup, Teams, Variants
from domain.games.amalgamation.state import State
from domain.games.amalgamation.story import PHASES, acting, forms, narrate, on_close, scoreboard
from domain.games.amalgamation.summary import summary_start, summary_step
from domain.rng import Rng

RULES_VERSION = "amalgamation/1"
# The host commands that close whatever phase is open (`arbiter match close-round`, deadlines).
CLOSES = ("close_pregame", "close_round", "close_ec_decision")
# Garnets are spent only by a round submission's exchange, as many as it names: the figure is
# the least an exchange costs (one garnet); a submission exchanging none costs nothing.
SPENDS = {"submit_round": 1}


def initial_state(setup: Setup, rng: Rng) -> State:
    """Nothing is drawn yet: the pre-game close draws what the setup left to this seed."""
    return State(setup=setup, seed=rng.seed)


def summarize(events: Sequence[Event], viewer: str) -> dict[str, Any]:
    return fold_summary(sys.modules[__name__], events, viewer)


__all__ = [
    "CLOSES",
    "COMMANDS",
    "GAME_ID",
    "PHASES",
    "ROLES",
    "RULES_VERSION",
    "SETUP_HELP",
    "SPENDS",
    "Setup",
    "State",
    "Teams",
    "Variants",
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
