"""The summary one step at a time (docs/games/totemic_might.md 3.5): the same at every prefix as
the whole fold, plain JSON between steps, and `phase` following every phase of the match."""

from __future__ import annotations

import json

import pytest

from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from domain.games import totemic_might as tm
from tests.games.totemic_might.harness import Match
from tests.games.totemic_might.seed_matches import (
    BOTH,
    HEAVY_SKY,
    TIEBREAK,
    as_of,
    before_close,
    played,
    seen_events,
    viewers,
)
from tests.support.host_key import SIGNER


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    application = Arbiter(f"sqlite:///{tmp_path_factory.mktemp('tm-summary')}/arbiter.db",
                          signer=SIGNER)
    for path in BOTH:
        played(application, path)
    yield application
    application.close()


@pytest.mark.parametrize("path", BOTH, ids=["heavy-sky", "tiebreak"])
def test_stepping_entry_by_entry_gives_the_summary_of_every_prefix(app, path):
    """The projections keep each view as JSON and step it as entries arrive."""
    file = load(path)
    match = app.match(file.match)
    for viewer in viewers(file):
        events = seen_events(match, viewer)
        stepped = tm.summary_start(viewer)
        assert stepped == tm.summarize([], viewer)
        for count, event in enumerate(events, start=1):
            stepped = json.loads(json.dumps(stepped))  # as the projection stores it
            tm.summary_step(stepped, event)
            assert stepped == tm.summarize(events[:count], viewer), (viewer, count, event.kind)


# (round as of whose end, phase, round open): round 1 opens with the match.
PHASES = {
    HEAVY_SKY: [(0, "auction", 1), (1, "auction", 2), (2, "final_weighing", 3),
                (3, "final_challenge", 4), (4, "over", 4)],
    TIEBREAK: [(0, "auction", 1), (1, "final_weighing", 2), (2, "final_challenge", 3),
               (3, "over", 3)],
}


@pytest.mark.parametrize("path", BOTH, ids=["heavy-sky", "tiebreak"])
def test_the_phase_follows_the_match_for_every_viewer(app, path):
    file = load(path)
    match = app.match(file.match)
    for round_number, phase, open_round in PHASES[path]:
        for viewer in viewers(file):
            summary = as_of(match, viewer, round_number)["summary"]
            assert (summary["phase"], summary["round"]) == (phase, open_round), (
                viewer, round_number)


def test_before_the_opening_nothing_is_open():
    match = Match(open_match=False)
    assert match.log == []
    assert tm.summarize(match.log, "public")["phase"] == "not_started"


def test_a_match_the_host_abandons_is_over(tmp_path):
    app = Arbiter(f"sqlite:///{tmp_path}/arbiter.db", signer=SIGNER)
    file = before_close(load(HEAVY_SKY), 2)  # inside round 2
    play(app, file)
    app.submit(file.match, "host", "end", {"reason": "the hall is closing"})
    match = app.match(file.match)
    for viewer in viewers(file):
        assert tm.summarize(seen_events(match, viewer), viewer)["phase"] == "over"
    app.close()
