"""Snake letters (rules 6.6.1, TM-R17): the deal of one deadline is a fixed record."""

from __future__ import annotations

import dataclasses

import pytest

from domain.games.totemic_might.snake import assign_letters


def test_a_deal_cannot_be_changed_once_made():
    """Like the frozen `State` it feeds (decisions page, state.py), the deal of a deadline is
    read, never rewritten: p1 alone asks for B with nothing taken and gets it."""
    deal = assign_letters({"p1": "B"}, ["p1"], [], {})
    assert (deal.assigned, deal.bumped, deal.taken_after, deal.refreshes) == (
        {"p1": "B"}, (), ("B",), 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        deal.refreshes = 1  # type: ignore[misc]
