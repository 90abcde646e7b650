"""The Merchants' Guild (docs/games/merchants_guild.md) as a decider: ten players, five gem houses,
60 bills in hidden pairs, eight weekly ballots, a week-4 investigation, a week-5 blackmail,
and the settlement that turns house rankings into gold, losers, garnets and Tokens of Life.

Modules: guild (constants), setup (the host's setup, catalog and variants), houses (bill
effects), draws (the seeded draws), ballot (selecting ballots), state, events (payloads and
audiences), checks / ballot_commands / intrigue_commands (players' commands), deadline (the
opening and each week's deadline), settlement, turn (one command's events in progress),
decide, evolve, results, summary, command_specs (COMMANDS), story (narrate, scoreboard,
forms; words writes the guild's things) and picture.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.games.merchants_guild.guild import (
    EXTRA_INVESTIGATION_PRICE,
    LOOKUP_PRICE,
    PAID_PUSH_PRICE,
)
from domain.games.surface import lazy

if TYPE_CHECKING:
    from domain.games.merchants_guild.setup import Setup
    from domain.games.merchants_guild.state import State
    from domain.rng import Rng

RULES_VERSION = "merchants_guild/1"
# The host commands that close whatever phase is open (`arbiter match close-round`, deadlines).
CLOSES = ("close_week",)
SPENDS = {  # garnets per command
    "paid_push": PAID_PUSH_PRICE,
    "reveal_partner": LOOKUP_PRICE,
    "extra_investigate": EXTRA_INVESTIGATION_PRICE,
}


def initial_state(setup: Setup, rng: Rng) -> State:
    """Nothing is drawn yet: `open_match` draws what the host left out and records it."""
    from domain.games.merchants_guild.state import State

    return State(setup=setup, seed=rng.seed)

lazy(__name__, {
    "GAME_ID": "guild", "COMMANDS": "command_specs", "SETUP_HELP": "setup", "Bill": "setup",
    "Setup": "setup", "State": "state", "decide": "decide", "evolve": "evolve",
    "finished": "results", "results": "results", "round_of": "results",
    "summarize": "summary", "summary_start": "summary", "summary_step": "summary",
    "PHASES": "story", "acting": "story", "forms": "story", "narrate": "story",
    "on_close": "story", "scoreboard": "story", "picture": "picture",
})
