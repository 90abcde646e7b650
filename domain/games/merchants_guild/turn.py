"""One command's work in progress (domain.turn), folded with this game's evolve."""

from __future__ import annotations

from domain import turn
from domain.games.merchants_guild.evolve import evolve


class Turn(turn.Turn):
    evolve = staticmethod(evolve)
