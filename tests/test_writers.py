"""Writers across processes: sixteen CLI processes on one match, on both stores, each end
recorded or `busy` in one line; a writer that waits past its bound is `busy`, nothing recorded."""

from __future__ import annotations

import fcntl
import os
import secrets
import stat
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from audit import keys
from commands.service.arbiter import Arbiter
from commands.service.writers import REFUSED, Busy, refused, writers_for
from commands.store.settings import persistence_env
from tests.support.host_key import SIGNER

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan",
           "judy", "ken"]
PROCESSES = 16
OPENED = 19  # King's Court for 11: created (2 entries), opened (17)


def arbiter(db: str, env: dict[str, str], *args: str, timeout: float = 120
            ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from commands.cli.main import main; main()",
                           "--db", db, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture
def opened(db_url, tmp_path):
    """A King's Court match of eleven in its first round, and the CLI's environment."""
    keys.save(SIGNER, tmp_path / "host.key")
    env = {**os.environ, "ARBITER_HOST_KEY": str(tmp_path / "host.key")}
    for args in (["season", "create", "s"], ["season", "register", "s", *PLAYERS],
                 ["match", "create", "kc", "--season", "s", "--game", "kings_court",
                  "--players", ",".join(PLAYERS)], ["match", "host", "kc", "open_match"]):
        done = arbiter(db_url, env, *args)
        assert done.returncode == 0, done.stderr
    return db_url, env


def test_sixteen_cli_processes_on_one_match_each_recorded_or_busy(opened):
    db, env = opened

    def vote(i: int) -> subprocess.CompletedProcess[str]:
        voter, candidate = PLAYERS[i % 11], PLAYERS[(i + 1) % 11]
        return arbiter(db, env, "match", "submit", "kc", "--as", voter, "vote",
                       f"candidate={candidate}", "--id", f"v{i}")

    with ThreadPoolExecutor(PROCESSES) as pool:
        done = list(pool.map(vote, range(PROCESSES)))
    recorded = {f"v{i}" for i, d in enumerate(done) if d.returncode == 0}
    for d in done:
        assert "Traceback" not in d.stderr
        if d.returncode:
            assert d.returncode == 2 and d.stderr.startswith("error: busy: "), d.stderr
            assert len(d.stderr.strip().splitlines()) == 1
    app = Arbiter(db)
    try:
        match = app.match("kc")
    finally:
        app.close()
    # Every vote recorded is its command entry and its VoteCast, once; a busy one nothing.
    assert match.version == OPENED + 2 * len(recorded)
    commands = [r for r in match.records if r["entry"]["seq"] > OPENED
                and r["role"] == "command"]
    assert len(commands) == len(recorded)
    assert set(match.handled) >= recorded
    assert len(recorded) >= PROCESSES // 2  # a 10 s bound leaves most of them through


def test_a_writer_waiting_past_its_bound_is_busy_and_records_nothing(opened):
    db, env = opened
    holder = writers_for(persistence_env(db))
    with holder.holding("kc"):
        started = time.monotonic()
        done = arbiter(db, {**env, "ARBITER_WRITE_WAIT": "1"}, "match", "submit", "kc",
                       "--as", "bob", "vote", "candidate=carol")
        waited = time.monotonic() - started
    holder.close()
    assert done.returncode == 2 and done.stderr.startswith("error: busy: "), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert waited < 30  # one second of waiting, and the CLI's start
    app = Arbiter(db)
    try:
        assert app.match("kc").version == OPENED
        # The lock is free again: the same command goes through.
        app.submit("kc", "bob", "vote", {"candidate": "carol"})
        assert app.match("kc").version == OPENED + 2
    finally:
        app.close()


def test_threads_of_one_process_wait_for_each_other_in_the_bound(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_WRITE_WAIT", "0.3")
    writers = writers_for(persistence_env(f"sqlite:///{tmp_path}/a.db"))
    with writers.holding("m"):
        started = time.monotonic()
        with pytest.raises(Busy) as refused, ThreadPoolExecutor(1) as pool:
            pool.submit(lambda: writers.holding("m").__enter__()).result()
        assert 0.3 <= time.monotonic() - started < 5
    assert refused.value.code == "busy"
    lock = tmp_path / "a.db.lock"  # beside the store, private like it, and empty
    assert stat.S_IMODE(lock.stat().st_mode) == 0o600 and lock.read_bytes() == b""
    with writers.holding("m"):  # released: taken again at once
        pass


def test_a_waiting_writer_takes_the_lock_once_it_is_released(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_WRITE_WAIT", "5")
    writers = writers_for(persistence_env(f"sqlite:///{tmp_path}/a.db"))
    order: list[str] = []

    def second() -> None:
        with writers.holding("m"):
            order.append("second holds")

    with ThreadPoolExecutor(1) as pool:
        with writers.holding("m"):
            waiting = pool.submit(second)
            time.sleep(0.2)
            order.append("first releases")
        waiting.result(timeout=5)
    assert order == ["first releases", "second holds"]


def test_a_writer_that_gave_up_leaves_no_lock_behind(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_WRITE_WAIT", "0.1")
    writers = writers_for(persistence_env(f"sqlite:///{tmp_path}/a.db"))
    with writers.holding("m"), pytest.raises(Busy), ThreadPoolExecutor(1) as pool:
        pool.submit(lambda: writers.holding("m").__enter__()).result()
    # Its waiter takes the lock when the holder lets go, then lets go of it too.
    fd = os.open(tmp_path / "a.db.lock", os.O_RDWR)
    try:
        deadline = time.monotonic() + 5
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                assert time.monotonic() < deadline, "the lock was never let go"
                time.sleep(0.01)
    finally:
        os.close(fd)


def test_what_postgresql_says_when_it_is_full_is_store_busy_in_one_line():
    full = refused(Exception('connection failed: FATAL:  sorry, too many clients already\n'))
    assert full == REFUSED
    assert refused(Exception("FATAL: too many connections for role \"x\"")) == REFUSED
    other = refused(Exception("connection refused\n\tIs the server running?"))
    assert "\n" not in other and other.startswith("PostgreSQL gave no connection")


def test_a_postgresql_that_refuses_connections_is_one_line_store_busy(pg_url, tmp_path):
    """A role allowed two connections, both held: PostgreSQL says "too many connections",
    and the CLI says so in one line, not a traceback after the pool's wait."""
    import psycopg

    role = f"arbiter_full_{secrets.token_hex(4)}"
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN CONNECTION LIMIT 2")
        admin.execute(f"GRANT ALL ON SCHEMA public TO {role}")
    limited = pg_url.replace("postgres@", f"{role}@", 1)
    try:
        held = [psycopg.connect(limited) for _ in range(2)]
        done = arbiter(limited, dict(os.environ), "view", "kc", timeout=60)
        for conn in held:
            conn.close()
    finally:
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute(f"DROP OWNED BY {role}")
            admin.execute(f"DROP ROLE {role}")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: store_busy: "), done.stderr
    assert "too many connections" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
