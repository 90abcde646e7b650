"""narrate, picture, scoreboard and forms for every round and every viewer of whole matches
played through the application: nothing the viewer may not know, a well-formed picture, the
story as the seeds' notes tell it, and the forms the rules allow."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import Any

import hypothesis
import pytest
from hypothesis import given
from hypothesis import strategies as st

from commands.service.arbiter import Arbiter
from domain.decider import Command, Event
from domain.errors import RuleViolation
from domain.games import kings_court as kc
from domain.games.kings_court.story import form as story_form
from domain.records import headline, may_see, to_event
from domain.rng import Rng
from tests.games.kings_court import kc_scenes as scenes
from tests.games.kings_court.kc_canaries import Canaries
from tests.games.kings_court.kc_harness import PLAYERS as HARNESS_PLAYERS
from tests.games.kings_court.kc_played import MATCHES, Played
from tests.games.kings_court.test_kc_properties import SETTINGS, balances, commands, options
from tests.support.deciders import checked_step
from tests.support.host_key import SIGNER

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict[str, Played]:
    app = Arbiter(f"sqlite:///{tmp_path_factory.mktemp('kc')}/arbiter.db", signer=SIGNER)
    return {path.stem: Played(app, path) for path in MATCHES}


def svg_units(svg: str | None) -> list[str]:
    """The picture's words: each text, each title, the description sentence by sentence."""
    if svg is None:
        return []
    root = ET.fromstring(svg)
    units = []
    for element in root.iter():
        if element.tag in (f"{SVG}text", f"{SVG}title") and element.text:
            units.append(element.text)
        if element.tag == f"{SVG}desc" and element.text:
            units += element.text.split(". ")
    return units


def outputs(view: dict[str, Any], shown_events: list[dict], viewer: str) -> list[str]:
    """Every line a viewer is shown: the story, the picture, the standings, the forms."""
    units = [line for chapter in kc.narrate(shown_events, viewer) for line in chapter["lines"]]
    units += [chapter["title"] for chapter in kc.narrate(shown_events, viewer)]
    units += svg_units(kc.picture(view))
    board = kc.scoreboard(view)
    if board:
        units.append(board["title"])
        units += [" ".join(str(cell) for cell in row) for row in board["rows"]]
    for form in kc.forms(view, viewer):
        units.append(form["label"])
        for field in form["fields"]:
            units.append(f"{field['label']}: {' '.join(field['choices'] or [])}")
    return units


def moments(match: Played) -> Iterable[int]:
    return range(match.last_round + 1)


@pytest.mark.parametrize("name", [path.stem for path in MATCHES])
def test_no_output_holds_what_its_viewer_may_not_know(played, name):
    match = played[name]
    for round_number in moments(match):
        for viewer in match.viewers:
            canaries = Canaries(match.as_of(round_number), match.players, viewer, kc.COMMANDS)
            view = kc.summarize(match.events(viewer, round_number), viewer)
            units = outputs(view, match.shown(viewer, round_number), viewer)
            assert canaries.leaks(units) == [], (round_number, viewer)


def test_the_canaries_catch_the_hosts_story_told_to_the_public(played):
    """The check is strong enough: the host's events or summary shown to the public leak, at
    every moment of the match, in the story and in the picture."""
    match = played["kings_court-king-win"]
    for round_number in moments(match):
        canaries = Canaries(match.as_of(round_number), match.players, "public", kc.COMMANDS)
        hosts_story = kc.narrate(match.shown("host", round_number), "public")
        lines = [line for chapter in hosts_story for line in chapter["lines"]]
        assert canaries.leaks(lines), round_number
    canaries = Canaries(match.as_of(2), match.players, "public", kc.COMMANDS)
    hosts_view = kc.summarize(match.events("host", 2), "public")
    assert canaries.leaks(svg_units(kc.picture(hosts_view)))
    players_view = kc.summarize(match.events("alice", 2), "bob")
    assert Canaries(match.as_of(2), match.players, "bob", kc.COMMANDS).leaks(
        svg_units(kc.picture(players_view)))


