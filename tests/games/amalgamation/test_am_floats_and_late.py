"""A float where the rules want an integer, a huge integer, and any command after the end.

The rules see a command before the log's own checks, so a float (even 2.0, also 1e300) gets
the rulebook's own code in its place of the check order: `not_an_integer` (check 7) for every
amount, bid, round number, garnet count and rate; the check for a wrong shape or a player
(`invalid_order`, `invalid_teams`, `invalid_ec_choice`) where the argument is not a number
at all. After the end every window is closed: `submit_round` after round 7 and `choose_ec`
with no EC window are `phase_closed` (check 3), an unknown command is `malformed_command`
(check 2), the host sending a player's command is `unknown_player` (check 1).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from commands.cli.matchfile import MatchFile, load, play
from commands.service.arbiter import Arbiter
from domain.errors import RuleViolation
from tests.games.amalgamation.harness import PLAYERS, Match, round_args
from tests.support.host_key import SIGNER

SEEDS = Path(__file__).resolve().parents[3] / "seeds"
FLOATS = (2.0, 0.5, -1.5, 1e300, -0.0)
BIG = 2**53  # one past the largest integer the log holds
HUGE = 10**400


def pregame() -> Match:
    """MM winner p2, DM winner p3."""
    return Match(close_pregame=False, mm_winner="p2", dm_winner="p3")


def round_one() -> Match:
    """Rate 13 (no submissions); p1 holds 2 garnets; $400 each; tiles -1 ... -5."""
    return Match(garnets={"p1": 2})


def with_field(match: Match, field: str, value: Any) -> dict[str, Any]:
    args = round_args(match)
    args[field] = value
    return args


def with_bid(match: Match, tile: int, value: Any) -> dict[str, Any]:
    args = round_args(match)
    args["ma_bids"][str(tile)] = value
    return args


ROUND_INTEGERS = (
    "round",
    "kd_contribution",
    "invest",
    "donate",
    "ct_bet",
    "garnets_to_exchange",
)


@pytest.mark.parametrize("value", FLOATS)
@pytest.mark.parametrize("field", ROUND_INTEGERS)
def test_a_float_in_a_round_submission_is_not_an_integer(field, value):
    match = round_one()
    assert match.reject("p1", "submit_round", **with_field(match, field, value)) == (
        "not_an_integer"
    )


@pytest.mark.parametrize("value", FLOATS)
@pytest.mark.parametrize("tile", [-1, -2, -3, -4, -5])
def test_a_float_bid_on_any_tile_is_not_an_integer(tile, value):
    match = round_one()
    assert match.reject("p1", "submit_round", **with_bid(match, tile, value)) == "not_an_integer"


@pytest.mark.parametrize("value", FLOATS)
def test_a_float_rate_is_not_an_integer(value):
    assert pregame().reject("p1", "submit_garnet_rate", rate=value) == "not_an_integer"


Build = Callable[[Match], dict[str, Any]]

# Check order with floats (rulebook 4.6): a float is check 7, so checks 1-6 come first and
# checks 8-14 after it.
ORDER_ROWS: list[tuple[str, Callable[[], Match], str, str, Build, str]] = [
    (
        "3 before 7: a float round in the pre-game",
        pregame,
        "p1",
        "submit_round",
        lambda m: {"round": 1.0},
        "phase_closed",
    ),
    (
        "3 before 7: a float rate in a round",
        round_one,
        "p1",
        "submit_garnet_rate",
        lambda m: {"rate": 12.0},
        "phase_closed",
    ),
    (
        "1 before 7: the host's float round",
        round_one,
        "host",
        "submit_round",
        lambda m: with_field(m, "round", 1.0),
        "unknown_player",
    ),
    (
        "5 before 7: a float and a missing field",
        round_one,
        "p1",
        "submit_round",
        lambda m: {k: v for k, v in with_field(m, "invest", 2.0).items() if k != "donate"},
        "missing_field",
    ),
    (
        "6 before 7: a float and bids as a list",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_field(m, "ma_bids", [0.0] * 5),
        "malformed_command",
    ),
    (
        "7 before 8: a float amount in the wrong round",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_field(m, "ct_bet", 2.0) | {"round": 2},
        "not_an_integer",
    ),
    (
        "7 before 9: a negative float",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_field(m, "donate", -1.5),
        "not_an_integer",
    ),
    (
        "7 before 10: a float bet and no such role",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_field(m, "ct_bet", 1.0) | {"ct_role": "thief"},
        "not_an_integer",
    ),
    (
        "7 before 11: a float bid on a tile of round 2",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_bid(m, -6, 0.5),
        "not_an_integer",
    ),
    (
        "7 before 12: a float bid and a tile without a bid",
        round_one,
        "p1",
        "submit_round",
        lambda m: {**with_bid(m, -1, 2.0), "ma_bids": {"-1": 2.0}},
        "not_an_integer",
    ),
    (
        "7 before 13: a float exchange beyond the garnets held",
        round_one,
        "p2",
        "submit_round",
        lambda m: with_field(m, "garnets_to_exchange", 5.0),
        "not_an_integer",
    ),
    (
        "7 before 14: a float contribution beyond the balance",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_field(m, "kd_contribution", 1e300),
        "not_an_integer",
    ),
    (
        "7 before the range: a float rate out of range",
        pregame,
        "p1",
        "submit_garnet_rate",
        lambda m: {"rate": 30.0},
        "not_an_integer",
    ),
    # Lists of players and a player: no integer in the rules, so their own codes.
    (
        "an order of floats",
        pregame,
        "p2",
        "submit_ma_order",
        lambda m: {"order": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]},
        "invalid_order",
    ),
    (
        "an order with a float",
        pregame,
        "p2",
        "submit_ma_order",
        lambda m: {"order": [*PLAYERS[:5], 6.0]},
        "invalid_order",
    ),
    (
        "a team with a float",
        pregame,
        "p3",
        "submit_teams",
        lambda m: {"red": ["p1", "p2", 3.0], "white": ["p4", "p5", "p6"]},
        "invalid_teams",
    ),
    (
        "an order as a float",
        pregame,
        "p2",
        "submit_ma_order",
        lambda m: {"order": 1.0},
        "malformed_command",
    ),
]

# Integers beyond what the log holds still meet the rules' own checks first.
BIG_ROWS: list[tuple[str, Callable[[], Match], str, str, Build, str]] = [
    (
        "round 2^53",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_field(m, "round", BIG),
        "wrong_round",
    ),
    (
        "round -10^400",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_field(m, "round", -HUGE),
        "wrong_round",
    ),
    (
        "contribution 2^53",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_field(m, "kd_contribution", BIG),
        "insufficient_funds",
    ),
    (
        "contribution -2^53",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_field(m, "kd_contribution", -BIG),
        "negative_amount",
    ),
    (
        "invest 10^400",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_field(m, "invest", HUGE),
        "insufficient_funds",
    ),
    (
        "donate 2^53",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_field(m, "donate", BIG),
        "insufficient_funds",
    ),
    (
        "bet 10^400",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_field(m, "ct_bet", HUGE),
        "insufficient_funds",
    ),
    (
        "a bid of 2^53",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_bid(m, -3, BIG),
        "insufficient_funds",
    ),
    (
        "a bid of -10^400 costs its absolute value",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_bid(m, -5, -HUGE),
        "insufficient_funds",
    ),
    (
        "exchange 2^53 garnets",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_field(m, "garnets_to_exchange", BIG),
        "insufficient_garnets",
    ),
    (
        "exchange -10^400 garnets",
        round_one,
        "p1",
        "submit_round",
        lambda m: with_field(m, "garnets_to_exchange", -HUGE),
        "negative_amount",
    ),
    (
        "rate 2^53",
        pregame,
        "p1",
        "submit_garnet_rate",
        lambda m: {"rate": BIG},
        "rate_out_of_range",
    ),
    (
        "rate -10^400",
        pregame,
        "p1",
        "submit_garnet_rate",
        lambda m: {"rate": -HUGE},
        "rate_out_of_range",
    ),
]


@pytest.mark.parametrize(
    ("state", "actor", "name", "args", "code"),
    [row[1:] for row in ORDER_ROWS + BIG_ROWS],
    ids=[row[0] for row in ORDER_ROWS + BIG_ROWS],
)
def test_the_first_failing_check_is_reported_for_odd_numbers(state, actor, name, args, code):
    match = state()
    assert match.reject(actor, name, **args(match)) == code


@pytest.mark.parametrize("value", [2.0, 1e300, BIG])
def test_a_number_as_the_ec_candidate_is_not_a_tied_player(value):
    from tests.games.amalgamation.scenarios import tied_bottom_match

    match = tied_bottom_match()  # p1 alone wins, p5 and p6 tie for fewest
    assert match.reject("p1", "choose_ec", candidate=value) == "invalid_ec_choice"


# Through the real match aggregate, on an SQLite store.


def seed(name: str) -> MatchFile:
    return load(SEEDS / f"amalgamation-{name}.json")


def played(app: Arbiter, file: MatchFile, steps: int | None = None) -> str:
    """The seed match played (its first `steps` commands only, if given)."""
    if steps is not None:
        file = file.model_copy(update={"commands": file.commands[:steps], "expect": None})
    _, mismatches = play(app, file)
    assert mismatches == []
    return file.match


def refused(app: Arbiter, match_id: str, actor: str, name: str, args: dict[str, Any]) -> str:
    """The code; the log is exactly as it was."""
    before = [r["entry"]["hash"] for r in app.match(match_id).records]
    with pytest.raises(RuleViolation) as caught:
        app.submit(match_id, actor, name, args)
    assert [r["entry"]["hash"] for r in app.match(match_id).records] == before
    return caught.value.code


def round_one_steps(file: MatchFile) -> int:
    """The commands up to the pre-game close: round 1 is then open."""
    return next(i for i, step in enumerate(file.commands) if step.do == "close_pregame") + 1


def test_floats_are_refused_with_the_rules_code_through_the_match(sqlite_url):
    app = Arbiter(sqlite_url, signer=SIGNER)
    file = seed("winner-chooses-ec")  # round 1 auctions -1 ... -5
    match_id = played(app, file, round_one_steps(file))
    bids = {str(-t): 0 for t in range(1, 6)}
    good = {
        "round": 1,
        "kd_contribution": 0,
        "ma_bids": bids,
        "invest": 0,
        "donate": 0,
        "ct_role": "police",
        "ct_bet": 0,
    }
    for field in ROUND_INTEGERS:
        for value in (2.0, 1e300):
            assert refused(app, match_id, "alice", "submit_round", good | {field: value}) == (
                "not_an_integer"
            ), field
    for tile in bids:
        spoilt = good | {"ma_bids": bids | {tile: 1.0}}
        assert refused(app, match_id, "alice", "submit_round", spoilt) == "not_an_integer"
    assert refused(app, match_id, "alice", "submit_round", good | {"invest": BIG}) == (
        "insufficient_funds"
    )
    assert refused(app, match_id, "alice", "submit_garnet_rate", {"rate": 12.0}) == ("phase_closed")
    assert refused(app, match_id, "alice", "choose_ec", {"candidate": 1.0}) == "phase_closed"


def test_a_float_rate_is_not_an_integer_through_the_match(sqlite_url):
    app = Arbiter(sqlite_url, signer=SIGNER)
    file = seed("winner-chooses-ec")
    match_id = played(app, file, 1)  # opened: the pre-game window
    assert refused(app, match_id, "alice", "submit_garnet_rate", {"rate": 10.0}) == (
        "not_an_integer"
    )
    assert refused(app, match_id, "alice", "submit_garnet_rate", {"rate": 1e300}) == (
        "not_an_integer"
    )


def late_commands(file: MatchFile) -> list[tuple[str, str, dict[str, Any], str]]:
    """Every command of the game, from players and the host, after the end: actor, name,
    args, the rules' code."""
    p = file.players
    mm = file.setup.get("mm_winner") or p[0]
    dm = file.setup.get("dm_winner") or p[1]
    ended = {
        "round": 8,
        "kd_contribution": 0,
        "ma_bids": {},
        "invest": 0,
        "donate": 0,
        "ct_role": "police",
        "ct_bet": 0,
    }
    expect = file.expect
    assert expect is not None
    winner, candidate = expect.details["winners"][0], expect.details["ec_candidates"][0]
    return [
        (p[0], "submit_round", ended, "phase_closed"),
        (p[0], "submit_round", ended | {"round": 7}, "phase_closed"),
        (p[0], "submit_round", ended | {"kd_contribution": 2.0}, "phase_closed"),
        (p[0], "submit_round", {}, "phase_closed"),
        (winner, "choose_ec", {"candidate": candidate}, "phase_closed"),
        (p[2], "choose_ec", {"candidate": candidate}, "phase_closed"),
        (winner, "choose_ec", {}, "phase_closed"),
        (p[3], "submit_garnet_rate", {"rate": 10}, "phase_closed"),
        (p[3], "submit_garnet_rate", {"rate": 10.0}, "phase_closed"),
        (mm, "submit_ma_order", {"order": p}, "phase_closed"),
        (dm, "submit_teams", {"red": p[:3], "white": p[3:]}, "phase_closed"),
        (p[4], "close_round", {}, "phase_closed"),
        (p[4], "close_ec_decision", {}, "phase_closed"),
        (p[5], "dance", {}, "malformed_command"),
        ("host", "close_pregame", {}, "phase_closed"),
        ("host", "close_round", {}, "phase_closed"),
        ("host", "close_ec_decision", {}, "phase_closed"),
        ("host", "submit_round", ended, "unknown_player"),
        ("host", "choose_ec", {"candidate": candidate}, "unknown_player"),
        ("host", "dance", {}, "malformed_command"),
        ("zed", "submit_round", ended, "unknown_player"),
    ]


@pytest.mark.parametrize("name", ["joint-winners-disagree", "winner-chooses-ec"])
def test_every_command_after_the_end_gets_the_rules_code(sqlite_url, name):
    app = Arbiter(sqlite_url, signer=SIGNER)
    file = seed(name)
    match_id = played(app, file)
    assert app.match(match_id).ended
    for actor, command, args, code in late_commands(file):
        assert refused(app, match_id, actor, command, args) == code, (actor, command)
