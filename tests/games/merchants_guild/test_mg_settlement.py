"""The settlement (rulebook §8, MG-R22..R31): house ranks, gold, blackmail, tax, losers,
garnets, ToLs.

Each test sets the final house state (and registered blackmails, pass counts) on a guild at
week 8 and closes the week with no votes, so the settlement runs on exactly that state.
Alignments: p1 RGU, p2 RGK, p3 RGW, p4 RUK, p5 RUW, p6 RKW, p7 GUK, p8 GUW, p9 GKW, p10 UKW
(R red, G green, U blue, K black, W white).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain.decider import PUBLIC, Posting
from domain.games import merchants_guild as mg
from domain.games.merchants_guild.houses import from_listing
from tests.games.merchants_guild.mg_harness import PLAYERS, Match, houses, kinds


def settled(
    listing: list[dict[str, Any]],
    blackmails: tuple[tuple[str, str], ...] = (),
    pass_counts: dict[str, int] | None = None,
    **options: Any,
) -> Match:
    match = Match(**options)
    match.skip_to(8)
    match.state = replace(
        match.state,
        houses=from_listing(listing),
        blackmails=blackmails,
        pass_counts=pass_counts or {},
    )
    match.week()
    return match


def column(match: Match, key: str) -> dict[str, Any]:
    return {row["player"]: row[key] for row in match.last("MatchSettled").data["gold"]}


def tols(match: Match) -> dict[str, int]:
    return {p: n for p, n in match.ledger["tol"].items() if n}


# Ranked 1..5 with no tie: red (3,1,1) total 5 beats green (1,3,1) and blue (1,1,3) on forges,
# green beats blue on ships; black (2,1,1) total 4; white (1,1,1) total 3. Gold per contact 3, 2,
# 1, 0, 0: p1 6, p2 5, p3 5, p4 4, p5 4, p6 3, p7 3, p8 3, p9 2, p10 1.
STAIRS = houses(red=(3, 1, 1), green=(1, 3, 1), blue=(1, 1, 3), black=(2, 1, 1))
STAIRS_GOLD = {"p1": 6, "p2": 5, "p3": 5, "p4": 4, "p5": 4,
               "p6": 3, "p7": 3, "p8": 3, "p9": 2, "p10": 1}  # fmt: skip


def test_a_player_who_cannot_pay_loses_and_the_richest_payer_wins_two_tols():
    """p10 has 1 gold: hands it over and is the only loser (p9's 0 after tax does not lose: the
    least-gold rule is not applied on top). p1 alone has the most (4): 2 ToLs. Bills: p10's 9
    does not compete; p2 and p3 share 5; p4 alone has 3: 1 ToL."""
    passes = {"p10": 9, "p2": 5, "p3": 5, "p4": 3, "p1": 1}
    match = settled(STAIRS, pass_counts=passes)
    settlement = match.last("MatchSettled")
    assert settlement.audience == PUBLIC
    assert [row["house"] for row in settlement.data["ranking"]] == HOUSE_ORDER
    assert [row["rank"] for row in settlement.data["ranking"]] == [1, 2, 3, 4, 5]
    assert [row["gold_per_contact"] for row in settlement.data["ranking"]] == [3, 2, 1, 0, 0]
    assert settlement.data["ranking"][0] == {
        "house": "red", "rank": 1, "forges": 3, "ships": 1, "markets": 1, "total": 5,
        "gold_per_contact": 3, "contacts": ["p1", "p2", "p3", "p4", "p5", "p6"],
    }  # fmt: skip
    assert column(match, "gold_from_houses") == STAIRS_GOLD
    assert column(match, "paid_tax") == {p: p != "p10" for p in PLAYERS}
    assert column(match, "tax_taken") == {p: 1 if p == "p10" else 2 for p in PLAYERS}
    after = {"p1": 4, "p2": 3, "p3": 3, "p4": 2, "p5": 2,
             "p6": 1, "p7": 1, "p8": 1, "p9": 0, "p10": 0}  # fmt: skip
    assert column(match, "gold_after_tax") == after
    assert settlement.data["outcome"] == "non_payers"
    assert settlement.data["losers"] == ["p10"] and settlement.data["winners"] == ["p1"]
    assert settlement.postings == (Posting("p10", "ec", 1, "elimination_candidate"),)
    assert tols(match) == {"p1": 2, "p4": 1}
    bills = match.last("ToLAwarded")
    assert bills.data == {"player": "p4", "count": 1, "reason": "bills", "pass_count": 3}
    assert {p: n for p, n in match.ledger["garnets"].items()} == after  # nothing was spent
    assert mg.results(match.state)["ranks"] == {p: 1 if p == "p1" else 3 if p == "p10" else 2
                                                for p in PLAYERS}  # fmt: skip


HOUSE_ORDER = ["red", "green", "blue", "black", "white"]


def test_the_settlement_events_and_their_audiences():
    match = settled(STAIRS, pass_counts={"p4": 3})
    assert kinds(match.log[-16:]) == [
        "WeekResolved", "VotesRecorded", "MatchSettled", "GarnetsGained",
        "ToLAwarded", "ToLAwarded", *["TotalsDisclosed"] * 10,
    ]  # fmt: skip
    gained = match.last("GarnetsGained")
    assert gained.audience == PUBLIC
    assert gained.data["gains"][0] == {"player": "p1", "amount": 4}
    assert Posting("p9", "garnets", 0, "gold_converted") not in gained.postings  # nothing moved
    totals = [e for e in match.log if e.kind == "TotalsDisclosed"]
    assert [e.audience for e in totals] == [(p,) for p in PLAYERS]
    assert totals[3].data == {
        "player": "p4", "pass_count": 3, "garnets_spent": 0, "garnets_gained": 2,
        "garnet_delta": 2, "final_balance": 12,
    }  # fmt: skip
    assert mg.finished(match.state) and match.reject("p1", "vote", bills=[]) == "match_over"


def test_the_settlement_discloses_alignments_pairing_and_the_bills_never_presented():
    """No nominations: weeks 1..8 present pairs (1,2) .. (47,48); 49..60 never came."""
    match = settled(STAIRS)
    data = match.last("MatchSettled").data
    assert data["never_presented"] == list(range(49, 61))
    assert data["pairing"] == [[n, n + 1] for n in range(1, 61, 2)]
    assert data["alignments"]["p10"] == ["blue", "black", "white"]


def test_variant_take_none_lets_the_insolvent_keep_their_gold():
    match = settled(STAIRS, insolvent_tax="take_none")
    assert column(match, "tax_taken")["p10"] == 0
    assert column(match, "gold_after_tax")["p10"] == 1
    assert match.last("MatchSettled").data["losers"] == ["p10"]
    assert match.ledger["garnets"]["p10"] == 1


def test_variant_all_then_require_payer_gives_nobody_the_bills_tol_if_the_top_did_not_pay():
    match = settled(
        STAIRS, pass_counts={"p10": 9, "p4": 3}, bills_tol_field="all_then_require_payer"
    )
    assert tols(match) == {"p1": 2}


def test_shared_ranks_pay_by_rank_number_and_two_to_six_richest_get_one_tol_each():
    """red and green identical (2,2,2): both rank 1 (3 gold); blue, black, white tie at rank 3
    (1 gold); nobody pays 2. p1-p3 7, p4-p9 5, p10 3; after tax 5, 3, 1. All paid: p10 alone
    at the least loses. p1, p2, p3 share the most: 1 ToL each. Bills: 4 is held by three, 2 by
    two, 1 by p8 alone."""
    listing = houses(red=(2, 2, 2), green=(2, 2, 2))
    passes = {"p1": 4, "p2": 4, "p5": 4, "p6": 2, "p7": 2, "p8": 1}
    match = settled(listing, pass_counts=passes)
    data = match.last("MatchSettled").data
    assert [(r["house"], r["rank"], r["gold_per_contact"]) for r in data["ranking"]] == [
        ("red", 1, 3), ("green", 1, 3), ("blue", 3, 1), ("black", 3, 1), ("white", 3, 1),
    ]  # fmt: skip
    assert column(match, "gold_before_tax") == {
        p: 7 if p in ("p1", "p2", "p3") else 3 if p == "p10" else 5 for p in PLAYERS
    }
    assert data["outcome"] == "least_gold" and data["losers"] == ["p10"]
    assert data["winners"] == ["p1", "p2", "p3"]
    assert tols(match) == {"p1": 1, "p2": 1, "p3": 1, "p8": 1}


def test_ties_in_total_go_to_forges_then_ships_then_markets():
    """All at total 4: black has the most forges (rank 1); blue and white (1,2,1) beat red and
    green (1,1,2) on ships; identical vectors share a rank: 1, 2, 2, 4, 4 (3, 2, 2, 0, 0 gold)."""
    listing = houses(
        red=(1, 1, 2), green=(1, 1, 2), blue=(1, 2, 1), black=(2, 1, 1), white=(1, 2, 1)
    )
    match = settled(listing)
    ranking = match.last("MatchSettled").data["ranking"]
    assert [(r["house"], r["rank"]) for r in ranking] == [
        ("black", 1), ("blue", 2), ("white", 2), ("red", 4), ("green", 4),
    ]  # fmt: skip
    assert [r["gold_per_contact"] for r in ranking] == [3, 2, 2, 0, 0]


def test_six_at_the_top_share_and_seven_get_nothing():
    """red rank 1 (3), the rest tied at rank 2 (2): p1-p6 7, p7-p10 6; after tax 5 and 4.
    Six at the top: 1 ToL each; p7-p10 lose. Then p7 blackmails p10 (p10 pays 1 of his 6):
    p7 has 7 too, seven tie at the top: no ToL, and p10 alone (3 after tax) loses."""
    listing = houses(red=(2, 1, 1))
    six = settled(listing)
    assert tols(six) == dict.fromkeys(["p1", "p2", "p3", "p4", "p5", "p6"], 1)
    assert six.last("MatchSettled").data["losers"] == ["p7", "p8", "p9", "p10"]
    seven = settled(listing, blackmails=(("p7", "p10"),))
    data = seven.last("MatchSettled").data
    assert tols(seven) == {}
    assert data["winners"] == PLAYERS[:7] and data["losers"] == ["p10"]
    assert data["transfers"] == [{"from": "p10", "to": "p7", "amount": 1}]
    assert data["blackmails"] == [{"target": "p10", "blackmailers": ["p7"], "paid": True}]
    assert column(seven, "blackmail_received")["p7"] == 1
    assert column(seven, "blackmail_paid")["p10"] == 1


def test_all_ten_tied_all_lose_with_no_winner_and_a_paying_loser_can_take_the_bills_tol():
    """Nothing passed: all houses rank 1, everyone 9 - 2 = 7: all ten lose (MG-R27), ten tie for
    the most (no ToL); p5's unique 2 passes still earns the bills ToL."""
    match = settled(houses(), pass_counts={"p5": 2})
    data = match.last("MatchSettled").data
    assert data["outcome"] == "all_tied"
    assert data["losers"] == PLAYERS and data["winners"] == []
    assert tols(match) == {"p5": 1}
    assert match.ledger["ec"] == dict.fromkeys(PLAYERS, 1)
    assert set(mg.results(match.state)["ranks"].values()) == {3}


