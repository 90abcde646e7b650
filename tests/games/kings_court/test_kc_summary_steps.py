"""The summary one event at a time: the same as folding the whole prefix, no scan of what grew,
plain JSON between steps, and a phase that follows every phase of the game."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from domain.decider import Command, Event
from domain.games import kings_court as kc
from domain.records import may_see, to_event
from domain.rng import Rng
from tests.games.kings_court import kc_scenes as scenes
from tests.games.kings_court.kc_harness import PLAYERS, Match
from tests.games.kings_court.kc_played import KING_WIN, MATCHES, TEAM_WIN, Played
from tests.games.kings_court.test_kc_properties import SETTINGS, balances, commands, options
from tests.support.deciders import checked_step
from tests.support.host_key import SIGNER

VIEWERS = ["public", "host", *PLAYERS]


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.stem)
def test_stepping_gives_at_every_prefix_what_summarize_gives(sqlite_url, path):
    played = Played(Arbiter(sqlite_url, signer=SIGNER), path)
    for viewer in played.viewers:
        events = played.events(viewer)
        view = kc.summary_start(viewer)
        assert view == kc.summarize([], viewer)
        for count, event in enumerate(events, start=1):
            view = json.loads(json.dumps(view))  # as the projections keep it between steps
            assert kc.summary_step(view, event) is None
            assert view == kc.summarize(events[:count], viewer), (viewer, count, event.kind)


class NoScan(list):
    """A list a step may append to or read the last item of, but never search or walk."""

    def __iter__(self):
        raise AssertionError("a summary step walked a list of the view")

    def __contains__(self, item: object) -> bool:
        raise AssertionError("a summary step searched a list of the view")

    def index(self, *args: Any) -> int:
        raise AssertionError("a summary step searched a list of the view")

    def count(self, item: object) -> int:
        raise AssertionError("a summary step counted a list of the view")


GROWING = ("rounds", "votes", "receipts", "answers", "missed_votes", "tiebreaks", "kings")


def guarded(view: dict[str, Any]) -> dict[str, Any]:
    for key in GROWING:
        view[key] = NoScan(list.__iter__(view[key]))
    view["garnets"] = {p: NoScan(list.__iter__(changes)) for p, changes in view["garnets"].items()}
    return view


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.stem)
def test_a_step_never_walks_the_lists_that_grow_with_the_match(sqlite_url, path):
    played = Played(Arbiter(sqlite_url, signer=SIGNER), path)
    for viewer in played.viewers:
        view = guarded(kc.summary_start(viewer))
        for event in played.events(viewer):
            kc.summary_step(view, event)
            guarded(view)


# The phase, phase by phase, for every viewer.


def phases(match: Match) -> dict[str, str]:
    return {viewer: kc.summarize(match.seen_by(viewer), viewer)["phase"] for viewer in VIEWERS}


@pytest.mark.parametrize(
    "scene, phase",
    [
        (scenes.not_opened, "not_started"),
        (scenes.round_one, "election"),
        (scenes.round_two, "election"),
        (scenes.tiebreak_phase, "tiebreak"),
        (scenes.king_gift_phase, "king_gift"),
        (scenes.ec_vote_phase, "ec_vote"),
        (scenes.deadlock_phase, "deadlock_coin"),
        (scenes.dmo_phase, "awaiting_dmo"),
        (scenes.over, "over"),
        (scenes.four_early_ends, "over"),
    ],
    ids=lambda value: getattr(value, "__name__", value),
)
def test_every_viewer_names_the_phase_open_now(scene, phase):
    match = scene()
    assert match.state.phase == phase
    assert phases(match) == dict.fromkeys(VIEWERS, phase)


def test_after_the_kings_win_the_gift_then_the_ec_vote_then_the_dmo():
    """p1, p6, p2, p7 elected with one vote each (scores 6, 5, 4, 3 with their bonuses); the
    other six Dukes and Nobles received nothing and tie at 0: the EC vote follows the gift."""
    match = scenes.king_gift_phase()
    match.host("close_king_gift")
    assert match.last("GameEnded").data["ec_tied"] == ["p3", "p4", "p5", "p8", "p9", "p10"]
    assert phases(match) == dict.fromkeys(VIEWERS, "ec_vote")
    match.do("p11", "ec_vote", candidate="p9")  # the King alone is the party: 1 of 1
    match.host("close_ec_vote")
    assert phases(match) == dict.fromkeys(VIEWERS, "awaiting_dmo")
    match.host("record_dmo", dmo="p3")
    assert phases(match) == dict.fromkeys(VIEWERS, "over")


def test_an_early_king_is_between_games_only_inside_its_command():
    match = Match()
    match.elect("p11")
    for viewer in VIEWERS:
        seen = [e for e in match.log if e.seen_by(viewer)]
        found = kinds(seen).index("EarlyKingFound")
        assert kc.summarize(seen[: found + 1], viewer)["phase"] == "between_games"
        view = kc.summarize(seen, viewer)
        assert (view["phase"], view["game"], view["round"]) == ("election", 2, 1)


def test_an_abandoned_match_is_over(sqlite_url):
    app = Arbiter(sqlite_url, signer=SIGNER)
    file = load(KING_WIN)
    file = file.model_copy(update={"commands": file.commands[:3], "expect": None})
    play(app, file)
    app.submit(file.match, "host", "end", {"reason": "the venue closed"})
    records = app.match(file.match).records
    for viewer in ("public", "host", "alice"):
        events = [to_event(r) for r in records if may_see(r, viewer) and r["role"] != "command"]
        assert kinds(events)[-2:] == ["MatchAbandoned", "SeedRevealed"]
        assert kc.summarize(events, viewer)["phase"] == "over"
        assert kc.summarize(events[:-2], viewer)["phase"] == "election"


@SETTINGS
@given(seed=st.text(min_size=1, max_size=8), chosen=options, start=balances, script=commands)
def test_at_every_command_every_viewer_names_the_phase_the_rules_are_in(
    seed, chosen, start, script
):
    state = kc.initial_state(kc.Setup(players=PLAYERS, **chosen), Rng(kc.GAME_ID, seed))
    ledger = dict(start)
    views = {viewer: kc.summary_start(viewer) for viewer in VIEWERS}
    for actor, name, args in [("host", "open_match", {}), *script]:
        state, events = checked_step(kc, state, Command(name, actor, args, dict(ledger)),
                                     PLAYERS, ledger)
        for viewer, view in views.items():
            for event in events:
                if event.seen_by(viewer):
                    kc.summary_step(view, event)
            assert view["phase"] == state.phase, (viewer, name)


def test_players_come_from_the_matchs_creation_and_courts_game_by_game(sqlite_url):
    played = Played(Arbiter(sqlite_url, signer=SIGNER), TEAM_WIN)
    for viewer in played.viewers:
        view = kc.summarize(played.events(viewer), viewer)
        assert view["players"] == played.players
        # Game 1: carol, then the early King alice; game 2 as the seed's notes tell it.
        assert view["courts"] == {
            "1": ["carol", "alice"],
            "2": ["frank", "grace", "alice", "heidi", "ivan", "judy"],
        }


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]
