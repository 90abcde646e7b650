"""Weeks: votes and their deadline (rulebook §7.1-7.3, MG-R8..R11), nominations, pushes and the next
ballot (§7.7, MG-R12..R16), partner look-ups (MG-R18), and who is told what (§9).

The standard test guild (mg_harness): pairs (1,2), (3,4), ...; bill n adds 1 to house
red/green/blue/black/white for n = 1/2/3/4/5 (mod 5), forges for n = 1..5, ships 6..10,
markets 11..15, forges again 16..20, and so on.
"""

from __future__ import annotations

from domain.decider import HOST, PUBLIC, Posting
from tests.games.merchants_guild.mg_harness import PLAYERS, Match, catalog, houses, kinds

# Votes and the deadline


def test_more_votes_pass_four_all_passes_both_any_other_tie_rejects_both():
    """(1,2) 4-4: both pass. (3,4) 3-3: both rejected. (5,6) 2-0: 5 passes.
    Bills 1, 2, 5 add a forge to red, green, white."""
    match = Match()
    events = match.week(
        {
            "p1": [1, 3],
            "p2": [1, 3],
            "p3": [1, 3],
            "p4": [1, 5],
            "p5": [2, 4],
            "p6": [2, 4],
            "p7": [2, 4],
            "p8": [2, 5],
        }
    )
    resolved = events[0]
    assert resolved.kind == "WeekResolved" and resolved.audience == PUBLIC
    assert resolved.data == {
        "week": 1,
        "vote_counts": [
            {"bill": 1, "votes": 4},
            {"bill": 2, "votes": 4},
            {"bill": 3, "votes": 3},
            {"bill": 4, "votes": 3},
            {"bill": 5, "votes": 2},
            {"bill": 6, "votes": 0},
        ],
        "passed": [1, 2, 5],
        "rejected": [3, 4, 6],
        "houses": houses(red=(2, 1, 1), green=(2, 1, 1), white=(2, 1, 1)),
    }
    recorded = events[1]
    assert recorded.kind == "VotesRecorded" and recorded.audience == HOST
    assert recorded.data["votes"]["p4"] == [1, 5] and recorded.data["votes"]["p9"] == []
    # Votes that went to passed bills: p4 (1 and 5) and p8 (2 and 5) twice, p9 and p10 never.
    assert recorded.data["passes"] == {
        "p1": 1, "p2": 1, "p3": 1, "p4": 2, "p5": 1,
        "p6": 1, "p7": 1, "p8": 2, "p9": 0, "p10": 0,
    }  # fmt: skip
    assert match.state.pass_counts["p4"] == 2


def test_five_five_and_nought_nought_reject_both():
    """Week 2's ballot is (7,8), (9,10), (11,12): 5-5 on (7,8), 0-0 on (9,10), 1-0 on (11,12)."""
    match = Match()
    match.week()
    votes = {p: [7, 8] for p in PLAYERS[:5]}
    votes["p6"] = [11]
    events = match.week(votes)
    assert events[0].data["passed"] == [11]
    assert events[0].data["rejected"] == [7, 8, 9, 10, 12]
    assert events[0].data["houses"] == houses(red=(1, 1, 2))  # bill 11: red markets
    assert events[1].data["passes"]["p1"] == 0 and events[1].data["passes"]["p6"] == 1


def test_a_voter_for_both_halves_of_a_double_pass_counts_two_passes():
    """(1,2) 4-4: p4 voted for both, so both of p4's votes went to passed bills."""
    match = Match()
    votes = {"p1": [1], "p2": [1], "p3": [1], "p4": [1, 2], "p5": [2], "p6": [2], "p7": [2]}
    events = match.week(votes)
    assert events[0].data["passed"] == [1, 2]
    assert events[1].data["passes"]["p4"] == 2 and events[1].data["passes"]["p5"] == 1


def test_the_last_vote_counts_an_empty_list_withdraws_and_both_halves_cancel():
    match = Match()
    match.do("p1", "vote", bills=[1])
    match.do("p1", "vote", bills=[2])  # replaces [1]
    match.do("p2", "vote", bills=[1, 3])
    match.do("p2", "vote", bills=[])  # withdraws
    match.do("p3", "vote", bills=[3, 4])  # one vote each side of (3,4): cancels out
    events = match.week()
    counts = {row["bill"]: row["votes"] for row in events[0].data["vote_counts"]}
    assert counts == {1: 0, 2: 1, 3: 1, 4: 1, 5: 0, 6: 0}
    assert events[0].data["passed"] == [2]
    assert events[1].data["votes"]["p2"] == []


def test_a_vote_is_told_to_the_voter_alone_and_nothing_is_public():
    match = Match()
    events = match.do("p1", "vote", bills=[1, 3])
    assert kinds(events) == ["VoteCast"]
    assert events[0].audience == ("p1",) and events[0].actor == "p1"
    assert events[0].data == {"week": 1, "player": "p1", "bills": [1, 3]}


