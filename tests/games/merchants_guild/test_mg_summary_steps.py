"""The summary one step at a time: the same view as a fold of the whole prefix, at every entry of
both seed matches and for every viewer, and a phase that follows every phase of the game."""

from __future__ import annotations

import json

import pytest

from commands.service.arbiter import Arbiter
from domain.games import merchants_guild as mg
from tests.games.merchants_guild.mg_harness import ALIGNMENTS, PAIRS, PLAYERS, Match, catalog
from tests.games.merchants_guild.mg_seeds import SEED_FILES, facts, played, viewers
from tests.support.host_key import SIGNER


@pytest.mark.parametrize("path", SEED_FILES, ids=[p.stem for p in SEED_FILES])
def test_stepping_entry_by_entry_gives_the_fold_of_every_prefix(path, tmp_path):
    file, records = played(path, tmp_path)
    for viewer in viewers(file):
        events = facts(records, viewer)
        view = mg.summary_start(viewer)
        for count, event in enumerate(events, 1):
            # the projections keep the view as JSON between two entries
            view = json.loads(json.dumps(view))
            mg.summary_step(view, event)
            assert view == mg.summarize(events[:count], viewer), (viewer, count, event.kind)
        assert view["phase"] == "over"


def phases(match: Match) -> dict[str, str]:
    return {viewer: mg.summarize(match.seen_by(viewer), viewer)["phase"]
            for viewer in ("public", "host", "p1")}


def test_the_phase_follows_every_week_for_every_viewer():
    """Rulebook §4: ordinary weeks 1-3, 6, 7; investigation week 4; blackmail week 5; the
    final week 8; over after its close."""
    match = Match(open_match=False)
    assert set(phases(match).values()) == {"configured"}
    match.host("open_match")
    expected = {1: "week", 2: "week", 3: "week", 4: "investigation_week", 5: "blackmail_week",
                6: "week", 7: "week", 8: "final_week"}
    for week, phase in expected.items():
        assert match.state.week == week
        assert phases(match) == dict.fromkeys(("public", "host", "p1"), phase), week
        assert mg.summarize(match.seen_by("p1"), "p1")["week"] == week
        match.week()
    assert set(phases(match).values()) == {"over"}


def test_an_abandoned_guild_says_so(tmp_path):
    app = Arbiter(f"sqlite:///{tmp_path}/arbiter.db", signer=SIGNER)
    app.create_season("s")
    for player in PLAYERS:
        app.register("s", player)
    app.create_match(match_id="g", season="s", game=mg.GAME_ID,
                     setup={"players": PLAYERS, "bills": catalog(), "pairs": PAIRS,
                            "alignments": ALIGNMENTS},
                     host_seed="s" * 40, salt_key="0f" * 32)
    app.submit("g", "host", "open_match")
    app.submit("g", "host", "close_week")
    app.submit("g", "host", "end", {"reason": "the council never met again"})
    records = app.match("g").records
    for viewer in ("public", "host", "p3"):
        view = mg.summarize(facts(records, viewer), viewer)
        assert view["phase"] == "abandoned" and view["week"] == 2