@pytest.mark.parametrize("name", [path.stem for path in MATCHES])
def test_every_picture_is_a_titled_described_svg_that_draws_nothing_from_outside(played, name):
    match = played[name]
    for round_number in moments(match):
        for viewer in match.viewers:
            svg = kc.picture(kc.summarize(match.events(viewer, round_number), viewer))
            assert svg is not None
            root = ET.fromstring(svg)
            assert root.tag == f"{SVG}svg" and root.get("role") == "img"
            assert root.get("width") == "100%" and root.get("viewBox", "").startswith("0 0 ")
            assert root.find(f"{SVG}title").text and root.find(f"{SVG}desc").text
            assert not any(e.tag == f"{SVG}script" for e in root.iter())
            assert "href" not in svg and "url(" not in svg
            sizes = [int(e.get("font-size")) for e in root.iter() if e.get("font-size")]
            assert min(sizes) >= 12  # 11 px or more at 375 px wide (viewBox 400)


def test_no_picture_before_the_first_game_and_names_are_escaped():
    assert kc.picture(kc.summary_start("public")) is None
    view = kc.summary_start("public")
    view["courts"] = {"1": ["<b>&'\"", "p2"]}
    svg = kc.picture(view)
    root = ET.fromstring(svg)  # well-formed despite the name
    assert "<b>" not in svg
    assert any(e.text == "<b>&'\"" or (e.text or "").startswith("<b>") for e in root.iter())


def test_every_line_is_short(played):
    for match in played.values():
        for viewer in match.viewers:
            for chapter in kc.narrate(match.shown(viewer), viewer):
                assert all(0 < len(line) < 200 for line in chapter["lines"])


# The story as the seeds' notes tell it (worked out from the notes, not from the output).


def chapter(match: Played, viewer: str, round_number: int) -> dict[str, Any]:
    (found,) = [c for c in kc.narrate(match.shown(viewer), viewer)
                if c["round"] == round_number]
    return found


def told(match: Played, viewer: str, round_number: int, *lines: str) -> None:
    story = chapter(match, viewer, round_number)["lines"]
    for line in lines:
        assert line in story, (viewer, round_number, line, story)


def test_the_kings_win_as_its_notes_tell_it(played):
    match = played["kings_court-king-win"]
    assert [c["title"] for c in kc.narrate(match.shown("public"), "public")] == [
        "The opening",
        *(f"Round {n}: game 1, election round {n}" for n in range(1, 6)),
        "Round 6: after game 1",
    ]
    told(match, "public", 1, "alice joins the court 1st, with 3 votes. Not the King.")
    told(match, "public", 2, "frank joins the court 2nd, with 4 votes. Not the King.")
    told(match, "public", 3, "A tie at 3 between bob and ivan: a tie-break follows.",
         "bob joins the court 3rd, through the tie-break. Not the King.")
    told(match, "public", 4, "heidi joins the court 4th, with 6 votes. Not the King.")
    told(match, "public", 5, "grace joins the court 5th, with 5 votes. grace is the King!",
         "Game 1 is over: 2 Dukes and 2 Nobles in the court besides the King.",
         "The King wins.", "grace wins 3 Tokens of Life and 2 garnets.",
         "Tied for the lowest EC score: erin, ken.",
         "EC scores, votes + election bonus: alice 3+5, bob 4+3, carol 4+0, dave 2+0, "
         "erin 1+0, frank 5+4, heidi 8+2, ivan 7+0, judy 2+0, ken 1+0.")
    told(match, "public", 6, "The King's gift (his choice): 1 Token of Life to dave, a Duke.",
         "The King's gift (his choice): 1 Token of Life to ken, a Noble.",
         "The King keeps 1 of his 3 Tokens of Life.",
         "erin is the Elimination Candidate, by the winning party's vote.",
         "ken is recorded as the DMO: erin's opponent.",
         "Ranked 1st: grace.", "Ranked 3rd: erin, the Elimination Candidate.",
         "Tokens of Life: grace 1, dave 1, ken 1.", "Opal: nobody.")
    # What each was told alone.
    told(match, "grace", 0, "In game 1 you are the King.")
    told(match, "grace", 1, "The Judge says alice is a Duke.", "The Judge says ken is a Duke.")
    told(match, "grace", 3, "You chose bob to break the tie.")
    told(match, "grace", 6, "You chose dave and ken for your gift.")
    told(match, "grace", 6, "You named erin as EC.", "Your garnets moved by +2 over the match.")
    told(match, "alice", 1, "You paid 8 garnets to peek at grace.",
         "The Judge says grace is a Noble.")
    told(match, "alice", 2, "The Judge tells you: bob and ken are on the same team.")
    told(match, "frank", 3, "The Judge tells you: grace and heidi are on different teams.")
    told(match, "erin", 1, "You paid 3 garnets to ask the Judge: you have annoyed him.",
         "You missed the vote: nothing taken.")
    told(match, "host", 3, "The tie-break is the King's own choice: bob.")
    told(match, "host", 1, "Missed the vote: erin (nothing taken), ken (nothing taken).")