def test_passed_bills_apply_in_ascending_number_each_effect_in_listed_order():
    """Votes arrive for 5, then 3, then 1; bills apply 1, 3, 5 on red and blue ships (1 each):
    1 sets red ships to 5; 3 moves 3 from red to blue (red 2, blue 4); 5 first adds -10 to red
    (clamped at 0), then swaps red and blue ships (red 4, blue 0)."""
    match = Match(
        bills=catalog(
            b1=[{"op": "set", "house": "red", "resource": "ships", "value": 5}],
            b3=[{"op": "transfer", "from": "red", "to": "blue", "resource": "ships", "amount": 3}],
            b5=[
                {"op": "add", "house": "red", "resource": "ships", "amount": -10},
                {"op": "swap", "houses": ["red", "blue"], "resource": "ships"},
            ],
        )
    )
    events = match.week({"p1": [5], "p2": [3], "p3": [1]})
    assert events[0].data["passed"] == [1, 3, 5]
    assert events[0].data["houses"] == houses(red=(1, 4, 1), blue=(1, 0, 1))


def test_a_transfer_moves_at_most_what_the_source_has_and_an_empty_bill_does_nothing():
    """Bill 1 moves up to 5 green forges (there is 1) to black; bill 3 has no effects."""
    match = Match(
        bills=catalog(
            b1=[
                {"op": "transfer", "from": "green", "to": "black", "resource": "forges",
                 "amount": 5}
            ],
            b3=[],
        )
    )  # fmt: skip
    events = match.week({"p1": [1, 3]})
    assert events[0].data["houses"] == houses(green=(0, 1, 1), black=(2, 1, 1))


# Nominations, pushes and the next ballot


def test_the_highest_priority_leads_ties_go_to_the_lowest_number_and_partners_join():
    """Week 1: 20 gets +2 (two free nominations), 30 gets +2 (a free one and a paid push by p3),
    7 gets -1. Week 2: 20 and 30 tie at 2, 20 leads (with 19), then 30 (with 29); the rest are
    at 0 but 7 at -1, so 8 leads and brings 7 along. Listed by lower number."""
    match = Match()
    match.do("p1", "nominate", bill=20, direction="forward")
    match.do("p2", "nominate", bill=20, direction="forward")
    match.do("p3", "nominate", bill=30, direction="forward")
    match.do("p3", "paid_push", bill=30, direction="forward")
    match.do("p4", "nominate", bill=7, direction="back")
    events = match.week()
    updated = match.last("PrioritiesUpdated")
    assert updated.audience == HOST
    assert updated.data == {
        "week": 1,
        "nominations": [
            {"player": "p1", "bill": 20, "direction": "forward", "paid": False},
            {"player": "p2", "bill": 20, "direction": "forward", "paid": False},
            {"player": "p3", "bill": 30, "direction": "forward", "paid": False},
            {"player": "p3", "bill": 30, "direction": "forward", "paid": True},
            {"player": "p4", "bill": 7, "direction": "back", "paid": False},
        ],
        "priorities": [
            {"bill": 7, "priority": -1},
            {"bill": 20, "priority": 2},
            {"bill": 30, "priority": 2},
        ],
    }
    assert match.last("BallotSelected").data == {
        "week": 2,
        "selection": [[20, 19], [30, 29], [8, 7]],
    }
    published = match.last("BallotPublished")
    assert published.audience == PUBLIC
    assert published.data == {"week": 2, "pairs": [[7, 8], [19, 20], [29, 30]]}
    assert kinds(events)[-3:] == ["PrioritiesUpdated", "BallotSelected", "BallotPublished"]


def test_a_bill_held_back_by_two_still_comes_as_its_partners_mate():
    """p1 holds 20 back twice (free and paid: -2); p2 pushes 19 forward: 19 leads with 20."""
    match = Match()
    match.do("p1", "nominate", bill=20, direction="back")
    match.do("p1", "paid_push", bill=20, direction="back")
    match.do("p2", "nominate", bill=19, direction="forward")
    match.week()
    assert match.last("BallotSelected").data["selection"][0] == [19, 20]
    assert [19, 20] in match.ballot()


def test_priorities_carry_across_weeks_and_a_replaced_nomination_does_not_count():
    """Week 1: +1 on 50, 52, 54, 56; p5 names 58 forward, then replaces it with 46 back. Week 2
    takes the three tied at 1 with the lowest numbers (50, 52, 54). Week 3: 56 still holds its
    1 and leads; then the lowest bills at 0, 7 and 9 (58 stayed at 0, 46 is at -1)."""
    match = Match()
    for player, bill in (("p1", 50), ("p2", 52), ("p3", 54), ("p4", 56)):
        match.do(player, "nominate", bill=bill, direction="forward")
    match.do("p5", "nominate", bill=58, direction="forward")
    match.do("p5", "nominate", bill=46, direction="back")
    match.week()
    assert match.ballot() == [[49, 50], [51, 52], [53, 54]]
    match.week()
    assert match.last("PrioritiesUpdated").data["priorities"] == [
        {"bill": 46, "priority": -1},
        {"bill": 50, "priority": 1},
        {"bill": 52, "priority": 1},
        {"bill": 54, "priority": 1},
        {"bill": 56, "priority": 1},
    ]
    assert match.last("BallotSelected").data["selection"] == [[56, 55], [7, 8], [9, 10]]
    assert match.ballot() == [[7, 8], [9, 10], [55, 56]]


