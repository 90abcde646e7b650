"""The auction phase (rulebook section 4.2): opening, open alternating bids, folds and auto-folds,
prices, the opener rule, the next-tile choice and where each group starts."""

from __future__ import annotations

from domain.decider import HOST, PUBLIC
from tests.games.tile_joust.tj_harness import (
    ANN,
    BOB,
    DM_ORDER_1,
    DM_ORDERINGS,
    DM_SET_1,
    Match,
    kinds,
)


def test_the_opening_publishes_roles_and_chips_and_seals_the_orderings():
    match = Match()
    assert kinds(match.log) == [
        "TileJoustOpened",
        "OrderingsRecorded",
        "GroupOpened",
        "AuctionOpened",
    ]
    opened, recorded, group, auction = match.log
    assert opened.audience == PUBLIC
    assert {key: opened.data[key] for key in ("players", "variant", "dmo", "ec", "starter")} == {
        "players": [ANN, BOB],
        "variant": "death_match",
        "dmo": ANN,
        "ec": BOB,
        "starter": ANN,
    }
    assert opened.data["chips"] == {ANN: 90, BOB: 90}
    assert opened.data["config"]["joust_tile_cap"] == 5
    assert recorded.audience == HOST
    assert recorded.data["orderings"] == {str(n): DM_ORDERINGS[n - 1] for n in (1, 2, 3)}
    assert recorded.data["drawn"] == []
    # Group 1 of set 1: {2, 5, 9} shows black, white, white and starts with its Balance tile.
    assert group.data == {
        "set": 1,
        "group": 1,
        "colours": {"M": "BLACK", "B": "WHITE", "G": "WHITE"},
        "first_label": "B",
    }
    assert auction.data == {"set": 1, "group": 1, "label": "B", "opener": ANN}


def test_bids_alternate_and_the_winner_pays_the_last_bid():
    match = Match()
    match.do(ANN, "bid", amount=3)
    match.do(BOB, "bid", amount=5)
    match.do(ANN, "bid", amount=6)
    events = match.do(BOB, "fold")
    assert kinds(events)[:3] == ["Folded", "TileWon", "TileValueShown"]
    folded, won, value = events[:3]
    assert folded.data["reason"] == "fold" and folded.actor == BOB
    assert won.audience == PUBLIC
    assert won.data == {
        "set": 1,
        "group": 1,
        "label": "B",
        "winner": ANN,
        "price": 6,
        "chips": {ANN: 84, BOB: 90},
        "hands": {ANN: 1, BOB: 0},
    }
    assert value.audience == (ANN,)
    assert value.data == {
        "player": ANN,
        "tile": "s1g1B",
        "set": 1,
        "group": 1,
        "label": "B",
        "value": 5,
        "colour": "WHITE",
    }
    bids = [(e.data["player"], e.data["amount"]) for e in match.all("BidPlaced")]
    assert bids == [(ANN, 3), (BOB, 5), (ANN, 6)]
    assert all(e.audience == PUBLIC for e in match.all("BidPlaced"))


def test_an_opener_who_folds_gives_the_tile_to_the_other_for_nothing():
    match = Match()
    match.do(ANN, "fold")
    won = match.last("TileWon")
    assert (won.data["winner"], won.data["price"]) == (BOB, 0)
    assert won.data["chips"] == {ANN: 90, BOB: 90}


def test_an_opening_bid_of_zero_is_allowed_and_a_reply_must_be_higher():
    match = Match()
    match.do(ANN, "bid", amount=0)
    assert match.reject(BOB, "bid", amount=0) == "BID_NOT_ABOVE_CURRENT"
    match.do(BOB, "bid", amount=1)
    match.do(ANN, "fold")
    assert match.last("TileWon").data["price"] == 1


