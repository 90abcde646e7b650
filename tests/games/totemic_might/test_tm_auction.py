"""The auction (rules 4.1, 5, 6.1, 6.2, 6.7, TM-R1-R7, TM-R9, TM-R21), worked out by hand."""

from __future__ import annotations

import hashlib

from domain.decider import HOST, PUBLIC, Posting
from tests.games.totemic_might.harness import (
    ORDER_1A,
    ORDER_1B,
    PLAYERS,
    ROUND_ONE_HOLDINGS,
    Match,
    after_round_one,
    kinds,
)


def bids_record(match: Match, series: str, round_number: int = 1):
    return next(e for e in match.all("SeriesBidsRecorded")
                if (e.data["series"], e.data["round"]) == (series, round_number))


def allocation(match: Match, series: str, round_number: int = 1):
    return next(e for e in match.all("SeriesResolved")
                if (e.data["series"], e.data["round"]) == (series, round_number))


def everyone_orders(match: Match) -> None:
    for player in PLAYERS:
        match.do(player, "set_pick_order", series="A", order=ORDER_1A)
        match.do(player, "set_pick_order", series="B", order=ORDER_1B)


def test_round_one_as_worked_out_in_the_harness():
    match = after_round_one()
    assert allocation(match, "A").data["allocation"] == {
        "p1": "Summer-Creature", "p2": "Summer-Future", "p3": "Void-Land", "p4": "Spring-Sky",
        "p5": "Winter-Future", "p6": "GARNET", "p7": None,
    }
    assert allocation(match, "B").data["allocation"] == {
        "p1": "Winter-Secret", "p2": "Spring-Secret", "p3": "Void-Sky", "p4": "Winter-Sky",
        "p5": "GARNET", "p6": "Summer-Land", "p7": None,
    }
    assert match.last("ChipsUpdated").data["chips"] == {
        "p1": 105, "p2": 105, "p3": 105, "p4": 109, "p5": 111, "p6": 113, "p7": 115,
    }
    assert match.last("SpiritTotemsOwed").data["players"] == ["p7"]
    for player, copies in ROUND_ONE_HOLDINGS.items():
        assert dict(match.held(player).trial) == copies
    # No ties, so the priority list is republished unchanged.
    assert match.last("PriorityListUpdated").data["priority_list"] == [
        "p7", "p1", "p2", "p3", "p4", "p5", "p6",
    ]


def test_the_series_garnet_is_a_public_posting():
    match = after_round_one()
    a, b = allocation(match, "A"), allocation(match, "B")
    assert a.audience == PUBLIC and b.audience == PUBLIC
    assert a.postings == (Posting("p6", "garnets", 1, "series_garnet"),)
    assert b.postings == (Posting("p5", "garnets", 1, "series_garnet"),)
    assert match.ledger["garnets"]["p6"] == 1 and match.ledger["garnets"]["p5"] == 1


def test_bids_stay_host_only():
    match = after_round_one()
    record = bids_record(match, "A")
    assert record.audience == HOST
    assert record.data["bids"] == {"p1": 10, "p2": 9, "p3": 8, "p4": 7, "p5": 6, "p6": 5, "p7": 4}
    assert record.data["order"] == ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]
    assert all("bids" not in e.data for e in match.public())


def test_the_deadline_publishes_in_the_listed_order():
    match = Match()
    events = match.deadline()
    public = [e.kind for e in events if e.audience == PUBLIC]
    assert public == [
        "SeriesResolved", "SeriesResolved", "ChipsUpdated", "PriorityListUpdated",
        "SpiritTotemsOwed", "RoundOpened",
    ]


