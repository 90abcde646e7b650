"""One process at a time, of all those on one store, does a job that must not be done twice at
once (keeping the views, bringing the checkpoints to the witnesses); the others offer again
every little while, and one takes it over when its holder dies.

- PostgreSQL: a session advisory lock on a connection of its own; the holder's death ends the
  session, which frees the lock.
- SQLite: an flock on `<file>.<job>.lock` beside the database, which the kernel drops when
  its holder dies, even by kill -9. A job the processes may share takes turns at the same
  lock (`in_turn`).
- An in-memory database has one process: it always holds.

PostgreSQL's driver is imported only for a PostgreSQL store (a command line on SQLite never
loads it).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import psycopg

PROJECTING, COSIGNING = "projections", "cosigning"
# How the holder's session shows in pg_stat_activity: the job, and the process that does it.
APPLICATION_NAME = "arbiter-{job} {pid}"


@dataclass(frozen=True)
class Held:
    connection: psycopg.Connection | None = None  # PostgreSQL's: its session holds the lock

    def check(self) -> None:
        """Raises psycopg.OperationalError once the session that holds the lock is lost."""
        if self.connection is not None:
            self.connection.execute("SELECT 1")


@contextmanager
def sole(env: Mapping[str, str], job: str) -> Iterator[Held | None]:
    """The job's lock, held until the block ends, or None while another process holds it."""
    if env["PERSISTENCE_MODULE"] == "eventsourcing.postgres":
        import psycopg

        name = APPLICATION_NAME.format(job=job, pid=os.getpid())
        with psycopg.connect(conninfo(env), autocommit=True, application_name=name) as conn:
            row = conn.execute("SELECT pg_try_advisory_lock(%s)", (lock_key(job),)).fetchone()
            yield Held(conn) if row is not None and row[0] else None
        return
    path = beside(env, f"{job}.lock")
    if path is None:
        yield Held()
        return
    with flocked(path, wait=False) as had:
        yield Held() if had else None


@contextmanager
def in_turn(env: Mapping[str, str], job: str) -> Iterator[None]:
    """The job's SQLite lock, waited for: the processes on one file take turns at the job,
    where `sole` leaves all but one out. A store in memory has one process."""
    path = beside(env, f"{job}.lock")
    if path is None:
        yield
        return
    with flocked(path, wait=True):
        yield


@contextmanager
def flocked(path: str, wait: bool) -> Iterator[bool]:
    """An flock on `path` for the block, waited for or only tried: whether it is held."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
        else:
            yield True
    finally:
        os.close(fd)  # releases the lock


def lock_key(job: str) -> int:
    digest = hashlib.sha256(f"arbiter/sole/{job}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def beside(env: Mapping[str, str], suffix: str) -> str | None:
    """The file `<file>.<suffix>` beside an SQLite store; None for a store in memory."""
    path = env["SQLITE_DBNAME"]
    if path == ":memory:" or path.startswith("file::memory:"):
        return None
    return f"{path}.{suffix}"


def conninfo(env: Mapping[str, str]) -> str:
    from psycopg.conninfo import make_conninfo

    return make_conninfo(dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"],
                         port=env["POSTGRES_PORT"], user=env["POSTGRES_USER"],
                         password=env.get("POSTGRES_PASSWORD") or None)
