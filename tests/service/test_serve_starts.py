"""`arbiter serve --workers 4` on a fresh PostgreSQL database starts and serves every time:
its four workers and its projection process start together, and the tables they would all
create are made once before any of them starts (`commands.cli.serve.prepare`), the losers of
any race on the catalog trying again (`projections.tables.lost_create_race`).

The suite starts it `--serve-starts` times (3 by default); `pytest
tests/service/test_serve_starts.py --serve-starts 50` is the issue's fifty (about four
minutes on two cores)."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import httpx
import psycopg
import pytest
from service_harness import eventually

from tests.service.test_http_workers import free_port

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 4


def serves(url: str) -> bool:
    """Whether every request of a round of them is answered from the store (a match it does
    not hold: 404), twice as many as there are workers."""
    try:
        return all(httpx.get(f"{url}/matches/none", timeout=2).status_code == 404
                   for _ in range(2 * WORKERS))
    except httpx.HTTPError:
        return False


def start_once(pg_server: str, folder: Path) -> tuple[bool, int, str]:
    """Start `serve --workers 4` on a new database until it serves (or dies), then stop it:
    whether it served, its exit code and what it logged."""
    name = f"arbiter_test_{secrets.token_hex(6)}"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    db = urlparse(pg_server)._replace(path=f"/{name}").geturl()
    url = f"http://127.0.0.1:{free_port()}"
    logged = folder / f"{name}.log"
    with logged.open("wb") as log:  # a pipe would wait on any worker left behind, and
        server = subprocess.Popen(  # one nobody reads stops the server once it fills
            [sys.executable, "-c", "from commands.cli.main import main; main()", "--db", db,
             "serve", "--port", url.rsplit(":", 1)[1], "--workers", str(WORKERS)],
            cwd=folder, env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.DEVNULL, stderr=log)
    try:
        served = eventually(lambda: serves(url) or server.poll() is not None, timeout=90) \
            and server.poll() is None
    finally:
        server.send_signal(signal.SIGINT)
        code = server.wait(timeout=30)
        said = logged.read_text()
        with psycopg.connect(pg_server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return served, code, said


@pytest.mark.postgres
def test_serve_with_four_workers_starts_and_serves_every_time(pg_server, request, tmp_path):
    for start in range(request.config.getoption("--serve-starts")):
        served, code, log = start_once(pg_server, tmp_path)
        assert served and code == 0 and "Traceback" not in log, (start, code, log[-3000:])
