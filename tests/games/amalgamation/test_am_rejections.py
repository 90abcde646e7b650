"""Every error code of rulebook 4.6, and the order of the checks: state, command -> code.

Rows that break two rules at once show which check comes first. Every rejection leaves the
state and the log exactly as they were (Match.reject checks it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from domain.games.amalgamation.setup import PLAYER_COUNT
from tests.games.amalgamation.harness import PLAYERS, Match, round_args
from tests.games.amalgamation.scenarios import tied_bottom_match

Args = Callable[[Match], dict[str, Any]]


def pregame() -> Match:
    """MM winner p2, DM winner p3."""
    return Match(close_pregame=False, mm_winner="p2", dm_winner="p3")


def pregame_without_twists() -> Match:
    return Match(close_pregame=False)


def round_one() -> Match:
    """Rate 13 (no submissions); p1 holds 2 garnets, everyone else none; $400 each."""
    return Match(garnets={"p1": 2})


def ec_window() -> Match:
    """p1 won alone; p5 and p6 tie for fewest."""
    return tied_bottom_match()


def valid(**changes: Any) -> Args:
    """A valid round-1 submission with `changes` applied; a change to `...` drops the field."""

    def build(match: Match) -> dict[str, Any]:
        args = round_args(match)
        for field, value in changes.items():
            if value is ...:
                args.pop(field, None)
            else:
                args[field] = value
        return args

    return build


def bids(*values: Any, **extra: Any) -> dict[str, Any]:
    """Round 1's bids on -1 ... -5 in order, plus `extra` keys (`m6` stands for "-6")."""
    given = {str(-(i + 1)): value for i, value in enumerate(values)}
    return given | {key.replace("m", "-"): value for key, value in extra.items()}


def fixed(**args: Any) -> Args:
    return lambda match: args


TEAMS_OK = {"red": ["p1", "p2", "p3"], "white": ["p4", "p5", "p6"]}

