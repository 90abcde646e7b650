"""One command's work in progress (domain.turn), folded with King's Court's evolve."""

from __future__ import annotations

from domain import turn
from domain.games.kings_court.evolve import evolve


class Turn(turn.Turn):
    evolve = staticmethod(evolve)

    def penalty(self, player: str, amount: int) -> int:
        """What a penalty actually takes: never more than the balance, unless debt is allowed."""
        if self.state.setup.allow_negative_garnets:
            return amount
        return min(amount, max(self.balance(player), 0))