def test_variant_none_spares_everyone_when_all_ten_tie():
    match = settled(houses(), all_tied_losers="none")
    data = match.last("MatchSettled").data
    assert data["losers"] == [] and data["winners"] == PLAYERS
    assert tols(match) == {} and not any(match.ledger["ec"].values())
    assert set(mg.results(match.state)["ranks"].values()) == {1}


def test_one_player_can_stack_both_most_gold_tols_and_the_bills_tol():
    match = settled(STAIRS, pass_counts={"p1": 7, "p2": 6})
    assert tols(match) == {"p1": 3}
    awards = [e.data for e in match.log if e.kind == "ToLAwarded"]
    assert awards == [
        {"player": "p1", "count": 2, "reason": "most_gold"},
        {"player": "p1", "count": 1, "reason": "bills", "pass_count": 7},
    ]


# Blackmail (MG-R22): gold from houses STAIRS_GOLD; p6 and p7 blackmail each other; p9 blackmails
# p8; p1, p2 and p3 blackmail p9.
BLACKMAILS = (("p7", "p6"), ("p6", "p7"), ("p9", "p8"), ("p1", "p9"), ("p2", "p9"), ("p3", "p9"))


def test_simultaneous_blackmail_judges_every_victim_on_gold_from_houses():
    """p6 and p7 (3 each) pay each other; p8 (3) pays p9; p9 has 2 from houses < 3 blackmailers:
    pays nobody, and the gold from p8 does not count. Before tax: p8 2, p9 3."""
    match = settled(STAIRS, blackmails=BLACKMAILS)
    data = match.last("MatchSettled").data
    assert data["blackmails"] == [
        {"target": "p6", "blackmailers": ["p7"], "paid": True},
        {"target": "p7", "blackmailers": ["p6"], "paid": True},
        {"target": "p8", "blackmailers": ["p9"], "paid": True},
        {"target": "p9", "blackmailers": ["p1", "p2", "p3"], "paid": False},
    ]
    assert data["transfers"] == [
        {"from": "p6", "to": "p7", "amount": 1},
        {"from": "p7", "to": "p6", "amount": 1},
        {"from": "p8", "to": "p9", "amount": 1},
    ]
    assert column(match, "gold_before_tax") == {**STAIRS_GOLD, "p8": 2, "p9": 3}
    assert data["losers"] == ["p10"]