ROWS: list[tuple[str, Callable[[], Match], str, str, Args, str]] = [
    # 1 unknown_player
    ("stranger", round_one, "zed", "submit_round", valid(), "unknown_player"),
    ("host plays", round_one, "host", "submit_round", valid(), "unknown_player"),
    ("stranger, unknown command", round_one, "zed", "dance", fixed(), "unknown_player"),
    (
        "host chooses the EC",
        ec_window,
        "host",
        "choose_ec",
        fixed(candidate="p5"),
        "unknown_player",
    ),
    # 2 malformed_command: unknown command type
    ("unknown command", round_one, "p1", "dance", fixed(), "malformed_command"),
    ("host, unknown command", round_one, "host", "dance", fixed(), "malformed_command"),
    ("unknown command in pre-game", pregame, "p2", "submit_order", fixed(), "malformed_command"),
    # 3 phase_closed
    ("round in pre-game", pregame, "p1", "submit_round", fixed(round=1), "phase_closed"),
    ("rate in a round", round_one, "p1", "submit_garnet_rate", fixed(rate=10), "phase_closed"),
    ("rate after round 7", ec_window, "p1", "submit_garnet_rate", fixed(rate=10), "phase_closed"),
    ("round after round 7", ec_window, "p1", "submit_round", fixed(), "phase_closed"),
    ("EC with no window", round_one, "p1", "choose_ec", fixed(candidate="p5"), "phase_closed"),
    ("close_round in pre-game", pregame, "host", "close_round", fixed(), "phase_closed"),
    ("close_pregame twice", round_one, "host", "close_pregame", fixed(), "phase_closed"),
    ("open_match twice", round_one, "host", "open_match", fixed(), "phase_closed"),
    ("close EC, no window", round_one, "host", "close_ec_decision", fixed(), "phase_closed"),
    ("3 before 4: teams in a round", round_one, "p1", "submit_teams", fixed(), "phase_closed"),
    # 4 not_authorized
    (
        "order, not the MM winner",
        pregame,
        "p1",
        "submit_ma_order",
        fixed(order=PLAYERS),
        "not_authorized",
    ),
    (
        "teams, not the DM winner",
        pregame,
        "p2",
        "submit_teams",
        fixed(**TEAMS_OK),
        "not_authorized",
    ),
    (
        "order with no MM winner",
        pregame_without_twists,
        "p2",
        "submit_ma_order",
        fixed(order=PLAYERS),
        "not_authorized",
    ),
    (
        "teams with no DM winner",
        pregame_without_twists,
        "p3",
        "submit_teams",
        fixed(**TEAMS_OK),
        "not_authorized",
    ),
    ("4 before 5: no order at all", pregame, "p1", "submit_ma_order", fixed(), "not_authorized"),
    ("EC, not a winner", ec_window, "p2", "choose_ec", fixed(candidate="p5"), "not_authorized"),
    ("EC, a candidate", ec_window, "p5", "choose_ec", fixed(candidate="p6"), "not_authorized"),
    ("a player closes the round", round_one, "p1", "close_round", fixed(), "not_authorized"),
    ("a player closes the pre-game", pregame, "p1", "close_pregame", fixed(), "not_authorized"),
    ("a player closes the EC", ec_window, "p1", "close_ec_decision", fixed(), "not_authorized"),
    # 5 missing_field
    ("no round", round_one, "p1", "submit_round", valid(round=...), "missing_field"),
    (
        "no contribution",
        round_one,
        "p1",
        "submit_round",
        valid(kd_contribution=...),
        "missing_field",
    ),
    ("no bids", round_one, "p1", "submit_round", valid(ma_bids=...), "missing_field"),
    ("no invest", round_one, "p1", "submit_round", valid(invest=...), "missing_field"),
    ("no donate", round_one, "p1", "submit_round", valid(donate=...), "missing_field"),
    ("no role", round_one, "p1", "submit_round", valid(ct_role=...), "missing_field"),
    ("no bet", round_one, "p1", "submit_round", valid(ct_bet=...), "missing_field"),
    ("null counts as absent", round_one, "p1", "submit_round", valid(ct_bet=None), "missing_field"),
    (
        "5 before 6 and 7",
        round_one,
        "p1",
        "submit_round",
        valid(ma_bids=[1], kd_contribution=2.0, invest=...),
        "missing_field",
    ),
    ("no rate", pregame, "p1", "submit_garnet_rate", fixed(), "missing_field"),
    ("null rate", pregame, "p1", "submit_garnet_rate", fixed(rate=None), "missing_field"),
    ("no order", pregame, "p2", "submit_ma_order", fixed(order=None), "missing_field"),
    (
        "no white team",
        pregame,
        "p3",
        "submit_teams",
        fixed(red=["p1", "p2", "p3"]),
        "missing_field",
    ),
    ("no candidate", ec_window, "p1", "choose_ec", fixed(), "missing_field"),
    # 6 malformed_command: wrong shape
    (
        "bids as a list",
        round_one,
        "p1",
        "submit_round",
        valid(ma_bids=[0, 0, 0, 0, 0]),
        "malformed_command",
    ),
    (
        "6 before 7",
        round_one,
        "p1",
        "submit_round",
        valid(ma_bids="0", kd_contribution=2.0),
        "malformed_command",
    ),
    (
        "order as a text",
        pregame,
        "p2",
        "submit_ma_order",
        fixed(order="p1,p2,p3,p4,p5,p6"),
        "malformed_command",
    ),
    (
        "teams as texts",
        pregame,
        "p3",
        "submit_teams",
        fixed(red="p1 p2 p3", white="p4 p5 p6"),
        "malformed_command",
    ),
    # 7 not_an_integer
    (
        "contribution 2.0",
        round_one,
        "p1",
        "submit_round",
        valid(kd_contribution=2.0),
        "not_an_integer",
    ),
    (
        "contribution as text",
        round_one,
        "p1",
        "submit_round",
        valid(kd_contribution="10"),
        "not_an_integer",
    ),
    (
        "contribution true",
        round_one,
        "p1",
        "submit_round",
        valid(kd_contribution=True),
        "not_an_integer",
    ),
    ("round as text", round_one, "p1", "submit_round", valid(round="1"), "not_an_integer"),
    (
        "a bid of 2.0",
        round_one,
        "p1",
        "submit_round",
        valid(ma_bids=bids(0, 0, 2.0, 0, 0)),
        "not_an_integer",
    ),
    (
        "a bid as text",
        round_one,
        "p1",
        "submit_round",
        valid(ma_bids=bids(0, "-3", 0, 0, 0)),
        "not_an_integer",
    ),
    ("bet 1.5", round_one, "p1", "submit_round", valid(ct_bet=1.5), "not_an_integer"),
    ("invest false", round_one, "p1", "submit_round", valid(invest=False), "not_an_integer"),
    (
        "garnets as text",
        round_one,
        "p1",
        "submit_round",
        valid(garnets_to_exchange="1"),
        "not_an_integer",
    ),
    ("7 before 8", round_one, "p1", "submit_round", valid(round=2, donate=0.5), "not_an_integer"),
    ("rate 12.0", pregame, "p1", "submit_garnet_rate", fixed(rate=12.0), "not_an_integer"),
    ("7 before range", pregame, "p1", "submit_garnet_rate", fixed(rate="30"), "not_an_integer"),
    # 8 wrong_round
    ("round 2 in round 1", round_one, "p1", "submit_round", valid(round=2), "wrong_round"),
    ("round 0", round_one, "p1", "submit_round", valid(round=0), "wrong_round"),
    (
        "8 before 9",
        round_one,
        "p1",
        "submit_round",
        valid(round=7, kd_contribution=-1),
        "wrong_round",
    ),
    # 9 negative_amount
    (
        "contribution -1",
        round_one,
        "p1",
        "submit_round",
        valid(kd_contribution=-1),
        "negative_amount",
    ),
    ("invest -1", round_one, "p1", "submit_round", valid(invest=-1), "negative_amount"),
    ("donate -1", round_one, "p1", "submit_round", valid(donate=-1), "negative_amount"),
    ("bet -1", round_one, "p1", "submit_round", valid(ct_bet=-1), "negative_amount"),
    (
        "garnets -1",
        round_one,
        "p1",
        "submit_round",
        valid(garnets_to_exchange=-1),
        "negative_amount",
    ),
    (
        "9 before 10",
        round_one,
        "p1",
        "submit_round",
        valid(ct_bet=-5, ct_role="thief"),
        "negative_amount",
    ),
    # 10 invalid_role
    ("role thief", round_one, "p1", "submit_round", valid(ct_role="thief"), "invalid_role"),
    ("role Mafia", round_one, "p1", "submit_round", valid(ct_role="Mafia"), "invalid_role"),
    ("role as a number", round_one, "p1", "submit_round", valid(ct_role=3), "invalid_role"),
    (
        "10 before 11",
        round_one,
        "p1",
        "submit_round",
        valid(ct_role=["mafia"], ma_bids=bids(0, 0, 0, 0, 0, m6=0)),
        "invalid_role",
    ),
    # 11 ma_unknown_tile
    (
        "a tile of round 2",
        round_one,
        "p1",
        "submit_round",
        valid(ma_bids=bids(0, 0, 0, 0, 0, m6=0)),
        "ma_unknown_tile",
    ),
    (
        "a tile written -01",
        round_one,
        "p1",
        "submit_round",
        valid(ma_bids=bids(0, 0, 0, 0, 0, m01=0)),
        "ma_unknown_tile",
    ),
    (
        "a positive tile",
        round_one,
        "p1",
        "submit_round",
        valid(ma_bids=bids(0, 0, 0, 0, 0) | {"1": 0}),
        "ma_unknown_tile",
    ),
    (
        "11 before 12",
        round_one,
        "p1",
        "submit_round",
        valid(ma_bids=bids(0, 0, 0, 0, m9=0)),
        "ma_unknown_tile",
    ),
    # 12 ma_bid_missing
    (
        "four bids",
        round_one,
        "p1",
        "submit_round",
        valid(ma_bids=bids(0, 0, 0, 0)),
        "ma_bid_missing",
    ),
    (
        "a null bid",
        round_one,
        "p1",
        "submit_round",
        valid(ma_bids=bids(0, 0, None, 0, 0)),
        "ma_bid_missing",
    ),
    (
        "12 before 13",
        round_one,
        "p2",
        "submit_round",
        valid(ma_bids=bids(0, 0, 0, 0), garnets_to_exchange=1),
        "ma_bid_missing",
    ),
    # 13 insufficient_garnets
    (
        "no garnets held",
        round_one,
        "p2",
        "submit_round",
        valid(garnets_to_exchange=1),
        "insufficient_garnets",
    ),
    (
        "more than held",
        round_one,
        "p1",
        "submit_round",
        valid(garnets_to_exchange=3),
        "insufficient_garnets",
    ),
    (
        "13 before 14",
        round_one,
        "p2",
        "submit_round",
        valid(garnets_to_exchange=1, kd_contribution=1000),
        "insufficient_garnets",
    ),
    # 14 insufficient_funds
    ("$401", round_one, "p1", "submit_round", valid(kd_contribution=401), "insufficient_funds"),
    (
        "five bids of -100 cost $500",
        round_one,
        "p1",
        "submit_round",
        valid(ma_bids=bids(-100, -100, -100, -100, -100)),
        "insufficient_funds",
    ),
    (
        "$400 across the games and $1 more",
        round_one,
        "p1",
        "submit_round",
        valid(kd_contribution=100, ma_bids=bids(50, -50, 0, 0, 0), invest=100, donate=99, ct_bet=2),
        "insufficient_funds",
    ),
    (
        "2 garnets buy $26, not $27",
        round_one,
        "p1",
        "submit_round",
        valid(kd_contribution=427, garnets_to_exchange=2),
        "insufficient_funds",
    ),
    # the twists' own codes
    ("rate 4", pregame, "p1", "submit_garnet_rate", fixed(rate=4), "rate_out_of_range"),
    ("rate 21", pregame, "p1", "submit_garnet_rate", fixed(rate=21), "rate_out_of_range"),
    ("rate -5", pregame, "p1", "submit_garnet_rate", fixed(rate=-5), "rate_out_of_range"),
    ("five players", pregame, "p2", "submit_ma_order", fixed(order=PLAYERS[:5]), "invalid_order"),
    (
        "a player twice",
        pregame,
        "p2",
        "submit_ma_order",
        fixed(order=[*PLAYERS[:5], "p1"]),
        "invalid_order",
    ),
    (
        "a stranger",
        pregame,
        "p2",
        "submit_ma_order",
        fixed(order=[*PLAYERS[:5], "zed"]),
        "invalid_order",
    ),
    (
        "numbers",
        pregame,
        "p2",
        "submit_ma_order",
        fixed(order=list(range(PLAYER_COUNT))),
        "invalid_order",
    ),
    ("nested lists", pregame, "p2", "submit_ma_order", fixed(order=[PLAYERS] * 6), "invalid_order"),
    (
        "two against four",
        pregame,
        "p3",
        "submit_teams",
        fixed(red=["p1", "p2"], white=["p3", "p4", "p5", "p6"]),
        "invalid_teams",
    ),
    (
        "a player on both",
        pregame,
        "p3",
        "submit_teams",
        fixed(red=["p1", "p2", "p3"], white=["p3", "p4", "p5"]),
        "invalid_teams",
    ),
    (
        "a stranger on a team",
        pregame,
        "p3",
        "submit_teams",
        fixed(red=["p1", "p2", "p3"], white=["p4", "p5", "zed"]),
        "invalid_teams",
    ),
    ("the winner", ec_window, "p1", "choose_ec", fixed(candidate="p1"), "invalid_ec_choice"),
    (
        "not tied for fewest",
        ec_window,
        "p1",
        "choose_ec",
        fixed(candidate="p4"),
        "invalid_ec_choice",
    ),
    ("a stranger as EC", ec_window, "p1", "choose_ec", fixed(candidate="zed"), "invalid_ec_choice"),
    ("a list as EC", ec_window, "p1", "choose_ec", fixed(candidate=["p5"]), "invalid_ec_choice"),
]


