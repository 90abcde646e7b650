"""Every seeded draw of the rulebook's section 3, with exactly its labels (g = game, r = round).

Explicit setup data (role sets, lists) is used as given; the seed derives only what is missing.
Draws happen in `decide` and are recorded in events; `evolve` never draws.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from domain.games.kings_court.roles import (
    DUKE,
    KING,
    LIST_LENGTH,
    NOBLE,
    TEAM_ROLES,
    Secrets,
    list_is_valid,
    list_view,
)
from domain.games.kings_court.setup import TEAM_SIZE, Setup
from domain.rng import Rng

GAME_ID = "kings_court"


def game_secrets(setup: Setup, seed: str, game: int, earlier_kings: list[str]) -> Secrets:
    """Roles, annoyed pair and lists of game `game`: the host's role set if given, else drawn."""
    rng = Rng(GAME_ID, seed)
    if game <= len(setup.games):
        secrets = setup.games[game - 1].secrets()
    else:
        secrets = draw_roles(rng, setup.players, game, earlier_kings)
    lists = {
        owner: secrets.lists.get(owner) or draw_list(rng, setup, secrets, game, owner)
        for owner in setup.players
    }
    return replace(secrets, lists=lists)


def draw_roles(rng: Rng, players: list[str], game: int, earlier_kings: list[str]) -> Secrets:
    eligible = [player for player in players if player not in earlier_kings]
    king = rng.choice(eligible, "king", game)
    shuffled = rng.order([player for player in players if player != king], "roles", game)
    dukes = [player for player in players if player in shuffled[:TEAM_SIZE]]
    nobles = [player for player in players if player in shuffled[TEAM_SIZE:]]
    roles = {
        player: KING if player == king else DUKE if player in dukes else NOBLE for player in players
    }
    annoyed_duke = rng.choice(dukes, "annoyed_duke", game)
    annoyed_noble = rng.choice(nobles, "annoyed_noble", game)
    return Secrets(roles, annoyed_duke, annoyed_noble, {})


def draw_list(rng: Rng, setup: Setup, secrets: Secrets, game: int, owner: str) -> tuple[str, ...]:
    """A uniformly random valid 3-subset of the other players, in a random order (KC-R13)."""
    others = [player for player in setup.players if player != owner]
    view = list_view(secrets, setup)
    valid = [
        names
        for names in combinations(others, LIST_LENGTH)
        if list_is_valid(names, view, setup.lists_may_include_king)
    ]
    names = rng.choice(valid, "list", game, owner)
    return tuple(rng.order(names, "list_order", game, owner))


def king_peek_coin(seed: str, game: int, peeker: str) -> str:
    """A peek at the King answers a fair coin (KC-R27)."""
    return Rng(GAME_ID, seed).choice(TEAM_ROLES, "king_peek", game, peeker)


def seeded_tiebreak(seed: str, game: int, round_number: int, eligible: list[str]) -> str:
    """The default tie-break among the tied players other than the King (KC-R11)."""
    return Rng(GAME_ID, seed).choice(eligible, "tiebreak", game, round_number)