def test_a_player_who_cannot_raise_folds_at_once():
    match = Match(starting_chips=10)
    events = match.do(ANN, "bid", amount=10)  # bob holds 10: he cannot go above 10
    assert kinds(events)[:3] == ["BidPlaced", "Folded", "TileWon"]
    assert events[1].data["reason"] == "cannot_raise" and events[1].data["player"] == BOB
    assert match.last("TileWon").data["chips"] == {ANN: 0, BOB: 10}
    match.do(ANN, "choose_next_tile", label="M")
    # ann opens with no chips: 0 is still a bid; bob raises to 1 and ann cannot follow.
    match.do(ANN, "bid", amount=0)
    events = match.do(BOB, "bid", amount=1)
    assert kinds(events)[:3] == ["BidPlaced", "Folded", "TileWon"]
    assert match.last("TileWon").data["winner"] == BOB
    assert match.last("TileWon").data["chips"] == {ANN: 0, BOB: 9}


def test_bidding_more_than_you_hold_is_refused():
    match = Match(starting_chips=10)
    assert match.reject(ANN, "bid", amount=11) == "BID_EXCEEDS_CHIPS"
    match.do(ANN, "bid", amount=9)
    assert match.state.chips[ANN] == 10  # nothing is paid before the auction is won
    assert match.reject(BOB, "bid", amount=11) == "BID_EXCEEDS_CHIPS"


def test_a_timeout_on_a_bidding_turn_is_a_fold():
    match = Match()
    match.do(ANN, "bid", amount=4)
    events = match.timeout(BOB)
    assert events[0].kind == "Folded" and events[0].data["reason"] == "timeout"
    assert match.last("TileWon").data == {
        "set": 1,
        "group": 1,
        "label": "B",
        "winner": ANN,
        "price": 4,
        "chips": {ANN: 86, BOB: 90},
        "hands": {ANN: 1, BOB: 0},
    }


def test_variant_min_opening_bid():
    match = Match(min_opening_bid=1)
    assert match.reject(ANN, "bid", amount=0) == "BID_NOT_ABOVE_CURRENT"
    match.do(ANN, "bid", amount=1)
    assert match.state.auction.high_bid == 1


def test_an_opener_below_the_minimum_opening_bid_folds_at_once():
    match = Match(starting_chips=0, min_opening_bid=1)
    assert kinds(match.log)[4:7] == ["Folded", "TileWon", "TileValueShown"]
    assert match.log[4].data["player"] == ANN and match.log[4].data["reason"] == "cannot_raise"
    assert match.state.chooser == BOB
    # bob chooses and opens the next auction, and cannot open either: ann gets it for 0; and
    # so on: with no chips on either side every opener folds at once, up to the next choice
    # (group 2: bob, who won M, opens and loses its first tile to ann).
    match.do(BOB, "choose_next_tile", label="G")
    second = match.all("TileWon")[1].data
    assert (second["label"], second["winner"], second["price"]) == ("G", ANN, 0)
    winners = [e.data["winner"] for e in match.all("TileWon")]
    assert winners == [BOB, ANN, BOB, ANN] and match.state.chooser == ANN


def test_the_previous_winner_opens_across_groups_and_the_starter_opens_each_set():
    match = Match()
    match.sell_all([ANN, ANN, BOB, ANN, BOB, BOB, BOB, BOB, BOB, ANN, ANN, BOB])
    openers = [e.data["opener"] for e in match.all("AuctionOpened")]
    assert openers == [ANN, ANN, ANN, BOB, ANN, BOB, BOB, BOB, BOB, BOB, ANN, ANN]
    # 5 tiles to 7: ann gets x1 and the set's jousts begin; end the set with an empty joust.
    match.step(None, None)
    assert match.last("SetEnded").data["reason"] == "empty_joust"
    assert match.last("AuctionOpened").data == {"set": 2, "group": 1, "label": "B", "opener": ANN}


