"""Through the real match log (an Arbiter on a throwaway SQLite store): a float or an integer
the log cannot hold gets the rules' own code for that place, and every command sent after the
week-8 deadline gets `match_over` (docs/games/merchants_guild.md, "After the end"). A refused
command records nothing and moves no garnet.

Expected codes are read off the rulebook's check order: the common checks (`unknown_player`,
`match_not_started`, `match_over`), then the command's own, first failing check decides.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from domain.errors import RuleViolation
from tests.games.merchants_guild.mg_harness import ALIGNMENTS, PAIRS, PLAYERS, catalog
from tests.support.host_key import SIGNER

SEEDS = Path(__file__).resolve().parents[3] / "seeds"
RUBY_RISES = SEEDS / "merchants_guild-ruby-rises.json"
SALT_KEY = "0f" * 32
HOST_SEED = "a-host-seed-long-enough-to-be-strong-0123456789"
BIG = 2**53  # one past the largest integer the log holds
HUGE = 10**300
RGB = ["red", "green", "blue"]
# The rulebook's command table: the players' seven and the host's two.
RULES_COMMANDS = {"vote", "nominate", "paid_push", "reveal_partner", "investigate",
                  "extra_investigate", "blackmail", "open_match", "close_week"}


def guild(app: Arbiter, match_id: str = "g", **setup: Any) -> None:
    """The standard test guild of mg_harness (pairs (1,2), (3,4), ...; week 1 is (1,2), (3,4),
    (5,6)), 10 garnets each, opened."""
    app.create_season("s")
    for player in PLAYERS:
        app.register("s", player)
        app.grant("s", player, "garnets", 10, "starting purse")
    fields = {"players": PLAYERS, "bills": catalog(), "pairs": PAIRS, "alignments": ALIGNMENTS}
    app.create_match(match_id=match_id, season="s", game="merchants_guild",
                     setup={**fields, **setup}, host_seed=HOST_SEED, salt_key=SALT_KEY)
    app.submit(match_id, "host", "open_match")


def reach_week(app: Arbiter, week: int, match_id: str = "g") -> None:
    while app.match(match_id).state.week < week:
        app.submit(match_id, "host", "close_week")


def refusal(app: Arbiter, actor: str, name: str, args: dict[str, Any],
            match_id: str = "g") -> str:
    """The code, after checking that the refusal recorded nothing and moved no garnet."""
    version = app.match(match_id).version
    balances = app.season("s").balances
    with pytest.raises(RuleViolation) as caught:
        app.submit(match_id, actor, name, args)
    assert app.match(match_id).version == version
    assert app.season("s").balances == balances
    return caught.value.code


# week -> [(actor, command, args, code)]
NUMBERS: dict[int, list[tuple[str, str, dict[str, Any], str]]] = {
    1: [
        # vote: more than 2 is counted first, then each entry must be an integer 1..60
        ("p1", "vote", {"bills": [2.0]}, "unknown_bill"),
        ("p1", "vote", {"bills": [1, 2.0]}, "unknown_bill"),
        ("p1", "vote", {"bills": [1e300]}, "unknown_bill"),
        ("p1", "vote", {"bills": [BIG]}, "unknown_bill"),
        ("p1", "vote", {"bills": [-HUGE, 1]}, "unknown_bill"),
        ("p1", "vote", {"bills": 1.0}, "unknown_bill"),
        ("p1", "vote", {"bills": [1.0, 2.0, 3.0]}, "too_many_votes"),
        ("p1", "vote", {"bills": [2.0, 2.0]}, "unknown_bill"),  # not a duplicate: not a bill
        # nominate: the bill is checked before the direction
        ("p1", "nominate", {"bill": 9.0, "direction": "forward"}, "unknown_bill"),
        ("p1", "nominate", {"bill": 9.5, "direction": "sideways"}, "unknown_bill"),
        ("p1", "nominate", {"bill": HUGE, "direction": "back"}, "unknown_bill"),
        ("p1", "nominate", {"bill": 1e300, "direction": "back"}, "unknown_bill"),
        # paid_push: the bill before the direction, the push limit and the balance
        ("p1", "paid_push", {"bill": 9.0, "direction": "forward"}, "unknown_bill"),
        ("p1", "paid_push", {"bill": BIG, "direction": "forward"}, "unknown_bill"),
        ("p1", "paid_push", {"bill": -1e300, "direction": "back"}, "unknown_bill"),
        # reveal_partner: before "already known" (1.0 is not the presented bill 1)
        ("p1", "reveal_partner", {"bill": 1.0}, "unknown_bill"),
        ("p1", "reveal_partner", {"bill": 20.0}, "unknown_bill"),
        ("p1", "reveal_partner", {"bill": HUGE}, "unknown_bill"),
        # the week-4 and week-5 commands are refused by the week before their arguments
        ("p1", "investigate", {"target": 2.0, "houses": [1.0, 2.0, 3.0]}, "wrong_week"),
        ("p1", "blackmail", {"target": "p7", "proceed": 1.0}, "wrong_week"),
    ],
    4: [
        ("p1", "investigate", {"target": 7.0, "houses": RGB}, "unknown_target"),
        ("p1", "investigate", {"target": "p7", "houses": [1.0, 2.0, 3.0]}, "invalid_houses"),
        ("p1", "investigate", {"target": "p7", "houses": [HUGE, BIG, 1]}, "invalid_houses"),
        ("p1", "extra_investigate", {"target": 1e300, "houses": RGB}, "unknown_target"),
        ("p1", "extra_investigate", {"target": "p7", "houses": [0.5, "red", "blue"]},
         "invalid_houses"),
        ("p1", "vote", {"bills": [10.0]}, "unknown_bill"),
    ],
    8: [
        # MG-R14: no ballot follows week 8, whatever the bill is
        ("p1", "nominate", {"bill": 9.0, "direction": "forward"}, "wrong_week"),
        ("p1", "paid_push", {"bill": HUGE, "direction": "forward"}, "wrong_week"),
        ("p1", "reveal_partner", {"bill": 1e300}, "wrong_week"),
        ("p1", "vote", {"bills": [43.0]}, "unknown_bill"),
    ],
}


@pytest.mark.parametrize("week", sorted(NUMBERS))
def test_a_float_or_a_huge_integer_gets_the_rules_code_and_records_nothing(sqlite_url, week):
    app = Arbiter(sqlite_url, signer=SIGNER)
    guild(app)
    reach_week(app, week)
    for actor, name, args, code in NUMBERS[week]:
        assert refusal(app, actor, name, args) == code, (name, args)


def test_a_blackmail_decision_that_is_a_number_is_not_a_decision(sqlite_url):
    """p1 names p7's three houses in week 4 (a right); in week 5 `proceed` must be a boolean."""
    app = Arbiter(sqlite_url, signer=SIGNER)
    guild(app)
    reach_week(app, 4)
    app.submit("g", "p1", "investigate", {"target": "p7", "houses": ["green", "blue", "black"]})
    reach_week(app, 5)
    assert refusal(app, "p1", "blackmail", {"target": "p7", "proceed": 1.0}) == "invalid_decision"
    assert refusal(app, "p1", "blackmail", {"target": "p7", "proceed": 1}) == "invalid_decision"
    assert refusal(app, "p1", "blackmail", {"target": 7.0, "proceed": True}) == "unknown_target"
    assert refusal(app, "p1", "blackmail", {"target": "p8", "proceed": 1e300}) == (
        "no_blackmail_right")
    app.submit("g", "p1", "blackmail", {"target": "p7", "proceed": True})


