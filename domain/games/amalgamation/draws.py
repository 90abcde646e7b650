"""Every seeded draw of rulebook section 9, with exactly its labels (the recipe of
docs/games/randomness.md)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.amalgamation.setup import ALL_TILES, ROUNDS, TEAM_SIZE, TILES_PER_ROUND
from domain.rng import Rng

GAME_ID = "amalgamation"
MAFIA, CARTEL, POLICE, BEGGAR = "mafia", "cartel", "police", "beggar"
ROLES = (MAFIA, CARTEL, POLICE, BEGGAR)  # in the rulebook's order: the draw indexes it
RED, WHITE = "red", "white"


def gamewide_tiebreak(rng: Rng, players: Sequence[str]) -> list[str]:
    """Players by (H("gt", id), id); first = highest."""
    return rng.order(players, "gt")


def default_teams(rng: Rng, players: Sequence[str]) -> dict[str, list[str]]:
    """Players by (H("teams", id), id): the first three red, the last three white."""
    order = rng.order(players, "teams")
    return {RED: order[:TEAM_SIZE], WHITE: order[TEAM_SIZE:]}


def tile_schedule(rng: Rng) -> list[list[int]]:
    """-1 ... -35 by (H("tiles", value), value), cut into 7 rounds of 5 in resolution order."""
    order = rng.order(ALL_TILES, "tiles")
    return [order[i * TILES_PER_ROUND : (i + 1) * TILES_PER_ROUND] for i in range(ROUNDS)]


def random_role(rng: Rng, round_number: int, player: str) -> str:
    """The Chip Thief role of a missing submission: ROLES[H("ct_role", round, id) mod 4]."""
    return rng.choice(ROLES, "ct_role", round_number, player)
