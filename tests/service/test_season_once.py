"""A season command sent twice under one command id (a host form tapped twice, the two taps
taken by two workers) is carried out once across every process sharing the store, SQLite
and PostgreSQL alike; the id is spent in the same save as the season's change, so a refused
command leaves it unspent and a save that loses the race saves nothing of the season either.
Balances are worked out by hand from the grants and trades below."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import commands.service.arbiter as arbiter_module
from audit.notes import parse_verifier_key
from commands.service.arbiter import Arbiter
from commands.service.check import check_store
from commands.service.once import SpentId
from commands.service.outcomes import Grant, Repeat
from commands.service.tokens import Tokens
from commands.web.app import create_app
from commands.web.worker import Settings
from domain.errors import RuleViolation
from tests.support.host_key import SIGNER
from tests.test_match_ledger import PLAYERS, SALT_KEY, SEED

T1, T2 = "2026-11-01T10:00:00Z", "2026-11-01T10:00:01Z"
GRANTS = [Grant("alice", 10, reason="season start"), Grant("bob", 7, reason="season start"),
          Grant("alice", -3, reason="late twice")]


@pytest.fixture
def two(db_url: str) -> Iterator[tuple[Arbiter, Arbiter]]:
    """Two services on one store, as two worker processes hold them."""
    first, second = Arbiter(db_url, signer=SIGNER), Arbiter(db_url, signer=SIGNER)
    yield first, second
    first.close()
    second.close()


def garnets(app: Arbiter, season: str) -> dict[str, int]:
    return {p: b["garnets"] for p, b in app.season(season).balances.items()}


def test_grants_sent_to_two_services_are_recorded_once(two):
    a, b = two
    a.create_season("s", at=T1)
    a.register_all("s", ["alice", "bob", "carol"], at=T1)
    before = a.season("s").version
    assert a.grant_all("s", GRANTS, at=T1, command_id="form-1") is None
    # The same form, taken by the other worker: nothing more, and what the first one did.
    assert b.grant_all("s", GRANTS, at=T2, command_id="form-1") == \
        Repeat("form-1", "grant_all", "s", T1)
    assert a.season("s").version == b.season("s").version == before + 3
    # alice 10 - 3, bob 7, carol nothing: each grant once.
    assert garnets(b, "s") == garnets(a, "s") == {"alice": 7, "bob": 7, "carol": 0}
    # Sent again to the first one too: the same.
    assert a.grant_all("s", GRANTS, at=T2, command_id="form-1") is not None
    assert garnets(a, "s") == {"alice": 7, "bob": 7, "carol": 0}


def test_a_refused_command_leaves_its_id_unspent(two):
    a, b = two
    a.create_season("s", at=T1)
    a.register_all("s", ["alice", "bob"], at=T1)
    a.grant_all("s", GRANTS[:2], at=T1)  # alice 10, bob 7
    with pytest.raises(RuleViolation) as refused:
        b.transfer("s", "bob", "alice", 50, "a deal", at=T1, command_id="trade-1")
    assert refused.value.code != "id_reused"
    assert SpentId.create_id("trade-1") not in a.repository  # nothing recorded
    a.grant("s", "bob", "garnets", 50, "a prize", at=T1)  # bob 57
    # The same form sent again once bob holds enough: carried out now, then once only.
    assert b.transfer("s", "bob", "alice", 50, "a deal", at=T2, command_id="trade-1") is None
    assert a.transfer("s", "bob", "alice", 50, "a deal", at=T2, command_id="trade-1") == \
        Repeat("trade-1", "transfer", "s", T2)
    assert garnets(a, "s") == {"alice": 60, "bob": 7}  # alice 10 + 50, bob 7 + 50 - 50
    # The id answers for that trade only.
    with pytest.raises(RuleViolation) as reused:
        a.transfer("s", "bob", "alice", 1, "a deal", at=T2, command_id="trade-1")
    assert reused.value.code == "id_reused"
    assert garnets(b, "s") == {"alice": 60, "bob": 7}


def test_a_save_that_loses_the_race_saves_nothing(two, monkeypatch):
    """The second worker read the id as unspent just before the first saved it: its save of
    the season and the id fails as a whole, and its retry answers as a repeat."""
    a, b = two
    a.create_season("s", at=T1)
    a.register_all("s", ["alice", "bob"], at=T1)
    b.season("s")  # b holds the season as it stands
    assert a.grant_all("s", GRANTS, at=T1, command_id="form-1") is None
    stored = a.season("s").version
    real = arbiter_module.first_sending
    calls: list[Any] = []

    def read_too_early(app: Arbiter, once: Any) -> Repeat | None:
        calls.append(once)
        return None if len(calls) == 1 else real(app, once)

    monkeypatch.setattr(arbiter_module, "first_sending", read_too_early)
    fresh = Arbiter(b.url, signer=SIGNER)  # the season as the store holds it now: only the
    try:                                   # spent id stands in the way of its save
        assert fresh.grant_all("s", GRANTS, at=T2, command_id="form-1") == \
            Repeat("form-1", "grant_all", "s", T1)
    finally:
        fresh.close()
    assert len(calls) == 2  # lost the save once, then found the id spent
    assert a.season("s").version == stored
    assert garnets(b, "s") == {"alice": 7, "bob": 7}


def test_other_season_commands_are_carried_out_once(two):
    a, b = two
    assert a.create_season("s", at=T1, command_id="new-s") is None
    assert b.create_season("s", at=T2, command_id="new-s") == \
        Repeat("new-s", "create_season", "s", T1)
    with pytest.raises(RuleViolation) as exists:  # without the id, a second season
        b.create_season("s", at=T2)
    assert exists.value.code == "season_exists"
    with pytest.raises(RuleViolation) as reused:
        b.create_season("t", at=T2, command_id="new-s")
    assert reused.value.code == "id_reused"

    for app in (a, b):
        app.register_all("s", PLAYERS, at=T1, command_id="players-1")
        app.rule("s", PLAYERS[0], "played well", changes={"moe": 1}, at=T1, command_id="rule-1")
    assert b.season("s").players == a.season("s").players == PLAYERS
    assert a.season("s").balances[PLAYERS[0]]["moe"] == 1  # once, not twice

    made = a.create_match(match_id="m1", season="s", game="sealed_bid",
                          setup={"players": PLAYERS}, host_seed=SEED, salt_key=SALT_KEY,
                          at=T1, command_id="match-1")
    again = b.create_match(match_id="m1", season="s", game="sealed_bid",
                           setup={"players": PLAYERS}, host_seed="ab" * 32,
                           salt_key="cd" * 32, at=T2, command_id="match-1")
    assert again == made  # the first one's outcome: its first two entries
    assert list(a.season("s").matches) == ["m1"]
    assert a.match("m1").version == 2
    found = check_store(a, parse_verifier_key(SIGNER.verifier_key()))
    assert (found.seasons, found.matches) == (1, 1)
    assert found.others == 4  # the four ids spent, each an aggregate of one event


def test_a_spent_id_leaves_the_season_log_as_it_would_be_without(tmp_path):
    """The spent ids live beside the logs: a season's entries are the same bytes either way."""
    logs = []
    for name, ids in (("plain", False), ("with-ids", True)):
        app = Arbiter(f"sqlite:///{tmp_path}/{name}.db", signer=SIGNER)

        def sent(n: str, ids: bool = ids) -> dict[str, str]:
            return {"command_id": f"c{n}"} if ids else {}

        app.create_season("s", salt_key=SALT_KEY, at=T1, **sent("1"))
        app.register_all("s", ["alice", "bob"], at=T1, **sent("2"))
        app.grant_all("s", GRANTS[:2], at=T1, **sent("3"))
        app.transfer("s", "alice", "bob", 4, "a deal", at=T1, **sent("4"))
        logs.append([r["entry"] for r in app.season("s").records])
        app.close()
    assert logs[0] == logs[1] and len(logs[0]) == 6  # started, 2 registered, 2 grants, 1 trade