def test_the_nobles_win_as_its_notes_tell_it(played):
    match = played["kings_court-team-win"]
    told(match, "public", 2, "alice joins the court 2nd, with 5 votes. alice is the King!",
         "alice was found too early: a MoE and 1 garnet lost.",
         "Game 2 begins at once with new roles; never King again: alice.")
    assert chapter(match, "public", 3)["title"] == "Round 3: game 2, election round 1"
    told(match, "public", 4, "A tie at 3 between grace and judy: a tie-break follows.",
         "grace joins the court 2nd, through the tie-break. Not the King.")
    told(match, "host", 4,
         "The King did not choose: the default picked grace (the host's explicit pick).")
    told(match, "public", 8, "judy joins the court 6th, with 5 votes. judy is the King!",
         "The Nobles win.", "ken takes the Opal: the only winner outside the court.",
         "Tied for the lowest EC score: bob, dave.")
    told(match, "public", 9, "The winning party's ballots: bob 2, dave 2; 3 needed.",
         "No majority; garnets of the tied: bob 4, dave 10.",
         "bob is the Elimination Candidate, by the fewest garnets.",
         "Ranked 1st: frank, grace, heidi, ivan, ken.",
         "Ranked 2nd: alice, carol, dave, erin, judy.", "MoE: alice.")
    told(match, "judy", 3, "The Judge says bob is a Noble.", "The Judge says grace is a Duke.")
    told(match, "carol", 2, "The Judge tells you: alice and frank are on different teams.")
    told(match, "frank", 4, "The Judge tells you: bob and ken are on the same team.")
    told(match, "ken", 9, "Your garnets moved by +0 over the match.")  # -1 -1 +2
    told(match, "bob", 9, "Your garnets moved by -16 over the match.")  # two peeks


def test_four_early_kings_as_its_notes_tell_it(played):
    match = played["four_early_kings"]
    told(match, "p2", 1, "You paid 8 garnets to peek at p11.", "The Judge says p11 is a Duke.")
    told(match, "p11", 1, "The Judge says p1 is a Duke.", "The Judge says p8 is a Noble.")
    told(match, "public", 3, "Nobody voted.",
         "A tie at 0 between p1, p2, p3, p4, p5, p6, p7, p8, p9, p10 and p11: "
         "a tie-break follows.", "p7 joins the court 1st, through the tie-break. Not the King.")
    told(match, "p7", 4, "The Judge tells you: p10 and p11 are on different teams.")
    told(match, "public", 4, "p3 was found too early: a MoE and 1 garnet lost.")
    told(match, "p8", 6, "You paid 3 garnets to ask the Judge: you have annoyed him.")
    told(match, "public", 8, "p7 was found too early: a MoE and 0 garnets lost.",
         "That was the fourth early King.", "To the Death Match: p11, p3, p1, p7.",
         "Ranked 1st: every player but the four Kings.",
         "Ranked 2nd, to the Death Match: p11, p3, p1, p7.")


# The standings


