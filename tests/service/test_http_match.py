"""The King's Court seed match played through the HTTP API by eleven player clients, each with
its own token, and the host, against PostgreSQL: the same results as `arbiter play`."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from service_harness import Client, Server, eventually

from audit.verify import verify
from commands.cli.matchfile import MatchFile, Step, load, play
from commands.service.arbiter import Arbiter
from domain.decider import HOST, PUBLIC
from domain.games import get_game
from projections.results import results
from projections.views import view
from tests.support.host_key import SIGNER

SEED = Path(__file__).resolve().parents[2] / "seeds" / "kings_court-king-win.json"


def path_of(file: MatchFile, step: Step) -> str:
    """Where the step goes: a close, another host command, a spend, or a player's command."""
    if step.actor == HOST:
        return f"/matches/{file.match}/{'close' if step.do.startswith('close_') else 'commands'}"
    kind = "spends" if step.do in get_game(file.game).SPENDS else "commands"
    return f"/matches/{file.match}/players/{step.actor}/{kind}"


def body_of(step: Step, round: int) -> dict[str, Any]:
    """A close carries the round it means (the open one, as the host's dashboard says)."""
    if step.actor == HOST and step.do.startswith("close_"):
        return {"phase": step.do.removeprefix("close_"), "round": round}
    return {"command": step.do, "args": step.args}


def batches(steps: list[Step]) -> list[list[Step]]:
    """Runs of player commands that may go at once (none expected to fail); everything else
    alone, in its place."""
    runs: list[list[Step]] = []
    for step in steps:
        alone = step.actor == HOST or step.expect_error is not None
        if alone or not runs or runs[-1][0].actor == HOST or runs[-1][0].expect_error:
            runs.append([step])
        else:
            runs[-1].append(step)
    return runs


def set_up(host: Client, file: MatchFile) -> None:
    """What `arbiter play` does before the first command, through the API."""
    host.ok(host.post("/seasons", {"name": file.season}))
    for player in file.players:
        host.ok(host.post(f"/seasons/{file.season}/players", {"player": player}))
        if file.garnets.get(player):
            host.ok(host.post(f"/seasons/{file.season}/grants", {
                "player": player, "amount": file.garnets[player],
                "reason": f"match file {file.match}: starting balance"}))
    created = host.post("/matches", {"match": file.match, "season": file.season,
                                     "game": file.game, "players": file.players,
                                     "setup": file.setup, "host_seed": file.host_seed,
                                     "salt_key": file.salt_key})
    assert created.status_code == 201, created.text


def test_the_seed_match_through_the_api_ends_as_arbiter_play_does(pg_url, sqlite_url):
    file = load(SEED)
    with Server(pg_url) as server:
        host = server.client(server.host_token())
        set_up(host, file)
        tokens = {p: host.ok(host.post(f"/matches/{file.match}/players/{p}/token"))["token"]
                  for p in file.players}
        clients = {p: server.client(tokens[p]) for p in file.players}
        clients[HOST] = host
        receipts: dict[str, list[dict[str, Any]]] = {p: [] for p in file.players}

        def send(steps: list[Step]) -> None:
            for step in steps:
                round = server.service.arbiter.match(file.match).round
                response = clients[step.actor].post(path_of(file, step), body_of(step, round))
                if step.expect_error:
                    assert 400 <= response.status_code < 500, response.text
                    assert response.json()["error"] == step.expect_error, response.text
                else:
                    assert response.status_code == 200, (step, response.text)
                    if step.actor != HOST:
                        receipts[step.actor].append(response.json()["receipt"])

        contributions = [Step(actor=p, do="contribute", args={"text": t})
                         for p, t in file.contributions.items()]
        with ThreadPoolExecutor(len(file.players)) as pool:
            for run in batches(contributions + file.commands):
                by_player: dict[str, list[Step]] = {}
                for step in run:
                    by_player.setdefault(step.actor, []).append(step)
                list(pool.map(send, by_player.values()))  # each player's steps in order

        live = Arbiter(pg_url)
        match = live.match(file.match)
        # The views the API serves are the views of the log, for every viewer, and each
        # player's inbox holds the receipts their submissions were answered with.
        for viewer in (PUBLIC, HOST, *file.players):
            path = {PUBLIC: f"/matches/{file.match}", HOST: f"/matches/{file.match}/host"}.get(
                viewer, f"/matches/{file.match}/players/{viewer}/view")
            client = clients.get(viewer, host)
            expected = json.loads(json.dumps(view(match, viewer)))
            eventually(lambda c=client, p=path, e=expected: c.ok(c.get(p)) == e)
        for player in file.players:
            inbox = clients[player].ok(clients[player].get(
                f"/matches/{file.match}/players/{player}/inbox"))
            assert inbox["receipts"] == receipts[player]
        # The public bundle verifies offline: the chain held under concurrent submissions.
        bundle = server.client().get(f"/matches/{file.match}/bundle").text
        audit = verify(line.encode() + b"\n" for line in bundle.splitlines())
        assert audit.entries == match.version

    expected, mismatches = play(Arbiter(sqlite_url, signer=SIGNER), file)
    assert mismatches == []
    assert results(match) == expected


def test_a_service_without_a_host_key_creates_only_unsigned_matches(sqlite_url, tmp_path,
                                                                    monkeypatch):
    monkeypatch.chdir(tmp_path)  # no ./arbiter-host.key
    monkeypatch.delenv("ARBITER_HOST_KEY", raising=False)
    with Server(sqlite_url, signer=None) as server:
        host = server.client(server.host_token())
        host.ok(host.post("/seasons", {"name": "spring"}))
        for player in ("ann", "bob"):
            host.ok(host.post("/seasons/spring/players", {"player": player}))
        body = {"match": "m", "season": "spring", "game": "sealed_bid",
                "players": ["ann", "bob"]}
        refused = host.post("/matches", body)
        assert refused.status_code == 422 and refused.json()["error"] == "no_host_key"
        assert host.get("/matches/m").status_code == 404
        host.ok(host.post("/matches", {**body, "unsigned": True}))
        host.ok(host.post("/matches/m/commands", {"command": "open_match"}))
        host.ok(host.post("/matches/m/close", {"round": 1}))
        assert host.ok(host.get("/matches/m/checkpoints")) == []
        header = json.loads(host.get("/matches/m/bundle").text.splitlines()[0])["header"]
        assert header["unsigned"] is True and header["host_key"] is None
        ahead = host.get("/matches/m", round=3)  # round 2 is open: round 3 is not reached
        assert ahead.status_code == 422 and ahead.json()["error"] == "round_not_reached"
        assert host.ok(host.get("/matches/m", round=1))["as_of"]["round"] == 1
