"""Operating limits at the HTTP edge: rate limits on each player, the host and each address,
and a budget of refused tokens per address (429 `rate_limited` with Retry-After), CORS only
for the origins configured, and a 503 `busy` with Retry-After when
a command waited its bound for the match's writer lock."""

from __future__ import annotations

import threading

import pytest
from fastapi.testclient import TestClient
from service_harness import Server, eventually

from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens
from commands.service.writers import writers_for
from commands.store.settings import persistence_env
from commands.web import edge
from commands.web.app import create_app
from commands.web.routes import public
from commands.web.worker import Settings, settings_from_environment
from tests.support.host_key import SIGNER

PLAYERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
           "ken"]


def test_serve_limits_each_identity_and_address_by_default(monkeypatch):
    for name in ("ARBITER_RATE", "ARBITER_BURST", "ARBITER_CORS_ORIGINS", "ARBITER_FAILURES",
                 "ARBITER_TRUSTED_PROXIES"):
        monkeypatch.delenv(name, raising=False)
    found = settings_from_environment()
    assert (found.rate, found.burst, found.failures, found.cors_origins,
            found.trusted_proxies) == (20, 40, 20, (), ())
    monkeypatch.setenv("ARBITER_RATE", "0")
    monkeypatch.setenv("ARBITER_CORS_ORIGINS", "https://a.example, https://b.example")
    monkeypatch.setenv("ARBITER_TRUSTED_PROXIES", "10.0.0.2")
    found = settings_from_environment()
    assert (found.rate, found.cors_origins, found.trusted_proxies) == (
        0, ("https://a.example", "https://b.example"), ("10.0.0.2",))


@pytest.fixture
def match(tmp_path):
    """A King's Court match of eleven, opened; the service limits 3 requests in 3 s to each
    player, the host and each address, and 4 refused tokens a minute to each address."""
    url = f"sqlite:///{tmp_path}/limits.db"
    app = Arbiter(url, signer=SIGNER)
    app.create_season("s")
    app.register_all("s", PLAYERS)
    app.create_match(match_id="kc", season="s", game="kings_court", setup={"players": PLAYERS},
                     host_seed="ab" * 32, salt_key="cd" * 32)
    app.submit("kc", "host", "open_match")
    settings = Settings(url=url, signer=SIGNER, rate=1, burst=3, failures=4,
                        trusted_proxies=("testclient",))
    with TestClient(create_app(settings)) as client:
        yield app, client
    app.close()


def test_a_players_api_and_page_share_one_limit_and_others_keep_theirs(match):
    app, client = match
    tokens = Tokens(app)
    alice, bob = tokens.issue("kc", "alice"), tokens.issue("kc", "bob")
    code = tokens.issue_joins("kc", ["alice"])["alice"]
    # Signing in counts against the address; the page, once signed in, against alice.
    assert client.post("/m/kc/session", data={"token": code}).status_code == 200
    view = "/matches/kc/players/alice/view"
    assert client.get(view, headers={"Authorization": f"Bearer {alice}"}).status_code == 200
    assert client.get(view, headers={"Authorization": f"Bearer {alice}"}).status_code == 200
    refused = client.get("/m/kc/me")  # her third in 3 s, through the page
    assert refused.status_code == 429 and "rate_limited" in refused.text
    assert 1 <= int(refused.headers["Retry-After"]) <= 3
    again = client.get(view, headers={"Authorization": f"Bearer {alice}"})
    assert again.status_code == 429 and again.json()["error"] == "rate_limited"
    other = client.get("/matches/kc/players/bob/view", headers={"Authorization": f"Bearer {bob}"})
    assert other.status_code == 200  # bob has his own
    assert client.get("/matches/kc").status_code == 200  # and so has the address, so far


def test_anyone_is_limited_by_address_whatever_token_they_add(match):
    _, client = match
    made_up = [{"Authorization": f"Bearer {n:A>43}"} for n in range(3)]
    answers = [client.get("/matches/kc/bundle", headers=headers).status_code
               for headers in made_up]  # a public route: a token changes nothing
    assert answers == [200, 200, 200]
    assert client.get("/matches/kc/bundle").status_code == 429
    moved = client.get("/matches/kc/bundle", headers={"X-Forwarded-For": "203.0.113.9"})
    assert moved.status_code == 200  # the trusted proxy's word for another client


def test_the_proxys_header_counts_only_from_a_trusted_proxy(tmp_path):
    settings = Settings(url=f"sqlite:///{tmp_path}/a.db", signer=SIGNER, rate=1, burst=2)
    with TestClient(create_app(settings)) as client:
        spoofed = [client.get("/seasons/nope", headers={"X-Forwarded-For": f"198.51.100.{n}"})
                   for n in range(3)]
    assert [a.status_code for a in spoofed] == [404, 404, 429]


