"""The summary one step at a time: every prefix of both seed matches, for every viewer, stepped
entry by entry equals `summarize` of that prefix (also through a JSON round trip, as the
projections keep it); a step never walks the view's growing lists; `phase` follows every
phase of the game (rulebook 3.8)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from domain.decider import PUBLIC, Event
from domain.games import amalgamation as am
from domain.records import may_see, to_event
from tests.games.amalgamation.harness import PLAYERS, Match
from tests.games.amalgamation.scenarios import quiet_match, tied_bottom_match
from tests.support.host_key import SIGNER

SEEDS = sorted((Path(__file__).resolve().parents[3] / "seeds").glob("amalgamation-*.json"))


@pytest.fixture(scope="module")
def seed_matches(tmp_path_factory) -> list[tuple[list[str], list[dict[str, Any]]]]:
    """(players, records) of both seed matches, played on an SQLite store."""
    app = Arbiter(f"sqlite:///{tmp_path_factory.mktemp('am')}/arbiter.db", signer=SIGNER)
    played = []
    for path in SEEDS:
        file = load(path)
        _, mismatches = play(app, file)
        assert mismatches == []
        played.append((file.players, app.match(file.match).records))
    return played


def seen(records: list[dict[str, Any]], viewer: str) -> list[Event]:
    """What the projections hand the summary: the viewer's entries, commands left out."""
    return [to_event(r) for r in records if may_see(r, viewer) and r["role"] != "command"]


def test_stepping_equals_summarizing_at_every_prefix(seed_matches):
    for players, records in seed_matches:
        for viewer in [PUBLIC, "host", *players]:
            events = seen(records, viewer)
            view = am.summary_start(viewer)
            assert view == am.summarize([], viewer)
            for count, event in enumerate(events, 1):
                am.summary_step(view, event)
                assert view == am.summarize(events[:count], viewer), (viewer, count)
            assert view["phase"] == "over"


def test_a_view_kept_as_json_steps_on_to_the_same_view(seed_matches):
    for players, records in seed_matches:
        for viewer in [PUBLIC, "host", players[0]]:
            events = seen(records, viewer)
            view = am.summary_start(viewer)
            for event in events:
                view = json.loads(json.dumps(view))
                am.summary_step(view, event)
            assert view == am.summarize(events, viewer)


class Unwalkable(list):
    """A list a step may append to and read the last item of, but never walk or search."""

    def _walked(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a summary step walked a growing list")

    __iter__ = __contains__ = __reversed__ = index = count = sort = copy = _walked


def guarded(view: dict[str, Any]) -> dict[str, Any]:
    """The view with every list that grows with the match made unwalkable."""
    view = json.loads(json.dumps(view))
    for key in ("rounds", "submissions", "spending", "chip_thief_points", "host_notes"):
        view[key] = Unwalkable(view[key])
    view["ma_tiles"] = {player: Unwalkable(tiles) for player, tiles in view["ma_tiles"].items()}
    return view


def test_a_step_never_walks_the_growing_lists(seed_matches):
    for players, records in seed_matches:
        for viewer in ["host", players[0]]:
            events = seen(records, viewer)
            for count, event in enumerate(events):
                view = guarded(am.summarize(events[:count], viewer))
                am.summary_step(view, event)


# The phase, phase by phase.


def phases(events: list[Event], viewer: str = PUBLIC) -> list[str]:
    """Every phase the viewer's summary names, in order, without repeats in a row."""
    view, named = am.summary_start(viewer), ["not_started"]
    for event in events:
        am.summary_step(view, event)
        if view["phase"] != named[-1]:
            named.append(view["phase"])
    return named


ROUNDS = ["round", "resolving"] * 7


def test_the_phases_of_a_match_whose_ec_is_unique():
    match = quiet_match()  # p5 alone has the fewest points: no EC window
    assert phases(match.seen_by(PUBLIC)) == ["not_started", "pregame", *ROUNDS, "scored", "over"]


def test_the_phases_of_a_match_with_an_ec_window():
    match = tied_bottom_match()
    match.do("p1", "choose_ec", candidate="p6")
    match.host("close_ec_decision")
    for viewer in (PUBLIC, "host", "p1", "p6"):
        assert phases(match.seen_by(viewer), viewer) == [
            "not_started",
            "pregame",
            *ROUNDS,
            "scored",
            "ec_decision",
            "over",
        ]


def test_between_commands_the_phase_is_the_open_window():
    match = Match(close_pregame=False, mm_winner="p2")
    view = am.summarize(match.seen_by("p2"), "p2")
    assert view["phase"] == "pregame"
    match.do("p2", "submit_ma_order", order=PLAYERS)
    match.host("close_pregame")
    view = am.summarize(match.seen_by("p2"), "p2")
    assert (view["phase"], view["round"], view["tiles"]) == ("round", 1, [-1, -2, -3, -4, -5])
    match.play_rounds(3)
    view = am.summarize(match.seen_by(PUBLIC), PUBLIC)
    assert (view["phase"], view["round"]) == ("round", 4)
    match.play_rounds(4)
    view = am.summarize(match.seen_by(PUBLIC), PUBLIC)
    assert (view["phase"], view["round"]) == ("over", 7)


def test_an_abandoned_match_is_over():
    match = Match()
    events = [*match.seen_by(PUBLIC), Event("MatchAbandoned", {"reason": "storm"})]
    assert am.summarize(events, PUBLIC)["phase"] == "over"
