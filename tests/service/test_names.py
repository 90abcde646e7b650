"""Names nobody can mistake, reasons that read as written (issue 25): the service refuses a
name that breaks a page's address or looks like one the season holds, and a reason holding a
bidirectional control; nothing is recorded."""

from __future__ import annotations

import pytest

from commands.service.arbiter import Arbiter
from domain.errors import RuleViolation
from tests.support.host_key import SIGNER


@pytest.fixture
def app(sqlite_url):
    arbiter = Arbiter(sqlite_url, signer=SIGNER)
    arbiter.create_season("s")
    arbiter.register_all("s", ["bob", "alice", "m-1"])
    yield arbiter
    arbiter.close()


def refused(app: Arbiter, code: str, act) -> None:
    before = app.season("s").version
    with pytest.raises(RuleViolation) as caught:
        act()
    assert caught.value.code == code, caught.value.message
    assert app.season("s").version == before  # nothing recorded


@pytest.mark.parametrize("name", ["a/b", "a\\b", "what?", "#1", "100%", ".", ".."])
def test_a_name_that_breaks_a_pages_address_is_refused(app, name):
    refused(app, "invalid_name", lambda: app.register("s", name))
    refused(app, "invalid_name", lambda: app.create_match(
        match_id=name, season="s", game="sealed_bid", setup={"players": ["bob", "alice"]},
        host_seed="ab" * 32, salt_key="cd" * 32))


@pytest.mark.parametrize(("name", "held"), [
    ("b\u043eb", "bob"),  # a Cyrillic о
    ("Bob", "bob"),  # only the case differs
    ("BOB", "bob"),
    ("\uff41lice", "alice"),  # a fullwidth a
    ("a1ice", "alice"),  # 1 and l are one skeleton
    ("rn-1", "m-1"),  # r n and m
])
def test_a_name_that_looks_like_one_the_season_holds_is_refused(app, name, held):
    refused(app, "confusable_name", lambda: app.register("s", name))
    refused(app, "confusable_name", lambda: app.register_all("s", ["carol", name]))
    assert "carol" not in app.season("s").players  # all of them, or none


def test_names_unlike_any_other_are_registered(app):
    app.register_all("s", ["carol", "dave", "Zoë", "björn"])
    assert app.season("s").players[-4:] == ["carol", "dave", "Zoë", "björn"]
    refused(app, "confusable_name", lambda: app.register("s", "Zoe\u0308"))  # Zoë decomposed


def test_a_match_name_like_another_of_the_season_is_refused(app):
    app.create_match(match_id="kc-1", season="s", game="sealed_bid",
                     setup={"players": ["bob", "alice"]}, host_seed="ab" * 32,
                     salt_key="cd" * 32)
    refused(app, "confusable_name", lambda: app.create_match(
        match_id="KC-1", season="s", game="sealed_bid", setup={"players": ["bob", "alice"]},
        host_seed="ab" * 32, salt_key="cd" * 32))


@pytest.mark.parametrize("control", ["\u202e", "\u2066", "\u200f", "\u061c"])
def test_a_reason_with_a_bidirectional_control_is_refused(app, control):
    reason = f"late {control}eton"
    refused(app, "invalid_text", lambda: app.grant("s", "bob", "garnets", 5, reason))
    refused(app, "invalid_text", lambda: app.transfer("s", "bob", "alice", 1, reason))
    refused(app, "invalid_text", lambda: app.rule("s", "bob", reason, changes={"tol": 1}))
    app.create_match(match_id="sb", season="s", game="sealed_bid",
                     setup={"players": ["bob", "alice"]}, host_seed="ab" * 32,
                     salt_key="cd" * 32)
    version = app.match("sb").version
    with pytest.raises(RuleViolation) as caught:
        app.submit("sb", "host", "end", {"reason": reason})
    assert caught.value.code == "invalid_text" and app.match("sb").version == version
