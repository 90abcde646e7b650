"""Every error code of rulebook §5, and the order of the checks: state, command -> code.

Rows that break two rules at once show which check comes first. The standard test guild of
mg_harness: pairs (1,2), (3,4), ...; week 1's ballot is (1,2), (3,4), (5,6).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from domain.decider import Command
from domain.errors import RuleViolation
from domain.games import merchants_guild as mg
from tests.games.merchants_guild.mg_harness import Match

RED_GREEN_BLUE = ["red", "green", "blue"]


def not_opened() -> Match:
    return Match(open_match=False)


def week_one() -> Match:
    return Match()


def week_one_used() -> Match:
    """p1 has pushed bill 9 and asked for bill 20's partner; p2 pushed with its only garnet;
    p3 has none."""
    match = Match(garnets={**{f"p{i}": 10 for i in range(1, 11)}, "p2": 1, "p3": 0})
    match.do("p1", "paid_push", bill=9, direction="forward")
    match.do("p1", "reveal_partner", bill=20)
    match.do("p2", "paid_push", bill=9, direction="back")
    return match


def limited_lookups() -> Match:
    match = Match(lookup_limit_per_week=1)
    match.do("p1", "reveal_partner", bill=20)
    return match


def week_two_knowing() -> Match:
    """p1 learned at the week-1 deadline that 20 and 19 are partners."""
    match = Match()
    match.do("p1", "reveal_partner", bill=20)
    match.week()
    return match


def week_four() -> Match:
    """p1 investigates p7 (free) and p8 (extra); p3 has only 4 garnets."""
    match = Match(garnets={**{f"p{i}": 10 for i in range(1, 11)}, "p3": 4})
    match.skip_to(4)
    match.do("p1", "investigate", target="p7", houses=["green", "blue", "black"])
    match.do("p1", "extra_investigate", target="p8", houses=RED_GREEN_BLUE)
    return match


def week_five() -> Match:
    """p1 holds a blackmail right on p7 (all three named houses matched), none on p8."""
    match = week_four()
    match.week()
    return match


def week_eight() -> Match:
    match = Match()
    match.skip_to(8)
    return match


def over() -> Match:
    match = week_eight()
    match.week()
    return match


ROWS: list[tuple[str, Callable[[], Match], str, str, dict[str, Any], str]] = [
    # common checks, in order
    ("outsider", week_one, "zed", "vote", {"bills": [1]}, "unknown_player"),
    ("outsider before opening", not_opened, "zed", "vote", {"bills": [1]}, "unknown_player"),
    ("before opening", not_opened, "p1", "vote", {"bills": [1]}, "match_not_started"),
    ("unknown before opening", not_opened, "p1", "dance", {}, "match_not_started"),
    ("after the end", over, "p1", "vote", {"bills": [43]}, "match_over"),
    ("unknown after the end", over, "p1", "dance", {}, "match_over"),
    ("unknown command", week_one, "p1", "dance", {}, "unknown_action"),
    ("host command by a player", week_one, "p1", "close_week", {}, "unknown_action"),
    ("player command by the host", week_one, "host", "vote", {"bills": [1]}, "unknown_player"),
    ("unknown host command", week_one, "host", "dance", {}, "unknown_action"),
    # host commands
    ("open twice", week_one, "host", "open_match", {}, "wrong_state"),
    ("close before opening", not_opened, "host", "close_week", {}, "wrong_state"),
    ("close after the end", over, "host", "close_week", {}, "match_over"),
    ("unknown host command after the end", over, "host", "dance", {}, "match_over"),
    ("player command by the host after the end", over, "host", "vote", {}, "unknown_player"),
    # vote
    ("three votes, one unknown", week_one, "p1", "vote", {"bills": [1, 1, 99]}, "too_many_votes"),
    ("not a list", week_one, "p1", "vote", {"bills": 1}, "unknown_bill"),
    ("no bills", week_one, "p1", "vote", {}, "unknown_bill"),
    ("unknown twice", week_one, "p1", "vote", {"bills": [99, 99]}, "unknown_bill"),
    ("a boolean", week_one, "p1", "vote", {"bills": [True]}, "unknown_bill"),
    ("off-ballot twice", week_one, "p1", "vote", {"bills": [60, 60]}, "duplicate_vote"),
    ("off the ballot", week_one, "p1", "vote", {"bills": [1, 60]}, "bill_not_on_ballot"),
    # nominate
    ("nominate in week 8", week_eight, "p1", "nominate", {"bill": 99}, "wrong_week"),
    ("nominate unknown", week_one, "p1", "nominate", {"bill": 0}, "unknown_bill"),
    (
        "nominate presented, no direction",
        week_one,
        "p1",
        "nominate",
        {"bill": 1},
        "invalid_direction",
    ),
    (
        "nominate presented",
        week_one,
        "p1",
        "nominate",
        {"bill": 1, "direction": "back"},
        "bill_not_eligible",
    ),
    # paid_push
    ("push in week 8", week_eight, "p1", "paid_push", {"bill": 9}, "wrong_week"),
    ("push unknown", week_one, "p1", "paid_push", {"bill": "9"}, "unknown_bill"),
    (
        "push sideways",
        week_one,
        "p1",
        "paid_push",
        {"bill": 9, "direction": "up"},
        "invalid_direction",
    ),
    (
        "push presented, used",
        week_one_used,
        "p1",
        "paid_push",
        {"bill": 2, "direction": "forward"},
        "bill_not_eligible",
    ),
    (
        "push again, broke",
        week_one_used,
        "p2",
        "paid_push",
        {"bill": 11, "direction": "forward"},
        "already_used_this_week",
    ),
    (
        "push, broke",
        week_one_used,
        "p3",
        "paid_push",
        {"bill": 11, "direction": "forward"},
        "insufficient_garnets",
    ),
    # reveal_partner
    ("look-up in week 8", week_eight, "p1", "reveal_partner", {"bill": 0}, "wrong_week"),
    ("look-up unknown", week_one, "p1", "reveal_partner", {"bill": 61}, "unknown_bill"),
    ("look-up presented", week_one, "p1", "reveal_partner", {"bill": 6}, "partner_already_known"),
    (
        "look-up same bill this week",
        week_one_used,
        "p1",
        "reveal_partner",
        {"bill": 20},
        "partner_already_known",
    ),
    (
        "look-up answered half",
        week_two_knowing,
        "p1",
        "reveal_partner",
        {"bill": 20},
        "partner_already_known",
    ),
    (
        "look-up answered other half",
        week_two_knowing,
        "p1",
        "reveal_partner",
        {"bill": 19},
        "partner_already_known",
    ),
    (
        "look-up over the limit",
        limited_lookups,
        "p1",
        "reveal_partner",
        {"bill": 30},
        "lookup_limit",
    ),
    ("look-up, broke", week_one_used, "p2", "reveal_partner", {"bill": 11}, "insufficient_garnets"),
    # investigate
    ("investigate in week 1", week_one, "p1", "investigate", {"target": "zed"}, "wrong_week"),
    ("investigate in week 5", week_five, "p1", "investigate", {"target": "p7"}, "wrong_week"),
    ("investigate nobody", week_four, "p1", "investigate", {"target": "zed"}, "unknown_target"),
    (
        "investigate self",
        week_four,
        "p1",
        "investigate",
        {"target": "p1", "houses": 3},
        "cannot_target_self",
    ),
    (
        "two houses",
        week_four,
        "p2",
        "investigate",
        {"target": "p1", "houses": ["red", "blue"]},
        "invalid_houses",
    ),
    (
        "a house twice",
        week_four,
        "p2",
        "investigate",
        {"target": "p1", "houses": ["red", "red", "blue"]},
        "invalid_houses",
    ),
    (
        "no such house",
        week_four,
        "p2",
        "investigate",
        {"target": "p1", "houses": ["red", "blue", "gold"]},
        "invalid_houses",
    ),
    (
        "free on the extra's target",
        week_four,
        "p1",
        "investigate",
        {"target": "p8", "houses": RED_GREEN_BLUE},
        "duplicate_investigation_target",
    ),
    # extra_investigate
    ("extra in week 1", week_one, "p2", "extra_investigate", {"target": "p1"}, "wrong_week"),
    ("extra on nobody", week_four, "p2", "extra_investigate", {"target": None}, "unknown_target"),
    ("extra on self", week_four, "p2", "extra_investigate", {"target": "p2"}, "cannot_target_self"),
    (
        "extra, bad houses",
        week_four,
        "p2",
        "extra_investigate",
        {"target": "p1", "houses": []},
        "invalid_houses",
    ),
    (
        "second extra on the free target",
        week_four,
        "p1",
        "extra_investigate",
        {"target": "p7", "houses": RED_GREEN_BLUE},
        "investigation_limit",
    ),
    (
        "extra, broke",
        week_four,
        "p3",
        "extra_investigate",
        {"target": "p4", "houses": RED_GREEN_BLUE},
        "insufficient_garnets",
    ),
    # blackmail
    ("blackmail in week 4", week_four, "p1", "blackmail", {"target": "zed"}, "wrong_week"),
    ("blackmail nobody", week_five, "p1", "blackmail", {"target": "zed"}, "unknown_target"),
    (
        "blackmail self",
        week_five,
        "p1",
        "blackmail",
        {"target": "p1", "proceed": True},
        "no_blackmail_right",
    ),
    (
        "blackmail a partial match",
        week_five,
        "p1",
        "blackmail",
        {"target": "p8", "proceed": 1},
        "no_blackmail_right",
    ),
    (
        "blackmail, no decision",
        week_five,
        "p1",
        "blackmail",
        {"target": "p7", "proceed": 1},
        "invalid_decision",
    ),
]


@pytest.mark.parametrize(
    ("situation", "actor", "name", "args", "code"),
    [row[1:] for row in ROWS],
    ids=[row[0] for row in ROWS],
)
def test_the_first_failing_check_decides(situation, actor, name, args, code):
    match = situation()
    assert match.reject(actor, name, **args) == code


def test_every_code_of_the_rules_is_in_the_table():
    codes = {row[-1] for row in ROWS}
    assert codes == {
        "unknown_player", "match_not_started", "match_over", "unknown_action", "wrong_state",
        "too_many_votes", "unknown_bill", "duplicate_vote", "bill_not_on_ballot", "wrong_week",
        "invalid_direction", "bill_not_eligible", "already_used_this_week",
        "insufficient_garnets", "partner_already_known", "lookup_limit", "unknown_target",
        "cannot_target_self", "invalid_houses", "duplicate_investigation_target",
        "investigation_limit", "no_blackmail_right", "invalid_decision",
    }  # fmt: skip


def test_the_extra_on_the_current_free_target_is_a_duplicate():
    match = Match()
    match.skip_to(4)
    match.do("p2", "investigate", target="p5", houses=RED_GREEN_BLUE)
    code = match.reject("p2", "extra_investigate", target="p5", houses=RED_GREEN_BLUE)
    assert code == "duplicate_investigation_target"


def test_a_duplicate_target_is_checked_before_the_balance():
    match = Match(garnets=0)
    match.skip_to(4)
    match.do("p2", "investigate", target="p5", houses=RED_GREEN_BLUE)
    code = match.reject("p2", "extra_investigate", target="p5", houses=RED_GREEN_BLUE)
    assert code == "duplicate_investigation_target"
    assert match.reject("p2", "extra_investigate", target="p6", houses=RED_GREEN_BLUE) == (
        "insufficient_garnets"
    )


def test_the_balance_is_checked_last_for_pushes_and_look_ups():
    match = Match(garnets=0)
    assert match.reject("p1", "paid_push", bill=9, direction="forward") == "insufficient_garnets"
    assert match.reject("p1", "reveal_partner", bill=9) == "insufficient_garnets"
    assert match.reject("p1", "reveal_partner", bill=1) == "partner_already_known"


def test_a_rejection_emits_nothing_and_garbage_raises_only_rule_violations():
    match = Match()
    for actor, name, args in [
        (None, "vote", {}),
        (5, None, None),
        ("p1", 7, {"bills": None}),
        ("p1", "vote", "not a mapping"),
        ("host", None, {}),
        ("p1", "investigate", {"target": ["p2"], "houses": None}),
    ]:
        with pytest.raises(RuleViolation):
            mg.decide(match.state, Command(name, actor, args, {}))  # type: ignore[arg-type]
