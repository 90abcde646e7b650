"""A round closes at the deadline the host set, exactly once: with two service instances on
one PostgreSQL, across a restart, and when both instances try at the same moment."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from service_harness import Client, Server, eventually

from commands.service.arbiter import Arbiter
from commands.service.deadlines import Deadlines
from domain.decider import HOST
from domain.match import Match
from domain.records import headline
from tests.support.host_key import SIGNER
from tests.support.seed_until import played_until

PLAYERS = ["ann", "bob", "cy"]
SEED = Path(__file__).resolve().parents[2] / "seeds" / "kings_court-king-win.json"


def in_seconds(seconds: float) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat(timespec="seconds")


def closes(match: Match) -> list[tuple[int, str | None, str | None]]:
    """Each close command in the log: its round, command id and stated time."""
    return [(r["entry"]["round"], r["command_id"], headline(r)["at"]) for r in match.records
            if r["role"] == "command" and headline(r)["data"]["name"].startswith("close_")]


def set_up(host: Client) -> None:
    host.ok(host.post("/seasons", {"name": "spring"}))
    for player in PLAYERS:
        host.ok(host.post("/seasons/spring/players", {"player": player}))
    host.ok(host.post("/matches", {"match": "m1", "season": "spring", "game": "sealed_bid",
                                   "players": PLAYERS, "setup": {"rounds": 3}}))
    host.ok(host.post("/matches/m1/commands", {"command": "open_match"}))


def test_a_deadline_closes_its_round_once_with_two_instances_and_across_a_restart(pg_url):
    store = Arbiter(pg_url)
    with Server(pg_url) as one, Server(pg_url) as two:
        token = one.host_token()
        set_up(one.client(token))
        first = in_seconds(5)  # whole seconds: 4 to 5 s, room for a loaded machine
        two.client(token).ok(two.client(token).post("/matches/m1/deadline",
                                                    {"deadline": first}))
        dashboard = one.client(token).ok(one.client(token).get("/matches/m1/dashboard"))
        assert dashboard["round"] == 1 and dashboard["waiting"] == PLAYERS
        eventually(lambda: store.match("m1").round == 2, timeout=15)
        time.sleep(1)  # both instances have looked again since
        assert closes(store.match("m1")) == [(1, f"deadline:m1:1:{first}", first)]
    # The next round's deadline is set, and passes, while the service is down (set before the
    # shutdown, a loaded machine could let it pass while the service still ran).
    second = in_seconds(1)
    Arbiter(pg_url, signer=SIGNER).submit("m1", HOST, "set_deadline", {"deadline": second},
                                          at=in_seconds(0))
    time.sleep(1.5)
    assert store.match("m1").round == 2
    with Server(pg_url):
        eventually(lambda: store.match("m1").round == 3, timeout=15)
        time.sleep(1)
    assert closes(store.match("m1")) == [(1, f"deadline:m1:1:{first}", first),
                                         (2, f"deadline:m1:2:{second}", second)]


def test_two_instances_closing_at_the_same_moment_record_one_close(pg_url):
    with Server(pg_url, interval=3600) as one, Server(pg_url, interval=3600) as two:
        token = one.host_token()
        set_up(one.client(token))
        one.client(token).ok(one.client(token).post("/matches/m1/deadline",
                                                    {"deadline": "now"}))
        deadline = one.service.arbiter.match("m1").records[-1]["entry"]["public"]["deadline"]
        time.sleep(1)  # past it, by the clock's whole seconds
        start = threading.Barrier(2)
        answers = {}

        def close(name: str, deadlines: Deadlines) -> None:
            start.wait()
            answers[name] = deadlines.close("m1", datetime.now(UTC))

        threads = [threading.Thread(target=close, args=(name, server.service.deadlines))
                   for name, server in (("one", one), ("two", two))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    recorded = [a for a in answers.values() if a is not None]
    assert recorded and all(a.seqs == recorded[0].seqs for a in recorded)
    assert closes(Arbiter(pg_url).match("m1")) == [(1, f"deadline:m1:1:{deadline}", deadline)]


def test_a_deadline_in_a_tiebreak_sends_the_close_the_rules_accept(sqlite_url):
    """King's Court round 3 ties: `close_round` is answered wrong_state, `close_tiebreak`
    is accepted."""
    app = Arbiter(sqlite_url, signer=SIGNER)
    file = played_until(app, lambda steps: 1 + next(
        i for i, s in enumerate(steps) if s.do == "tiebreak" and not s.expect_error))
    app.submit(file.match, HOST, "set_deadline", {"deadline": "2026-11-21T21:00:00Z"},
               at="2026-11-21T20:00:00Z")

    def submit(match_id, actor, name, args, command_id=None, at=None, expect_round=None):
        return app.submit(match_id, actor, name, args, at=at, command_id=command_id,
                          expect_round=expect_round)

    deadlines = Deadlines(app, views=None, submit=submit)
    outcome = deadlines.close(file.match, datetime(2026, 11, 21, 21, 0, tzinfo=UTC))
    sent = headline(app.match(file.match).records[outcome.seqs[0] - 1])
    assert sent["data"]["name"] == "close_tiebreak" and sent["at"] == "2026-11-21T21:00:00Z"
