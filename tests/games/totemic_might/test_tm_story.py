"""narrate, picture, scoreboard and forms for both seed matches, every round and every viewer,
built through the framework's own filter (projections/views.py): nothing a viewer may not see
appears, the picture is a well-formed SVG, and the expected lines, tables and forms are the
ones worked out by hand from the seeds' notes."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from domain.games import totemic_might as tm
from domain.match import Match
from domain.records import own_parts
from projections.views import records_as_of, view
from tests.games.totemic_might.harness import Match as DeciderMatch
from tests.games.totemic_might.seed_matches import (
    BOTH,
    HEAVY_SKY,
    TIEBREAK,
    before_close,
    played,
    viewers,
)
from tests.support.host_key import SIGNER

RULEBOOK = Path(__file__).resolve().parents[3] / "docs" / "games" / "totemic_might.md"
SVG = "{http://www.w3.org/2000/svg}"
WORD = r"[\w:-]"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    application = Arbiter(f"sqlite:///{tmp_path_factory.mktemp('tm-story')}/arbiter.db",
                          signer=SIGNER)
    for path in BOTH:
        played(application, path)
    # Moments inside a round: heavy-sky before round 2's deadline (ada's gift and bo's and cy's
    # trades pending) and before the final deadline (gus balanced, fay withdrew her guess).
    for close in (2, 4):
        play(application, before_close(load(HEAVY_SKY), close))
    yield application
    application.close()


MOMENTS = {"round-2-open": 2, "challenge-open": 4}


def match_of(app: Arbiter, path: Path, moment: str | None = None) -> Match:
    file = load(path)
    return app.match(before_close(file, MOMENTS[moment]).match if moment else file.match)


def last_round(match: Match) -> int:
    return match.records[-1]["entry"]["round"]


def story(page: dict[str, Any], viewer: str) -> dict[str, Any]:
    summary = page["summary"]
    return {
        "chapters": tm.narrate(page["events"], viewer),
        "picture": tm.picture(summary),
        "scoreboard": tm.scoreboard(summary),
        "forms": tm.forms(summary, viewer),
    }


# (a) no leak


def leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in leaves(item)]
    return [] if value is None or isinstance(value, bool) else [value]


def rulebook_words() -> set[str]:
    return set(re.findall(r"[\w:-]+", RULEBOOK.read_text()))


VOCABULARY = rulebook_words()


def canaries(match: Match, viewer: str, round_number: int) -> tuple[set[str], set[int]]:
    """Values of the sealed parts the viewer may not see, as of the end of the round, that
    nothing they may see holds: texts that are not words of the rulebook, and numbers from 11
    (smaller ones are chip counts, ranks, rounds and counts the story may well print)."""
    hidden: list[Any] = []
    shown: list[Any] = []
    for record in records_as_of(match, round_number):
        own = own_parts(record, viewer)
        if record["entry"]["kind"] is not None:
            shown += leaves(record["entry"]["public"])
        for index, part in enumerate(record["parts"]):
            (shown if index in own else hidden).extend(leaves(part["data"]))
    visible = set(map(str, shown))
    texts = {leaf for leaf in hidden if isinstance(leaf, str) and leaf not in visible
             and leaf not in VOCABULARY and len(leaf) > 1}
    numbers = {leaf for leaf in hidden if isinstance(leaf, int) and leaf >= 11
               and str(leaf) not in visible}
    return texts, numbers


def words_of(told: dict[str, Any]) -> str:
    """Everything the story shows: the lines, the picture's texts (not its coordinates), the
    table and the forms."""
    lines = [line for chapter in told["chapters"] for line in [chapter["title"], *chapter["lines"]]]
    if told["picture"]:
        lines += list(ET.fromstring(told["picture"]).itertext())
    lines += [json.dumps(told["scoreboard"]), json.dumps(told["forms"])]
    return "\n".join(lines)


def leaked(text: str, texts: set[str], numbers: set[int]) -> list[str]:
    found = [t for t in texts if re.search(rf"(?<!{WORD}){re.escape(t)}(?!{WORD})", text)]
    found += [str(n) for n in numbers if re.search(rf"(?<![\w.]){n}(?![\w.])", text)]
    return found


@pytest.mark.parametrize("path", BOTH, ids=["heavy-sky", "tiebreak"])
def test_nothing_a_viewer_may_not_see_appears(app, path):
    match = match_of(app, path)
    for round_number in range(last_round(match) + 1):
        for viewer in viewers(load(path)):
            told = story(view(match, viewer, round_number), viewer)
            texts, numbers = canaries(match, viewer, round_number)
            assert leaked(words_of(told), texts, numbers) == [], (viewer, round_number)


def test_the_leak_check_catches_the_hosts_story_told_to_the_public(app):
    match = match_of(app, HEAVY_SKY)
    for round_number in (0, 1, 2):
        host_events = view(match, "host", round_number)["events"]
        public = view(match, "public", round_number)
        told = {"chapters": tm.narrate(host_events, "public"), "picture": None,
                "scoreboard": None, "forms": []}
        texts, numbers = canaries(match, "public", round_number)
        assert leaked(words_of(told), texts, numbers), round_number
        # the host's summary drawn for the public shows the secret weights
        told = {"chapters": [], "scoreboard": None, "forms": [],
                "picture": tm.picture({**view(match, "host", round_number)["summary"],
                                       "viewer": "public"})}
        assert leaked(words_of(told), texts, numbers), round_number
        assert public["summary"]["setup"] is None


# (b) the picture


@pytest.mark.parametrize("path", BOTH, ids=["heavy-sky", "tiebreak"])
def test_every_picture_is_a_self_contained_svg_with_title_and_desc(app, path):
    match = match_of(app, path)
    for round_number in range(last_round(match) + 1):
        for viewer in viewers(load(path)):
            drawn = tm.picture(view(match, viewer, round_number)["summary"])
            root = ET.fromstring(drawn)
            assert root.tag == f"{SVG}svg"
            assert root.get("role") == "img" and root.get("width") == "100%"
            assert root.get("viewBox", "").startswith("0 0 400 ")
            assert root.find(f"{SVG}title").text and root.find(f"{SVG}desc").text
            assert "script" not in drawn and "href" not in drawn and "url(" not in drawn
            sizes = [int(t.get("font-size")) for t in root.iter(f"{SVG}text")]
            assert min(sizes) >= 11  # readable at 375 px wide


def test_there_is_nothing_to_draw_or_rank_before_the_opening():
    summary = tm.summarize([], "public")
    assert tm.picture(summary) is None and tm.scoreboard(summary) is None
    assert tm.narrate([], "public") == []


def test_the_picture_shows_only_the_weights_the_viewer_knows(app):
    match = match_of(app, HEAVY_SKY)
    cells = {}
    for viewer in ("ada", "public", "host"):
        root = ET.fromstring(tm.picture(view(match, viewer, 1)["summary"]))
        cells[viewer] = [t.text for t in root.iter(f"{SVG}text")
                         if t.get("font-size") == "20"]
    assert cells["public"] == ["?"] * 20
    assert cells["ada"] == ["?"] * 5 + ["6"] + ["?"] * 14  # her starting Void-Secret
    assert cells["host"] == [str(weight) for weight in range(1, 21)]
    end = ET.fromstring(tm.picture(view(match, "public")["summary"]))
    assert [t.text for t in end.iter(f"{SVG}text") if t.get("font-size") == "20"] == [
        str(weight) for weight in range(1, 21)]
    assert "The final weights" in "".join(end.itertext())


# (c) the story, worked out by hand from the seeds' notes


def chapter_lines(app: Arbiter, path: Path, viewer: str, round_number: int | None = None,
                  moment: str | None = None) -> dict[int, list[str]]:
    page = view(match_of(app, path, moment), viewer, round_number)
    return {c["round"]: c["lines"] for c in tm.narrate(page["events"], viewer)}


def test_every_line_is_short_and_every_chapter_titled(app):
    for path in BOTH:
        match = match_of(app, path)
        for viewer in viewers(load(path)):
            for chapter in tm.narrate(view(match, viewer)["events"], viewer):
                assert chapter["title"] and chapter["lines"]
                assert all(0 < len(line) < 200 for line in chapter["lines"])


def test_heavy_sky_chapters_and_titles(app):
    chapters = tm.narrate(view(match_of(app, HEAVY_SKY), "public")["events"], "public")
    assert [(c["round"], c["title"]) for c in chapters] == [
        (0, "Opening"), (1, "Round 1: auction"), (2, "Round 2: auction"),
        (3, "Round 3: final weighing"), (4, "Round 4: final challenge and results")]


def test_heavy_sky_as_the_public_reads_it(app):
    lines = chapter_lines(app, HEAVY_SKY, "public")
    assert "Priority list: ada, cy, bo, gus, di, ed, fay." in lines[0]
    series_1a = next(line for line in lines[1] if line.startswith("Series 1A: ada"))
    # ada, bo, cy pick by their orders; di, gus and ed draw; fay is seventh.
    assert series_1a.startswith("Series 1A: ada GARNET, bo Winter-Creature, cy Spring-Land, ")
    assert series_1a.endswith("; nothing for fay.")
    assert "Chips: ada 15, bo 15, cy 24, di 27, ed 28, fay 28, gus 28." in lines[1]
    assert "Priority list: ada, cy, bo, ed, di, fay, gus." in lines[1]
    assert "Everyone won a totem: nobody is owed a spirit totem." in lines[1]
    assert "Chips: ada 13, bo 13, cy 9, di 25, ed 26, fay 26, gus 26." in lines[2]
    assert "No totem this round for gus: owed a spirit totem at the next deadline." in lines[2]
    assert "gus receives a spirit totem." in lines[3]
    final = lines[4]
    ranked = [line.split(":")[0] for line in final if re.match(r"\d\. ", line)]
    assert ranked == ["1. gus", "2. fay", "3. cy", "4. ada", "5. bo", "6. di", "7. ed"]
    assert any(line.startswith("1. gus: 0 failure marks, weight 81, found by ada, bo (-6), "
                               "score 75;") for line in final)
    assert any(line.startswith("5. bo: 1 failure mark, weight 75") for line in final)
    assert any(line.startswith("7. ed: 2 failure marks, weight 0, score 0;") for line in final)
    assert "gus wins: 2 ToL and an Opal. ed is the EC." in final
    assert "Opal challenge: di wins an Opal." in final
    assert "Winter: Secret 16, Creature 17, Future 18, Land 19, Sky 20." in final


def test_heavy_sky_as_each_player_reads_their_own_part(app):
    ada = chapter_lines(app, HEAVY_SKY, "ada")
    assert "Your starting spirit totem is Void-Secret, weighing 6." in ada[0]
    assert "You: Snake letter B, balloon snake-ada-1 of lift 12." in ada[1]
    assert ("You: Fox on Summer-Secret, Void-Creature, Spring-Future: 21 in all; 4 garnets "
            "paid.") in ada[2]
    assert "Your gift 1 to bo: T:Spring-Secret: executed." in ada[2]
    assert "You: attempt 1 balances, three groups of 68." in ada[4]
    cy = chapter_lines(app, HEAVY_SKY, "cy")
    assert "You: Snake letter C (bumped from B), balloon snake-cy-1 of lift 13." in cy[1]
    assert "Your trade 1 with bo: T:Spring-Land for T:Winter-Creature: executed." in cy[2]
    assert "You: Bear on Summer-Secret, Summer-Creature: between 1 and 5; 3 garnets paid." in (
        cy[3])
    bo = chapter_lines(app, HEAVY_SKY, "bo")
    assert "You: Bear on Void-Sky, Winter-Sky: between 21 and 30; 2 garnets paid." in bo[1]
    assert "bo's trade 1 with you: T:Winter-Creature for T:Spring-Land, proposed." not in bo[2]
    assert "cy's trade 1 with you: T:Spring-Land for T:Winter-Creature, proposed." in bo[2]
    assert "You: attempt 1 does not balance (1 failure mark)." in bo[4]
    di = chapter_lines(app, HEAVY_SKY, "di")
    assert ("You: Wolf on Void-Sky, Winter-Creature: they differ by 7 modulo 8; balloon "
            "wolf-di-1.") in di[2]
    gus = chapter_lines(app, HEAVY_SKY, "gus")
    assert any(line.startswith("You may choose a spirit totem from the pool: ")
               for line in gus[3])
    assert "You chose the spirit totem Spring-Future." in gus[3]
    assert "You received the spirit totem Spring-Future (its weight stays secret)." in gus[3]
    fay = chapter_lines(app, HEAVY_SKY, "fay")
    assert "You withdrew the guess on cy." in fay[4]
    # what only others were told stays out
    assert not any("snake-ada-1" in line for lines in bo.values() for line in lines)


def test_the_host_reads_the_bids_and_the_draws(app):
    host = chapter_lines(app, HEAVY_SKY, "host")
    assert ("Bids on 1A: ada 10, bo 9, cy 3, di 2, ed 1, fay 1, gus 1; order ada, bo, cy, di, "
            "gus, ed, fay.") in host[1]
    assert "Snake letters: ada B, cy C; taken now: B, C." in host[1]
    assert "ada starts with Void-Secret, weighing 6." in host[0]
    assert "Spring: Secret 11, Creature 12, Future 13, Land 14, Sky 15." in host[0]


def test_garnet_tiebreak_as_told(app):
    public = chapter_lines(app, TIEBREAK, "public")
    assert "Priority list: ben, amy, cal, dee, fin, eve, gil." in public[0]
    # first_only: only the first of each tie moves.
    assert "Priority list: cal, dee, fin, eve, gil, ben, amy." in public[1]
    assert "Chips: amy 14, ben 14, cal 14, dee 14, eve 14, fin 14, gil 14." in public[1]
    assert "No totem this round for ben: owed a spirit totem at the next deadline." in public[1]
    assert "amy wins: 2 ToL and an Opal. dee is the EC." in public[3]
    assert "Opal challenge: nobody wins it." in public[3]
    eve = chapter_lines(app, TIEBREAK, "eve")
    assert "You: Snake letter F (bumped from E), balloon snake-eve-1 of lift 16." in eve[1]
    dee = chapter_lines(app, TIEBREAK, "dee")
    assert "You: Snake letter E, balloon snake-dee-1 of lift 15." in dee[1]
    assert "You: attempt 2 does not balance (2 failure marks)." in dee[3]
    fin = chapter_lines(app, TIEBREAK, "fin")
    assert "You: Bear on Void-Sky, Winter-Sky: between 11 and 20; 2 garnets paid." in fin[2]


# the scoreboard


def test_the_scoreboard_after_round_one_and_at_the_end(app):
    match = match_of(app, HEAVY_SKY)
    board = tm.scoreboard(view(match, "public", 1)["summary"])
    assert board["columns"] == ["Player", "Chips", "Priority", "Totems won", "Series garnets"]
    assert board["rows"] == [["ada", 15, 1, 1, 1], ["cy", 24, 2, 1, 1], ["bo", 15, 3, 2, 0],
                             ["ed", 28, 4, 1, 0], ["di", 27, 5, 2, 0], ["fay", 28, 6, 1, 0],
                             ["gus", 28, 7, 2, 0]]
    final = tm.scoreboard(view(match, "public")["summary"])
    assert final["title"] == "Final ranking"
    assert [row[:6] for row in final["rows"]] == [
        [1, "gus", 0, 81, -6, 75], [2, "fay", 0, 74, -3, 71], [3, "cy", 0, 71, -3, 68],
        [4, "ada", 0, 68, -3, 65], [5, "bo", 1, 75, -3, 72], [6, "di", 1, 0, 0, 0],
        [7, "ed", 2, 0, 0, 0]]
    awards = {row[1]: row[-1] for row in final["rows"]}
    assert (awards["gus"], awards["di"], awards["ed"], awards["fay"]) == (
        "2 ToL, Opal", "Opal (challenge)", "EC", "")


# (d) forms


def commands(told_forms: list[dict[str, Any]]) -> list[str]:
    return [f["command"] for f in told_forms]


def choices(told_forms: list[dict[str, Any]], command: str, field: str) -> Any:
    found = next(f for f in told_forms if f["command"] == command)
    return next(x["choices"] for x in found["fields"] if x["name"] == field)


def forms_of(app: Arbiter, viewer: str, round_number: int | None = None,
             moment: str | None = None, path: Path = HEAVY_SKY) -> list[dict[str, Any]]:
    page = view(match_of(app, path, moment), viewer, round_number)
    return tm.forms(page["summary"], viewer)


AUCTION = ["place_bet", "set_pick_order", "weigh", "place_wager", "cancel_wager", "give",
           "propose_trade"]
WEIGHING = ["weigh", "place_wager", "cancel_wager"]


def test_forms_follow_the_phase(app):
    file = load(HEAVY_SKY)
    for round_number in (0, 1, 2, 3, 4):
        assert forms_of(app, "public", round_number) == []
    assert [commands(forms_of(app, "host", r)) for r in (0, 1, 2, 3, 4)] == [
        ["deadline"], ["deadline"], ["deadline"], ["final_deadline"], []]
    for player in file.players:
        assert commands(forms_of(app, player, 1)) == AUCTION
        expected = ["choose_spirit_totem", *WEIGHING] if player == "gus" else WEIGHING
        assert commands(forms_of(app, player, 2)) == expected
        assert commands(forms_of(app, player, 3)) == ["attempt_balance", "guess_starting_totem"]
        assert forms_of(app, player) == []
    others = [p for p in file.players if p != "ada"]
    assert choices(forms_of(app, "ada", 1), "give", "to") == others
    assert choices(forms_of(app, "ada", 1), "place_bet", "series") == ["A", "B"]
    assert choices(forms_of(app, "ada", 3), "guess_starting_totem", "target") == others
    assert choices(forms_of(app, "gus", 2), "choose_spirit_totem", "totem") == [
        "Summer-Creature", "Summer-Future", "Summer-Sky", "Void-Creature", "Void-Future",
        "Void-Land", "Spring-Secret", "Spring-Future", "Spring-Land", "Winter-Creature"]


def test_forms_inside_a_round(app):
    # Round 2 open: ada's gift 1, bo's and cy's trades 1 are pending.
    for player in ("ada", "bo", "cy"):
        told = forms_of(app, player, moment="round-2-open")
        assert commands(told) == [*AUCTION, "cancel_transfer"]
        assert choices(told, "cancel_transfer", "id") == [1]
    assert commands(forms_of(app, "gus", moment="round-2-open")) == AUCTION
    # The final challenge before its deadline: gus balanced; ada guesses on gus and bo; fay
    # withdrew her only guess.
    assert commands(forms_of(app, "gus", moment="challenge-open")) == ["guess_starting_totem"]
    ada = forms_of(app, "ada", moment="challenge-open")
    assert commands(ada) == ["guess_starting_totem", "withdraw_guess"]
    assert choices(ada, "withdraw_guess", "target") == ["gus", "bo"]
    assert commands(forms_of(app, "fay", moment="challenge-open")) == ["guess_starting_totem"]
    assert commands(forms_of(app, "di", moment="challenge-open")) == [
        "attempt_balance", "guess_starting_totem", "withdraw_guess"]


def test_a_player_with_one_chip_is_offered_series_a_only():
    match = DeciderMatch(starting_chips=31)
    for _ in range(2):
        match.do("p1", "place_bet", series="A", amount=10)
        match.do("p1", "place_bet", series="B", amount=5)
        match.deadline()
    summary = tm.summarize(match.seen_by("p1"), "p1")
    assert summary["chips"]["p1"] == 1
    assert choices(tm.forms(summary, "p1"), "place_bet", "series") == ["A"]