def test_the_same_commands_with_integers_are_accepted(sqlite_url):
    """The table above is not refusing everything: its integer twins pass."""
    app = Arbiter(sqlite_url, signer=SIGNER)
    guild(app)
    for name, args in [("vote", {"bills": [1, 3]}), ("nominate", {"bill": 9, "direction": "back"}),
                       ("paid_push", {"bill": 9, "direction": "forward"}),
                       ("reveal_partner", {"bill": 20})]:
        app.submit("g", "p1", name, args)
    assert app.season("s").balances["p1"]["garnets"] == 8


SETUP_NUMBERS: list[tuple[str, dict[str, Any]]] = [
    ("a float bill number", {"bills": [{**bill, "number": float(bill["number"])}
                                       if bill["number"] == 2 else bill for bill in catalog()]}),
    ("a float amount", {"bills": catalog(b7=[{"op": "add", "house": "green",
                                              "resource": "ships", "amount": 1.0}])}),
    ("a huge amount", {"bills": catalog(b7=[{"op": "add", "house": "green",
                                             "resource": "ships", "amount": HUGE}])}),
    ("a huge negative amount", {"bills": catalog(b7=[{"op": "add", "house": "green",
                                                      "resource": "ships", "amount": -HUGE}])}),
    ("a huge transfer", {"bills": catalog(b7=[{"op": "transfer", "from": "red", "to": "blue",
                                               "resource": "ships", "amount": BIG}])}),
    ("a huge set", {"bills": catalog(b7=[{"op": "set", "house": "red", "resource": "ships",
                                          "value": BIG}])}),
    ("adds that together pass the log's limit",
     {"bills": catalog(b7=[{"op": "add", "house": "red", "resource": "ships",
                            "amount": 2**52}],
                       b8=[{"op": "add", "house": "red", "resource": "ships",
                            "amount": 2**52}])}),
    ("a float pair", {"pairs": [[1.0, 2], *PAIRS[1:]]}),
    ("a huge pair", {"pairs": [[1, HUGE], *PAIRS[1:]]}),
    ("a float lead", {"week1_leads": [4.0]}),
    ("a huge lead", {"week1_leads": [HUGE]}),
    ("a float look-up limit", {"lookup_limit_per_week": 1.0}),
    ("a huge look-up limit", {"lookup_limit_per_week": HUGE}),
    ("a float extra limit", {"max_extra_investigations": 2.0}),
    ("a huge extra limit", {"max_extra_investigations": BIG}),
]


