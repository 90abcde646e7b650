"""The live view (summarize): each viewer sees exactly what the rulebook releases to them."""

from __future__ import annotations

from domain.games import tile_joust as tj
from tests.games.tile_joust.tj_harness import ANN, BOB, Match


def view(match: Match, viewer: str) -> dict:
    return tj.summarize(match.seen_by(viewer), viewer)


def test_the_public_sees_bids_chips_counts_and_colours_but_no_value():
    match = Match()
    match.do(ANN, "bid", amount=3)
    match.do(BOB, "bid", amount=4)
    match.do(ANN, "fold")  # bob wins s1g1B (5) for 4 and chooses next
    public = view(match, "public")
    assert public["chips"] == {ANN: 90, BOB: 86}
    assert public["tiles"] == {ANN: {"hand": 0, "stored": 0}, BOB: {"hand": 1, "stored": 0}}
    assert public["auctions"] == [
        {
            "set": 1,
            "group": 1,
            "label": "B",
            "opener": ANN,
            "bids": [
                {"player": ANN, "bid": 3},
                {"player": BOB, "bid": 4},
                {"player": ANN, "fold": "fold"},
            ],
            "winner": BOB,
            "price": 4,
        }
    ]
    assert public["groups"][0]["colours"] == {"M": "BLACK", "B": "WHITE", "G": "WHITE"}
    assert public["now"] == {"what": "next_tile_choice", "who": BOB, "set": 1, "group": 1}
    assert public["known_tiles"] == {} and public["orderings"] is None
    assert public["roles"] == {"dmo": ANN, "ec": BOB, "starter": ANN}
    assert view(match, BOB)["known_tiles"] == {
        "s1g1B": {
            "holder": BOB,
            "status": "hand",
            "set": 1,
            "group": 1,
            "label": "B",
            "value": 5,
            "colour": "WHITE",
        }
    }
    assert view(match, ANN)["known_tiles"] == {}
    assert view(match, "host")["orderings"]["1"][:3] == [5, 9, 2]


def test_a_joust_step_shows_only_your_own_action_until_it_closes():
    match = Match()
    match.sell_all([ANN] * 6 + [BOB] * 6)
    match.commit(ANN, "s1g1G")
    assert view(match, "public")["now"]["acted"] == {}
    assert view(match, BOB)["now"]["acted"] == {}
    assert view(match, ANN)["now"]["acted"] == {ANN: "s1g1G"}
    assert view(match, "host")["now"]["acted"] == {ANN: "s1g1G"}
    assert view(match, "public")["tiles"][ANN]["hand"] == 6
    assert view(match, ANN)["known_tiles"]["s1g1G"]["status"] == "committed"
    match.pass_(BOB)
    public = view(match, "public")
    assert public["tiles"][ANN]["hand"] == 5
    assert public["jousts"][0]["steps"] == [
        {
            "step": 1,
            "plays": {
                ANN: {"committed": True, "colour": "WHITE", "group": 1},
                BOB: {"committed": False},
            },
        }
    ]
    assert public["now"] == {
        "what": "joust_step",
        "set": 1,
        "joust": 1,
        "step": 2,
        "eligible": [ANN, BOB],
        "acted": {},
    }
    match.step(None, None)
    public = view(match, "public")
    assert public["jousts"][0]["resolution"]["tiles"][ANN] == [
        {"value": 9, "colour": "WHITE", "group": 1}
    ]
    assert public["points"] == {ANN: 0, BOB: 0}  # bob committed nothing: ann gains 0
    assert view(match, ANN)["known_tiles"]["s1g1G"]["status"] == "spent"


def test_the_fm_leftovers_and_item_choices_as_each_viewer_sees_them():
    match = Match(
        "final_match", item_allocation={ANN: ["tile_inversion"], BOB: ["equaliser", "conceal"]}
    )
    match.sell_all([ANN] * 7 + [BOB] * 5)
    match.do(BOB, "keep_leftover", tile="s1x1")
    bob, ann = view(match, BOB)["known_tiles"], view(match, ANN)["known_tiles"]
    assert (bob["s1x1"]["value"], bob["s1x2"]["value"]) == (4, 10)
    assert (bob["s1x1"]["holder"], bob["s1x2"]["holder"]) == (BOB, ANN)
    assert ann["s1x2"]["value"] == 10 and "s1x1" not in ann
    assert view(match, "public")["known_tiles"] == {}
    assert view(match, "public")["tiles"] == {
        ANN: {"hand": 8, "stored": 0},
        BOB: {"hand": 6, "stored": 0},
    }
    match.do(ANN, "use_items", items=[{"item": "tile_inversion", "tile": "s1g1M"}])
    assert view(match, "public")["now"]["chosen"] == {}
    assert view(match, BOB)["now"]["chosen"] == {}
    assert view(match, ANN)["now"]["chosen"] == {ANN: [{"item": "tile_inversion", "tile": "s1g1M"}]}
    match.timeout(BOB)
    assert view(match, "public")["items_used"] == [{"set": 1, "used": {ANN: ["tile_inversion"]}}]
    assert view(match, ANN)["known_tiles"]["s1g1M"]["value"] == 13
    assert "s1g1M" not in view(match, BOB)["known_tiles"]


def test_the_end_is_public_with_every_ordering():
    match = Match()
    match.sell_all([ANN] * 6 + [BOB] * 6)
    match.step(None, None)
    match.sell_all([ANN] * 12)
    match.sell_all([BOB] * 12)
    match.step(None, None)
    public = view(match, "public")
    assert public["now"] == {"what": "over"}
    assert public["result"]["winner"] == ANN and public["result"]["decided_by_tiebreak"]
    assert public["revealed"]["orderings"]["3"] == list(range(1, 14))
    assert public["sets_ended"][0]["reason"] == "empty_joust"
    assert public["round"] == match.state.round