def test_the_first_winner_of_a_group_chooses_the_next_label():
    match = Match()
    match.sell(BOB)
    assert match.state.phase == "next_tile" and match.state.chooser == BOB
    assert match.reject(ANN, "choose_next_tile", label="G") == "NOT_YOUR_CHOICE"
    assert match.reject(BOB, "choose_next_tile", label="B") == "INVALID_TILE_CHOICE"
    events = match.do(BOB, "choose_next_tile", label="G")
    chosen, opened = events
    assert chosen.audience == PUBLIC
    assert chosen.data == {"set": 1, "group": 1, "label": "G", "chooser": BOB, "by_default": False}
    assert opened.data == {"set": 1, "group": 1, "label": "G", "opener": BOB}
    match.sell(ANN)
    assert match.last("AuctionOpened").data["label"] == "M"  # the last one left


def test_a_group_starts_nearest_the_third_tile_of_the_previous_group():
    match = Match()
    match.sell(BOB)
    match.do(BOB, "choose_next_tile", label="G")
    match.sell_all([ANN, ANN])  # G = 9, then M = 2: the third tile auctioned is 2
    # Group 2 {1, 7, 13} against 2: distances 1, 5, 11: the Minute tile starts.
    computed = match.last("GroupStartComputed")
    assert computed.audience == HOST
    assert computed.data == {
        "set": 1,
        "group": 2,
        "reference": 2,
        "distances": {"M": 1, "B": 5, "G": 11},
        "tie": False,
        "label": "M",
    }
    assert match.last("GroupOpened").data == {
        "set": 1,
        "group": 2,
        "colours": {"M": "WHITE", "B": "WHITE", "G": "WHITE"},
        "first_label": "M",
    }
    assert match.last("AuctionOpened").data["opener"] == ANN


def test_equally_near_tiles_start_with_the_balance_tile():
    # g1 {2, 5, 9}: B5, M2 (default), G9; g2 {7, 11, 13} against 9: 2, 2, 4 -> Balance.
    minute_tie = [5, 9, 2, 7, 11, 13, 1, 3, 4, 6, 8, 10, 12]
    match = Match(orderings=[minute_tie])
    match.sell_all([ANN, ANN, ANN])
    assert match.last("GroupStartComputed").data["distances"] == {"M": 2, "B": 2, "G": 4}
    assert match.last("GroupStartComputed").data["tie"] is True
    assert match.last("GroupOpened").data["first_label"] == "B"
    # g2 {1, 8, 10} against 9: 8, 1, 1 -> Balance too.
    giant_tie = [5, 9, 2, 1, 8, 10, 3, 4, 6, 7, 11, 12, 13]
    match = Match(orderings=[giant_tie])
    match.sell_all([ANN, ANN, ANN])
    assert match.last("GroupStartComputed").data["distances"] == {"M": 8, "B": 1, "G": 1}
    assert match.last("GroupOpened").data["first_label"] == "B"


def test_the_next_tile_defaults_to_the_smaller_label_or_the_larger_under_the_variant():
    match = Match()
    match.sell(ANN)
    events = match.timeout(ANN)
    assert events[0].data == {
        "set": 1,
        "group": 1,
        "label": "M",
        "chooser": ANN,
        "by_default": True,
    }
    assert events[1].data["label"] == "M"
    match = Match(default_next_tile="larger")
    match.sell(ANN)
    assert match.timeout(ANN)[0].data["label"] == "G"


def test_every_auction_of_a_set_follows_the_hand_worked_order():
    match = Match()
    match.sell_all([ANN] * 6 + [BOB] * 6)
    assert [e.data["tile"] for e in match.all("TileValueShown")] == DM_ORDER_1
    values = {e.data["tile"]: e.data["value"] for e in match.all("TileValueShown")}
    assert sorted(values.values()) == sorted(DM_SET_1[:12])
    starts = [e.data["first_label"] for e in match.all("GroupOpened")]
    assert starts == ["B", "B", "G", "G"]


def test_a_tiles_value_reaches_only_its_winner():
    match = Match()
    match.sell_all([ANN, BOB, ANN])
    for event in match.all("TileValueShown"):
        assert event.audience == (event.data["player"],)
    public = [e for e in match.public()]
    assert all("value" not in e.data for e in public)
    assert match.state.round == 4  # one round per auction: the fourth is open