def test_default_bets_of_one_and_the_full_rotation():
    """Nobody bets: 1 chip on each series. A: all seven tie in priority order p7 p1 p2 p3 p4
    p5 p6; the first six move to the bottom, p6 stays on top: p6 p7 p1 p2 p3 p4 p5. B sees
    that list: p6 p7 ... p4 move, p5 stays: p5 p6 p7 p1 p2 p3 p4."""
    match = Match()
    everyone_orders(match)
    match.deadline()
    assert bids_record(match, "A").data["bids"] == dict.fromkeys(PLAYERS, 1)
    assert bids_record(match, "A").data["priority_after"] == [
        "p6", "p7", "p1", "p2", "p3", "p4", "p5"]
    assert bids_record(match, "B").data["order"] == ["p6", "p7", "p1", "p2", "p3", "p4", "p5"]
    assert match.last("PriorityListUpdated").data["priority_list"] == [
        "p5", "p6", "p7", "p1", "p2", "p3", "p4"]
    assert allocation(match, "A").data["allocation"] == {
        "p7": "Summer-Creature", "p1": "Summer-Future", "p2": "Void-Land", "p3": "Spring-Sky",
        "p4": "Winter-Future", "p5": "GARNET", "p6": None,
    }
    assert allocation(match, "B").data["allocation"] == {
        "p6": "Void-Sky", "p7": "Spring-Secret", "p1": "Winter-Secret", "p2": "Winter-Sky",
        "p3": "Summer-Land", "p4": "GARNET", "p5": None,
    }
    assert match.state.chips == dict.fromkeys(PLAYERS, 118)
    assert match.state.owed == ("p5",)


def test_first_only_rotation_variant():
    """Only the first of a tie group moves: A p7 -> p1..p6 p7; B p1 -> p2..p7 p1."""
    match = Match(tie_rotation="first_only")
    everyone_orders(match)
    match.deadline()
    assert bids_record(match, "A").data["priority_after"] == [
        "p1", "p2", "p3", "p4", "p5", "p6", "p7"]
    assert match.state.priority == ("p2", "p3", "p4", "p5", "p6", "p7", "p1")


def test_tie_groups_rotate_from_the_highest_bid_down():
    """A: p1 p2 bid 5, p3 p4 p5 bid 3, p6 p7 bid 1. Order p1 p2 | p3 p4 p5 | p7 p6.
    p1 moves; then p3, p4; then p7: p2 p5 p6 p1 p3 p4 p7."""
    match = Match()
    for player, amount in {"p1": 5, "p2": 5, "p3": 3, "p4": 3, "p5": 3}.items():
        match.do(player, "place_bet", series="A", amount=amount)
    everyone_orders(match)
    match.deadline()
    record = bids_record(match, "A").data
    assert record["order"] == ["p1", "p2", "p3", "p4", "p5", "p7", "p6"]
    assert record["priority_after"] == ["p2", "p5", "p6", "p1", "p3", "p4", "p7"]


def test_later_bets_replace_earlier_ones():
    match = Match()
    match.do("p1", "place_bet", series="A", amount=9)
    match.do("p1", "place_bet", series="A", amount=2)
    match.deadline()
    assert bids_record(match, "A").data["bids"]["p1"] == 2


