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


def serving(url, monkeypatch, tmp_path):
    key = tmp_path / "host.key"
    keys.save(keys.generate("host.example"), key)
    monkeypatch.setenv("ARBITER_HOST_KEY", str(key))
    with Server(url) as server:
        yield server, server.client(server.host_token())


@pytest.fixture
def served(sqlite_url, monkeypatch, tmp_path):
    yield from serving(sqlite_url, monkeypatch, tmp_path)


@pytest.fixture
def served_on(db_url, monkeypatch, tmp_path):
    """The same, on SQLite and on PostgreSQL."""
    yield from serving(db_url, monkeypatch, tmp_path)


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
    naming = {"match": "totems", "dmo": "gil", "reason": "named by the winner", "id": "dmo-1"}
    named = host.ok(host.post("/seasons/spring/dmos", naming))
    assert named == {"season": "spring", "match": "totems", "dmo": "gil", "ec": "dee",
                     "reason": "named by the winner"}
    # Sent again under its id (a retry after a lost answer): the same answer, nothing more
    # recorded; without the id, the DMO is recorded already.
    version = server.service.arbiter.season("spring").version
    assert host.ok(host.post("/seasons/spring/dmos", naming)) == named
    assert server.service.arbiter.season("spring").version == version
    naming.pop("id")
    again = host.post("/seasons/spring/dmos", naming)
    assert (again.status_code, again.json()["error"]) == (422, "dmo_recorded")
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


# -- a host bot's retries: each season command and match carried out once under its id -----

def problem(response, status, code):
    assert (response.status_code, response.json()["error"]) == (status, code), response.text


def test_a_grant_sent_twice_under_one_id_moves_garnets_once(served_on):
    server, host = served_on
    app = server.service.arbiter

    def garnets():
        return {p: b["garnets"] for p, b in app.season("spring").balances.items()}

    start = {"name": "spring", "id": "new-spring"}
    created = host.post("/seasons", start)
    assert created.status_code == 201
    again = host.post("/seasons", start)  # the answer was lost: sent again
    assert (again.status_code, again.json()) == (201, created.json())
    problem(host.post("/seasons", {"name": "spring"}), 409, "season_exists")  # no id: a 2nd
    roster = {"players": ["alice", "bob"], "id": "roster-1"}
    for _ in range(2):
        assert host.post("/seasons/spring/players", roster).status_code == 201
    assert app.season("spring").players == ["alice", "bob"]

    purses = {"grants": [{"player": "alice", "amount": 10, "reason": "season start"},
                         {"player": "bob", "amount": 7, "reason": "season start"}],
              "id": "purses-1"}
    first = host.ok(host.post("/seasons/spring/grants", purses))
    assert host.ok(host.post("/seasons/spring/grants", purses)) == first
    assert garnets() == {"alice": 10, "bob": 7}  # once, not 20 and 14
    fine = {"player": "alice", "amount": -3, "reason": "late twice", "id": "fine-1"}
    for _ in range(2):
        assert host.ok(host.post("/seasons/spring/grants", fine)) == {
            "season": "spring", "player": "alice", "amount": -3, "asset": "garnets",
            "reason": "late twice"}
    assert garnets() == {"alice": 7, "bob": 7}  # 10 - 3
    # The id stands for that grant only: with other arguments, or for another command,
    # it is refused as a match command's reused id is, and nothing is recorded.
    version = app.season("spring").version
    problem(host.post("/seasons/spring/grants", {**fine, "amount": -4}), 409, "id_reused")
    problem(host.post("/seasons/spring/transfers", {
        "giver": "alice", "receiver": "bob", "amount": 1, "id": "fine-1"}), 409, "id_reused")
    problem(host.post("/seasons/autumn/grants", fine), 409, "id_reused")  # another season
    assert app.season("spring").version == version and garnets() == {"alice": 7, "bob": 7}

    # A trade beyond bob's 7 is refused and leaves its id unspent: sent again once bob
    # holds enough, it is carried out, then once only.
    trade = {"giver": "bob", "receiver": "alice", "amount": 50, "reason": "a deal",
             "id": "trade-1"}
    problem(host.post("/seasons/spring/transfers", trade), 422, "insufficient_garnets")
    assert app.season("spring").version == version
    host.ok(host.post("/seasons/spring/grants", {"player": "bob", "amount": 50,
                                                 "reason": "a prize", "id": "prize-1"}))
    traded = host.ok(host.post("/seasons/spring/transfers", trade))
    assert traded == {"season": "spring", "giver": "bob", "receiver": "alice", "amount": 50,
                      "reason": "a deal"}
    assert host.ok(host.post("/seasons/spring/transfers", trade)) == traded
    assert garnets() == {"alice": 57, "bob": 7}  # alice 7 + 50; bob 7 + 50 - 50

    ruling = {"player": "alice", "changes": {"moe": 1}, "reason": "played well",
              "id": "rule-1"}
    for _ in range(2):
        assert host.ok(host.post("/seasons/spring/rulings", ruling)) == {
            "season": "spring", "player": "alice", "changes": {"moe": 1},
            "reason": "played well", "status": None}
    assert app.season("spring").balances["alice"]["moe"] == 1  # once, not twice


def test_a_match_sent_twice_under_one_id_is_created_once(served):
    server, host = served
    app = server.service.arbiter
    host.ok(host.post("/seasons", {"name": "spring"}))
    host.ok(host.post("/seasons/spring/players", {"players": ["ann", "bob", "cy"]}))
    new = {"match": "m1", "season": "spring", "game": "sealed_bid",
           "players": ["ann", "bob", "cy"], "id": "match-1"}
    created = host.post("/matches", new)
    assert created.status_code == 201
    # Sent again (another seed drawn, unsent, as the first time): the match the first made.
    again = host.post("/matches", new)
    assert (again.status_code, again.json()) == (201, created.json())
    assert list(app.season("spring").matches) == ["m1"]
    assert app.match("m1").version == 2  # its genesis and its seed commitment, once
    problem(host.post("/matches", {**new, "players": ["ann", "bob"]}), 409, "id_reused")
    problem(host.post("/matches", {k: v for k, v in new.items() if k != "id"}), 409,
            "match_exists")
    assert app.match("m1").version == 2
