"""The setup every game's `Setup` extends: a pydantic model, since a setup is input the host
types. Kept apart from domain.decider, so that what only reads a match (a view from the view
tables, a bundle's verification) never loads the validation library."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

REPLACEMENTS = 30  # times a player may replace a submission in a round, unless the setup says


class SetupBase(BaseModel):
    """Every game's Setup names its players in seat order, and may bound how often a player
    replaces a submission in one round (`max_replacements`; unstated, REPLACEMENTS: a setup
    that does not state it is recorded without it, as before the bound existed)."""

    players: list[str]
    max_replacements: int | None = Field(
        default=None, ge=0, le=10_000,
        description=f"How many times a player may replace a submission (send the same "
                    f"command again) in one round; left empty, {REPLACEMENTS}.")

    @property
    def replacements(self) -> int:
        return REPLACEMENTS if self.max_replacements is None else self.max_replacements

    def recorded(self) -> dict[str, Any]:
        """The setup as the log records it: a bound the host did not state is left out."""
        unstated = {"max_replacements"} if self.max_replacements is None else set()
        return self.model_dump(mode="json", exclude=unstated)
