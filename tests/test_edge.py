"""One validation at the domain's edge (domain/edge.py): whatever sends a command, its
arguments are checked against the game's COMMANDS before the rules, each refusal records
nothing and quotes at most a short excerpt of what was sent; a command id answers for one
command only. Played on tests/support/whispers.py, whose `shout` takes one argument, `echo`."""

from __future__ import annotations

import contextlib
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from commands.service.arbiter import Arbiter
from domain.edge import UNFIT
from domain.errors import RuleViolation
from domain.match import Match
from tests.support.host_key import SIGNER

SEED = "s" * 40
SALT_KEY = "ab" * 32
SHORT = 200  # no error message quoting what was sent is longer


def whispers(app, match_id="w", rounds=3):
    app.create_season("s")
    for player in ("ann", "bob"):
        app.register("s", player)
    app.grant("s", "ann", "garnets", 5, "purse")
    app.create_match(match_id=match_id, season="s", game="whispers",
                     setup={"players": ["ann", "bob"], "rounds": rounds}, host_seed=SEED,
                     salt_key=SALT_KEY)
    app.submit(match_id, "host", "open_match")


def refused(code, call, *args, **kwargs) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value
    assert len(caught.value.message) <= SHORT, len(caught.value.message)
    return caught.value


@pytest.fixture
def played(app):
    whispers(app)
    return app


def unchanged(app, before):
    assert (app.match("w").version, app.season("s").version) == before


def test_an_argument_the_command_does_not_take_is_refused(played):
    before = (played.match("w").version, played.season("s").version)
    error = refused("unknown_argument", played.submit, "w", "ann", "shout",
                    {"echo": True, "pad": "x" * 100_000})
    assert "'pad'" in error.message and "echo" in error.message
    refused("unknown_argument", played.submit, "w", "ann", "listen", {"echo": True})
    # The host's own commands too, and the match's.
    refused("unknown_argument", played.submit, "w", "host", "close_round", {"now": True})
    refused("unknown_argument", played.submit, "w", "host", "end",
            {"reason": "bored", "pad": 1})
    unchanged(played, before)
    played.submit("w", "ann", "shout", {"echo": True})  # what it does take goes through


@pytest.mark.parametrize("value", [
    "x" * 101,  # a game's text: 100 characters at most
    list(range(101)),  # lists of 100 at most
    {f"k{i}": 1 for i in range(101)},  # objects of 100 keys at most
    [[[[["deep"]]]]],  # nested 4 deep at most
])
def test_an_oversized_value_is_too_large(played, value):
    before = (played.match("w").version, played.season("s").version)
    refused("too_large", played.submit, "w", "ann", "shout", {"echo": value})
    unchanged(played, before)


def test_the_match_commands_have_their_own_bounds(played):
    before = (played.match("w").version, played.season("s").version)
    refused("too_large", played.submit, "w", "host", "end", {"reason": "r" * 2001})
    refused("too_large", played.submit, "w", "host", "set_deadline",
            {"deadline": "2026-11-21T20:00:00Z" + " " * 60})
    refused("too_large", played.submit, "w", "host", "close_round", {}, command_id="i" * 301)
    refused("too_large", played.submit, "w", "host", "x" * 101)  # a command name
    unchanged(played, before)


@pytest.mark.parametrize("text", ["a\x00b", "\x1b[31mred", "line\rfeed", "\x85"])
def test_a_text_with_a_control_character_is_invalid(played, text):
    before = (played.match("w").version, played.season("s").version)
    refused("invalid_text", played.submit, "w", "ann", "shout", {"echo": text})
    refused("invalid_text", played.submit, "w", "host", "end", {"reason": f"why {text}"})
    unchanged(played, before)


def test_a_reason_may_run_over_lines(played):
    played.submit("w", "host", "end", {"reason": "first line\n\tsecond line"})
    assert played.match("w").ended


def test_errors_quote_a_short_excerpt(played):
    error = refused("unknown_player", played.submit, "w", "z" * 100_000, "listen")
    assert "z" * 60 in error.message and "z" * 61 not in error.message
    refused("unknown_match", played.submit, "m" * 100_000, "ann", "listen")
    refused("unknown_argument", played.submit, "w", "ann", "shout", {"k" * 100_000: 1})
    refused("unknown_season", played.season, "s" * 100_000)


def test_a_client_id_answers_for_one_command_only(played):
    first = played.submit("w", "ann", "shout", {"echo": True}, command_id="X1")
    version = played.match("w").version
    # The same command again is the first answer, nothing recorded.
    assert played.submit("w", "ann", "shout", {"echo": True}, command_id="X1").seqs == \
        first.seqs
    # Another command, other arguments, another sender: refused, nothing recorded.
    refused("id_reused", played.submit, "w", "ann", "listen", command_id="X1")
    refused("id_reused", played.submit, "w", "ann", "shout", {"echo": False},
            command_id="X1")
    refused("id_reused", played.submit, "w", "ann", "shout", {}, command_id="X1")
    refused("id_reused", played.submit, "w", "bob", "shout", {"echo": True},
            command_id="X1")
    assert played.match("w").version == version


def test_a_client_id_is_remembered_across_a_store_snapshot(db_url, monkeypatch):
    """A long match is restored from a store snapshot, which keeps what each id named."""
    monkeypatch.setattr(Arbiter, "snapshotting_intervals", {Match: 5})
    app = Arbiter(db_url, signer=SIGNER)
    try:
        whispers(app, rounds=9)
        app.submit("w", "ann", "shout", {"echo": True}, command_id="X1")
        for _ in range(4):
            app.submit("w", "host", "close_round")
        app.close()
        app = Arbiter(db_url, signer=SIGNER)
        refused("id_reused", app.submit, "w", "ann", "listen", command_id="X1")
    finally:
        app.close()


def test_a_grant_beyond_a_billion_is_refused_and_records_nothing(played):
    before = (played.match("w").version, played.season("s").version)
    refused("invalid_amount", played.grant, "s", "ann", "garnets", 10**20, "huge")
    refused("invalid_amount", played.grant, "s", "ann", "garnets", -(10**9) - 1, "huge")
    refused("too_large", played.grant, "s", "ann", "garnets", 1, "r" * 2001)
    refused("invalid_text", played.grant, "s", "ann", "garnets", 1, "a\x00b")
    unchanged(played, before)
    played.grant("s", "ann", "garnets", -5, "the whole purse")
    assert played.season("s").balances["ann"]["garnets"] == 0


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**10), 10**10) | st.text(max_size=120),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)


@settings(max_examples=40, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(args=st.dictionaries(st.sampled_from(["echo", "pad"]), JSON, max_size=2))
def test_nothing_a_command_accepts_makes_a_later_command_fail(tmp_path_factory, args):
    folder = tmp_path_factory.mktemp("edge")
    app = Arbiter(f"sqlite:///{folder}/arbiter.db", signer=SIGNER)
    try:
        whispers(app)
        with contextlib.suppress(RuleViolation):
            app.submit("w", "ann", "shout", args)
        app.submit("w", "bob", "listen")
        app.submit("w", "host", "close_round")
        assert app.match("w").round == 2
    finally:
        app.close()


def test_unfit_texts_are_unicodes_control_characters_but_newline_and_tab_and_surrogates():
    unfit = {c for c in map(chr, range(0x110000))
             if c not in "\n\t" and unicodedata.category(c) in ("Cc", "Cs")}
    assert len(unfit) == 65 - 2 + 2048
    for c in map(chr, range(0x110000)):
        assert bool(UNFIT.search(f"ok{c}ok")) == (c in unfit), hex(ord(c))
