"""narrate, picture, scoreboard and forms for both seed matches, at the end of every round and
for every viewer, built from what the framework lets that viewer see:

(a) nothing the viewer may not see shows: canaries are drawn from every sealed part they may
    not read (single words, and pairs of words from one fact, such as a player with the bill
    they voted for) that their own entries never hold together, and no told line, picture
    text, scoreboard row or form may hold one;
(b) the picture is one well-formed SVG with a title and a description, no script, no link;
(c) lines worked out by hand from the seeds' notes;
(d) forms offer what the rulebook allows in the phase, to players and the host, never the
    public.
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

from domain.decider import HOST
from domain.games import merchants_guild as mg
from domain.records import may_see
from tests.games.merchants_guild.mg_harness import Match
from tests.games.merchants_guild.mg_seeds import (
    BLACKMAIL,
    RUBY_RISES,
    SEED_FILES,
    as_of,
    entries,
    facts,
    played,
    viewers,
)

WORD = re.compile(r"[a-z0-9_]+")
GEMS = {"ruby": "red", "emerald": "green", "sapphire": "blue", "onyx": "black",
        "diamond": "white"}
TIMING = {"week", "round", "seq", "at"}  # when something happened is public
SVG = "{http://www.w3.org/2000/svg}"
# The rulebook's own words: nobody learns anything from seeing one of them alone.
VOCABULARY = {"forward", "back", "true", "false", "red", "green", "blue", "black", "white",
              "free", "extra"}


@pytest.fixture(scope="module")
def seeds(tmp_path_factory) -> dict[str, tuple[Any, list[dict[str, Any]]]]:
    return {path.stem: played(path, tmp_path_factory.mktemp(path.stem)) for path in SEED_FILES}


# -- canaries -----------------------------------------------------------------------------


def words_of(value: Any) -> set[str]:
    if value is None:
        return set()
    return {GEMS.get(word, word) for word in WORD.findall(str(value).lower())}


def scalar(value: Any) -> bool:
    return not isinstance(value, dict | list)


def facts_of(value: Any, players: set[str], context: frozenset = frozenset()) -> Iterator[
        frozenset]:
    """The words of each smallest fact in a payload, with the facts around it: a dict's
    scalar fields together, a list of scalars together, each entry of a dict keyed by
    player apart (a player with their own votes, not with everyone's)."""
    if isinstance(value, dict):
        if value and set(value) <= players:
            for player, item in value.items():
                yield from facts_of(item, players, context | {player})
            return
        here = set(context)
        for key, item in value.items():
            if key not in TIMING and scalar(item):
                here |= words_of(item)
        nested = [item for key, item in value.items() if not scalar(item)]
        if not nested:
            yield frozenset(here)
        for item in nested:
            yield from facts_of(item, players, frozenset(here))
    elif isinstance(value, list):
        flat = [item for item in value if scalar(item)]
        if flat or not value:
            yield context | frozenset().union(*(words_of(item) for item in flat))
        for item in value:
            if not scalar(item):
                yield from facts_of(item, players, context)
    else:
        yield context | words_of(value)


def pairs_of(group: frozenset) -> set[frozenset]:
    return {frozenset(pair) for pair in itertools.combinations(sorted(group), 2)}


def secret_of(part: dict[str, Any]) -> Any:
    """What a sealed part keeps from others: the hidden setup and the seed, not the variants
    (the match's rules) nor the catalog (public at the opening); a command's arguments."""
    data = part["data"]
    if part["kind"] == "SetupCommitted":
        setup = data["setup"]
        return {"host_seed": data["host_seed"], "pairs": setup.get("pairs"),
                "alignments": setup.get("alignments"), "leads": setup.get("week1_leads")}
    if part["kind"] == "CommandAccepted":
        return data["args"]
    return data


def part_is_seen(part: dict[str, Any], viewer: str) -> bool:
    return viewer == HOST or (isinstance(part["audience"], list) and viewer in part["audience"])


def canaries(records: list[dict[str, Any]], viewer: str, players: list[str]) -> tuple[
        set[str], set[frozenset]]:
    """Words and pairs of words held by what the viewer may not read, and never together in
    what they may read (a whole entry counts as together)."""
    seated = set(players)
    hidden_words: set[str] = set()
    hidden_pairs: set[frozenset] = set()
    known_words: set[str] = set(players)  # the genesis entry lists them for everyone
    known_pairs: set[frozenset] = {frozenset(p) for p in itertools.combinations(players, 2)}
    for record in records:
        seen_parts = [p for p in record["parts"] if part_is_seen(p, viewer)]
        if may_see(record, viewer) and record["entry"]["kind"] is not None:
            seen_parts.append({"kind": record["entry"]["kind"],
                               "data": record["entry"]["public"]})
        for part in seen_parts:
            if part["kind"] == "MatchCreated":
                continue  # its text (rules version, commitment) says nothing of play
            together = frozenset().union(*facts_of(part["data"], seated))
            known_words |= together
            known_pairs |= pairs_of(together)
        for part in record["parts"]:
            if part_is_seen(part, viewer) or part["kind"] == "CommandContext":
                continue  # CommandContext: the season's balances, not the game's secrets
            for fact in facts_of(secret_of(part), seated):
                hidden_words |= fact
                hidden_pairs |= pairs_of(fact)
    # a number alone says nothing (bills, counts and weeks are everywhere): only in a pair
    words = {word for word in hidden_words - known_words - VOCABULARY if not word.isdigit()}
    return words, hidden_pairs - known_pairs


def leaks(segments: list[str], hidden: tuple[set[str], set[frozenset]]) -> list[str]:
    words, pairs = hidden
    found = []
    for segment in segments:
        said = words_of(segment)
        found += [f"{word!r} in {segment!r}" for word in said & words]
        found += [f"{sorted(pair)} in {segment!r}" for pair in pairs if pair <= said]
    return found


def segments(chapters, svg, board, offered) -> list[str]:
    said = [chapter["title"] for chapter in chapters]
    said += [line for chapter in chapters for line in chapter["lines"]]
    if svg is not None:
        root = ET.fromstring(svg)
        said += ["".join(element.itertext()) for element in root.iter()
                 if element.tag in (f"{SVG}text", f"{SVG}title", f"{SVG}desc")]
    if board is not None:
        said.append(board["title"])
        said += [" ".join(str(cell) for cell in row) for row in board["rows"]]
    for form in offered:  # the labels are the rulebook's; what varies is each field's choices
        said += [str(field["choices"]) for field in form["fields"]]
    return said


def outputs(records, viewer):
    chapters = mg.narrate(entries(records, viewer), viewer)
    view = mg.summarize(facts(records, viewer), viewer)
    return chapters, view, mg.picture(view), mg.scoreboard(view), mg.forms(view, viewer)


@pytest.mark.parametrize("stem", [p.stem for p in SEED_FILES])
def test_no_viewer_is_shown_what_they_may_not_see(seeds, stem):
    file, records = seeds[stem]
    for round in range(9):
        upto = as_of(records, round)
        for viewer in viewers(file):
            if viewer == HOST:
                continue  # the host sees everything
            chapters, _, svg, board, offered = outputs(upto, viewer)
            hidden = canaries(upto, viewer, file.players)
            assert leaks(segments(chapters, svg, board, offered), hidden) == [], (
                round, viewer)


def test_the_canaries_catch_the_hosts_story_told_to_the_public(seeds):
    """The check is strong enough: the host's chapters shown to the public, or to a player,
    are caught in every week before the settlement."""
    file, records = seeds[RUBY_RISES.stem]
    for round in range(1, 8):
        upto = as_of(records, round)
        host_story = mg.narrate(entries(upto, HOST), HOST)
        for viewer in ("public", "bob"):
            assert leaks(segments(host_story, None, None, []),
                         canaries(upto, viewer, file.players)), (round, viewer)


# -- the picture, the scoreboard, the lines ---------------------------------------------


@pytest.mark.parametrize("stem", [p.stem for p in SEED_FILES])
def test_every_picture_is_a_well_formed_svg_with_words(seeds, stem):
    file, records = seeds[stem]
    for round in range(9):
        upto = as_of(records, round)
        for viewer in viewers(file):
            chapters, _, svg, board, _ = outputs(upto, viewer)
            assert all(len(line) < 200 for c in chapters for line in c["lines"])
            assert svg is not None and board is not None
            root = ET.fromstring(svg)
            assert root.tag == f"{SVG}svg"
            assert root.get("role") == "img" and root.get("width") == "100%"
            assert root.get("viewBox").startswith("0 0 360 ")
            assert root.find(f"{SVG}title").text and root.find(f"{SVG}desc").text
            assert not [e for e in root.iter() if e.tag == f"{SVG}script"]
            assert not [name for e in root.iter() for name in e.attrib if "href" in name]
            sizes = [float(e.get("font-size", root.get("font-size")))
                     for e in root.iter(f"{SVG}text")]
            assert min(sizes) >= 11  # 11 units of a 360-wide box on a 375-pixel screen


def test_the_picture_before_the_opening_is_none():
    view = mg.summary_start("public")
    assert mg.picture(view) is None and mg.scoreboard(view) is None


def test_the_picture_tells_the_houses_and_the_gold_in_words(seeds):
    _, records = seeds[RUBY_RISES.stem]
    desc = ET.fromstring(outputs(as_of(records, 1), "public")[2]).find(f"{SVG}desc").text
    assert "After week 1, the houses' forges/ships/markets: Red 2/1/1, total 4;" in desc
    assert "Black 1/1/2, total 4" in desc
    desc = ET.fromstring(outputs(records, "public")[2]).find(f"{SVG}desc").text
    assert "Red 4/1/3, total 8" in desc and "Green 1/3/2, total 6" in desc
    # Red's total after each week: 4 (1 passes), 5 (31), 5, 6 (11), 7 (13), 7, 8 (41), 8
    assert "Totals after each week: Red 4, 5, 5, 6, 7, 7, 8, 8;" in desc
    assert "Gold after tax: alice 1; bob 3; carol 3; dave 2; erin 3; frank 4;" in desc
    assert "Losers: heidi. Winners: frank." in desc


def test_the_scoreboard_ranks_the_houses_then_shows_the_gold(seeds):
    _, records = seeds[RUBY_RISES.stem]
    board = outputs(as_of(records, 7), "public")[3]
    assert board["title"] == "The houses after week 7"
    # after week 7: Red 4/1/3 (8); Black, White 2/2/2 (6); Green, Blue 1/2/2 (5)
    assert board["rows"] == [[1, "Red", 4, 1, 3, 8], [2, "Black", 2, 2, 2, 6],
                             [2, "White", 2, 2, 2, 6], [4, "Green", 1, 2, 2, 5],
                             [4, "Blue", 1, 2, 2, 5]]
    board = outputs(records, "public")[3]
    assert board["title"] == "The settlement"
    rows = {row[0]: row for row in board["rows"]}
    assert rows["frank"] == ["frank", "Red-Black-White", 7, "-1", 4, "wins", 2]
    assert rows["heidi"] == ["heidi", "Green-Blue-White", 2, "0", 0, "loses", 0]
    assert rows["dave"][-1] == 1 and rows["judy"][3] == "+1"


def chapter_lines(records, viewer, round) -> list[str]:
    chapters = mg.narrate(entries(as_of(records, round), viewer), viewer)
    return next(c["lines"] for c in chapters if c["round"] == round)


def test_ruby_rises_told_to_the_public(seeds):
    _, records = seeds[RUBY_RISES.stem]
    opening = chapter_lines(records, "public", 0)
    assert "Week 1's ballot: 1 against 60, 2 against 59, 3 against 58." in opening
    assert chapter_lines(records, "public", 1) == [
        "Bill 1 passes 5-2 over bill 60.",
        "Bill 59 passes 4-3 over bill 2.",
        "Bills 3 and 58 are both rejected, 3-3.",
        "Houses now (forges/ships/markets): Red 2/1/1, Green 1/1/1, Blue 1/1/1, Black 1/1/2, "
        "White 1/1/1.",
        "Week 2's ballot: 5 against 56, 6 against 55, 30 against 31.",
    ]
    week2 = chapter_lines(records, "public", 2)
    assert "Bills 5 and 56 are both rejected, 2-2." in week2
    assert "Bill 31 passes 3-2 over bill 30." in week2
    assert "Bills 11 and 50 both pass, 4-4." in chapter_lines(records, "public", 4)
    chapters = mg.narrate(entries(records, "public"), "public")
    assert [c["round"] for c in chapters] == list(range(9))
    assert chapters[-1]["title"] == "Week 8 and the settlement"
    end = chapters[-1]["lines"]
    for line in [
        "Bill 22 passes 5-1 over bill 39.",
        "The houses are ranked: 1st Red 4/1/3 (8), 2nd Black 2/2/2 (6), 2nd White 2/2/2 (6), "
        "4th Green 1/3/2 (6), 4th Blue 1/3/2 (6).",
        "Gold to each contact: Red 3, Black 2, White 2, Green 0, Blue 0.",
        "dave pays 1 gold to grace (blackmail).",
        "frank pays 1 gold to judy (blackmail).",
        "frank: 7 gold from houses, 1 paid in blackmail, pays the tax, 4 left.",
        "heidi: 2 gold from houses, pays the tax, 0 left.",
        "heidi has the least gold and loses: Elimination Candidate.",
        "frank alone has the most gold (4): 2 Tokens of Life.",
        "Result: frank wins (rank 1); heidi loses (rank 3); everyone else ranks 2. "
        "No Opals or Marks of Excellence in this game.",
        "Never presented: 4, 25, 26, 27, 28, 29, 32, 33, 34, 35, 36, 57.",
        "dave voted for 6 bills that passed, the best count no one shares: 1 Token of Life.",
    ]:
        assert line in end, line
    assert [line for line in end if line.startswith("Garnets from gold")] == [
        "Garnets from gold: alice +1, bob +3, carol +3, dave +2, erin +3, frank +4, grace +1, "
        "heidi 0, ivan +2, judy +3."]


def test_ruby_rises_told_to_its_players_and_the_host(seeds):
    _, records = seeds[RUBY_RISES.stem]
    assert "Your houses: Red, Green, Black." in chapter_lines(records, "bob", 0)
    bob = chapter_lines(records, "bob", 1)
    assert bob[:2] == ["You voted for 1 and 2.",
                       "You paid 1 garnet to ask for the partner of bill 30."]
    assert "You learn that bill 30's partner is bill 31." in bob
    # erin named 10 forward, then replaced it with 4 back: the last one counts
    assert "You nominated bill 4 back (free)." in chapter_lines(records, "erin", 1)
    assert "You paid 1 garnet to push bill 30 forward." in chapter_lines(records, "frank", 1)
    assert "You learn that bill 25's partner is bill 36." in chapter_lines(records, "alice", 2)
    assert ("Your investigation of frank (Red, Black, White): all three match: you may "
            "blackmail frank next week.") in chapter_lines(records, "judy", 4)
    grace = chapter_lines(records, "grace", 4)
    assert "Your investigation of alice (Green, Black, White): only Green matches." in grace
    assert "You paid 5 garnets to investigate dave too, naming Red, Blue, Black." in grace
    assert ("Your extra investigation of dave (Red, Blue, Black): all three match: you may "
            "blackmail dave next week.") in grace
    assert "You decided to go through with blackmailing frank." in chapter_lines(
        records, "judy", 5)
    assert ("judy is blackmailing you: at the settlement each gets a gold if the gold from "
            "houses covers them all.") in chapter_lines(records, "frank", 5)
    assert not any("blackmailing you" in line for line in chapter_lines(records, "ivan", 5))
    end = chapter_lines(records, "heidi", 8)
    assert end[-1] == ("Your votes on passed bills: 4; garnets spent 0, gained 0, change 0, "
                       "balance 5.")
    host = chapter_lines(records, HOST, 1)
    assert "Nominations: carol 30 forward; erin 4 back; frank 30 forward (paid)." in host
    assert "Priorities now: 4 -1, 30 +2." in host
    assert ("Week 2's ballot was chosen in the order 30 (with 31), 5 (with 56), 6 (with 55)."
            in host)
    assert any(line.startswith("Votes: alice 1 and 3; bob 1 and 2;") for line in host)
    assert "bob learns that bill 30's partner is bill 31." in host


def test_the_blackmail_match_told(seeds):
    _, records = seeds[BLACKMAIL.stem]
    assert "Bills 17 and 18 both pass, 4-4." in chapter_lines(records, "public", 3)
    end = chapter_lines(records, "public", 8)
    for line in [
        "Bill 41 passes 3-1 over bill 42.",
        "Bill 43 passes 2-1 over bill 44.",
        "Houses now (forges/ships/markets): Red 3/2/3, Green 2/4/2, Blue 3/1/3, Black 3/1/2, "
        "White 1/0/0.",
        "The houses are ranked: 1st Red 3/2/3 (8), 2nd Green 2/4/2 (8), 3rd Blue 3/1/3 (7), "
        "4th Black 3/1/2 (6), 5th White 1/0/0 (1).",
        "alice cannot pay 2 blackmailers (erin and frank) and pays nobody.",
        "heidi pays 1 gold to ivan (blackmail).",
        "ivan pays 1 gold to heidi (blackmail).",
        "alice: 1 gold from houses, cannot pay the tax (hands over 1), 0 left.",
        "bob: 2 gold from houses, 1 paid in blackmail, cannot pay the tax (hands over 1), "
        "0 left.",
        "alice and bob could not pay the tax and lose: Elimination Candidates.",
        "heidi, ivan and judy share the most gold (3): 1 Token of Life each.",
        "heidi voted for 11 bills that passed, the best count no one shares: 1 Token of Life.",
    ]:
        assert line in end, line
    assert ("erin and frank are blackmailing you: at the settlement each gets a gold if the "
            "gold from houses covers them all.") in chapter_lines(records, "alice", 5)
    carol = chapter_lines(records, "carol", 2)
    assert "You paid 1 garnet to ask for the partner of bill 2." not in carol  # refused


# -- forms ---------------------------------------------------------------------------------


def offered(match: Match, viewer: str) -> dict[str, dict[str, Any]]:
    view = mg.summarize(match.seen_by(viewer), viewer)
    return {form["command"]: {f["name"]: f["choices"] for f in form["fields"]}
            for form in mg.forms(view, viewer)}


def test_forms_follow_the_phases():
    match = Match(open_match=False)
    assert offered(match, "p1") == {} and offered(match, HOST) == {}
    match.host("open_match")
    week1 = offered(match, "p1")
    assert set(week1) == {"vote", "nominate", "paid_push", "reveal_partner"}
    assert week1["vote"] == {"bills": [1, 2, 3, 4, 5, 6]}
    assert week1["nominate"]["bill"] == list(range(7, 61))
    assert week1["nominate"]["direction"] == ["forward", "back"]
    assert offered(match, HOST) == {"close_week": {}}
    assert offered(match, "public") == {}
    # one paid push a week; a bill asked about is not offered again
    match.do("p1", "paid_push", bill=9, direction="forward")
    match.do("p1", "reveal_partner", bill=20)
    week1 = offered(match, "p1")
    assert "paid_push" not in week1 and 20 not in week1["reveal_partner"]["bill"]
    match.week()
    assert "paid_push" in offered(match, "p1")
    # p1 was told 20's partner (19): neither is offered for a look-up
    lookups = offered(match, "p1")["reveal_partner"]["bill"]
    assert 19 not in lookups and 20 not in lookups and 7 not in lookups
    match.skip_to(4)
    week4 = offered(match, "p1")
    assert set(week4) == {"vote", "nominate", "paid_push", "reveal_partner", "investigate",
                          "extra_investigate"}
    assert week4["investigate"]["houses"] == ["red", "green", "blue", "black", "white"]
    match.do("p1", "investigate", target="p7", houses=["green", "blue", "black"])
    match.do("p1", "extra_investigate", target="p8", houses=["red", "green", "blue"])
    assert "extra_investigate" not in offered(match, "p1")
    match.week()
    assert set(offered(match, "p1")) == {"vote", "nominate", "paid_push", "reveal_partner",
                                         "blackmail"}
    assert offered(match, "p1")["blackmail"] == {"target": ["p7"], "proceed": [True, False]}
    assert "blackmail" not in offered(match, "p2")  # no right, no form
    match.skip_to(8)
    assert set(offered(match, "p1")) == {"vote"}
    match.week()
    assert offered(match, "p1") == {} and offered(match, HOST) == {}


def test_form_targets_come_from_the_seat_order(seeds):
    file, records = seeds[RUBY_RISES.stem]
    upto = as_of(records, 3)  # week 4 is open
    view = mg.summarize(facts(upto, "judy"), "judy")
    forms = {form["command"]: form for form in mg.forms(view, "judy")}
    target = next(f for f in forms["investigate"]["fields"] if f["name"] == "target")
    assert target["choices"] == [p for p in file.players if p != "judy"]
    assert target["kind"] == "player" and target["required"]
