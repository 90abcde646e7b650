"""Every endpoint tried with no token, another player's token, a token for another match and
an unknown match: a player's token never acts or reads for another player, host actions need
the host token, and each refusal is a JSON body with its code."""

from __future__ import annotations

from typing import Any

import pytest
from service_harness import Client, Server, database

PLAYERS = ["ann", "bob", "cy"]
ANN = "ann"

# (method, path, body): {m} is the match, {s} the season; the player in a path is ann.
PUBLIC = [
    ("GET", "/matches/{m}", None),
    ("GET", "/matches/{m}/audit", None),
    ("GET", "/matches/{m}/checkpoints", None),
    ("GET", "/matches/{m}/bundle", None),
    ("GET", "/matches/{m}/events", None),
    ("GET", "/seasons/{s}", None),
    ("GET", "/seasons/{s}/checkpoints", None),
    ("GET", "/seasons/{s}/bundle", None),
    ("GET", "/logs/match/{m}/checkpoint", None),  # tiles: any resource under the log's path
    ("GET", "/logs/season/{s}/checkpoint", None),
    ("HEAD", "/logs/match/{m}/checkpoint", None),  # GET's headers, as a static host answers
    ("HEAD", "/logs/season/{s}/checkpoint", None),
]
PLAYER = [
    ("POST", "/matches/{m}/players/ann/commands", {"command": "bid", "args": {"amount": 3}}),
    ("POST", "/matches/{m}/players/ann/spends", {"command": "hint"}),
    ("GET", "/matches/{m}/players/ann/view", None),
    ("GET", "/matches/{m}/players/ann/inbox", None),
    ("GET", "/matches/{m}/players/ann/standings", None),
    ("GET", "/matches/{m}/players/ann/events", None),
]
HOST = [
    ("POST", "/origin", {"prefix": "games.example.org"}),
    ("POST", "/seasons", {"name": "autumn"}),
    ("POST", "/seasons/{s}/players", {"player": "dan"}),
    ("POST", "/seasons/{s}/grants", {"player": "ann", "amount": 1, "reason": "prize"}),
    ("POST", "/seasons/{s}/transfers", {"giver": "ann", "receiver": "bob", "amount": 1}),
    ("POST", "/seasons/{s}/dmos", {"match": "m1", "dmo": "bob", "reason": "drawn"}),
    ("POST", "/seasons/{s}/rulings", {"player": "ann", "reason": "a ruling",
                                      "changes": {"tol": 1}}),
    ("GET", "/seasons/{s}/host", None),
    ("POST", "/matches", {"match": "m3", "season": "spring", "game": "sealed_bid",
                          "players": PLAYERS}),
    ("POST", "/matches/{m}/players/ann/token", None),
    ("POST", "/matches/{m}/tokens", {}),
    ("POST", "/matches/{m}/commands", {"command": "open_match"}),
    ("POST", "/matches/{m}/close", {"round": 1}),
    ("POST", "/matches/{m}/deadline", {"deadline": "2030-01-01T00:00:00Z"}),
    ("POST", "/matches/{m}/corrections", {"void": 3, "reason": "typo"}),
    ("POST", "/matches/{m}/end", {"reason": "storm"}),
    ("GET", "/matches/{m}/host", None),
    ("GET", "/matches/{m}/dashboard", None),
    ("GET", "/matches/{m}/host/events", None),
]

# Discord's own: no token, Discord's signature instead (tests/service/test_discord.py).
DISCORD = [("POST", "/discord/interactions", {"type": 1})]


@pytest.fixture(scope="module")
def served(pg_server):
    """One server on a database of its own, two matches of three players, and their tokens."""
    with database(pg_server) as url, Server(url) as server:
        host = server.client(server.host_token())
        host.ok(host.post("/seasons", {"name": "spring"}))
        for player in PLAYERS:
            host.ok(host.post("/seasons/spring/players", {"player": player}))
        tokens = {}
        for match in ("m1", "m2"):
            host.ok(host.post("/matches", {"match": match, "season": "spring",
                                           "game": "sealed_bid", "players": PLAYERS}))
            host.ok(host.post(f"/matches/{match}/commands", {"command": "open_match"}))
            for player in PLAYERS:
                tokens[match, player] = host.ok(host.post(
                    f"/matches/{match}/players/{player}/token"))["token"]
        yield server, host, tokens


