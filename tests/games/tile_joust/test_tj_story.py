"""narrate, picture, scoreboard and forms over both seed matches, for every round and every
viewer, through the framework's own filter (projections.views.view): nothing the viewer may
not see comes out, the picture is a well-formed accessible SVG, the story says what the seeds'
notes tell (worked by hand from them), and the forms offer what the rules allow."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from functools import cache
from typing import Any

import pytest

from commands.cli.matchfile import load
from domain.decider import HOST, Command
from domain.games import tile_joust as tj
from domain.games.tile_joust.jousts import HIDDEN
from domain.games.tile_joust.setup import ITEMS
from domain.games.tile_joust.tiles import BLACK, LABELS, LEFTOVER, WHITE
from domain.match import MATCH_COMMANDS, Match
from domain.records import headline, may_see, own_parts
from domain.rng import Rng
from projections.views import records_as_of, view
from tests.games.tile_joust.tj_seeds import DM_SEED, FM_SEED, before, configured, played

SVG = "{http://www.w3.org/2000/svg}"
SEEDS = {"dm": DM_SEED, "fm": FM_SEED}


@cache
def ended(key: str) -> Match:
    return played(SEEDS[key])


def viewers(match: Match) -> list[str]:
    return ["public", HOST, *match.players]


def cases() -> list[tuple[str, int, str]]:
    found = []
    for key in SEEDS:
        match = ended(key)
        for round_number in range(match.round + 1):
            found += [(key, round_number, viewer) for viewer in viewers(match)]
    return found


# -- (a) nothing the viewer may not see ----------------------------------------------------


def strings(value: Any, into: set[str]) -> set[str]:
    if isinstance(value, dict):
        for item in value.values():
            strings(item, into)
    elif isinstance(value, list):
        for item in value:
            strings(item, into)
    elif isinstance(value, str):
        into.add(value)
    return into


# The game's own words are no secrets, even in a sealed part (a form names its commands; the
# story says "leftover" of a tile whose number it does not give).
VOCABULARY = {*tj.COMMANDS, *MATCH_COMMANDS, *LABELS, BLACK, WHITE, LEFTOVER, HIDDEN, *ITEMS}


def canaries(records: list[dict], viewer: str) -> set[str]:
    """The texts of every sealed part the viewer may not read that nothing they may read
    holds (tile ids above all: of the opponent's tiles, of a leftover they never saw)."""
    hidden: set[str] = set()
    seen: set[str] = set()
    for record in records:
        mine = own_parts(record, viewer) if viewer != "public" else []
        if may_see(record, viewer):
            strings(headline(record)["data"], seen)
        for index, part in enumerate(record["parts"]):
            strings(part["data"], seen if index in mine else hidden)
    return hidden - seen - VOCABULARY


def told(viewer_view: dict, viewer: str) -> str:
    """Everything the story functions make of a viewer's view, as one text."""
    summary, events = viewer_view["summary"], viewer_view["events"]
    chapters = tj.narrate(events, viewer)
    return "\n".join([
        json.dumps(chapters),
        tj.picture(summary) or "",
        json.dumps(tj.scoreboard(summary)),
        json.dumps(tj.forms(summary, viewer) if viewer != "public" else []),
    ])


def leaks(text: str, words: set[str]) -> set[str]:
    return {word for word in words if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)}


@pytest.mark.parametrize(("key", "round_number", "viewer"), cases())
def test_nothing_the_viewer_may_not_see_is_told(key, round_number, viewer):
    match = ended(key)
    shown = view(match, viewer, round_number)
    words = canaries(records_as_of(match, round_number), viewer)
    assert not leaks(told(shown, viewer), words)
    if viewer == "public":
        assert tj.forms(shown["summary"], "public") == []


def test_the_check_bites_when_the_public_is_told_the_hosts_story():
    """Telling the public what the host's entries say must trip the canaries."""
    for key in SEEDS:
        match = ended(key)
        words = canaries(match.records, "public")
        assert len(words) >= 36  # at least every grouped tile id of three sets
        hosts = tj.narrate(view(match, HOST)["events"], "public")
        assert leaks(json.dumps(hosts), words)
        player = match.players[0]
        theirs = tj.narrate(view(match, player)["events"], player)
        assert leaks(json.dumps(theirs), canaries(match.records, match.players[1]))


# -- (b) the picture -----------------------------------------------------------------------


