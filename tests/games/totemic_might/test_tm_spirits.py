"""Spirit totems for a round without a totem (rules 4.3, 6.3, TM-R9-R11, TM-R31, TM-R37)."""

from __future__ import annotations

import hashlib

from domain.decider import HOST, PUBLIC
from tests.games.totemic_might.harness import (
    ORDER_1A,
    ORDER_1B,
    PLAYERS,
    POOL,
    SERIES,
    Match,
    after_round_one,
    final_challenge,
)


def H(seed: str, *parts: object) -> int:
    text = "|".join(["totemic_might", seed, *(str(part) for part in parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")


def test_the_lone_owed_player_sees_the_pool_privately():
    match = after_round_one()
    shown = match.last("SpiritPoolShown")
    assert shown.audience == ("p7",)
    assert shown.data == {"round": 2, "player": "p7", "pool": POOL}


def test_the_lone_choice_is_granted_at_the_next_deadline():
    match = after_round_one()
    match.do("p7", "choose_spirit_totem", totem="Summer-Land")
    match.do("p7", "choose_spirit_totem", totem="Void-Sky")  # replaces the first choice
    assert "Void-Sky" not in match.held("p7").spirits  # nothing moves before the deadline
    match.deadline()
    resolved = match.last("SpiritGrantResolved")
    assert resolved.audience == HOST
    assert (resolved.data["totem"], resolved.data["source"], resolved.data["draw"]) == (
        "Void-Sky", "choice", None)
    granted = match.last("SpiritTotemGranted")
    assert granted.audience == PUBLIC
    assert granted.data == {"round": 2, "owed": ["p7"], "recipients": ["p7"], "pool_empty": False}
    received = match.last("SpiritTotemReceived")
    assert received.audience == ("p7",)
    assert received.data == {"round": 2, "player": "p7", "totem": "Void-Sky", "shared": False}
    assert match.held("p7").spirits == ("Spring-Creature", "Void-Sky")
    assert "Void-Sky" not in match.state.pool and len(match.state.pool) == 9
    # Usable from the next round on: 10 (Void-Sky) against 12 (Spring-Creature).
    weighed = match.do("p7", "weigh", left=["S:Void-Sky"], right=["S:Spring-Creature"])
    assert weighed[0].data["result"] == "RIGHT_HEAVIER"


def test_a_lone_player_who_does_not_choose_gets_the_default_draw():
    match = after_round_one(seed="spirit-seed")
    match.deadline()
    resolved = match.last("SpiritGrantResolved").data
    expected = POOL[H("spirit-seed", "spirit_default", 2, "p7") % 10]
    assert resolved["source"] == "spirit_default"
    assert resolved["draw"] == {"key": "spirit_default|2|p7", "candidates": POOL,
                                "outcome": expected, "pinned": False}
    assert match.held("p7").spirits[-1] == expected


def group_owed(**options) -> Match:
    """All bid 1. A (priority order): p7..p4 take the totems, p5 the garnet, p6 nothing.
    B (p6 p7 p1 ... p5 after the rotation): p6 takes the garnet first, p5 gets nothing.
    p5 and p6 won no totem: a group of two."""
    match = Match(**options)
    for player in PLAYERS:
        match.do(player, "set_pick_order", series="A", order=ORDER_1A)
        order_b = ["GARNET", *ORDER_1B[:-1]] if player == "p6" else ORDER_1B
        match.do(player, "set_pick_order", series="B", order=order_b)
    match.deadline()
    return match


def test_two_owed_players_share_one_drawn_totem():
    match = group_owed(seed="spirit-seed")
    assert match.state.owed == ("p5", "p6")
    assert match.all("SpiritPoolShown") == []  # a group never sees the pool
    assert match.reject("p5", "choose_spirit_totem", totem="Void-Sky") == "NOT_OWED_SPIRIT_CHOICE"
    match.deadline()
    shared = POOL[H("spirit-seed", "spirit_shared", 2) % 10]
    resolved = match.last("SpiritGrantResolved").data
    assert (resolved["source"], resolved["draw"]["key"], resolved["totem"]) == (
        "spirit_shared", "spirit_shared|2", shared)
    assert match.last("SpiritTotemGranted").data["recipients"] == ["p5", "p6"]
    received = match.all("SpiritTotemReceived")
    assert [(e.audience, e.data["totem"], e.data["shared"]) for e in received] == [
        (("p5",), shared, True), (("p6",), shared, True)]
    assert all("weight" not in e.data for e in received)
    assert shared not in match.state.pool


def test_a_pinned_shared_draw():
    match = group_owed(draws={"spirit_shared|2": "Winter-Sky"})
    match.deadline()
    assert match.held("p5").spirits == ("Summer-Sky", "Winter-Sky")
    assert match.last("SpiritGrantResolved").data["draw"]["pinned"] is True


def test_an_empty_pool_grants_nothing_and_the_debt_lapses():
    """Round after round the same series and orders: someone is owed every time, and each
    grant takes one pool totem; once the ten are gone a grant finds the pool empty."""
    match = Match(series=SERIES[:1] * 20, end_player_count=7)
    for _ in range(20):
        for player in PLAYERS:
            match.do(player, "set_pick_order", series="A", order=ORDER_1A)
            match.do(player, "set_pick_order", series="B", order=ORDER_1B)
        match.deadline()
        if not match.state.pool and match.state.owed:
            break
    granted = [e.data for e in match.all("SpiritTotemGranted")]
    assert sum(not g["pool_empty"] for g in granted) == 10
    owed, round_number = match.state.owed, match.state.round
    events = match.deadline()
    assert match.last("SpiritTotemGranted").data == {
        "round": round_number, "owed": list(owed), "recipients": [], "pool_empty": True}
    assert not [e for e in events if e.kind in ("SpiritGrantResolved", "SpiritTotemReceived")]


def test_owed_after_the_last_auction_choose_in_the_final_weighing_round():
    match = final_challenge()
    assert match.last("SpiritTotemReceived").data["totem"] == "Void-Land"
    assert "S:Void-Land" in match.state.challenge["p7"].pieces
