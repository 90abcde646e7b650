"""The story told to each viewer: narrate, picture, scoreboard and forms, for both seed matches,
at the end of every round, for the public, the host and every player, through the framework's
own filter (projections.views.view: may_see, shown, to_event).

(a) Nothing sealed away from a viewer shows in what he is told: the values of every sealed part
he may not see, less what he sees and what he can work out from it, never appear as a word.
(b) The picture is one well-formed SVG with a title and a description, and nothing external.
(c) Lines worked out by hand from the seeds' notes and the rulebook.
(d) Forms offer exactly the commands the rules accept from that viewer at that moment.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from domain.decider import HOST, PUBLIC, Command
from domain.errors import RuleViolation
from domain.games import amalgamation as am
from domain.games.amalgamation.minus_auction import score
from domain.games.amalgamation.scoring import PLACE_POINTS
from domain.games.amalgamation.setup import RATE_RANGE
from domain.match import Match as Aggregate
from projections.views import records_as_of, view
from tests.games.amalgamation.harness import PLAYERS, Match
from tests.games.amalgamation.scenarios import tied_bottom_match
from tests.support.host_key import SIGNER

SEEDS = Path(__file__).resolve().parents[3] / "seeds"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def seeds(tmp_path_factory) -> dict[str, tuple[Aggregate, list[str]]]:
    """Both seed matches played to their end on an SQLite store: story -> (match, players)."""
    app = Arbiter(f"sqlite:///{tmp_path_factory.mktemp('am')}/arbiter.db", signer=SIGNER)
    played = {}
    for story in ("winner-chooses-ec", "joint-winners-disagree"):
        file = load(SEEDS / f"amalgamation-{story}.json")
        _, mismatches = play(app, file)
        assert mismatches == []
        played[story] = (app.match(file.match), file.players)
    return played


def moments(seeds) -> Iterator[tuple[Aggregate, str, int]]:
    for match, players in seeds.values():
        for round_number in range(match.round + 1):
            for viewer in (PUBLIC, HOST, *players):
                yield match, viewer, round_number


def told(match: Aggregate, viewer: str, round_number: int | None = None) -> dict[str, Any]:
    """Everything the four functions tell `viewer` as of the end of the round."""
    seen = view(match, viewer, round_number)
    summary = seen["summary"]
    return {
        "story": am.narrate(seen["events"], viewer),
        "picture": am.picture(summary),
        "scoreboard": am.scoreboard(summary),
        "forms": am.forms(summary, viewer),
    }


def lines(match: Aggregate, viewer: str, round_number: int | None = None) -> dict[int, list]:
    return {c["round"]: c["lines"] for c in told(match, viewer, round_number)["story"]}


# (a) No sealed value reaches a viewer who may not see it.


def values(data: Any) -> Iterator[str]:
    """The scalar values of a payload, as text (keys are field names, not secrets)."""
    if isinstance(data, dict):
        for item in data.values():
            yield from values(item)
    elif isinstance(data, list):
        for item in data:
            yield from values(item)
    elif data is not None and not isinstance(data, bool):
        yield str(data)


def keys(data: Any) -> Iterator[str]:
    if isinstance(data, dict):
        for key, item in data.items():
            yield key
            yield from keys(item)
    elif isinstance(data, list):
        for item in data:
            yield from keys(item)


def part_is_seen(part: dict[str, Any], viewer: str) -> bool:
    audience = part["audience"]
    return (
        viewer == HOST or audience == PUBLIC or (isinstance(audience, list) and viewer in audience)
    )


def worked_out(events: list[dict[str, Any]]) -> set[str]:
    """What a viewer computes from what he sees: the round numbers of the match, each player's
    chips, tokens and tile score so far; once the games are ranked, the places and their
    points; in the pre-game, the rates a proposal may name (the rate form offers them)."""
    kinds = {event["kind"] for event in events}
    rounds = [e["data"]["rounds"] for e in events if e["kind"] == "AmalgamationOpened"]
    known = {str(n) for n in range(rounds[0] + 1)} if rounds else set()
    if "SubgameRanked" in kinds:
        known |= {str(n) for n in (*range(1, 7), *PLACE_POINTS)}
    if "PregameClosed" not in kinds:
        known |= {str(n) for n in RATE_RANGE}
    chips: dict[str, int] = {}
    tiles: dict[str, list[int]] = {}
    tokens: dict[tuple[str, str], int] = {}  # (player, "top" or "miser") -> count
    for event in events:
        data = event["data"]
        if event["kind"] == "ChipThiefRoundResolved":
            for player, count in data["chips"].items():
                chips[player] = chips.get(player, 0) + count
        elif event["kind"] == "MinusAuctionTileAwarded":
            tiles.setdefault(data["winner"], []).append(data["tile"])
        elif event["kind"] == "InvestmentTokensAwarded":
            won = [(data["top_investor"], "top")] if data["top_investor"] else []
            for key in [*won, *((miser, "miser") for miser in data["misers"])]:
                tokens[key] = tokens.get(key, 0) + 1
    known |= {str(n) for n in chips.values()} | {str(n) for n in tokens.values()}
    known |= {str(score(taken, per_tile=False)) for taken in tiles.values()}
    return known


def canaries(match: Aggregate, viewer: str, round_number: int) -> set[str]:
    records = records_as_of(match, round_number)
    hidden = {
        value
        for record in records
        for part in record["parts"]
        if not part_is_seen(part, viewer)
        for value in values(part["data"])
    }
    seen = view(match, viewer, round_number)["events"]
    visible = {text for event in seen for text in (*values(event["data"]), *keys(event["data"]))}
    # The game's own words: where the GT, teams and tiles came from, and the command names a
    # sealed command entry holds (a form names them too).
    vocabulary = {"seed", "setup", *am.COMMANDS}
    return hidden - visible - worked_out(seen) - vocabulary


def words(said: dict[str, Any]) -> set[str]:
    """Every word and number of what was told (the picture's text, not its coordinates)."""
    texts = [c["title"] for c in said["story"]] + [x for c in said["story"] for x in c["lines"]]
    if said["picture"]:
        texts += list(ET.fromstring(said["picture"]).itertext())
    if said["scoreboard"]:
        texts.append(json.dumps(said["scoreboard"]))
    texts.append(json.dumps(said["forms"]))
    found = set()
    for text in texts:
        found |= set(re.findall(r"-?\d+|[A-Za-z_][A-Za-z0-9_]*", text))
        plain = re.findall(r"[a-z]+", text.lower())
        found |= {f"{a}_{b}" for a, b in pairwise(plain)}  # default_teams
    return found


def test_nobody_is_told_a_sealed_value_he_may_not_see(seeds):
    checked = 0
    for match, viewer, round_number in moments(seeds):
        secret = canaries(match, viewer, round_number)
        assert not words(told(match, viewer, round_number)) & secret, (viewer, round_number)
        checked += bool(secret)
    assert checked > 100  # the check had secrets to look for


def test_the_check_catches_the_hosts_story_told_to_the_public(seeds):
    for match, _ in seeds.values():
        for round_number in (0, 1, 4, match.round):
            host_events = view(match, HOST, round_number)["events"]
            leaked = {
                "story": am.narrate(host_events, PUBLIC),
                "picture": None,
                "scoreboard": None,
                "forms": [],
            }
            assert words(leaked) & canaries(match, PUBLIC, round_number), round_number


def test_a_players_story_tells_the_other_players_nothing_of_his(seeds):
    match, players = seeds["winner-chooses-ec"]
    for player in players:
        for other in players:
            if other != player:
                for chapter in told(match, other)["story"]:
                    assert not any(line.startswith(f"{player} spends") for line in chapter["lines"])


# (b) The picture.


def test_every_picture_is_one_self_contained_svg(seeds):
    drawn = 0
    for match, viewer, round_number in moments(seeds):
        picture = told(match, viewer, round_number)["picture"]
        if picture is None:
            continue
        drawn += 1
        root = ET.fromstring(picture)
        assert root.tag == f"{SVG}svg"
        assert root.get("role") == "img" and root.get("width") == "100%"
        assert root.get("viewBox", "").startswith("0 0 360 ")
        assert root.find(f"{SVG}title").text and root.find(f"{SVG}desc").text
        assert not [e for e in root.iter() if e.tag in (f"{SVG}script", f"{SVG}image")]
        assert "href" not in picture and "url(" not in picture and "<script" not in picture
        assert all(int(t.get("font-size")) >= 11 for t in root.iter(f"{SVG}text"))
    assert drawn


def test_no_picture_before_a_round_is_resolved(seeds):
    match, _ = seeds["winner-chooses-ec"]
    assert told(match, PUBLIC, 0)["picture"] is None


def test_the_points_race_says_in_words_what_it_draws(seeds):
    match, _ = seeds["winner-chooses-ec"]
    root = ET.fromstring(told(match, PUBLIC)["picture"])
    assert root.find(f"{SVG}title").text == "The points race"
    desc = root.find(f"{SVG}desc").text
    # Kong 1st, MA 3rd, ID 1st, CT 1st; frank: 6th, 1st, 6th, 6th.
    assert (
        "alice 72 (Kong's Dilemma 20, Minus Auction 12, Investment & Donation 20, Chip "
        "Thief 20)" in desc
    )
    assert (
        "frank 32 (Kong's Dilemma 4, Minus Auction 20, Investment & Donation 4, "
        "Chip Thief 4)" in desc
    )
    assert "Winners: alice. Elimination Candidate: frank." in desc
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert texts.index("alice") < texts.index("bob") < texts.index("frank")  # most points first


def test_the_money_race_during_the_rounds(seeds):
    match, _ = seeds["joint-winners-disagree"]
    root = ET.fromstring(told(match, "ben", 4)["picture"])
    assert root.find(f"{SVG}title").text == "The money race"
    # ben: $400 until his round-4 exchange (1 garnet, $9) and bet of $3.
    assert "ben $400, $400, $400, $400, $406" in root.find(f"{SVG}desc").text
    assert len(list(root.iter(f"{SVG}polyline"))) == 6


def test_a_long_name_is_shortened_in_the_drawing_and_escaped_everywhere():
    players = ["a<very&long>name", *PLAYERS[1:]]
    view_ = am.summarize([], PUBLIC)
    view_.update(
        players=players,
        variants={"starting_money": 400},
        rounds=[{"round": 1, "balances": dict.fromkeys(players, 390)}],
    )
    picture = am.picture(view_)
    root = ET.fromstring(picture)
    assert "a<very&l…" in [t.text for t in root.iter(f"{SVG}text")]
    assert "a<very&long>name $400, $390" in root.find(f"{SVG}desc").text


# (c) Lines worked out by hand from the seeds' notes.


def test_the_winner_chooses_the_ec_as_everyone_reads_it(seeds):
    match, _ = seeds["winner-chooses-ec"]
    story = lines(match, PUBLIC)
    assert "The Gamewide Tiebreak is alice > bob > carol > dave > erin > frank." in story[0]
    assert (
        "bob, the MM winner, may set the first Minus Auction order; carol, the DM winner, "
        "may pick the Kong teams." in story[0]
    )
    # Rates 10, 13, 20: floor((86 + 3) / 6) = 14.
    assert (
        "The pre-game closes: red alice, bob and carol against white dave, erin and frank; "
        "a garnet buys $14." in story[0]
    )
    round_one = story[1]
    assert round_one[0] == (
        "Round 1 opens: tiles -1, -2, -3, -4, -5 are auctioned in this order; the Minus "
        "Auction order is bob, alice, carol, dave, erin, frank."
    )
    assert "Minus Auction: -1 to bob, -2 to alice, -3 to carol, -4 to dave, -5 to erin." in (
        round_one
    )
    assert "The Minus Auction order is now frank, bob, alice, carol, dave, erin." in round_one
    assert (
        "Chip Thief, role and chips: alice mafia 1, bob mafia 1, carol mafia 1, dave police 0, "
        "erin beggar 2, frank police 0." in round_one
    )
    assert (
        "Investment & Donation: no Top Investor (every amount shared); Miser tokens to all six."
        in round_one
    )
    assert "Balances: alice $417, bob $389, carol $389, dave $400, erin $398, frank $400." in (
        round_one
    )
    end = story[8]
    assert (
        "Kong's Dilemma: red wins 0-0 (by the Gamewide Tiebreak); places alice, bob, "
        "carol, dave, erin, frank." in end
    )
    assert "Match points: alice 72, bob 60, carol 46, dave 34, erin 32, frank 32." in end
    assert "Ranks: alice 1, bob 2, carol 3, dave 4, erin 5, frank 5." in end
    assert "alice wins alone: 2 ToLs." in end
    assert "The EC decision window opens: alice chooses between erin and frank." in end
    assert "frank is the Elimination Candidate, chosen by the winners." in end
    assert "Garnets for 1st and 2nd places: alice 6, bob 4, carol 0, dave 0, erin 0, frank 2." in (
        end
    )
    assert not any("chooses erin" in line or "chooses frank as" in line for line in end)


def test_alice_reads_what_she_alone_was_told(seeds):
    match, _ = seeds["winner-chooses-ec"]
    story = lines(match, "alice")
    assert "alice holds 3 garnets." in story[0]
    assert "alice proposes a garnet rate of $10." in story[0]
    assert (
        "alice spends $11 (Kong $0, bids $0, invest $1, donate $0, bet $10); 2 garnets bought "
        "$28: $417 before penalties." in story[1]
    )
    assert "alice scores 10 Chip Thief points this round, 10 in all." in story[1]
    assert story[8][-3:] == [
        "frank is the Elimination Candidate, chosen by the winners.",
        "Garnets for 1st and 2nd places: alice 6, bob 4, carol 0, dave 0, erin 0, frank 2.",
        "alice exchanged 2 garnets and is awarded 6: net +4.",
    ]
    chose = [line for line in story[8] if line.startswith("alice chooses")]
    assert chose == ["alice chooses erin as the EC.", "alice chooses frank as the EC."]


def test_frank_reads_his_replaced_exchange(seeds):
    match, _ = seeds["winner-chooses-ec"]
    story = lines(match, "frank")
    handed = [line for line in story[2] if line.startswith("frank hands in round 2")]
    assert len(handed) == 2 and "exchanging 2 garnets" in handed[0]
    assert "exchanging" not in handed[1]
    assert (
        "frank spends $0 (Kong $0, bids $0, invest $0, donate $0, bet $0): $400 before "
        "penalties." in story[2]
    )
    assert "frank exchanged 0 garnets and is awarded 2: net +2." in story[8]


def test_the_host_reads_everything(seeds):
    match, _ = seeds["winner-chooses-ec"]
    story = lines(match, HOST)
    assert (
        "Rate proposals: alice $10, bob $13, dave $20; the teams come from the DM winner, the "
        "Minus Auction order from the MM winner." in story[0]
    )
    assert (
        "Tile schedule (from the setup), rounds 1-4: -1 -2 -3 -4 -5 | -6 -7 -8 -9 -10 | "
        "-11 -12 -13 -14 -15 | -16 -17 -18 -19 -20." in story[0]
    )
    assert "Defaulted: bob (beggar)" not in " ".join(story[1])  # everyone submitted in round 1
    assert "Nobody was defaulted." in story[1]
    assert "EC choices: alice frank; counts erin 0, frank 1." in story[8]


def test_the_joint_winners_disagree_as_everyone_reads_it(seeds):
    match, _ = seeds["joint-winners-disagree"]
    story = lines(match, PUBLIC)
    assert (
        "The Gamewide Tiebreak, drawn from the seed: fay > ann > ben > dan > cat > eve."
        in (story[0])
    )
    assert (
        "The pre-game closes: red ann, cat and dan against white ben, eve and fay; a garnet "
        "buys $9." in story[0]
    )
    assert (
        "Kong's Dilemma: white gives more and scores; red gave $0 in all. Kong points: red 0, "
        "white 1." in story[5]
    )
    assert (
        "Kong's Dilemma: the teams tie, nobody scores. Kong points: red 0, white 1." in (story[6])
    )
    assert "Balances: ann $395, ben $400, cat $390, dan $395, eve $400, fay $395." in story[3]
    end = story[8]
    assert "Kong's Dilemma: white wins 1-0 (on points); places fay, ben, eve, ann, dan, cat." in (
        end
    )
    assert "Minus Auction: places eve -46, ben -50, dan -79, ann -98, cat -106, fay -111." in end
    assert "fay and ben win jointly: 1 ToL each." in end
    assert "cat and eve share the fewest match points." in end
    assert "The EC decision window opens: fay and ben choose between cat and eve." in end
    assert (
        "eve is the Elimination Candidate, the lowest in the Gamewide Tiebreak among the level "
        "candidates." in end
    )


def test_ben_and_ann_read_their_own_rounds(seeds):
    match, _ = seeds["joint-winners-disagree"]
    ben = lines(match, "ben")
    assert (
        "ben spends $3 (Kong $0, bids $0, invest $0, donate $0, bet $3); 1 garnet bought $9: "
        "$406 before penalties." in ben[4]
    )
    assert "ben chooses cat as the EC." in ben[8]
    assert "ben exchanged 1 garnet and is awarded 2: net +1." in ben[8]
    ann = lines(match, "ann")
    assert "ann sent nothing: the defaults apply, with the drawn role beggar." in ann[2]


def test_every_line_is_short(seeds):
    for match, viewer, round_number in moments(seeds):
        for chapter in told(match, viewer, round_number)["story"]:
            assert chapter["lines"] and all(len(line) < 200 for line in chapter["lines"])


def test_chapters_follow_the_rounds(seeds):
    match, _ = seeds["winner-chooses-ec"]
    story = told(match, PUBLIC)["story"]
    assert [c["round"] for c in story] == list(range(9))
    assert [c["title"] for c in story] == [
        "The pre-game",
        *(f"Round {n}" for n in range(1, 8)),
        "The final scoring",
    ]
    assert [c["round"] for c in told(match, PUBLIC, 2)["story"]] == [0, 1, 2, 3]


# The scoreboard.


def test_the_standings_after_round_one(seeds):
    match, _ = seeds["winner-chooses-ec"]
    board = told(match, PUBLIC, 1)["scoreboard"]
    assert board["title"] == "After round 1"
    rows = {row[0]: row[1:] for row in board["rows"]}
    # alice: red, $417, tile -2 (score -2), no Top Investor token, a Miser token, 1 chip.
    assert rows["alice"] == ["red (0)", 417, "-2", -2, 0, 1, 1]
    assert rows["erin"] == ["white (0)", 398, "-5", -5, 0, 1, 2]


def test_the_final_standings(seeds):
    match, _ = seeds["winner-chooses-ec"]
    board = told(match, PUBLIC)["scoreboard"]
    assert board["title"] == "Final standings"
    assert board["rows"][0] == [
        1,
        "alice",
        "1st (20)",
        "3rd (12)",
        "1st (20)",
        "1st (20)",
        72,
        6,
        "winner, 2 ToLs",
    ]
    assert board["rows"][-1] == [
        5,
        "frank",
        "6th (4)",
        "1st (20)",
        "6th (4)",
        "6th (4)",
        32,
        2,
        "Elimination Candidate",
    ]


def test_no_standings_before_the_teams_are_fixed():
    match = Match(close_pregame=False)
    assert am.scoreboard(am.summarize(match.seen_by(PUBLIC), PUBLIC)) is None
    assert am.scoreboard(am.summarize([], PUBLIC)) is None


# (d) Forms: exactly what the rules accept from the viewer now.


def accepted(match: Match, viewer: str, name: str) -> bool:
    """Whether the rules take the command from `viewer` now: accepted, or refused only for
    its missing arguments (checks 1-4 passed)."""
    try:
        am.decide(match.state, Command(name, viewer, {}, dict(match.garnets)))
    except RuleViolation as refusal:
        return refusal.code == "missing_field"
    return True


def offered(match: Match, viewer: str) -> set[str]:
    summary = am.summarize(match.seen_by(viewer), viewer)
    return {form["command"] for form in am.forms(summary, viewer)}


def check_forms(match: Match) -> None:
    for viewer in (HOST, *PLAYERS):
        allowed = {name for name in am.COMMANDS if accepted(match, viewer, name)}
        assert offered(match, viewer) == allowed, viewer
    assert am.forms(am.summarize(match.seen_by(PUBLIC), PUBLIC), PUBLIC) == []


def test_forms_in_the_pregame():
    match = Match(close_pregame=False, mm_winner="p2", dm_winner="p3")
    check_forms(match)
    assert offered(match, "p2") == {"submit_garnet_rate", "submit_ma_order"}
    assert offered(match, "p3") == {"submit_garnet_rate", "submit_teams"}
    assert offered(match, "p1") == {"submit_garnet_rate"}
    (rate,) = am.forms(am.summarize(match.seen_by("p1"), "p1"), "p1")
    assert rate["fields"][0]["choices"] == list(range(5, 21))


def test_forms_in_a_round():
    match = Match()
    match.play_rounds(3)
    check_forms(match)
    (submission,) = am.forms(am.summarize(match.seen_by("p4"), "p4"), "p4")
    fields = {field["name"]: field for field in submission["fields"]}
    assert fields["round"]["choices"] == [4]
    assert fields["ct_role"]["choices"] == ["mafia", "cartel", "police", "beggar"]
    assert fields["ma_bids"]["label"] == "one bid on each tile: -16, -17, -18, -19, -20"
    assert fields["garnets_to_exchange"]["required"] is False


def test_forms_in_the_ec_window_and_after():
    match = tied_bottom_match()  # p1 alone won; p5 and p6 tie for fewest
    check_forms(match)
    (choice,) = am.forms(am.summarize(match.seen_by("p1"), "p1"), "p1")
    assert choice["command"] == "choose_ec"
    assert choice["fields"][0]["choices"] == ["p5", "p6"]
    match.host("close_ec_decision")
    check_forms(match)
    assert all(offered(match, viewer) == set() for viewer in (HOST, *PLAYERS))


def test_nothing_to_send_once_a_seed_match_is_over(seeds):
    for match, players in seeds.values():
        assert match.ended
        for viewer in (PUBLIC, HOST, *players):
            assert told(match, viewer)["forms"] == []