@pytest.mark.parametrize(("key", "round_number", "viewer"), cases())
def test_the_picture_is_an_accessible_svg_with_nothing_outside_it(key, round_number, viewer):
    svg = tj.picture(view(ended(key), viewer, round_number)["summary"])
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img" and root.get("width") == "100%"
    assert re.fullmatch(r"0 0 360 \d+", root.get("viewBox"))
    assert root.find(f"{SVG}title").text and root.find(f"{SVG}desc").text
    assert all(element.tag != f"{SVG}script" for element in root.iter())
    assert "href" not in svg and "url(" not in svg and "<script" not in svg
    sizes = [int(element.get("font-size")) for element in root.iter(f"{SVG}text")]
    assert min(sizes) >= 10  # readable at 375 px: the viewBox is 360 wide


def test_no_picture_and_no_standings_before_the_opening():
    match = configured(load(DM_SEED))
    summary = view(match, "public")["summary"]
    assert tj.picture(summary) is None and tj.scoreboard(summary) is None
    assert tj.narrate(view(match, "public")["events"], "public") == []


def test_the_picture_says_in_words_what_it_draws():
    desc = ET.fromstring(tj.picture(view(ended("dm"), "public")["summary"])).find(f"{SVG}desc")
    assert desc.text.startswith(
        "Points: mira 25 points (set 1 0, set 2 3, set 3 1, final 18, tiles left 3); "
        "theo 34 points (set 1 14, set 2 2, set 3 12, final 0, tiles left 6). "
        "Chips left of 90: mira 48, theo 69. "
        "Jousts: set 1: theo +1, theo +13; set 2: equal sums (mira +3, theo +2), empty; "
        "set 3: theo +12, mira +1, mira +0; final: mira +11, mira +7, empty."
    )


def test_a_long_name_is_escaped_and_cut_to_fit():
    setup = tj.Setup(players=["<b>&x", "a" * 40], variant="death_match", dmo="<b>&x")
    state = tj.initial_state(setup, Rng(tj.GAME_ID, "any"))
    summary = tj.summarize(tj.decide(state, Command("open_match", HOST)), "public")
    svg = tj.picture(summary)
    drawn = [text.text for text in ET.fromstring(svg).iter(f"{SVG}text")]
    assert "&lt;b&gt;&amp;x: 0 points" in svg and "<b>&x: 0 points" in drawn
    assert not any("a" * 12 in text for text in drawn)  # the description keeps it whole


# -- (c) the story, worked by hand from the seeds' notes -----------------------------------


def chapters(key: str, viewer: str, round_number: int | None = None) -> dict[str, list[str]]:
    shown = view(ended(key), viewer, round_number)
    return {c["title"]: c["lines"] for c in tj.narrate(shown["events"], viewer)}


def test_the_death_match_told_to_the_public():
    story = chapters("dm", "public")
    assert story["The opening"][:2] == [
        "Death Match: mira against theo, 90 chips each.",
        "mira is the DMO: opens each set and wins a tie; theo is the EC.",
    ]
    assert story["Set 1, group 1: the Balance tile"] == [
        "mira 4, theo 6, mira folds: theo wins the Balance tile for 6. Chips: mira 90, theo 84.",
        "theo chooses the Giant tile next.",
    ]
    # theo's 5 was refused (not above mira's 5): it is not part of the story.
    assert story["Set 1, group 2: the Balance tile"] == [
        "mira 5, theo 8, mira runs out of time and folds: theo wins the Balance tile for 8. "
        "Chips: mira 78, theo 76.",
    ]
    assert story["Set 1, joust 1"][-1] == (
        "mira 9 + 1 = 10; theo 10 + 3 = 13: theo wins and scores 1. Points: mira 0, theo 1."
    )
    assert story["Set 2, joust 1"][-1] == (
        "mira 13 + 2 = 15; theo 12 + 3 = 15: equal sums: mira scores 3 and theo scores 2. "
        "Points: mira 3, theo 16."
    )
    set_3 = [line for lines in story.values() for line in lines if "leftover s3x1" in line]
    assert set_3 == [
        "mira has fewer tiles this set and receives the leftover s3x1. Tiles: mira 5, theo 8."
    ]
    title, last = list(story.items())[-1]
    assert title == "Final joust 3, and the result"
    assert last[:4] == [
        "Step 1 shows: mira passes; theo passes.",
        "Nobody put a tile forward: the final joust ends, and each tile still held scores a "
        "point: mira 3, theo 6.",
        "Totals: mira 25, theo 34. theo wins, 34 to 25.",
        "Ranks: theo 1, mira 2. No awards: Tile Joust moves no garnets and gives no Token of "
        "Life, Opal or MoE.",
    ]
    assert last[4] == "Revealed: set 1 was ordered 5 9 2 | 13 1 7 | 4 12 10 | 3 11 6 | 8."


