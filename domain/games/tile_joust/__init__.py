"""Tile Joust (docs/games/tile_joust.md) as a decider: the two-player Death Match (13 tiles 1-13)
and its Final Match variant (14 tiles 0-13 and three items), played move by move.

Three sets, each an auction phase (four groups of three hidden tiles sold in open alternating
auctions, then the leftover step) and a joust phase (secret one-tile steps, resolved by sums),
then the final joust over every stored tile. Timeouts are host commands, so a replay needs no
clock.

Modules: commands (what may be sent, with its arguments), setup (the host's setup and
options), tiles (ids, colours, groups, group starts), draws (the seeded orderings), state,
events (payloads and audiences), decide (dispatch), opening, auctions, leftovers, items,
jousts, ending (the rules), timeouts (the defaults), flow (what follows without a decision),
turn (one command's events), evolve, results, summary (the live view), story (the match in
words, the standings, the forms) and picture (points by set, and the jousts, drawn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.games.surface import lazy

if TYPE_CHECKING:
    from domain.games.tile_joust.setup import Setup
    from domain.games.tile_joust.state import State
    from domain.rng import Rng

RULES_VERSION = "tile_joust/1"
# The host commands that close whatever phase is open (`arbiter match close-round`, deadlines).
CLOSES = ()  # real time: a step ends by the players or a recorded timeout
SPENDS: dict[str, int] = {}  # no command of this game costs garnets (rulebook section 8)
SETUP_ERROR = "INVALID_SETUP"
# A timeout says who did not act; sealed, so the other player cannot act on it (TJ-R on timeouts).
SEALED_HOST_COMMANDS = frozenset({"timeout"})
# The most sealed events one command emits in a row: a tile won shown to its winner, then the
# next group's start computed for the host; a leftover kept, then its value shown.
SEALED_RUN = 2


def initial_state(setup: Setup, rng: Rng) -> State:
    """Nothing is drawn yet: `open_match` draws the orderings from this seed and records them."""
    from domain.games.tile_joust.state import State

    return State(setup=setup, seed=rng.seed)

lazy(__name__, {
    "GAME_ID": "draws", "COMMANDS": "commands", "SETUP_HELP": "setup", "Setup": "setup",
    "State": "state", "decide": "decide", "evolve": "evolve", "finished": "results",
    "results": "results", "round_of": "results", "summarize": "summary",
    "summary_start": "summary", "summary_step": "summary", "PHASES": "story",
    "acting": "story", "forms": "story", "narrate": "story", "scoreboard": "story",
    "picture": "picture",
})
