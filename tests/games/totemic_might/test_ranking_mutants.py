"""The orders of players, worked out by hand from the rulebook (docs/games/totemic_might.md):
the starting priority list (2.5), the final ranking (9, TM-R25, TM-R34) and the Opal challenge
(6.10, TM-R26). Each function is called directly: no match is played."""

from __future__ import annotations

from typing import Any

from domain.games import totemic_might as tm
from domain.games.totemic_might.ranking import (
    final_ranking,
    opal_challenge_winner,
    starting_priority,
)
from tests.games.totemic_might.harness import PLAYERS, standard_setup

ZERO = dict.fromkeys(PLAYERS, 0)


def setup_of(**changes: Any) -> tm.Setup:
    return tm.Setup.model_validate(standard_setup(**changes))


# 2.5 The priority list


def test_most_garnets_first_then_setup_order():
    garnets = {"p1": 0, "p2": 5, "p3": 2, "p4": 5, "p5": 9, "p6": 0, "p7": 1}
    # 9: p5; 5: p2, p4 (setup order); 2: p3; 1: p7; 0: p1, p6.
    assert starting_priority(setup_of(), garnets) == ["p5", "p2", "p4", "p3", "p7", "p1", "p6"]


def test_a_posted_count_of_zero_ranks_above_a_missing_count():
    """p2's older count is 0, p1 has none: 'a player lacking an entry ranks below one who has
    it', so p2 goes first although p1 comes first in setup order."""
    setup = setup_of(garnet_history={"p2": [0]})
    assert starting_priority(setup, ZERO) == ["p2", "p1", "p3", "p4", "p5", "p6", "p7"]


def test_the_rulebooks_priority_example():
    """11.2 with p1..p7 for ada, bo, cy, di, ed, fay, gus: ada 6, bo 4 [1], cy 4 [5], di 2, ed 1,
    fay 0, gus 3. The list is ada, cy, bo, gus, di, ed, fay."""
    garnets = {"p1": 6, "p2": 4, "p3": 4, "p4": 2, "p5": 1, "p6": 0, "p7": 3}
    setup = setup_of(garnet_history={"p2": [1], "p3": [5]})
    assert starting_priority(setup, garnets) == ["p1", "p3", "p2", "p7", "p4", "p5", "p6"]


def test_older_counts_decide_one_after_the_other():
    """All start with 2. p1 [3, 1], p2 [3, 4], p3 [3] (no second count), p4 [] (no count): on
    the first count p1, p2, p3 tie at 3 above p4..p7; on the second p2 (4) beats p1 (1), which
    beats p3 (missing). p4..p7 have none at all: setup order."""
    setup = setup_of(garnet_history={"p1": [3, 1], "p2": [3, 4], "p3": [3], "p4": []})
    garnets = dict.fromkeys(PLAYERS, 2)
    assert starting_priority(setup, garnets) == ["p2", "p1", "p3", "p4", "p5", "p6", "p7"]


def test_a_higher_older_count_wins_even_when_the_rest_is_missing():
    """p7 [9] and p6 [1, 50]: the first older count decides, 9 over 1."""
    setup = setup_of(garnet_history={"p6": [1, 50], "p7": [9]})
    assert starting_priority(setup, ZERO) == ["p7", "p6", "p1", "p2", "p3", "p4", "p5"]


# 9 The final ranking


def rank(setup: tm.Setup, *, marks=None, scores=None, end=None, start=None, priority=None):
    return final_ranking(setup, marks or ZERO, scores or ZERO, end or ZERO, start or ZERO,
                         priority or PLAYERS)


def test_fewest_marks_first():
    marks = {"p1": 3, "p2": 0, "p3": 2, "p4": 1, "p5": 0, "p6": 4, "p7": 1}
    assert rank(setup_of(), marks=marks) == ["p2", "p5", "p4", "p7", "p3", "p1", "p6"]


def test_highest_score_first_and_a_negative_score_ranks_below_zero():
    scores = {"p1": -3, "p2": 0, "p3": 40, "p4": 12, "p5": -9, "p6": 12, "p7": 1}
    assert rank(setup_of(), scores=scores) == ["p3", "p4", "p6", "p7", "p2", "p1", "p5"]