def test_each_player_is_told_their_own_secrets_and_the_host_everything():
    learnt = "(only theo) theo learns that s1g2B (set 1, group 2, Balance) is 7."
    for viewer, expected in (("theo", True), (HOST, True), ("mira", False), ("public", False)):
        lines = chapters("dm", viewer)["Set 1, group 2: the Balance tile"]
        assert (learnt in lines) is expected, viewer
    joust = chapters("dm", "mira")["Set 1, joust 1"]
    assert "(only mira) Step 1: mira puts s1g1G forward." in joust
    assert not any("theo puts" in line for line in joust)
    assert "(host only) Set 1 is ordered 5 9 2 | 13 1 7 | 4 12 10 | 3 11 6 | 8." in chapters(
        "dm", HOST)["The opening"]
    assert "(host only) Set aside: s1x1 is 8." in chapters("dm", HOST)[
        "Set 1, group 4: the Giant tile"]


def test_the_story_as_of_a_round_tells_nothing_later():
    story = chapters("dm", "public", 1)
    assert list(story) == ["The opening", "Set 1, group 1: the Balance tile"]


def test_the_final_match_told_to_each_viewer():
    public = chapters("fm", "public")
    assert public["The opening"][:2] == [
        "Final Match: penzo against jkitty, 90 chips each.", "penzo picks an item first."]
    assert public["The item pick"][:2] == [
        "The pick is made: penzo holds Tile Inversion; jkitty holds the Equaliser and Conceal.",
        "jkitty holds the Equaliser: opens each set and wins a tie.",
    ]
    assert "jkitty keeps one leftover and gives the other to penzo. Tiles: penzo 8, jkitty 6." in (
        public["Set 1: the leftovers"])
    assert public["Set 1: the item window"][:3] == [
        "penzo uses Tile Inversion.", "jkitty uses Conceal.",
        "Groups stay hidden for the rest of this set's jousts.",
    ]
    joust = public["Set 1, joust 1"]
    assert joust[0] == "Step 1 shows: penzo a white tile (group hidden); jkitty a white tile " \
        "(group hidden)."
    assert joust[-1] == (
        "penzo 13 + 4 = 17; jkitty 13 + 3 = 16: penzo wins and scores 3. Points: penzo 3, jkitty 0."
    )
    assert public["Final joust 4, and the result"][2] == (
        "Totals: penzo 27, jkitty 27. Equal totals (27 each): jkitty wins as the Equaliser holder."
    )
    jkitty, penzo = chapters("fm", "jkitty"), chapters("fm", "penzo")
    seen = "(only jkitty) jkitty sees that s1x1 is 4 and s1x2 is 10."
    assert seen in jkitty["Set 1, group 4: the Minute tile"]
    assert seen not in penzo["Set 1, group 4: the Minute tile"]
    assert "(only penzo) penzo learns that s1x1 (set 1, a leftover) is 4." in (
        penzo["Set 1: the leftovers"])
    assert "(only penzo) penzo's s1g1M turns from 0 to 13 (white)." in (
        penzo["Set 1: the item window"])
    assert not any("s1g1M" in line for line in jkitty["Set 1: the item window"])


def test_every_line_is_plain_and_short():
    for key in SEEDS:
        for viewer in viewers(ended(key)):
            for chapter in tj.narrate(view(ended(key), viewer)["events"], viewer):
                assert chapter["title"] and isinstance(chapter["round"], int)
                for line in chapter["lines"]:
                    assert isinstance(line, str) and 0 < len(line) < 200, line


# -- the standings -------------------------------------------------------------------------


def test_the_standings_at_the_end_are_the_seeds_hand_worked_points():
    board = tj.scoreboard(view(ended("dm"), "public")["summary"])
    assert board["columns"] == ["player", "role", "points", "set 1", "set 2", "set 3",
                                "final joust", "tiles left", "chips", "in hand", "stored"]
    assert board["rows"] == [
        ["mira", "DMO", 25, 0, 3, 1, 18, 3, 48, 3, 0],
        ["theo", "EC", 34, 14, 2, 12, 0, 6, 69, 6, 0],
    ]
    fm = tj.scoreboard(view(ended("fm"), "public")["summary"])
    assert fm["rows"] == [
        ["penzo", "", 27, 4, 0, 0, 18, 5, 65, 5, 0],
        ["jkitty", "Equaliser", 27, 9, 0, 13, 0, 5, 62, 5, 0],
    ]
    mid = tj.scoreboard(view(ended("dm"), "public", 12)["summary"])  # set 1's last auction
    assert mid["rows"] == [
        ["mira", "DMO", 0, 0, 0, 0, 0, 0, 48, 6, 0],
        ["theo", "EC", 0, 0, 0, 0, 0, 0, 73, 6, 0],
    ]


