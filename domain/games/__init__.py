"""The registry of games by their game id."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, cast

from domain.errors import RuleViolation

if TYPE_CHECKING:
    from domain.decider import Game

_MODULES = {
    "amalgamation": "domain.games.amalgamation",
    "kings_court": "domain.games.kings_court",
    "merchants_guild": "domain.games.merchants_guild",
    "tile_joust": "domain.games.tile_joust",
    "totemic_might": "domain.games.totemic_might",
}


_LOADED: dict[str, Game] = {}  # each game once imported whole: asked for several times a command


def get_game(game_id: str) -> Game:
    loaded = _LOADED.get(game_id)
    if loaded is not None:
        return loaded
    try:
        name = _MODULES[game_id]
    except KeyError:
        from domain.edge import excerpt  # the edge's specs are the rules': a reader needs none

        known = ", ".join(sorted(_MODULES))
        raise RuleViolation("unknown_game", f"no game {excerpt(game_id)}; known: {known}") from None
    # The import system's lock makes a thread wait while another imports the game.
    game = _LOADED[game_id] = cast("Game", import_module(name))
    return game


def register_game(game_id: str, module: str) -> None:
    """Make another decider module playable (tests use this for a fake game)."""
    _MODULES[game_id] = module
    _LOADED.pop(game_id, None)


def game_ids() -> list[str]:
    return sorted(_MODULES)
