"""evolve's own copy-with-changes stands for `dataclasses.replace`: the same value, and the
same refusal of a name that is no field (a misspelt change must not pass as a new attribute)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.games.kings_court.evolve import _changed
from domain.games.kings_court.roles import Secrets
from domain.games.kings_court.state import Game

GAME = Game(number=2, secrets=Secrets(roles={"ann": "king", "bob": "duke", "cy": "noble"},
                                      annoyed_duke="bob", annoyed_noble="cy", lists={}),
            court=("ann",))


def test_a_change_gives_what_replace_gives_and_leaves_the_first_alone():
    changed = _changed(GAME, {"votes": {"ann": "bob"}, "round": 3})
    assert changed == replace(GAME, votes={"ann": "bob"}, round=3)
    assert (changed.round, changed.votes, changed.court) == (3, {"ann": "bob"}, ("ann",))
    assert (GAME.round, GAME.votes) == (0, {})
    with pytest.raises(AttributeError):  # still frozen
        changed.round = 4  # type: ignore[misc]


def test_a_name_that_is_no_field_is_refused():
    with pytest.raises(TypeError, match=r"Game has no field \['vots'\]"):
        _changed(GAME, {"vots": {}})
