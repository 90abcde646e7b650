"""`arbiter serve --workers 2` on one PostgreSQL: eleven players voting at once, each many
times, lose nothing; every entry is in the chain once, and the public bundle verifies."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from service_harness import Client, eventually

from audit import keys
from audit.verify import verify
from commands.cli.matchfile import load
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens
from tests.support.host_key import SIGNER

ROOT = Path(__file__).resolve().parents[2]
VOTES = 8


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def answers(url: str) -> bool:
    try:
        return httpx.get(f"{url}/openapi.json", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def test_concurrent_players_on_two_workers_lose_nothing(pg_url, tmp_path):
    port = free_port()
    keys.save(SIGNER, tmp_path / "host.key")  # the workers sign each round's close
    url = f"http://127.0.0.1:{port}"
    with (tmp_path / "serve.log").open("wb") as log:  # not a pipe nobody reads
        server = subprocess.Popen(
            [sys.executable, "-c", "from commands.cli.main import main; main()", "--db", pg_url,
             "serve", "--port", str(port), "--workers", "2", "--interval", "0.2"],
            cwd=ROOT, env={**os.environ, "ARBITER_HOST_KEY": str(tmp_path / "host.key")},
            stdout=subprocess.DEVNULL, stderr=log)
    try:
        eventually(lambda: answers(url), timeout=60)
        file = load(ROOT / "seeds" / "kings_court-king-win.json")
        host = Client(url, Tokens(Arbiter(pg_url)).set_host())
        host.ok(host.post("/seasons", {"name": "s"}))
        for player in file.players:
            host.ok(host.post("/seasons/s/players", {"player": player}))
        host.ok(host.post("/matches", {"match": "m", "season": "s", "game": file.game,
                                       "players": file.players, "setup": file.setup}))
        host.ok(host.post("/matches/m/commands", {"command": "open_match"}))
        opened = Arbiter(pg_url).match("m").version

        def vote(i: int) -> list[list[int]]:
            player = file.players[i]
            client = Client(url, host.ok(host.post(f"/matches/m/players/{player}/token"))["token"])
            seqs = []
            for n in range(VOTES):
                candidate = file.players[(i + 1 + n % 10) % len(file.players)]
                seqs.append(client.ok(client.post(
                    "/matches/m/players/" + player + "/commands",
                    {"command": "vote", "args": {"candidate": candidate}, "id": f"v{n}"}))["seqs"])
            return seqs

        with ThreadPoolExecutor(len(file.players)) as pool:
            batches = [seqs for player in pool.map(vote, range(len(file.players)))
                       for seqs in player]
        recorded = sorted(seq for seqs in batches for seq in seqs)
        match = Arbiter(pg_url).match("m")
        assert len(batches) == len(file.players) * VOTES
        assert recorded == list(range(opened + 1, match.version + 1))
        bundle = httpx.get(f"{url}/matches/m/bundle").text
        assert verify(line.encode() + b"\n" for line in bundle.splitlines()).entries == \
            match.version
    finally:
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=30) == 0, (tmp_path / "serve.log").read_text()
