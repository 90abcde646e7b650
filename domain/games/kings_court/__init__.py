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
from typing import TYPE_CHECKING, Any

from domain.decider import Event, fold_summary
from domain.games.surface import lazy

if TYPE_CHECKING:
    from domain.games.kings_court.setup import Setup
    from domain.games.kings_court.state import State
    from domain.rng import Rng

RULES_VERSION = "kings_court/1"
# The host commands that close whatever phase is open (`arbiter match close-round`, deadlines).
CLOSES = ("close_round", "close_tiebreak", "close_king_gift", "close_ec_vote")


def initial_state(setup: Setup, rng: Rng) -> State:
    """Nothing is drawn yet: `open_match` draws game 1 from this seed and records it."""
    from domain.games.kings_court.state import State

    return State(setup=setup, seed=rng.seed)


def summarize(events: Sequence[Event], viewer: str) -> dict[str, Any]:
    return fold_summary(sys.modules[__name__], events, viewer)


lazy(__name__, {
    "GAME_ID": "draws", "COMMANDS": "specs", "SPENDS": "player_commands",
    "ANNOYED_CHECK_PRICE": "player_commands", "PEEK_PRICE": "player_commands",
    "SETUP_HELP": "setup", "RoleSet": "setup", "Setup": "setup", "State": "state",
    "decide": "decide", "evolve": "evolve", "finished": "results", "results": "results",
    "round_of": "results", "summary_start": "summary", "summary_step": "summary",
    "PHASES": "story", "acting": "story", "forms": "story", "narrate": "story",
    "on_close": "story", "scoreboard": "story", "picture": "picture",
})
