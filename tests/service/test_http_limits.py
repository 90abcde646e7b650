"""Operating limits at the HTTP edge: per-token rate limits (429 `rate_limited` with
Retry-After), CORS only for the origins configured, and a 503 `busy` with Retry-After when
a command waited its bound for the match's writer lock."""

from __future__ import annotations

import pytest
from service_harness import Server

from commands.service.writers import writers_for
from commands.store.settings import persistence_env
from commands.web.limits import Buckets
from commands.web.worker import settings_from_environment


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_lets_a_burst_through_then_the_rate():
    clock = Clock()
    buckets = Buckets(rate=2, burst=3, clock=clock)
    assert [buckets.take(b"a") for _ in range(3)] == [0, 0, 0]  # the burst
    assert buckets.take(b"a") == pytest.approx(0.5)  # empty: one more in 1/2 s
    assert buckets.take(b"b") == 0  # another token has its own bucket
    clock.now += 0.5  # refilled by 2/s * 0.5 s = 1
    assert buckets.take(b"a") == 0
    assert buckets.take(b"a") == pytest.approx(0.5)
    clock.now += 10  # refilled past the burst: capped at 3
    assert [buckets.take(b"a") for _ in range(4)][3] == pytest.approx(0.5)


def test_serve_limits_each_token_by_default(monkeypatch):
    for name in ("ARBITER_RATE", "ARBITER_BURST", "ARBITER_CORS_ORIGINS"):
        monkeypatch.delenv(name, raising=False)
    found = settings_from_environment()
    assert (found.rate, found.burst, found.cors_origins) == (20, 40, ())
    monkeypatch.setenv("ARBITER_RATE", "0")
    monkeypatch.setenv("ARBITER_CORS_ORIGINS", "https://a.example, https://b.example")
    found = settings_from_environment()
    assert (found.rate, found.cors_origins) == (0, ("https://a.example", "https://b.example"))


@pytest.fixture(scope="module")
def limited(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('limits')}/arbiter.db"
    with Server(url, rate=0.5, burst=2, cors_origins=("https://games.example",)) as server:
        yield server


def test_a_token_past_its_burst_is_rate_limited_and_others_are_not(limited):
    alice, bob, anyone = limited.client("alice-token"), limited.client("bob-token"), \
        limited.client()
    assert [alice.get("/seasons/nope").status_code for _ in range(2)] == [404, 404]
    refused = alice.get("/seasons/nope")
    assert refused.status_code == 429
    assert refused.json()["error"] == "rate_limited"
    assert refused.headers["Retry-After"] == "2"  # one request at 0.5/s
    assert bob.get("/seasons/nope").status_code == 404
    assert [anyone.get("/seasons/nope").status_code for _ in range(4)] == [404] * 4


def test_cors_answers_only_the_configured_origin(limited):
    anyone = limited.client()
    preflight = {"Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "authorization"}
    allowed = anyone.http.options("/seasons", headers={"Origin": "https://games.example",
                                                        **preflight})
    assert allowed.headers["access-control-allow-origin"] == "https://games.example"
    other = anyone.http.options("/seasons", headers={"Origin": "https://evil.example",
                                                      **preflight})
    assert "access-control-allow-origin" not in other.headers


def test_no_cors_unless_configured(tmp_path):
    with Server(f"sqlite:///{tmp_path}/a.db") as server:
        answer = server.client().http.get("/seasons/nope",
                                          headers={"Origin": "https://games.example"})
    assert "access-control-allow-origin" not in answer.headers


def test_a_command_that_waited_its_bound_is_503_busy(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_WRITE_WAIT", "0.5")
    url = f"sqlite:///{tmp_path}/a.db"
    with Server(url) as server:
        host = server.client(server.host_token())
        holder = writers_for(persistence_env(url))
        with holder.holding("season/s"):
            created = host.post("/seasons", {"name": "s"})  # a season's creation waits too
        assert created.status_code == 503, created.text
        assert created.json()["error"] == "busy"
        assert created.headers["Retry-After"] == "1"
        assert host.post("/seasons", {"name": "s"}).status_code == 201