def test_the_scoreboard_follows_the_game(played):
    king_win = played["kings_court-king-win"]
    assert kc.scoreboard(kc.summarize(king_win.events("public", 0), "public")) is None
    board = kc.scoreboard(kc.summarize(king_win.events("public", 2), "public"))
    # Round 1: alice 3, bob carol frank heidi ivan judy 1; round 2: frank 4, ivan 2,
    # dave heidi judy 1.
    assert board["rows"] == [
        ["alice", 3, "1st"], ["bob", 1, ""], ["carol", 1, ""], ["dave", 1, ""], ["erin", 0, ""],
        ["frank", 5, "2nd"], ["grace", 0, ""], ["heidi", 2, ""], ["ivan", 3, ""],
        ["judy", 2, ""], ["ken", 0, ""],
    ]
    team_win = played["kings_court-team-win"]
    board = kc.scoreboard(kc.summarize(team_win.events("frank"), "frank"))
    assert board["rows"] == [
        ["alice", "Duke", 5, 3, 8, ""],
        ["bob", "Duke", 2, 0, 2, "EC"],
        ["carol", "Duke", 3, 0, 3, ""],
        ["dave", "Duke", 2, 0, 2, "tied"],
        ["erin", "Duke", 3, 0, 3, ""],
    ]
    four = played["four_early_kings"]
    board = kc.scoreboard(kc.summarize(four.events("p5"), "p5"))
    assert board["rows"] == [[1, "p11", 2], [2, "p3", 2], [3, "p1", 1], [4, "p7", 3]]


# The forms


def offered(view: dict[str, Any], viewer: str) -> dict[str, dict[str, Any]]:
    return {
        form["command"]: {field["name"]: field["choices"] for field in form["fields"]}
        for form in kc.forms(view, viewer)
    }


def view_until(match: Played, viewer: str, kind: str, nth: int = 1) -> dict[str, Any]:
    """The viewer's summary just after the `nth` entry of `kind` (mid-round moments)."""
    at = [n for n, r in enumerate(match.records, start=1) if headline(r)["kind"] == kind][nth - 1]
    records = [r for r in match.records[:at] if may_see(r, viewer) and r["role"] != "command"]
    return kc.summarize([to_event(r) for r in records], viewer)


PLAYERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
           "ken"]


def others(*excluded: str) -> list[str]:
    return [p for p in PLAYERS if p not in excluded]


def test_forms_offer_what_the_rules_allow_phase_by_phase(played):
    match = played["kings_court-king-win"]
    # Round 1 open: everyone votes; the King may look; anyone may peek; not the King annoyed.
    view = kc.summarize(match.events("grace", 0), "grace")
    assert offered(view, "grace") == {
        "vote": {"candidate": others("grace")},
        "king_learn": {"targets": others("grace")},
        "peek": {"target": others("grace")},
    }
    view = kc.summarize(match.events("alice", 0), "alice")
    assert offered(view, "alice") == {
        "vote": {"candidate": others("alice")},
        "peek": {"target": others("alice")},
        "annoyed_check": {},
    }
    assert offered(kc.summarize(match.events("host", 0), "host"), "host") == {"close_round": {}}
    assert kc.forms(kc.summarize(match.events("public", 0), "public"), "public") == []
    # Round 2: alice joined, checks a pair, has peeked at grace; erin has checked herself.
    view = kc.summarize(match.events("alice", 1), "alice")
    assert offered(view, "alice") == {
        "pair_check": {"targets": others("alice")},
        "peek": {"target": others("alice", "grace")},
        "annoyed_check": {},
    }
    view = kc.summarize(match.events("erin", 1), "erin")
    assert offered(view, "erin") == {
        "vote": {"candidate": others("erin", "alice")},
        "peek": {"target": others("erin")},
    }
    # The tie of round 3: only the King's choice, and the paid ones.
    view = view_until(match, "grace", "VotesTallied", nth=3)
    assert view["phase"] == "tiebreak"
    assert offered(view, "grace") == {
        "tiebreak": {"choice": ["bob", "ivan"]},
        "peek": {"target": others("grace")},
    }
    assert set(offered(view_until(match, "bob", "VotesTallied", nth=3), "bob")) == {
        "peek", "annoyed_check"}
    assert offered(view_until(match, "host", "VotesTallied", nth=3), "host") == {
        "close_tiebreak": {}}
    # The King's gift: true roles, any Duke and any Noble.
    view = kc.summarize(match.events("grace", 5), "grace")
    assert offered(view, "grace") == {
        "king_gift": {"duke": ["alice", "bob", "carol", "dave", "erin"],
                      "noble": ["frank", "heidi", "ivan", "judy", "ken"]},
    }
    assert offered(kc.summarize(match.events("alice", 5), "alice"), "alice") == {}
    # The EC vote: the King alone is the party; erin and ken are tied.
    view = view_until(match, "grace", "KingGiftMade")
    assert offered(view, "grace") == {"ec_vote": {"candidate": ["erin", "ken"]}}
    assert offered(view_until(match, "erin", "KingGiftMade"), "erin") == {}
    assert offered(view_until(match, "host", "KingGiftMade"), "host") == {"close_ec_vote": {}}
    # Waiting for the DMO: only the host records it, any player but the EC.
    view = view_until(match, "host", "EcDecided")
    assert offered(view, "host") == {"record_dmo": {"dmo": others("erin")}}
    assert offered(view_until(match, "grace", "EcDecided"), "grace") == {}
    # Over.
    assert offered(kc.summarize(match.events("host"), "host"), "host") == {}
    assert offered(kc.summarize(match.events("grace"), "grace"), "grace") == {}


