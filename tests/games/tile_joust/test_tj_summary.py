"""The live view (summarize): each viewer sees exactly what the rulebook releases to them."""

from __future__ import annotations

import json

import pytest

from commands.cli.matchfile import load
from domain.decider import Command
from domain.games import tile_joust as tj
from domain.records import may_see, to_event
from tests.games.tile_joust.tj_harness import ANN, BOB, Match
from tests.games.tile_joust.tj_seeds import DM_SEED, FM_SEED, configured, played


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


# One step at a time, and the phase


def seen_events(match, viewer: str) -> list:
    """What the framework hands the summary: the facts the viewer may see, in log order."""
    return [to_event(r) for r in match.records if r["role"] != "command" and may_see(r, viewer)]


@pytest.mark.parametrize("seed", [DM_SEED, FM_SEED], ids=["dm", "fm"])
def test_stepping_entry_by_entry_gives_the_summary_of_every_prefix(seed):
    """The projections keep each viewer's view as JSON and step it as entries arrive."""
    match = played(seed)
    for viewer in ("public", "host", *match.players):
        events = seen_events(match, viewer)
        view = tj.summary_start(viewer)
        assert view == tj.summarize([], viewer)
        for count, event in enumerate(events, start=1):
            view = json.loads(json.dumps(view))  # as the projections store it
            assert tj.summary_step(view, event) is None
            assert view == tj.summarize(events[:count], viewer), (viewer, count, event.kind)


SET = ["auction", *["next_tile", "auction"] * 4]  # each group: first auction, choice, two more


def phases_at_rest(seed) -> dict[str, list[str]]:
    """Each viewer's phase after each command of the seed, repeats collapsed."""
    file = load(seed)
    match = configured(file)
    seen: dict[str, list[str]] = {}
    for step in [None, *file.commands]:
        if step is not None and step.expect_error is None:
            match.handle(Command(step.do, step.actor, step.args))
        for viewer in ("public", "host", *match.players):
            phase = tj.summarize(seen_events(match, viewer), viewer)["phase"]
            if seen.setdefault(viewer, [])[-1:] != [phase]:
                seen[viewer].append(phase)
    return seen


def test_the_death_match_seed_goes_through_its_phases():
    """From the seed's notes: three sets of four groups (the winner of each group's first
    auction chooses the next label), a joust phase in each set, the final joust, the end."""
    expected = ["not_started", *SET, "joust", *SET, "joust", *SET, "joust", "final_joust", "over"]
    for viewer, phases in phases_at_rest(DM_SEED).items():
        assert phases == expected, viewer


def test_the_final_match_seed_goes_through_its_phases():
    """penzo picks; set 1 ends 7-5 (jkitty keeps a leftover), both use an item, jousts; set 2
    is 6-6 and nobody has a usable item left (no window); set 3 ends 5-7 (penzo's leftover
    choice times out); the final joust has no window either."""
    expected = [
        "not_started", "item_pick",
        *SET, "leftovers", "item_window", "joust",
        *SET, "joust",
        *SET, "leftovers", "joust",
        "final_joust", "over",
    ]  # fmt: skip
    for viewer, phases in phases_at_rest(FM_SEED).items():
        assert phases == expected, viewer


def test_the_passing_phases_are_named_too():
    """Between two entries of one command: the opening, after a set's end, after the leftover
    step and after an item window."""
    events = seen_events(played(FM_SEED), "public")
    after = {}
    for count, event in enumerate(events, start=1):
        after.setdefault(event.kind, tj.summarize(events[:count], "public")["phase"])
    assert after["TileJoustOpened"] == "opening"
    assert after["ItemsAllocated"] == "opening"
    assert after["LeftoverSplit"] == "joust"
    assert after["ItemWindowClosed"] == "joust"
    assert after["SetEnded"] == "between_sets"
    assert after["FinalJoustOpened"] == "final_joust"
    assert after["FinalEnded"] == "over"


def test_the_final_jousts_item_window_is_an_item_window():
    """bob holds Tile Inversion and a tile of each set: he is asked again before the final."""
    match = Match(
        "final_match", item_allocation={ANN: ["equaliser"], BOB: ["tile_inversion", "conceal"]}
    )
    for _ in range(3):
        match.sell_all([ANN] * 12)  # 12-0: bob keeps a leftover, and it ends his set
        assert view(match, "public")["phase"] == "leftovers"
        match.timeout(BOB)
        assert view(match, "public")["phase"] == "item_window"
        match.timeout(BOB)
    public = view(match, "public")
    assert (public["phase"], public["now"]["set"]) == ("item_window", "final")
    match.do(BOB, "use_items", items=[])
    assert view(match, "public")["phase"] == "final_joust"
    assert view(match, BOB)["phase"] == "final_joust"