def test_sequential_blackmail_lets_earlier_income_pay_later_blackmailers():
    """Seat order: p6 pays p7 (2/4), p7 pays p6 (3/3), p8 pays p9 (p9 now 3), p9 holds 3 for 3
    blackmailers: pays p1, p2, p3. Before tax p1 7, p2 6, p3 6, p8 2, p9 0: p9 and p10 cannot
    pay the tax and lose."""
    match = settled(STAIRS, blackmails=BLACKMAILS, blackmail_evaluation="sequential_seat_order")
    data = match.last("MatchSettled").data
    assert data["blackmails"][-1] == {"target": "p9", "blackmailers": ["p1", "p2", "p3"],
                                      "paid": True}  # fmt: skip
    expected = {**STAIRS_GOLD, "p1": 7, "p2": 6, "p3": 6, "p8": 2, "p9": 0}
    assert column(match, "gold_before_tax") == expected
    assert data["losers"] == ["p9", "p10"] and data["winners"] == ["p1"]


def test_garnet_totals_are_gold_after_tax_less_what_was_spent():
    """p1 pushes (1) and looks up (1) in week 1, buys an extra investigation (5) in week 4: 7
    spent. With STAIRS p1 converts 4 gold: delta -3, final 10 - 7 + 4 = 7."""
    match = Match()
    match.do("p1", "paid_push", bill=9, direction="forward")
    match.do("p1", "reveal_partner", bill=40)
    match.skip_to(4)
    match.do("p1", "extra_investigate", target="p2", houses=["red", "green", "black"])
    match.skip_to(8)
    match.state = replace(match.state, houses=from_listing(STAIRS))
    match.week()
    totals = match.last("TotalsDisclosed", ("p1",)).data
    assert totals == {
        "player": "p1", "pass_count": 0, "garnets_spent": 7, "garnets_gained": 4,
        "garnet_delta": -3, "final_balance": 7,
    }  # fmt: skip
    assert match.ledger["garnets"]["p1"] == -3