def test_the_ec_vote_is_offered_to_the_winning_team_only(played):
    match = played["kings_court-team-win"]
    for viewer in match.players:
        view = kc.summarize(match.events(viewer, 8), viewer)
        expected = {"ec_vote": {"candidate": ["bob", "dave"]}} if viewer in (
            "frank", "grace", "heidi", "ivan", "ken") else {}
        assert offered(view, viewer) == expected, viewer


def test_the_deadlock_coin_is_the_hosts_to_record():
    match = scenes.deadlock_phase()
    view = kc.summarize(match.log, "host")
    assert view["phase"] == "deadlock_coin"
    assert offered(view, "host") == {
        "record_deadlock_result": {"ec": ["p7", "p8", "p9", "p10"]}}
    assert offered(kc.summarize(match.seen_by("p7"), "p7"), "p7") == {}


def test_forms_name_only_declared_arguments():
    for command, spec in kc.COMMANDS.items():
        form = story_form(command)
        assert [field["name"] for field in form["fields"]] == list(spec.args)



# Any match the rules allow can be told, drawn, scored and offered.


@SETTINGS
@given(seed=st.text(min_size=1, max_size=8), chosen=options, start=balances, script=commands)
def test_every_viewer_of_any_match_gets_a_story_a_picture_standings_and_forms(
    seed, chosen, start, script
):
    state = kc.initial_state(kc.Setup(players=HARNESS_PLAYERS, **chosen), Rng(kc.GAME_ID, seed))
    ledger = dict(start)
    entries: list[tuple[int, Event]] = []
    for actor, name, args in [("host", "open_match", {}), *script]:
        match_round = kc.round_of(state)
        command = Command(name, actor, args, dict(ledger))
        state, events = checked_step(kc, state, command, HARNESS_PLAYERS, ledger)
        entries += [(match_round, event) for event in events]
    for viewer in ["public", "host", *HARNESS_PLAYERS]:
        seen = [(n, e) for n, e in entries if e.seen_by(viewer)]
        shown_events = [
            {"seq": seq, "round": n, "kind": e.kind, "actor": e.actor, "at": None,
             "audience": e.audience, "data": dict(e.data)}
            for seq, (n, e) in enumerate(seen, start=1)
        ]
        view = kc.summarize([e for _, e in seen], viewer)
        assert view["phase"] == state.phase
        for chapter in kc.narrate(shown_events, viewer):
            assert chapter["lines"] and all(0 < len(line) < 200 for line in chapter["lines"])
        ET.fromstring(kc.picture(view) or "<svg/>")
        board = kc.scoreboard(view)
        assert board is None or all(len(row) == len(board["columns"]) for row in board["rows"])
        for form in kc.forms(view, viewer):
            assert form["command"] in kc.COMMANDS and viewer != "public"
            assert kc.COMMANDS[form["command"]].actor == ("host" if viewer == "host" else "player")