# -- (d) the forms -------------------------------------------------------------------------


def offered(match: Match, viewer: str) -> dict[str, dict[str, Any]]:
    """command -> {field: choices}"""
    found = tj.forms(view(match, viewer)["summary"], viewer)
    return {f["command"]: {field["name"]: field["choices"] for field in f["fields"]}
            for f in found}


def test_forms_in_an_auction_and_at_the_next_tile_choice():
    match = played(DM_SEED, before("bid"))
    assert offered(match, "mira") == {"bid": {"amount": None}, "fold": {}}
    assert offered(match, "theo") == {}
    assert offered(match, HOST) == {"timeout": {"player": ["mira"]}}
    assert offered(match, "public") == {}
    match = played(DM_SEED, before("choose_next_tile"))
    assert offered(match, "theo") == {"choose_next_tile": {"label": ["M", "G"]}}
    assert offered(match, "mira") == {}
    assert offered(match, HOST) == {"timeout": {"player": ["theo"]}}


def test_forms_in_a_joust_step():
    match = played(DM_SEED, before("submit_tile"))
    mira = offered(match, "mira")
    assert set(mira) == {"submit_tile", "pass"}
    # mira holds G9, M1, G13, G12, M4, G11 of set 1 (the notes).
    assert sorted(mira["submit_tile"]["tile"]) == sorted(
        ["s1g1G", "s1g2M", "s1g2G", "s1g3G", "s1g3M", "s1g4G"])
    assert sorted(offered(match, "theo")["submit_tile"]["tile"]) == sorted(
        ["s1g1B", "s1g1M", "s1g2B", "s1g3B", "s1g4M", "s1g4B"])
    assert offered(match, HOST) == {"timeout": {"player": ["mira", "theo"]}}
    match.handle(Command("submit_tile", "mira", {"tile": "s1g1G"}))
    assert offered(match, "mira") == {}
    assert set(offered(match, "theo")) == {"submit_tile", "pass"}
    assert offered(match, HOST) == {"timeout": {"player": ["theo"]}}


def test_forms_of_the_final_matchs_pick_leftovers_and_item_window():
    match = played(FM_SEED, before("pick_item"))
    assert offered(match, "penzo") == {
        "pick_item": {"item": ["tile_inversion", "equaliser", "conceal"]}}
    assert offered(match, "jkitty") == {}
    match = played(FM_SEED, before("keep_leftover"))
    assert offered(match, "jkitty") == {"keep_leftover": {"tile": ["s1x1", "s1x2"]}}
    assert offered(match, "penzo") == {}
    match = played(FM_SEED, before("use_items"))
    # penzo holds B6 M0 B5 G9 B8 G11 B7 and the leftover x1 (the notes); jkitty the Equaliser,
    # which is never used, and Conceal.
    uses = offered(match, "penzo")["use_items"]["items"]
    assert sorted(use["tile"] for use in uses) == sorted(
        ["s1g1B", "s1g1M", "s1g2B", "s1g2G", "s1g3B", "s1g4G", "s1g4B", "s1x1"])
    assert {use["item"] for use in uses} == {"tile_inversion"}
    assert offered(match, "jkitty") == {"use_items": {"items": [{"item": "conceal"}]}}
    assert offered(match, HOST) == {"timeout": {"player": ["penzo", "jkitty"]}}


def test_no_forms_once_the_match_is_over():
    for key in SEEDS:
        match = ended(key)
        for viewer in viewers(match):
            assert tj.forms(view(match, viewer)["summary"], viewer) == []


def test_every_form_is_a_declared_command_with_its_declared_fields():
    for key, seed in SEEDS.items():
        file = load(seed)
        match = configured(file)
        for step in file.commands:
            for viewer in (HOST, *match.players):
                for form in tj.forms(view(match, viewer)["summary"], viewer):
                    spec = tj.COMMANDS[form["command"]]
                    assert spec.actor == ("host" if viewer == HOST else "player")
                    assert [f["name"] for f in form["fields"]] == list(spec.args), key
            if step.expect_error is None:
                match.handle(Command(step.do, step.actor, step.args))
