"""Invariants of King's Court matches run through the whole service (store, season, views)."""

from __future__ import annotations

import contextlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from commands.service.arbiter import Arbiter
from domain.errors import RuleViolation
from projections.views import view
from tests.games.kings_court.kc_harness import PLAYERS
from tests.games.kings_court.test_kc_properties import (
    VIEWER,
    balances,
    commands,
    hidden_roles,
    options,
    twin_commands,
)

SEED = "property-seed-" + "0" * 32
SALT_KEY = "5a" * 32


def new_app(setup: dict, start: dict[str, int]) -> Arbiter:
    app = Arbiter("sqlite:///:memory:")
    app.create_season("s")
    for player in PLAYERS:
        app.register("s", player)
        if start[player]:
            app.grant("s", player, "garnets", start[player], "start")
    app.create_match(match_id="kc", season="s", game="kings_court",
                     setup={"players": PLAYERS, **setup}, host_seed=SEED, salt_key=SALT_KEY,
                     unsigned=True)  # the rules under test, not the signing
    return app


@settings(max_examples=40)
@given(chosen=options, start=balances, script=commands)
def test_random_matches_conserve_garnets_and_replay_exactly(chosen, start, script):
    app = new_app(chosen, start)
    for actor, name, args in [("host", "open_match", {}), *script]:
        with contextlib.suppress(RuleViolation):  # the only failure a command may meet
            app.submit("kc", actor, name, args)
        season = app.season("s")
        assert all(season.balances[p]["garnets"] >= 0 for p in PLAYERS)
    live = app.match("kc")
    posted = {p: 0 for p in PLAYERS}
    for record in live.records:
        for posting in record["postings"]:
            if posting["asset"] == "garnets":
                posted[posting["player"]] += posting["amount"]
    assert app.season("s").garnets(PLAYERS) == {p: start[p] + posted[p] for p in PLAYERS}
    replayed = app.match("kc", version=live.version)  # from the stored events, no cache
    assert replayed.state == live.state
    assert [r["entry"]["hash"] for r in replayed.records] == \
        [r["entry"]["hash"] for r in live.records]


def views_until_the_reveal(game: dict, script: list[tuple], viewer: str) -> list[bytes]:
    """The viewer's view after every command, up to the normal end (which reveals roles)."""
    app = new_app({"games": [game]}, dict.fromkeys(PLAYERS, 30))
    seen = []
    for actor, name, args in [("host", "open_match", {}), *script]:
        try:
            app.submit("kc", actor, name, args)
        except RuleViolation as error:
            seen.append(f"refused {error.code}".encode())
            continue
        if any(r["entry"]["kind"] == "GameEnded" for r in app.match("kc").records):
            break
        seen.append(json.dumps(view(app.match("kc"), viewer), sort_keys=True).encode())
    return seen


@settings(max_examples=30)
@given(first=hidden_roles(), second=hidden_roles(), script=twin_commands,
       viewer=st.sampled_from([VIEWER, "public"]))
def test_a_view_is_byte_identical_across_what_its_viewer_may_not_know(first, second, script,
                                                                     viewer):
    assert views_until_the_reveal(first, script, viewer) == \
        views_until_the_reveal(second, script, viewer)