def test_refused_tokens_spend_the_addresss_budget_and_cost_no_identity(match):
    app, client = match
    token = Tokens(app).issue("kc", "bob")
    view = "/matches/kc/players/bob/view"
    padded = [token + "\u00a0", token + "\u0085", " " + token, token[:-1]]
    forwarded = {"X-Forwarded-For": "203.0.113.7"}
    for wrong in padded:  # four refusals: the budget
        answer = client.get(view, headers={**forwarded,
                                            "Authorization": f"Bearer {wrong}".encode()})
        assert answer.status_code == 403 and answer.json()["error"] == "wrong_token"
        client.cookies.clear()
    past = client.get(view, headers={**forwarded, "Authorization": f"Bearer {token}"})
    assert past.status_code == 429 and "refused tokens" in past.json()["message"]
    page = client.post("/m/kc/session", data={"token": "x" * 43}, headers=forwarded)
    assert page.status_code == 429  # nor may it try join codes
    assert client.get("/matches/kc", headers=forwarded).status_code == 200  # no token: served
    elsewhere = client.get(view, headers={"X-Forwarded-For": "203.0.113.8",
                                          "Authorization": f"Bearer {token}"})
    assert elsewhere.status_code == 200  # bob himself, from his own address


@pytest.fixture(scope="module")
def limited(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('limits')}/arbiter.db"
    with Server(url, rate=20, burst=40, cors_origins=("https://games.example",)) as server:
        yield server


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


def test_the_client_address_is_the_nearest_hop_no_trusted_proxy_stands_for():
    from starlette.requests import Request

    from commands.web.limits import Limits

    def seen(trusted: tuple[str, ...], peer: str, forwarded: str | None) -> str:
        headers = [(b"x-forwarded-for", forwarded.encode())] if forwarded else []
        request = Request({"type": "http", "client": (peer, 1), "headers": headers})
        return Limits(1, 1, 1, trusted).address(request)

    assert seen((), "192.0.2.1", "203.0.113.9") == "192.0.2.1"  # believed from no one
    assert seen(("10.0.0.2",), "192.0.2.1", "203.0.113.9") == "192.0.2.1"  # not a proxy
    # The client wrote its own header first; the proxy appended what it saw.
    assert seen(("10.0.0.2",), "10.0.0.2", "1.2.3.4, 203.0.113.9") == "203.0.113.9"
    assert seen(("10.0.0.2", "10.0.0.3"), "10.0.0.2", "203.0.113.9, 10.0.0.3") == "203.0.113.9"
    assert seen(("*",), "172.17.0.1", "1.2.3.4, 203.0.113.9") == "203.0.113.9"
    assert seen(("10.0.0.2",), "10.0.0.2", "not an address") == "10.0.0.2"



def test_strangers_wait_their_turn_and_a_player_does_not(tmp_path, monkeypatch):
    """At most STRANGERS requests without a token are answered at once in a worker; the rest
    wait in the event loop, and a player's own request is answered meanwhile."""
    url = f"sqlite:///{tmp_path}/turns.db"
    app = Arbiter(url, signer=SIGNER)
    app.create_season("s")
    app.register_all("s", PLAYERS)
    for match in ("kc", "kc1", "kc2", "kc3", "kc4"):  # a stranger each: one view is built
        app.create_match(match_id=match, season="s", game="kings_court",  # once for all
                         setup={"players": PLAYERS}, host_seed="ab" * 32, salt_key="cd" * 32)
    bob = Tokens(app).issue("kc", "bob")
    inside, most, release = [0], [0], threading.Event()
    lock, real = threading.Lock(), public.read_view

    def held(*args, **kwargs):
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        release.wait(10)
        with lock:
            inside[0] -= 1
        return real(*args, **kwargs)

    monkeypatch.setattr(public, "read_view", held)
    answers: list[int] = []
    with Server(url) as server:
        strangers = [threading.Thread(target=lambda m=match: answers.append(
            server.client().http.get(f"/matches/{m}").status_code))
            for match in ("kc", "kc1", "kc2", "kc3", "kc4")]
        for stranger in strangers:
            stranger.start()
        eventually(lambda: inside[0] == edge.STRANGERS, timeout=10)
        own = server.client(bob).http.get("/matches/kc/players/bob/view")
        assert own.status_code == 200 and inside[0] == edge.STRANGERS  # strangers still held
        release.set()
        for stranger in strangers:
            stranger.join(10)
    app.close()
    assert answers == [200] * 5 and most[0] == edge.STRANGERS