@pytest.mark.parametrize(
    ("state", "actor", "name", "args", "code"),
    [row[1:] for row in ROWS],
    ids=[row[0] for row in ROWS],
)
def test_the_first_failing_check_is_reported(state, actor, name, args, code):
    match = state()
    assert match.reject(actor, name, **args(match)) == code


def test_every_code_of_the_rulings_is_in_the_table():
    codes = {row[-1] for row in ROWS}
    assert codes == {
        "unknown_player",
        "malformed_command",
        "phase_closed",
        "not_authorized",
        "missing_field",
        "not_an_integer",
        "wrong_round",
        "negative_amount",
        "invalid_role",
        "ma_unknown_tile",
        "ma_bid_missing",
        "insufficient_garnets",
        "insufficient_funds",
        "rate_out_of_range",
        "invalid_order",
        "invalid_teams",
        "invalid_ec_choice",
    }


# The boundaries of the money checks are accepted.


def test_exactly_the_balance_can_be_spent():
    match = round_one()
    match.do("p1", "submit_round", **valid(ma_bids=bids(-100, 100, -100, 50, 0), invest=50)(match))


def test_exchanged_garnets_pay_for_this_round():
    match = round_one()
    match.do("p1", "submit_round", **valid(kd_contribution=426, garnets_to_exchange=2)(match))


def test_a_rejected_submission_leaves_the_earlier_one_in_force():
    match = round_one()
    match.submit("p1", kd=7)
    match.reject("p1", "submit_round", **valid(kd_contribution=-1)(match))
    assert match.state.submissions["p1"].kd_contribution == 7