def accepts(state: Any, actor: str, name: str, args: dict[str, Any]) -> bool:
    rich = dict.fromkeys(state.players, 100)  # forms cannot see balances: judge them without
    try:
        kc.decide(state, Command(name, actor, args, rich))
    except RuleViolation:
        return False
    return True


def every_args(name: str, players: list[str]) -> list[dict[str, Any]]:
    """Every way to fill the command's arguments with players of the match."""
    shapes: list[dict[str, Any]] = [{}]
    for arg_name, arg in kc.COMMANDS[name].args.items():
        values: list[Any] = (
            [list(pair) for pair in itertools.permutations(players, 2)]
            if arg.kind == "list" else list(players)
        )
        shapes = [{**shape, arg_name: value} for shape in shapes for value in values]
    return shapes


def check_forms_are_exact(
    state: Any, view: dict[str, Any], viewer: str, players: list[str]
) -> None:
    """A form is offered for exactly the commands the rules would accept from the viewer now,
    and each offered choice is accepted."""
    offered_now = {form["command"]: form for form in kc.forms(view, viewer)}
    mine = "host" if viewer == "host" else "player"
    for name, spec in kc.COMMANDS.items():
        if spec.actor != mine:
            continue
        accepted = [
            args for args in every_args(name, players) if accepts(state, viewer, name, args)
        ]
        assert (name in offered_now) == bool(accepted), (viewer, name, state.phase)
        if name not in offered_now:
            continue
        for field in offered_now[name]["fields"]:
            allowed = {str(args[field["name"]]) for args in accepted}
            if field["kind"] == "list":
                allowed = {p for args in accepted for p in args[field["name"]]}
            assert field["choices"] is not None and set(field["choices"]) == allowed, (
                viewer, name, field["name"])


@SETTINGS
@given(seed=st.text(min_size=1, max_size=4), chosen=options, start=balances, script=commands,
       cut=st.integers(min_value=0))
def test_forms_offer_exactly_what_the_rules_accept(seed, chosen, start, script, cut):
    state = kc.initial_state(kc.Setup(players=HARNESS_PLAYERS, **chosen), Rng(kc.GAME_ID, seed))
    ledger = dict(start)
    created = Event("MatchCreated", {"players": HARNESS_PLAYERS})  # as the match opens its log
    log: list[Event] = [created]
    steps = [("host", "open_match", {}), *script][: 1 + cut % (len(script) + 1)]
    for actor, name, args in steps:
        state, events = checked_step(kc, state, Command(name, actor, args, dict(ledger)),
                                     HARNESS_PLAYERS, ledger)
        log += events
    hypothesis.event(f"phase {state.phase}")
    for viewer in ["host", *HARNESS_PLAYERS]:
        view = kc.summarize([e for e in log if e.seen_by(viewer)], viewer)
        check_forms_are_exact(state, view, viewer, HARNESS_PLAYERS)


@pytest.mark.parametrize("name", [path.stem for path in MATCHES])
def test_forms_are_exact_after_every_host_command_of_the_seed_matches(played, name):
    """Each phase of three whole matches (king's gift, EC vote and DMO included), every viewer:
    the rules' state folded from the log, each viewer's summary of the same prefix."""
    match = played[name]
    setup = kc.Setup.model_validate({"players": match.players, **match.file.setup})
    state = kc.initial_state(setup, Rng(kc.GAME_ID, match.seed))
    closes = [
        n for n, record in enumerate(match.records)
        if record["role"] == "command" and headline(record)["actor"] == "host"
    ]
    boundaries = [*closes[1:], len(match.records)]  # from the opening on
    folded = 0
    for boundary in boundaries:
        for record in match.records[folded:boundary]:
            if record["role"] == "fact":
                state = kc.evolve(state, to_event(record))
        folded = boundary
        for viewer in ["host", *match.players]:
            records = [r for r in match.records[:boundary]
                       if may_see(r, viewer) and r["role"] != "command"]
            view = kc.summarize([to_event(r) for r in records], viewer)
            check_forms_are_exact(state, view, viewer, match.players)
