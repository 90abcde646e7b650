"""The week-4 investigations and week-5 blackmail decisions (rulebook §7.5-7.6, MG-R19..R21).

Alignments of the standard test guild: p1 red-green-blue, p2 red-green-black, p3
red-green-white, p4 red-blue-black, p5 red-blue-white, p6 red-black-white, p7
green-blue-black, p8 green-blue-white, p9 green-black-white, p10 blue-black-white.
"""

from __future__ import annotations

from domain.decider import HOST, Posting
from tests.games.merchants_guild.mg_harness import PLAYERS, Match, kinds


def week_four(**options) -> Match:
    match = Match(**options)
    match.skip_to(4)
    return match


def results_of(events, player):
    return next(
        e.data["results"]
        for e in events
        if e.kind == "InvestigationResults" and e.audience == (player,)
    )


def test_results_name_the_matched_houses_in_the_order_named_free_before_extra():
    """p1 buys the extra first (p8: white, blue, green: all three match, a right), then the free
    one (p7: black, green, red: black and green match, no right)."""
    match = week_four()
    extra = match.do("p1", "extra_investigate", target="p8", houses=["white", "blue", "green"])
    assert extra[0].postings == (Posting("p1", "garnets", -5, "extra_investigation"),)
    assert extra[0].audience == ("p1",) and extra[0].data["extra"] is True
    match.do("p1", "investigate", target="p7", houses=["black", "green", "red"])
    events = match.week()
    assert results_of(events, "p1") == [
        {
            "kind": "free",
            "target": "p7",
            "named": ["black", "green", "red"],
            "matched": ["black", "green"],
            "blackmail_right": False,
        },
        {
            "kind": "extra",
            "target": "p8",
            "named": ["white", "blue", "green"],
            "matched": ["white", "blue", "green"],
            "blackmail_right": True,
        },
    ]
    # Every player is answered; the targets learn nothing.
    answered = [e for e in events if e.kind == "InvestigationResults"]
    assert [e.audience for e in answered] == [(p,) for p in PLAYERS]
    assert results_of(events, "p7") == [] and results_of(events, "p8") == []
    assert match.state.rights == {("p1", "p8")}
    assert match.balances["p1"] == 5


def test_the_free_investigation_can_be_replaced_during_week_four():
    match = week_four()
    match.do("p2", "investigate", target="p3", houses=["red", "green", "white"])
    match.do("p2", "investigate", target="p4", houses=["red", "green", "white"])
    events = match.week()
    assert results_of(events, "p2") == [
        {
            "kind": "free",
            "target": "p4",
            "named": ["red", "green", "white"],
            "matched": ["red"],
            "blackmail_right": False,
        }
    ]
    assert match.state.rights == frozenset()


def test_an_extra_needs_no_free_investigation_and_the_variant_sets_how_many():
    match = week_four(max_extra_investigations=2)
    match.do("p2", "extra_investigate", target="p3", houses=["red", "green", "white"])
    assert (
        match.reject("p2", "extra_investigate", target="p3", houses=["red", "green", "blue"])
        == "duplicate_investigation_target"
    )
    match.do("p2", "extra_investigate", target="p4", houses=["red", "blue", "black"])
    assert (
        match.reject("p2", "extra_investigate", target="p5", houses=["red", "blue", "white"])
        == "investigation_limit"
    )
    assert (
        match.reject("p2", "investigate", target="p4", houses=["red", "blue", "white"])
        == "duplicate_investigation_target"
    )
    match.week()
    assert match.state.rights == {("p2", "p3"), ("p2", "p4")}
    assert match.balances["p2"] == 0
    none_allowed = week_four(max_extra_investigations=0)
    code = none_allowed.reject(
        "p2", "extra_investigate", target="p3", houses=["red", "blue", "black"]
    )
    assert code == "investigation_limit"


def test_only_week_four_deadlines_answer_investigations():
    match = Match()
    assert "InvestigationResults" not in kinds(match.week())
    match.skip_to(4)
    assert kinds(match.week()).count("InvestigationResults") == 10
    assert "InvestigationResults" not in kinds(match.week())


def blackmail_week() -> Match:
    """Rights: p1 on p8 (extra), p2, p3 and p8 on p1, p4 on p10."""
    match = week_four()
    match.do("p1", "extra_investigate", target="p8", houses=["green", "blue", "white"])
    match.do("p2", "investigate", target="p1", houses=["red", "green", "blue"])
    match.do("p3", "investigate", target="p1", houses=["blue", "red", "green"])
    match.do("p8", "investigate", target="p1", houses=["green", "blue", "red"])
    match.do("p4", "investigate", target="p10", houses=["white", "black", "blue"])
    match.week()
    return match


def test_registered_blackmails_are_the_final_decisions_to_proceed_and_each_target_is_told():
    """p1 and p8 blackmail each other; p3 blackmails p1 too; p2 changes its mind; p4 never
    decides (the default is not to go through)."""
    match = blackmail_week()
    assert match.state.rights == {("p1", "p8"), ("p2", "p1"), ("p3", "p1"), ("p8", "p1"),
                                  ("p4", "p10")}  # fmt: skip
    for blackmailer, target in (("p8", "p1"), ("p1", "p8"), ("p2", "p1"), ("p3", "p1")):
        receipt = match.do(blackmailer, "blackmail", target=target, proceed=True)
        assert receipt[0].audience == (blackmailer,)
    match.do("p2", "blackmail", target="p1", proceed=False)
    events = match.week()
    registered = match.last("BlackmailRegistered")
    assert registered.audience == HOST
    assert registered.data == {
        "week": 5,
        "decisions": [
            {"blackmailer": "p1", "target": "p8", "proceed": True},
            {"blackmailer": "p2", "target": "p1", "proceed": False},
            {"blackmailer": "p3", "target": "p1", "proceed": True},
            {"blackmailer": "p8", "target": "p1", "proceed": True},
        ],
        "blackmails": [
            {"target": "p1", "blackmailers": ["p3", "p8"]},
            {"target": "p8", "blackmailers": ["p1"]},
        ],
    }
    told = {
        e.data["target"]: e.data["blackmailers"] for e in events if e.kind == "BlackmailNotified"
    }
    assert list(told) == PLAYERS
    assert told["p1"] == ["p3", "p8"] and told["p8"] == ["p1"] and told["p10"] == []
    notice = match.last("BlackmailNotified", ("p1",))
    assert notice.audience == ("p1",)
    assert match.state.blackmails == (("p3", "p1"), ("p8", "p1"), ("p1", "p8"))


def test_rights_do_not_outlive_week_five():
    match = blackmail_week()
    match.week()
    assert match.reject("p1", "blackmail", target="p8", proceed=True) == "wrong_week"
