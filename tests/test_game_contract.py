"""Every registered game offers the decider surface the match framework runs."""

from __future__ import annotations

import inspect

import pytest

from domain.games import game_ids, get_game
from domain.setup import SetupBase

SURFACE = ("initial_state", "decide", "evolve", "round_of", "finished", "results", "summarize")


@pytest.mark.parametrize("game_id", game_ids())
def test_the_game_offers_the_decider_surface(game_id):
    game = get_game(game_id)
    assert game_id == game.GAME_ID
    assert game.RULES_VERSION.startswith(f"{game_id}/")
    assert issubclass(game.Setup, SetupBase)
    for name in SURFACE:
        assert callable(getattr(game, name)), name
    assert len(inspect.signature(game.decide).parameters) == 2
    assert isinstance(game.CLOSES, tuple)
    assert all(isinstance(name, str) for name in game.CLOSES)
    for command, price in getattr(game, "SPENDS", {}).items():
        assert isinstance(command, str) and isinstance(price, int) and price > 0


@pytest.mark.parametrize("game_id", game_ids())
def test_a_setup_refuses_unknown_fields(game_id):
    schema = get_game(game_id).Setup.model_config
    assert schema.get("extra") == "forbid"
