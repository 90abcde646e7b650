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
from typing import TYPE_CHECKING, Any

from domain.decider import Event, fold_summary
from domain.games.surface import lazy

if TYPE_CHECKING:
    from domain.games.amalgamation.setup import Setup
    from domain.games.amalgamation.state import State
    from domain.rng import Rng

RULES_VERSION = "amalgamation/1"
# The host commands that close whatever phase is open (`arbiter match close-round`, deadlines).
CLOSES = ("close_pregame", "close_round", "close_ec_decision")
# Garnets are spent only by a round submission's exchange, as many as it names: the figure is
# the least an exchange costs (one garnet); a submission exchanging none costs nothing.
SPENDS = {"submit_round": 1}


def initial_state(setup: Setup, rng: Rng) -> State:
    """Nothing is drawn yet: the pre-game close draws what the setup left to this seed."""
    from domain.games.amalgamation.state import State

    return State(setup=setup, seed=rng.seed)


def summarize(events: Sequence[Event], viewer: str) -> dict[str, Any]:
    return fold_summary(sys.modules[__name__], events, viewer)

lazy(__name__, {
    "GAME_ID": "draws", "ROLES": "draws", "COMMANDS": "command_specs", "SETUP_HELP": "setup",
    "Setup": "setup", "Teams": "setup", "Variants": "setup", "State": "state",
    "decide": "decide", "evolve": "evolve", "finished": "results", "results": "results",
    "round_of": "results", "summary_start": "summary", "summary_step": "summary",
    "PHASES": "story", "acting": "story", "forms": "story", "narrate": "story",
    "on_close": "story", "scoreboard": "story", "picture": "picture",
})
