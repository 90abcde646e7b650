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

from domain.games.merchants_guild.command_specs import COMMANDS
from domain.games.merchants_guild.decide import decide
from domain.games.merchants_guild.evolve import evolve
from domain.games.merchants_guild.guild import (
    EXTRA_INVESTIGATION_PRICE,
    GAME_ID,
    LOOKUP_PRICE,
    PAID_PUSH_PRICE,
)
from domain.games.merchants_guild.picture import picture
from domain.games.merchants_guild.results import finished, results, round_of
from domain.games.merchants_guild.setup import SETUP_HELP, Bill, Setup
from domain.games.merchants_guild.state import State
from domain.games.merchants_guild.story import PHASES, acting, forms, narrate, on_close, scoreboard
from domain.games.merchants_guild.summary import summarize, summary_start, summary_step
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
    return State(setup=setup, seed=rng.seed)


__all__ = [
    "CLOSES",
    "COMMANDS",
    "GAME_ID",
    "PHASES",
    "RULES_VERSION",
    "SETUP_HELP",
    "SPENDS",
    "Bill",
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
