"""Totemic Might's results before they are published (issue 16, mutation testing of
results.py): no outcome, no ranks, no details until the final deadline."""

from __future__ import annotations

from domain.games import totemic_might as tm
from tests.games.totemic_might.harness import Match


def test_no_results_before_the_end():
    empty = {"outcome": None, "ranks": {}, "details": {}}
    assert tm.results(Match(open_match=False).state) == empty
    assert tm.results(Match().state) == empty
