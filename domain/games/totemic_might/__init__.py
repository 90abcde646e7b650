"""Totemic Might as a decider: seven players learn the secret weights of twenty totems through
all-pay auctions, a private scale and four wagers, then try to split every piece they hold into
three groups of equal weight. The rulebook is docs/games/totemic_might.md; "rules 4.4" and
`TM-R12` cite its sections and rulings.

Modules: grid (totems and piece tokens), setup (the host's setup and variants), draws (every
seeded draw), state, events (payloads and audiences), turn (one command in progress), decide
(common checks and dispatch), bidding / spirits / scale / wagers / transfers / challenge (the
commands), command_specs (COMMANDS, their arguments), deadline / auction / snake /
wager_answers (the deadlines), ranking, evolve, results, summary; story (narrate, scoreboard,
forms), sentences (each event in words) and picture (the grid in SVG).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from domain.decider import Event, fold_summary
from domain.games.surface import lazy

if TYPE_CHECKING:
    from domain.games.totemic_might.setup import Setup
    from domain.games.totemic_might.state import State
    from domain.rng import Rng

RULES_VERSION = "totemic_might/1"
# The host commands that close whatever phase is open (`arbiter match close-round`, deadlines).
CLOSES = ("deadline", "final_deadline")
# Only wagers cost garnets, paid when they resolve at the deadline: Bear 2 (3 with `fine`),
# Fox paid in garnets 4. The figure is the least a garnet-paid wager costs.
SPENDS = {"place_wager": 2}
SETUP_ERROR = "INVALID_SETUP"


def initial_state(setup: Setup, rng: Rng) -> State:
    """Nothing is drawn yet: `open_match` draws the secret setup from this seed and seals it."""
    from domain.games.totemic_might.state import State

    return State(setup=setup, seed=rng.seed)


def summarize(events: Sequence[Event], viewer: str) -> dict[str, Any]:
    return fold_summary(sys.modules[__name__], events, viewer)

lazy(__name__, {
    "GAME_ID": "draws", "COMMANDS": "command_specs", "SETUP_HELP": "setup",
    "SeriesPair": "setup", "Setup": "setup", "SnakeHint": "setup", "State": "state",
    "decide": "decide", "evolve": "evolve", "finished": "results", "results": "results",
    "round_of": "results", "summary_start": "summary", "summary_step": "summary",
    "PHASES": "story", "acting": "story", "forms": "story", "narrate": "story",
    "on_close": "story", "scoreboard": "story", "picture": "picture",
})