def test_a_paid_push_costs_one_garnet_on_its_private_receipt():
    match = Match(garnets=3)
    events = match.do("p1", "paid_push", bill=9, direction="forward")
    assert kinds(events) == ["PriorityNominated"]
    assert events[0].audience == ("p1",)
    assert events[0].postings == (Posting("p1", "garnets", -1, "paid_push"),)
    assert events[0].data == {
        "week": 1, "player": "p1", "bill": 9, "direction": "forward", "paid": True, "price": 1,
    }  # fmt: skip
    free = match.do("p1", "nominate", bill=9, direction="forward")
    assert free[0].postings == () and free[0].data["paid"] is False
    assert match.balances["p1"] == 2


def test_the_push_can_be_used_again_next_week():
    match = Match()
    match.do("p1", "paid_push", bill=9, direction="forward")
    match.week()
    match.do("p1", "paid_push", bill=21, direction="forward")
    assert match.balances["p1"] == 8


def test_variant_ignore_accepts_and_wastes_nominations_of_presented_bills():
    match = Match(nominate_presented="ignore")
    match.do("p1", "nominate", bill=1, direction="forward")
    match.do("p1", "paid_push", bill=2, direction="forward")
    assert match.balances["p1"] == 9
    match.week()
    assert match.ballot() == [[7, 8], [9, 10], [11, 12]]


def test_week_eight_refuses_selection_actions_unless_the_variant_allows_them():
    match = Match()
    match.skip_to(8)
    assert match.reject("p1", "nominate", bill=60, direction="forward") == "wrong_week"
    assert "PartnersRevealed" not in kinds(match.week())  # no look-up can exist in week 8
    allowed = Match(week8_selection_actions="allow")
    allowed.skip_to(8)
    allowed.do("p1", "nominate", bill=60, direction="forward")
    allowed.do("p1", "paid_push", bill=60, direction="forward")
    allowed.do("p1", "reveal_partner", bill=50)
    events = allowed.week()
    answer = next(e for e in events if e.kind == "PartnersRevealed" and e.audience == ("p1",))
    assert answer.data["answers"] == [{"bill": 50, "partner": 49}]
    # 10 - push - look-up; nothing passed, all houses rank 1: 9 gold - 2 tax = 7 garnets back.
    assert allowed.balances["p1"] == 10 - 1 - 1 + 7
    assert "PrioritiesUpdated" not in kinds(events)


# Partner look-ups


def test_a_look_up_is_charged_at_once_and_answered_privately_at_the_deadline():
    """p1 asks about 20, then about 19: p1 cannot know yet that they are partners, so both are
    accepted and charged. Every player gets an answer event, empty for those who asked none."""
    match = Match()
    first = match.do("p1", "reveal_partner", bill=20)
    second = match.do("p1", "reveal_partner", bill=19)
    for receipt in (first[0], second[0]):
        assert receipt.kind == "PartnerLookupRequested" and receipt.audience == ("p1",)
        assert receipt.postings == (Posting("p1", "garnets", -1, "reveal_partner"),)
    assert match.balances["p1"] == 8
    events = match.week()
    answers = [e for e in events if e.kind == "PartnersRevealed"]
    assert [e.audience for e in answers] == [(p,) for p in PLAYERS]
    assert answers[0].data == {
        "week": 1,
        "player": "p1",
        "answers": [{"bill": 20, "partner": 19}, {"bill": 19, "partner": 20}],
    }
    assert all(e.data["answers"] == [] for e in answers[1:])
    assert all(e.audience != PUBLIC for e in match.log if "Partner" in e.kind)


def test_a_pair_once_presented_or_told_is_known():
    match = Match()
    match.do("p2", "reveal_partner", bill=8)
    match.week()  # week 2 presents (7,8) anyway
    assert match.reject("p2", "reveal_partner", bill=8) == "partner_already_known"
    assert match.reject("p3", "reveal_partner", bill=7) == "partner_already_known"
    match.do("p3", "reveal_partner", bill=40)  # nobody told p3 about 39/40


def test_variant_limits_look_ups_per_week():
    match = Match(lookup_limit_per_week=2)
    match.do("p1", "reveal_partner", bill=20)
    match.do("p1", "reveal_partner", bill=30)
    assert match.reject("p1", "reveal_partner", bill=40) == "lookup_limit"
    match.week()
    match.do("p1", "reveal_partner", bill=40)


def test_a_week_deadline_always_releases_the_same_kinds():
    """The public sees the same kinds in the same order and the same number of sealed events
    whatever was submitted (leak safety)."""
    quiet, busy = Match(), Match()
    busy.do("p1", "reveal_partner", bill=20)
    busy.do("p2", "paid_push", bill=30, direction="back")
    busy.do("p3", "vote", bills=[1])
    quiet_events, busy_events = quiet.week(), busy.week()
    assert kinds(quiet_events) == kinds(busy_events)
    assert [e.audience for e in quiet_events] == [e.audience for e in busy_events]