def call(client: Client, method: str, path: str, body: Any, match: str = "m1",
         season: str = "spring") -> tuple[int, dict[str, Any] | None]:
    """The status, and the JSON body unless it is a stream, a bundle or a signed note that
    answered 200; a HEAD has none, so its refusal is the GET's code."""
    url = path.format(m=match, s=season)
    if method == "HEAD":
        status = client.http.head(url).status_code
        return status, None if status == 200 else call(client, "GET", path, body, match, season)[1]
    with client.http.stream(method, url, json=body) as response:
        if response.status_code == 200 and response.headers["content-type"].startswith(
                ("text/event-stream", "application/x-ndjson", "text/plain")):
            return 200, None
        response.read()
        return response.status_code, response.json()


def refused(result: tuple[int, Any], status: int, code: str) -> bool:
    return result[0] == status and result[1]["error"] == code


def tiled(path: str) -> str:
    """A tiles route's path as the API names it: one route for every resource of a log."""
    return path.rsplit("/", 1)[0] + "/{path}" if path.startswith("/logs/") else path


def test_every_endpoint_is_in_these_tables(served):
    server, _, _ = served
    routes = {(method.upper(), path) for path, item in server.app.openapi()["paths"].items()
              for method in item}
    listed = {(method, tiled(path).replace("{m}", "{match_id}").replace("{s}", "{season}")
               .replace("/ann/", "/{player}/")) for method, path, _ in
              PUBLIC + PLAYER + HOST + DISCORD}
    assert routes == listed


def test_discords_endpoint_is_off_without_its_key_whatever_the_token(served):
    server, host, _ = served
    for client in (server.client(), host):
        assert refused(call(client, *DISCORD[0]), 404, "discord_off")


@pytest.mark.parametrize("method, path, body", PUBLIC, ids=[p for _, p, _ in PUBLIC])
def test_public_endpoints_need_no_token_and_know_their_match(served, method, path, body):
    server, _, _ = served
    assert call(server.client(), method, path, body)[0] == 200
    wrong = call(server.client(), method, path, body, match="nope", season="nope")
    assert refused(wrong, 404, "unknown_season" if "season" in path else "unknown_match")


@pytest.mark.parametrize("method, path, body", PLAYER, ids=[p for _, p, _ in PLAYER])
def test_a_player_token_acts_and_reads_for_its_player_in_its_match_only(served, method, path,
                                                                          body):
    server, host, tokens = served
    assert refused(call(server.client(), method, path, body), 401, "missing_token")
    assert refused(call(server.client("not-a-token"), method, path, body), 403, "wrong_token")
    bob = server.client(tokens["m1", "bob"])
    assert refused(call(bob, method, path, body), 403, "wrong_token")
    ann_elsewhere = server.client(tokens["m2", ANN])
    assert refused(call(ann_elsewhere, method, path, body), 403, "wrong_token")
    assert refused(call(host, method, path, body, match="nope"), 404, "unknown_match")
    assert refused(call(host, method, path.replace("/ann/", "/zed/"), body), 404,
                   "unknown_player")
    own = call(server.client(tokens["m1", ANN]), method, path, body)
    assert own[0] == 200 or refused(own, 422, "not_a_spend"), own


@pytest.mark.parametrize("method, path, body", HOST, ids=[p for _, p, _ in HOST])
def test_host_endpoints_need_the_host_token(served, method, path, body):
    server, host, tokens = served
    assert refused(call(server.client(), method, path, body), 401, "missing_token")
    for token in ("not-a-token", tokens["m1", ANN]):
        assert refused(call(server.client(token), method, path, body), 403, "wrong_token")
    if "{m}" in path:
        assert refused(call(host, method, path, body, match="nope"), 404, "unknown_match")
    if "{s}" in path:
        assert refused(call(host, method, path, body, season="nope"), 404, "unknown_season")


def test_refusals_record_nothing(served):
    server, _, tokens = served
    before = server.service.arbiter.match("m1").version
    bob = server.client(tokens["m1", "bob"])
    for method, path, body in PLAYER + HOST:
        if method == "POST":
            call(bob, method, path, body)
    assert server.service.arbiter.match("m1").version == before


def test_no_player_token_is_issued_for_the_host_or_the_public(served):
    """Only a match's players get a player's token: one named `host` would act as the host."""
    _, host, _ = served
    for name in ("host", "public", "nobody"):
        answer = host.post(f"/matches/m1/players/{name}/token")
        assert answer.status_code == 404 and answer.json()["error"] == "unknown_player", name
        assert f"'{name}' does not play in m1" in answer.json()["message"]