@pytest.mark.parametrize("fields", [row[1] for row in SETUP_NUMBERS],
                         ids=[row[0] for row in SETUP_NUMBERS])
def test_a_setup_with_a_float_or_a_huge_integer_is_invalid_and_creates_nothing(sqlite_url,
                                                                                fields):
    app = Arbiter(sqlite_url, signer=SIGNER)
    with pytest.raises(RuleViolation) as caught:
        guild(app, **fields)
    assert caught.value.code == "invalid_setup"
    with pytest.raises(RuleViolation, match="no match"):
        app.match("g")


def test_a_catalog_just_under_the_limit_is_accepted(sqlite_url):
    """15 starting resources plus every positive amount may reach 2^53 - 1, not pass it."""
    room = 2**53 - 1 - 15 - 58  # 58 other bills add 1 each
    app = Arbiter(sqlite_url, signer=SIGNER)
    guild(app, bills=catalog(b7=[{"op": "add", "house": "red", "resource": "ships",
                                  "amount": room}, {"op": "add", "house": "red",
                                                    "resource": "ships", "amount": -5}],
                             b8=[]))
    assert app.match("g").state.week == 1


# After the end: every command of the rules, and an unknown one
AFTER_THE_END: list[tuple[str, str, dict[str, Any], str]] = [
    ("alice", "vote", {"bills": [22]}, "match_over"),
    ("alice", "vote", {"bills": [2.0]}, "match_over"),
    ("alice", "vote", {"bills": [1, 2, 3]}, "match_over"),
    ("alice", "nominate", {"bill": 25, "direction": "forward"}, "match_over"),
    ("alice", "paid_push", {"bill": 25, "direction": "forward"}, "match_over"),
    ("alice", "reveal_partner", {"bill": 25}, "match_over"),
    ("alice", "investigate", {"target": "bob", "houses": RGB}, "match_over"),
    ("alice", "extra_investigate", {"target": "bob", "houses": RGB}, "match_over"),
    ("judy", "blackmail", {"target": "frank", "proceed": True}, "match_over"),
    ("alice", "dance", {}, "match_over"),
    ("alice", "close_week", {}, "match_over"),
    ("host", "close_week", {}, "match_over"),
    ("host", "dance", {}, "match_over"),
    # the first common check comes before the end
    ("zed", "vote", {"bills": [22]}, "unknown_player"),
    ("host", "vote", {"bills": [22]}, "unknown_player"),
    # the match's own commands are the framework's: its code
    ("host", "open_match", {}, "wrong_state"),
    ("alice", "contribute", {"text": "late"}, "match_over"),
]


@pytest.fixture(scope="module")
def ended(tmp_path_factory) -> Arbiter:
    app = Arbiter(f"sqlite:///{tmp_path_factory.mktemp('mg')}/arbiter.db", signer=SIGNER)
    file = load(RUBY_RISES)
    outcome, mismatches = play(app, file)
    assert mismatches == [] and outcome["ended"]
    return app


@pytest.mark.parametrize(("actor", "name", "args", "code"), AFTER_THE_END,
                         ids=[f"{row[0]} {row[1]} {row[2]}" for row in AFTER_THE_END])
def test_every_command_after_the_week_8_deadline(ended, actor, name, args, code):
    match_id = load(RUBY_RISES).match
    version = ended.match(match_id).version
    balances = ended.season("demo").balances
    with pytest.raises(RuleViolation) as caught:
        ended.submit(match_id, actor, name, args)
    assert caught.value.code == code
    assert ended.match(match_id).version == version
    assert ended.season("demo").balances == balances


def test_every_command_of_the_rules_is_tried_after_the_end():
    tried = {name for _, name, _, _ in AFTER_THE_END}
    assert tried >= RULES_COMMANDS
