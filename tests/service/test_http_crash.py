"""Workers of `arbiter serve --workers 2` killed with -9 between commands: the service goes on
answering, and the view tables catch up with the log by themselves, with no rebuild. On
PostgreSQL the projection runs in a process beside the workers: killed, it is started again;
it ends with `serve`."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from service_harness import Client, eventually
from test_http_workers import answers, free_port

from audit import keys
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens
from domain.decider import HOST
from projections.tables import APPLICATION, open_views
from tests.support.host_key import SIGNER

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan",
           "judy", "ken"]
VOTERS = PLAYERS[:3]


def workers(server: subprocess.Popen) -> list[int]:
    """uvicorn's worker processes, children of its supervisor (Linux)."""
    found = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    return [int(pid) for pid in found  # not multiprocessing's resource tracker
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]


def projection_processes(server: subprocess.Popen) -> list[int]:
    """`serve`'s projection processes (Linux): `projections run` children of any thread."""
    found = [int(pid) for children in Path(f"/proc/{server.pid}/task").glob("*/children")
             for pid in children.read_text().split()]
    return [pid for pid in found if b"projections\0run" in cmdline(pid)]


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # it has ended meanwhile
        return b""


def projected(db: str) -> tuple[int, int, int]:
    """The log's last notification, the views' tracked one, the host view's last seq."""
    app = Arbiter(db)
    try:
        views = open_views(app.recorder.datastore, app.mapper.cipher)
        shown = views.view("m", HOST)
        return (app.recorder.max_notification_id() or 0,
                views.max_tracking_id(APPLICATION) or 0, shown["as_of"]["seq"] if shown else 0)
    finally:
        app.close()


def serving(db: str, tmp_path: Path, *args: str) -> tuple[subprocess.Popen[bytes], str]:
    """`arbiter serve` on a free port with the host's key, and its address once it answers."""
    port = free_port()
    keys.save(SIGNER, tmp_path / "host.key")
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-c", "from commands.cli.main import main; main()", "--db", db,
         "serve", "--port", str(port), *args],
        cwd=ROOT, env={**os.environ, "ARBITER_HOST_KEY": str(tmp_path / "host.key")},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return server, url


def opened_match(db: str, url: str) -> Client:
    """King's Court "m" of season "s" opened through the API; the host's client."""
    host = Client(url, Tokens(Arbiter(db)).set_host())
    host.ok(host.post("/seasons", {"name": "s"}))
    host.ok(host.post("/seasons/s/players", {"players": PLAYERS}))
    host.ok(host.post("/matches", {"match": "m", "season": "s", "game": "kings_court",
                                   "players": PLAYERS, "unsigned": True}))
    host.ok(host.post("/matches/m/commands", {"command": "open_match"}))
    return host


def test_views_catch_up_after_workers_are_killed(db_url, tmp_path):
    server, url = serving(db_url, tmp_path, "--workers", "2", "--interval", "0.2")
    try:
        eventually(lambda: answers(url), timeout=60)
        host = opened_match(db_url, url)
        opened = Arbiter(db_url).match("m").version
        eventually(lambda: len(workers(server)) == 2, timeout=60)  # both started
        first = workers(server)
        for n, pid in enumerate(first):  # whichever ran the projection is killed too
            os.kill(pid, signal.SIGKILL)
            eventually(lambda: answers(url), timeout=60)
            for player in VOTERS:
                eventually(lambda p=player, n=n: host.post(
                    f"/matches/m/players/{p}/commands",
                    {"command": "vote", "id": f"v{n}", "args": {
                        "candidate": VOTERS[(VOTERS.index(p) + 1) % 3]}}).is_success,
                    timeout=60)
        # Two votes of three players, each its command entry and its VoteCast, once (a vote
        # cut by a kill was sent again with its id).
        version = Arbiter(db_url).match("m").version
        assert version == opened + 2 * 3 * 2
        eventually(lambda: projected(db_url)[0] == projected(db_url)[1], timeout=30, every=0.5)
        assert projected(db_url)[2] == version
        assert sorted(set(workers(server)) & set(first)) == []  # both were replaced
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)


def test_the_projection_process_is_started_again_and_ends_with_serve(pg_url, tmp_path):
    server, url = serving(pg_url, tmp_path)
    try:
        eventually(lambda: answers(url), timeout=60)
        eventually(lambda: len(projection_processes(server)) == 1, timeout=30)
        [first] = projection_processes(server)
        os.kill(first, signal.SIGKILL)
        opened_match(pg_url, url)
        eventually(lambda: projected(pg_url)[0] == projected(pg_url)[1], timeout=30, every=0.5)
        assert projected(pg_url)[2] == Arbiter(pg_url).match("m").version
        [again] = projection_processes(server)
        assert again != first
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)
    assert not cmdline(again)  # ended with serve