# -- the host's page, served by two apps on one store ------------------------------------------

def signed_in(url: str, code: str | None = None) -> tuple[TestClient, str, str]:
    """A worker of its own with the host signed in, by the host link's join `code` (a new
    one, else: a new one would sign out every browser the old one signed in)."""
    client = TestClient(create_app(Settings(url=url, signer=SIGNER)))
    client.__enter__()
    app = client.app.state.service.arbiter  # type: ignore[attr-defined]
    code = code or Tokens(app).set_host_join()
    page = client.post("/host/session", data={"token": code})
    assert page.status_code == 200
    return client, re.search(r'name="csrf" value="([^"]+)"', page.text).group(1), code


def test_a_form_posted_to_two_workers_is_recorded_once(db_url):
    one, csrf_one, code = signed_in(db_url)
    two, csrf_two, _ = signed_in(db_url, code)
    try:
        new = {"name": "autumn", "id": "page-season"}
        for client, csrf in ((one, csrf_one), (two, csrf_two)):
            started = client.post("/host/seasons", data={**new, "csrf": csrf})
            assert started.url.path == "/host/s/autumn" and "The season is started" in started.text
        players = {"players": "alice bob carol", "id": "page-players"}
        for client, csrf in ((one, csrf_one), (two, csrf_two)):
            client.post("/host/s/autumn/players", data={**players, "csrf": csrf})
        save = {"lines": "alice,10,season start\nbob,7\nalice,-3,late twice",
                "reason": "welcome", "confirmed": "yes", "id": "page-grants"}
        for client, csrf in ((one, csrf_one), (two, csrf_two)):
            saved = client.post("/host/s/autumn/grants", data={**save, "csrf": csrf})
            assert saved.url.query == b"done=grants" and "Granted." in saved.text
        trade = {"giver": "alice", "receiver": "carol", "amount": "5", "reason": "a deal",
                 "id": "page-trade"}
        for client, csrf in ((two, csrf_two), (one, csrf_one)):
            traded = client.post("/host/s/autumn/transfer", data={**trade, "csrf": csrf})
            assert traded.url.query == b"done=transfer"
        arbiter = one.app.state.service.arbiter  # type: ignore[attr-defined]
        season = arbiter.season("autumn")
        assert season.players == ["alice", "bob", "carol"]
        # alice 10 - 3 - 5, bob 7, carol 5: every form once.
        assert {p: b["garnets"] for p, b in season.balances.items()} == \
            {"alice": 2, "bob": 7, "carol": 5}
    finally:  # both workers stop before the store goes
        one.__exit__(None, None, None)
        two.__exit__(None, None, None)