def test_then_the_end_garnets_most_first():
    end = {"p1": 1, "p2": 7, "p3": 0, "p4": 3, "p5": 7, "p6": 2, "p7": 9}
    assert rank(setup_of(), end=end) == ["p7", "p2", "p5", "p4", "p6", "p1", "p3"]


def test_then_the_garnets_at_the_start_most_first():
    start = {"p1": 0, "p2": 4, "p3": 6, "p4": 1, "p5": 0, "p6": 2, "p7": 5}
    assert rank(setup_of(), start=start) == ["p3", "p7", "p2", "p6", "p4", "p1", "p5"]


def test_then_the_older_counts():
    """Ties on marks, score, end and start garnets: p5 [2] above p4 [1] above p3 [0] above the
    players without a count (TM-R25)."""
    setup = setup_of(garnet_history={"p3": [0], "p4": [1], "p5": [2]})
    assert rank(setup) == ["p5", "p4", "p3", "p1", "p2", "p6", "p7"]


def test_then_the_final_priority_list():
    """Everything else equal: the final priority list decides (TM-R34), not the setup order."""
    priority = ["p6", "p2", "p7", "p1", "p5", "p3", "p4"]
    assert rank(setup_of(), priority=priority) == priority


def test_the_keys_apply_in_their_order():
    """A later key never overrides an earlier one: p1 has more garnets but a worse score, p2 a
    better score but a mark more, p3 a better start count but fewer end garnets."""
    marks = {**ZERO, "p2": 1}
    scores = {**ZERO, "p1": -1, "p2": 5}
    end = {**ZERO, "p1": 9, "p3": 0, "p4": 1}
    start = {**ZERO, "p3": 9}
    # Marks 0, score 0: p3, p4, p5, p6, p7 (p4 on end garnets first, then p3 on start);
    # then p1 (score -1), then p2 (a mark).
    assert rank(setup_of(), marks=marks, scores=scores, end=end, start=start) == [
        "p4", "p3", "p5", "p6", "p7", "p1", "p2",
    ]


# 6.10 The Opal challenge


def test_the_most_correct_guesses_wins():
    correct = {**ZERO, "p3": 2, "p5": 1}
    assert opal_challenge_winner(setup_of(), correct, {}) == "p3"


def test_one_correct_guess_is_enough():
    """'which must be at least 1': a lone candidate with exactly one correct guess wins."""
    assert opal_challenge_winner(setup_of(), {**ZERO, "p6": 1}, {}) == "p6"


def test_no_correct_guess_means_nobody_by_default():
    assert opal_challenge_winner(setup_of(), ZERO, {"p1": 0}) is None


def test_without_the_requirement_zero_correct_guesses_can_win():
    """opal_requires_correct_guess = false: all seven tie at 0; the fewest wagers decide, and
    only p4 took none."""
    wagers = {p: 1 for p in PLAYERS if p != "p4"}
    setup = setup_of(opal_requires_correct_guess=False)
    assert opal_challenge_winner(setup, ZERO, wagers) == "p4"


def test_a_tie_goes_to_the_fewest_wagers_taken():
    correct = {**ZERO, "p2": 2, "p5": 2, "p7": 1}
    assert opal_challenge_winner(setup_of(), correct, {"p2": 3, "p5": 1, "p7": 0}) == "p5"


def test_a_player_without_a_wager_count_took_none():
    """p1 and p2 tie on guesses; p1 took one wager, p2 is not listed: p2 took none and wins."""
    correct = {**ZERO, "p1": 1, "p2": 1}
    assert opal_challenge_winner(setup_of(), correct, {"p1": 1}) == "p2"


def test_still_tied_nobody_wins():
    correct = {**ZERO, "p1": 2, "p2": 2}
    assert opal_challenge_winner(setup_of(), correct, {"p1": 1, "p2": 1}) is None


def test_the_only_leader_wins_even_when_listed_second():
    """p2 and p6 tie on guesses; p6 took fewer wagers: p6, not the first candidate."""
    correct = {**ZERO, "p2": 1, "p6": 1}
    assert opal_challenge_winner(setup_of(), correct, {"p2": 2, "p6": 1}) == "p6"
