"""Every error code of the rulebook's section 6 and the order of the checks, row by row.

Rows that break two rules at once show which check comes first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from domain.decider import Command
from domain.errors import RuleViolation
from domain.games import kings_court as kc
from tests.games.kings_court.kc_harness import Match
from tests.games.kings_court.kc_scenes import (
    deadlock_phase,
    dmo_phase,
    ec_vote_phase,
    four_early_ends,
    king_gift_phase,
    not_opened,
    over,
    poor,
    round_one,
    round_one_after_look_peek_check,
    round_two,
    round_two_checked,
    tiebreak_phase,
)

Row = tuple[Callable[[], Match], Any, Any, dict[str, Any], str]

ROWS: list[Row] = [
    # Common checks 1-2, then unknown_action, for players and the host.
    (not_opened, "zed", "vote", {"candidate": "p2"}, "unknown_player"),
    (not_opened, None, "vote", {"candidate": "p2"}, "unknown_player"),
    (not_opened, "zed", "dance", {}, "unknown_player"),
    (not_opened, "p1", "vote", {"candidate": "p2"}, "match_not_started"),
    (not_opened, "p1", "dance", {}, "match_not_started"),
    (round_one, "p1", "dance", {}, "unknown_action"),
    (round_one, "p1", None, {}, "unknown_action"),
    (round_one, "p1", "close_round", {}, "unknown_action"),
    (round_one, "host", "vote", {"candidate": "p2"}, "unknown_player"),
    (round_one, "host", "dance", {}, "unknown_action"),
    (round_one, "host", 7, {}, "unknown_action"),
    (dmo_phase, "p1", "vote", {"candidate": "p2"}, "match_over"),
    (dmo_phase, "p1", "dance", {}, "match_over"),
    (dmo_phase, "p1", "ec_vote", {"candidate": "p8"}, "match_over"),
    (over, "p11", "king_gift", {}, "match_over"),
    (four_early_ends, "p5", "peek", {"target": "p6"}, "match_over"),
    # Common check 3.
    (king_gift_phase, "p3", "vote", {"candidate": "p4"}, "game_over"),
    (king_gift_phase, "p11", "king_learn", {"targets": ["p1", "p2"]}, "game_over"),
    (ec_vote_phase, "p7", "peek", {"target": "p8"}, "game_over"),
    (deadlock_phase, "p7", "annoyed_check", {}, "game_over"),
    (ec_vote_phase, "p11", "tiebreak", {"choice": "p1"}, "game_over"),
    (ec_vote_phase, "p1", "pair_check", {"targets": ["p2", "p3"]}, "game_over"),
    (round_one, "p11", "king_gift", {"duke": "p1", "noble": "p6"}, "wrong_phase"),
    (ec_vote_phase, "p11", "king_gift", {"duke": "p1", "noble": "p6"}, "wrong_phase"),
    (king_gift_phase, "p11", "ec_vote", {"candidate": "p1"}, "wrong_phase"),
    (deadlock_phase, "p1", "ec_vote", {"candidate": "p7"}, "wrong_phase"),
    # vote
    (tiebreak_phase, "p3", "vote", {"candidate": "p4"}, "wrong_phase"),
    (round_two, "p1", "vote", {"candidate": "zed"}, "in_court"),
    (round_one, "p1", "vote", {"candidate": "zed"}, "unknown_target"),
    (round_one, "p1", "vote", {"candidate": 7}, "unknown_target"),
    (round_one, "p1", "vote", {"candidate": ["p2"]}, "unknown_target"),
    (round_one, "p1", "vote", {}, "unknown_target"),
    (round_one, "p1", "vote", {"candidate": "p1"}, "self_vote"),
    (round_two, "p2", "vote", {"candidate": "p1"}, "candidate_in_court"),
    # pair_check
    (tiebreak_phase, "p1", "pair_check", {"targets": None}, "wrong_phase"),
    (round_one, "p1", "pair_check", {"targets": ["p2", "p3"]}, "no_check_right"),
    (round_two, "p2", "pair_check", {"targets": ["p3", "p4"]}, "no_check_right"),
    (round_two_checked, "p1", "pair_check", {"targets": None}, "already_used"),
    (round_two, "p1", "pair_check", {"targets": "p2"}, "invalid_targets"),
    (round_two, "p1", "pair_check", {"targets": ["p2"]}, "invalid_targets"),
    (round_two, "p1", "pair_check", {"targets": ["p2", "p3", "p4"]}, "invalid_targets"),
    (round_two, "p1", "pair_check", {"targets": {"p2": "p3"}}, "invalid_targets"),
    (round_two, "p1", "pair_check", {}, "invalid_targets"),
    (round_two, "p1", "pair_check", {"targets": ["p2", "zed"]}, "unknown_target"),
    (round_two, "p1", "pair_check", {"targets": ["p1", 5]}, "unknown_target"),
    (round_two, "p1", "pair_check", {"targets": ["p1", "p2"]}, "cannot_target_self"),
    (round_two, "p1", "pair_check", {"targets": ["p1", "p1"]}, "cannot_target_self"),
    (round_two, "p1", "pair_check", {"targets": ["p2", "p2"]}, "duplicate_target"),
    # king_learn
    (round_one, "p1", "king_learn", {"targets": "junk"}, "not_king"),
    (round_two, "p1", "king_learn", {"targets": ["p2", "p3"]}, "not_king"),
    (round_two, "p11", "king_learn", {"targets": "junk"}, "too_late"),
    (tiebreak_phase, "p11", "king_learn", {"targets": ["p3", "p4"]}, "too_late"),
    (round_one_after_look_peek_check, "p11", "king_learn", {"targets": "junk"}, "already_used"),
    (round_one, "p11", "king_learn", {"targets": ("p1",)}, "invalid_targets"),
    (round_one, "p11", "king_learn", {"targets": ["p1", None]}, "unknown_target"),
    (round_one, "p11", "king_learn", {"targets": ["p11", "p1"]}, "cannot_target_self"),
    (round_one, "p11", "king_learn", {"targets": ["p1", "p1"]}, "duplicate_target"),
    # tiebreak
    (round_one, "p11", "tiebreak", {"choice": "p1"}, "wrong_phase"),
    (tiebreak_phase, "p1", "tiebreak", {"choice": "p11"}, "not_king"),
    (tiebreak_phase, "p11", "tiebreak", {"choice": "p11"}, "king_cannot_elect_self"),
    (tiebreak_phase, "p11", "tiebreak", {"choice": "p3"}, "not_tied"),
    (tiebreak_phase, "p11", "tiebreak", {"choice": None}, "not_tied"),
    (tiebreak_phase, "p11", "tiebreak", {"choice": ["p1"]}, "not_tied"),
    # peek
    (round_one, "p1", "peek", {"target": "zed"}, "unknown_target"),
    (round_one, "p1", "peek", {}, "unknown_target"),
    (round_one, "p1", "peek", {"target": "p1"}, "cannot_target_self"),
    (round_one_after_look_peek_check, "p1", "peek", {"target": "p2"}, "already_peeked"),
    (poor, "p1", "peek", {"target": "p2"}, "already_peeked"),
    (poor, "p1", "peek", {"target": "p3"}, "insufficient_garnets"),
    # annoyed_check
    (poor, "p11", "annoyed_check", {}, "king_cannot_be_annoyed"),
    (round_one_after_look_peek_check, "p1", "annoyed_check", {}, "already_used"),
    (poor, "p2", "annoyed_check", {}, "insufficient_garnets"),
    # king_gift
    (king_gift_phase, "p1", "king_gift", {"duke": "p1", "noble": "p6"}, "not_king"),
    (king_gift_phase, "p11", "king_gift", {"duke": "p6", "noble": "p7"}, "invalid_gift"),
    (king_gift_phase, "p11", "king_gift", {"duke": "p1", "noble": "p2"}, "invalid_gift"),
    (king_gift_phase, "p11", "king_gift", {"duke": "p11", "noble": "p6"}, "invalid_gift"),
    (king_gift_phase, "p11", "king_gift", {"duke": 1, "noble": "p6"}, "invalid_gift"),
    (king_gift_phase, "p11", "king_gift", {}, "invalid_gift"),
    # ec_vote
    (ec_vote_phase, "p6", "ec_vote", {"candidate": "junk"}, "not_in_winning_party"),
    (ec_vote_phase, "p11", "ec_vote", {"candidate": "p7"}, "not_in_winning_party"),
    (ec_vote_phase, "p1", "ec_vote", {"candidate": "p6"}, "not_ec_candidate"),
    (ec_vote_phase, "p1", "ec_vote", {"candidate": "p2"}, "not_ec_candidate"),
    (ec_vote_phase, "p1", "ec_vote", {"candidate": None}, "not_ec_candidate"),
    # Host commands: each is open in one phase only.
    (not_opened, "host", "close_round", {}, "wrong_state"),
    (round_one, "host", "open_match", {}, "wrong_state"),
    (round_one, "host", "close_tiebreak", {}, "wrong_state"),
    (tiebreak_phase, "host", "close_round", {}, "wrong_state"),
    (round_one, "host", "close_king_gift", {}, "wrong_state"),
    (round_one, "host", "close_ec_vote", {}, "wrong_state"),
    (king_gift_phase, "host", "close_ec_vote", {}, "wrong_state"),
    (ec_vote_phase, "host", "record_deadlock_result", {"ec": "p7"}, "wrong_state"),
    (ec_vote_phase, "host", "record_dmo", {"dmo": "p1"}, "wrong_state"),
    (deadlock_phase, "host", "record_deadlock_result", {"ec": "p6"}, "invalid_deadlock_result"),
    (deadlock_phase, "host", "record_deadlock_result", {"ec": "p1"}, "invalid_deadlock_result"),
    (deadlock_phase, "host", "record_deadlock_result", {}, "invalid_deadlock_result"),
    (deadlock_phase, "host", "record_dmo", {"dmo": "p1"}, "wrong_state"),
    (dmo_phase, "host", "record_dmo", {"dmo": "zed"}, "invalid_dmo"),
    (dmo_phase, "host", "record_dmo", {"dmo": "p7"}, "invalid_dmo"),
    (dmo_phase, "host", "record_dmo", {"dmo": None}, "invalid_dmo"),
    (over, "host", "record_dmo", {"dmo": "p1"}, "wrong_state"),
    (four_early_ends, "host", "record_dmo", {"dmo": "p1"}, "wrong_state"),
    (four_early_ends, "host", "close_round", {}, "wrong_state"),
]


def row_id(row: Row) -> str:
    scenario, actor, name, _, code = row
    return f"{scenario.__name__}-{actor}-{name}-{code}"


@pytest.mark.parametrize("row", ROWS, ids=[row_id(row) for row in ROWS])
def test_rejections(row: Row):
    scenario, actor, name, args, code = row
    assert scenario().reject(actor, name, **args) == code


def test_garbage_args_and_balances_are_rejections_not_crashes():
    match = round_two()
    for args in (None, [], "x", 5):
        for garnets in (None, {"p1": "many"}, {"p1": True}, []):
            for name in ("vote", "pair_check", "peek", "annoyed_check", "king_learn"):
                with pytest.raises(RuleViolation):
                    kc.decide(match.state, Command(name, "p1", args, garnets))
