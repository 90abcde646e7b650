"""A season through the HTTP API: the host's bulk work in one request each, a Death Match from
a Main Match, a ruling, the season as each viewer reads it, and its public bundle."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest
from service_harness import Server, eventually

from audit import keys
from audit.season_verify import verify_season
from commands.cli.matchfile import load, run
from commands.service.tokens import digest_of

SEEDS = Path(__file__).resolve().parents[2] / "seeds"
ELEVEN = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
          "ken"]


@pytest.fixture
def served(sqlite_url, monkeypatch, tmp_path):
    key = tmp_path / "host.key"
    keys.save(keys.generate("host.example"), key)
    monkeypatch.setenv("ARBITER_HOST_KEY", str(key))
    with Server(sqlite_url) as server:
        yield server, server.client(server.host_token())


def test_eleven_players_are_set_up_in_five_requests(served):
    server, host = served
    calls = []
    post = host.post
    host.post = lambda *args: calls.append(args[0]) or post(*args)
    assert host.ok(host.post("/origin", {"prefix": "games.example.org"})) == {
        "origin_prefix": "games.example.org"}
    calls.clear()
    created = host.ok(host.post("/seasons", {"name": "spring"}))
    assert created["origin"] == "games.example.org/season/spring"
    host.ok(host.post("/seasons/spring/players", {"players": ELEVEN}))
    host.ok(host.post("/seasons/spring/grants", {"grants": [
        {"player": p, "amount": 10, "reason": "opening purse"} for p in ELEVEN]}))
    host.ok(host.post("/matches", {"match": "kc", "season": "spring", "game": "kings_court",
                                   "players": ELEVEN}))
    tokens = host.ok(host.post("/matches/kc/tokens",
                               {"base_url": "https://games.example.org/arbiter"}))
    assert len(calls) == 5
    assert [t["player"] for t in tokens] == ELEVEN
    link = urlparse(tokens[0]["link"])
    assert (link.netloc, link.path) == ("games.example.org", "/arbiter/m/kc/join")
    assert link.query == "" and link.fragment != tokens[0]["token"]  # a join code, unsent
    # Each token is its player's alone; each link's code opens that player's pages.
    stored = server.service.tokens
    assert {stored.holder("kc", t["token"]) for t in tokens} == set(ELEVEN)
    assert [stored.joiner("kc", urlparse(t["link"]).fragment) for t in tokens] == ELEVEN
    assert digest_of(tokens[0]["token"]) != digest_of(tokens[1]["token"])
    client = server.client(tokens[2]["token"])
    assert client.get("/matches/kc/players/carol/view").status_code == 200
    assert client.get("/matches/kc/players/alice/view").status_code == 403
    # All or none: a list with one unknown player registers nobody.
    refused = host.post("/seasons/spring/players", {"players": ["zoe", "alice"]})
    assert (refused.status_code, refused.json()["error"]) == (409, "player_exists")
    assert "zoe" not in host.ok(host.get("/seasons/spring/host"))["remaining"]
    bad = host.post("/seasons/spring/grants", {"player": "alice", "grants": []})
    assert (bad.status_code, bad.json()["error"]) == (422, "invalid_input")
    spaced = host.post("/seasons", {"name": "two words"})
    assert (spaced.status_code, spaced.json()["error"]) == (422, "invalid_input")


def test_a_death_match_a_ruling_and_the_season_as_each_viewer_reads_it(served):
    server, host = served
    file = load(SEEDS / "totemic_might-garnet-tiebreak.json").model_copy(
        update={"season": "spring", "match": "totems"})
    host.ok(host.post("/seasons", {"name": "spring"}))
    host.ok(host.post("/seasons/spring/players", {"players": file.players}))
    host.ok(host.post("/seasons/spring/grants", {"grants": [
        {"player": p, "amount": n, "reason": "purse"} for p, n in file.garnets.items() if n]}))
    assert run(server.service.arbiter, file)[1] == []  # the Main Match, through the service

    duel = {"match": "dm", "season": "spring", "game": "tile_joust", "from": "totems"}
    refused = host.post("/matches", duel)
    assert (refused.status_code, refused.json()["error"]) == (422, "no_dmo")
    named = host.ok(host.post("/seasons/spring/dmos", {"match": "totems", "dmo": "gil",
                                                        "reason": "named by the winner"}))
    assert named["ec"] == "dee"
    host.ok(host.post("/matches", duel))
    assert server.service.arbiter.match("dm").players == ["gil", "dee"]
    ruled = host.post("/seasons/spring/rulings", {"player": "amy", "changes": {"tol": -1},
                                                  "reason": "spent a ToL on a second vote"})
    host.ok(ruled)
    unknown = host.post("/seasons/spring/rulings", {"player": "amy", "changes": {"garnets": 1},
                                                    "reason": "no"})
    assert unknown.status_code == 422

    def caught_up():  # the views follow the log a moment later
        found = host.ok(host.get("/seasons/spring"))
        return found if len(found["matches"]) == 2 and any(
            line["kind"] == "Ruled" for line in found["history"]) else None

    public = eventually(caught_up)
    assert all("garnets" not in row for row in public["players"])
    # Garnets the match moved in public show (a series garnet); grants and wagers do not.
    moved = [line["cause"] for line in public["history"] if line.get("asset") == "garnets"]
    assert moved and all(cause.get("reason") == "series_garnet" for cause in moved)
    amy = next(row for row in public["players"] if row["player"] == "amy")
    assert (amy["tol"], amy["opal"]) == (1, 1)  # 2 for the win, 1 spent
    assert [m["match"] for m in public["matches"]] == ["totems", "dm"]
    assert public["matches"][0]["ecs"] == ["dee"]
    assert public["matches"][0]["dmos"] == {"dee": "gil"}
    hosted = host.ok(host.get("/seasons/spring/host"))
    assert {row["player"]: row["garnets"] for row in hosted["players"]}["amy"] == 1

    notes = host.ok(host.get("/seasons/spring/checkpoints"))
    assert notes[-1]["size"] == server.service.arbiter.season("spring").version
    text = host.http.get("/seasons/spring/bundle").text
    audit = verify_season(raw.encode() + b"\n" for raw in text.splitlines())
    assert audit.season.dmos == {"totems": {"dee": "gil"}}
