"""Gifts and trades of trial copies (rules 4.6, 6.5, TM-R13, TM-R33, TM-R40, TM-R41).

After round 1 (harness): p1 holds Summer-Creature and Winter-Secret, p2 Summer-Future and
Spring-Secret.
"""

from __future__ import annotations

from tests.games.totemic_might.harness import ORDER_1A, SERIES, Match, after_round_one


def accounts(match: Match) -> dict[str, dict]:
    return {p: match.last("TransfersSettled", p).data for p in match.state.players}


def test_a_gift_is_silent_until_it_is_delivered():
    match = after_round_one()
    (proposed,) = match.do("p1", "give", to="p2", pieces=["T:Summer-Creature"])
    assert proposed.audience == ("p1",)
    assert proposed.data == {
        "round": 2, "proposer": "p1", "id": 1, "kind": "gift", "to": "p2",
        "give": ["T:Summer-Creature"], "receive": [],
    }
    match.deadline()
    settled = accounts(match)
    gift = {**proposed.data, "status": "executed"}
    del gift["round"]
    assert settled["p1"]["transfers"] == [gift]
    assert settled["p1"]["copies_out"] == {"Summer-Creature": 1}
    assert settled["p2"]["transfers"] == [gift]
    assert settled["p2"]["copies_in"] == {"Summer-Creature": 1}
    assert settled["p3"] == {"round": 2, "player": "p3", "transfers": [], "copies_in": {},
                             "copies_out": {}}
    assert match.held("p1").copies("Summer-Creature") == 0
    assert match.held("p2").copies("Summer-Creature") == 1


def test_mirrored_trades_execute_and_the_counterparty_sees_the_proposal():
    match = after_round_one()
    (offer,) = match.do("p1", "propose_trade", **{"with": "p2"}, give=["T:Winter-Secret"],
                        receive=["T:Spring-Secret"])
    assert offer.audience == ("p1", "p2")
    match.do("p2", "propose_trade", **{"with": "p1"}, give=["T:Spring-Secret"],
             receive=["T:Winter-Secret"])
    match.deadline()
    statuses = [t["status"] for t in accounts(match)["p1"]["transfers"]]
    assert statuses == ["executed", "executed"]
    assert match.held("p1").copies("Spring-Secret") == 1
    assert match.held("p1").copies("Winter-Secret") == 0
    assert match.held("p2").copies("Winter-Secret") == 1


def test_an_unmatched_trade_lapses_and_nothing_moves():
    match = after_round_one()
    match.do("p1", "propose_trade", **{"with": "p2"}, give=["T:Winter-Secret"],
             receive=["T:Spring-Secret"])
    match.do("p2", "propose_trade", **{"with": "p1"}, give=["T:Summer-Future"],
             receive=["T:Winter-Secret"])
    match.deadline()
    settled = accounts(match)
    assert [t["status"] for t in settled["p2"]["transfers"]] == ["lapsed", "lapsed"]
    assert settled["p1"]["copies_out"] == {} and settled["p2"]["copies_in"] == {}
    assert match.held("p1").copies("Winter-Secret") == 1


def twice_each() -> Match:
    """Series 1 three times; p1 bets 10 and p2 9 on A, both ranking ORDER_1A: p1 takes
    Summer-Creature and p2 Summer-Future in rounds 1 and 2."""
    match = Match(series=SERIES[:1] * 3)
    for _ in range(2):
        for player, amount in (("p1", 10), ("p2", 9)):
            match.do(player, "place_bet", series="A", amount=amount)
            match.do(player, "set_pick_order", series="A", order=ORDER_1A)
        match.deadline()
    return match


def test_two_identical_proposals_against_one_mirror_execute_once():
    match = twice_each()
    trade = {"with": "p2", "give": ["T:Summer-Creature"], "receive": ["T:Summer-Future"]}
    match.do("p1", "propose_trade", **trade)
    match.do("p1", "propose_trade", **trade)
    match.do("p2", "propose_trade", **{"with": "p1"}, give=["T:Summer-Future"],
             receive=["T:Summer-Creature"])
    match.deadline()
    settled = accounts(match)["p1"]
    statuses = {(t["proposer"], t["id"]): t["status"] for t in settled["transfers"]}
    assert statuses == {("p1", 1): "executed", ("p1", 2): "lapsed", ("p2", 1): "executed"}
    assert settled["copies_out"] == {"Summer-Creature": 1}
    assert settled["copies_in"] == {"Summer-Future": 1}


def test_pairing_follows_acceptance_order():
    """p2's proposal comes first and pairs with p1's earliest mirror."""
    match = twice_each()
    match.do("p2", "propose_trade", **{"with": "p1"}, give=["T:Summer-Future"],
             receive=["T:Summer-Creature"])
    trade = {"with": "p2", "give": ["T:Summer-Creature"], "receive": ["T:Summer-Future"]}
    match.do("p1", "propose_trade", **trade)
    match.do("p1", "propose_trade", **trade)
    match.deadline()
    statuses = [(t["proposer"], t["id"], t["status"]) for t in accounts(match)["p2"]["transfers"]]
    assert statuses == [("p2", 1, "executed"), ("p1", 1, "executed"), ("p1", 2, "lapsed")]


def test_cancelling_releases_the_lock_and_ids_count_per_proposer():
    match = after_round_one()
    match.do("p1", "give", to="p3", pieces=["T:Summer-Creature"])
    (second,) = match.do("p1", "propose_trade", **{"with": "p2"}, give=["T:Winter-Secret"],
                         receive=["T:Spring-Secret"])
    (other,) = match.do("p2", "give", to="p3", pieces=["T:Summer-Future"])
    assert (second.data["id"], other.data["id"]) == (2, 1)
    assert match.reject("p1", "weigh", left=["T:Summer-Creature"]) == "PIECE_LOCKED"
    (cancelled,) = match.do("p1", "cancel_transfer", id=1)
    assert cancelled.audience == ("p1",)
    match.do("p1", "weigh", left=["T:Summer-Creature"])
    (withdrawn,) = match.do("p1", "cancel_transfer", id=2)
    assert withdrawn.audience == ("p1", "p2")
    (third,) = match.do("p1", "give", to="p3", pieces=["T:Winter-Secret"])
    assert third.data["id"] == 3  # numbers are never reused within a round
    match.deadline()
    assert [t["id"] for t in accounts(match)["p1"]["transfers"]] == [3]
    assert match.held("p3").copies("Winter-Secret") == 1
    (next_round,) = match.do("p3", "give", to="p1", pieces=["T:Winter-Secret"])
    assert next_round.data["id"] == 1


def test_copies_received_by_transfer_are_usable_from_the_next_round():
    match = after_round_one()
    match.do("p1", "give", to="p2", pieces=["T:Summer-Creature"])
    assert match.reject("p2", "weigh", left=["T:Summer-Creature"]) == "PIECE_NOT_HELD"
    match.deadline()
    match.do("p2", "weigh", left=["T:Summer-Creature"])