def H(seed: str, *parts: object) -> int:
    text = "|".join(["totemic_might", seed, *(str(part) for part in parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")


def test_a_missing_pick_order_draws_among_the_available_items():
    """All bid 1, nobody ranks A: p7 picks first from all six (canonical order, GARNET last),
    by `pick|1|A|p7`; p1 then from the five left."""
    match = Match(seed="pick-seed")
    match.deadline()
    draws = bids_record(match, "A").data["draws"]
    items = ["Summer-Creature", "Summer-Future", "Void-Land", "Spring-Sky", "Winter-Future",
             "GARNET"]
    first = items[H("pick-seed", "pick", 1, "A", "p7") % 6]
    assert draws[0] == {"key": "pick|1|A|p7", "candidates": items, "outcome": first,
                        "pinned": False}
    left = [item for item in items if item != first]
    assert draws[1]["candidates"] == left
    assert draws[1]["outcome"] == left[H("pick-seed", "pick", 1, "A", "p1") % 5]
    assert [d["key"] for d in draws] == [f"pick|1|A|{p}" for p in
                                         ("p7", "p1", "p2", "p3", "p4", "p5")]


def test_pinned_picks_are_used_when_still_available():
    match = Match(seed="pick-seed", draws={"pick|1|A|p7": "Winter-Future",
                                           "pick|1|A|p1": "Winter-Future"})
    match.deadline()
    draws = bids_record(match, "A").data["draws"]
    assert (draws[0]["outcome"], draws[0]["pinned"]) == ("Winter-Future", True)
    # p1's pin is taken already: the seed decides instead.
    left = ["Summer-Creature", "Summer-Future", "Void-Land", "Spring-Sky", "GARNET"]
    assert draws[1]["pinned"] is False
    assert draws[1]["outcome"] == left[H("pick-seed", "pick", 1, "A", "p1") % 5]


def test_one_chip_bids_on_a_only_and_no_chips_bid_on_nothing():
    """31 chips; p1 spends 15 a round: 16 after round 1 (default B on 2+ chips), 1 after round
    2; in round 3 p1 bids the default 1 on A only; after that 0 chips: no bids, nothing won,
    owed a spirit totem."""
    match = Match(starting_chips=31, end_player_count=7)
    for _ in range(2):
        match.do("p1", "place_bet", series="A", amount=10)
        match.do("p1", "place_bet", series="B", amount=5)
        match.deadline()
    assert match.state.chips["p1"] == 1
    match.deadline()
    assert bids_record(match, "A", 3).data["bids"]["p1"] == 1
    assert "p1" not in bids_record(match, "B", 3).data["bids"]
    assert allocation(match, "B", 3).data["allocation"]["p1"] is None
    assert match.state.chips["p1"] == 0
    match.deadline()
    assert "p1" not in bids_record(match, "A", 4).data["bids"]
    assert allocation(match, "A", 4).data["allocation"]["p1"] is None
    assert "p1" in match.last("SpiritTotemsOwed").data["players"]


def test_both_bids_are_fixed_before_paying():
    """Two chips each: the default B bet survives paying for A (6.1 step 1)."""
    match = Match(starting_chips=2)
    match.deadline()
    assert bids_record(match, "B").data["bids"] == dict.fromkeys(PLAYERS, 1)
    assert match.state.chips == dict.fromkeys(PLAYERS, 0)


def test_the_auctions_end_once_three_players_are_at_fifteen_or_fewer():
    """30 chips. Round 1: p1 and p2 spend 15 (15 left), the rest 2 (28): two low, go on.
    Round 2: p3 spends 15 (13 left): three low, so round 3 is the final weighing round."""
    match = Match(starting_chips=30)
    for player in ("p1", "p2"):
        match.do(player, "place_bet", series="A", amount=10)
        match.do(player, "place_bet", series="B", amount=5)
    match.deadline()
    assert match.last("RoundOpened").data["round_type"] == "auction"
    assert match.state.chips["p1"] == 15
    match.do("p3", "place_bet", series="A", amount=10)
    match.do("p3", "place_bet", series="B", amount=5)
    events = match.deadline()
    assert kinds(events)[-2:] == ["AuctionsEnded", "RoundOpened"]
    assert events[-2].data == {"after_round": 2}
    assert events[-1].data == {"round": 3, "round_type": "final_weighing", "series": None}
    assert match.state.phase == "final_weighing"


def test_the_final_weighing_deadline_runs_no_auction_and_no_transfers():
    match = after_round_one(starting_chips=16)
    events = match.deadline()
    assert "SeriesResolved" not in kinds(events)
    assert "TransfersSettled" not in kinds(events)
    assert "ChipsUpdated" not in kinds(events)
    assert kinds(events).count("WagerSettled") == 7
    assert "FinalChallengeOpened" in kinds(events)
