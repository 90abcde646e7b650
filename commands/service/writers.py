"""One writer at a time, across processes, taken before a command loads anything.

Optimistic retries alone starve under contention: sixteen processes on one match each load,
decide and lose the save to another, and some run out of retries. So every write takes a
lock up front and waits for it, boundedly: past `wait` seconds it is `busy` (nothing
recorded, send it again), never a traceback or a hang.

- SQLite: an flock on `<file>.lock` beside the database, the whole store (SQLite has one
  writer anyway). The kernel drops it when its holder dies, even by kill -9.
- PostgreSQL: a session advisory lock per match (or season), on a connection of its own,
  with `lock_timeout`. PostgreSQL queues the waiters in order, so the waiting is fair.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Any, Protocol

from commands.store.flock import waited_for
from domain.errors import RuleViolation
from projections.sole import beside

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

WAIT = 10.0  # seconds a command waits for the writer's lock before it is `busy`
WAIT_VARIABLE = "ARBITER_WRITE_WAIT"
LOCK_POOL = 10  # connections of one process holding or awaiting an advisory lock at once


class Busy(RuleViolation):
    """Nothing was recorded: other writers held the match for the whole bounded wait (or
    PostgreSQL had no connection to give); the same command may be sent again."""

    def __init__(self, message: str, code: str = "busy") -> None:
        super().__init__(code, message)


# A query to run as soon as the lock is held, with its parameters: its first row comes back.
Asked = tuple[str, list[Any]]


class Writers(Protocol):
    def holding(self, name: str, then: Asked | None = None
                ) -> AbstractContextManager[list[Any] | None]: ...

    def close(self) -> None: ...


def wait_seconds() -> float:
    value = os.environ.get(WAIT_VARIABLE, "")
    try:
        return float(value) if value else WAIT
    except ValueError:
        raise RuleViolation("invalid_setting", f"${WAIT_VARIABLE}={value!r}: a number of "
                            "seconds") from None


def writers_for(env: Mapping[str, str]) -> Writers:
    if env["PERSISTENCE_MODULE"] == "eventsourcing.postgres":
        return AdvisoryWriters(env, wait_seconds())
    path = beside(env, "lock")
    return Unshared() if path is None else FileWriters(path, wait_seconds())


class Unshared:
    """An in-memory database has no other process: the in-process locks are enough."""

    @contextmanager
    def holding(self, name: str, then: Asked | None = None) -> Iterator[list[Any] | None]:
        yield None  # `then` is the caller's to ask

    def close(self) -> None:
        pass


class FileWriters:
    def __init__(self, path: str, wait: float) -> None:
        self.path, self.wait = path, wait

    @contextmanager
    def holding(self, name: str, then: Asked | None = None) -> Iterator[list[Any] | None]:
        """`then` is the caller's to ask (SQLite asks locally, at no round trip's cost)."""
        # One open file per holder: flock belongs to the open file, so threads exclude too.
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if not waited_for(fd, self.wait):
                raise Busy(f"{name}: other writers held the store for {self.wait:g} s; "
                           "nothing was recorded, send it again")
            yield None
        finally:
            os.close(fd)  # releases the lock (or, given up, the one the waiter takes later)

    def close(self) -> None:
        pass


def lock_key(name: str) -> int:
    digest = hashlib.sha256(f"arbiter/match/{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class AdvisoryWriters:
    """The pool opens on the first write, so a command that only reads opens no connection."""

    def __init__(self, env: Mapping[str, str], wait: float) -> None:
        self.env, self.wait = env, wait
        self._pool: ConnectionPool | None = None
        self._opening = threading.Lock()

    def pool(self) -> ConnectionPool:
        from psycopg_pool import ConnectionPool

        from projections.sole import conninfo

        with self._opening:
            if self._pool is None:
                self._pool = ConnectionPool(
                    conninfo(self.env), min_size=0, max_size=LOCK_POOL, timeout=self.wait,
                    kwargs={"autocommit": True,
                            "connect_timeout": int(self.env["POSTGRES_CONNECT_TIMEOUT"]),
                            # lock_timeout 0 would wait for ever: a millisecond at least
                            "options": f"-c lock_timeout={max(1, int(self.wait * 1000))}"},
                    open=True)
            return self._pool

    @contextmanager
    def holding(self, name: str, then: Asked | None = None) -> Iterator[list[Any] | None]:
        """The match's advisory lock; with `then`, that query's first row, asked in the same
        round trip (a pipeline: it runs once the lock is taken, so it sees what the last
        holder saved)."""
        import psycopg
        from psycopg_pool import PoolTimeout

        key, pool = lock_key(name), self.pool()
        try:
            conn = pool.getconn()
        except PoolTimeout:
            if pool.get_stats().get("connections_errors"):
                raise Busy(REFUSED, "store_busy") from None
            raise Busy(f"{name}: this process's {LOCK_POOL} writers were all busy for "
                       f"{self.wait:g} s; nothing was recorded, send it again") from None
        except psycopg.OperationalError as error:
            raise Busy(refused(error), "store_busy") from None
        try:
            try:
                with conn.pipeline():
                    conn.execute("SELECT pg_advisory_lock(%s)", (key,))
                    asked = conn.execute(*then) if then is not None else None
                row = None if asked is None else list(asked.fetchone() or ())
            except psycopg.errors.LockNotAvailable:
                raise Busy(f"{name}: other writers held it for {self.wait:g} s; nothing was "
                           "recorded, send it again") from None
            except psycopg.OperationalError as error:  # the connection lost meanwhile
                raise Busy(refused(error), "store_busy") from None
            except psycopg.Error:  # the query after the lock: the lock is held, let it go
                conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
                raise
            try:
                yield row
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
        finally:
            pool.putconn(conn)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()


# What PostgreSQL says when it is full (max_connections, a role's or database's limit).
REFUSALS = ("too many clients", "too many connections", "remaining connection slots")
REFUSED = "PostgreSQL refuses more connections (too many clients): send it again shortly"


def refused(error: BaseException) -> str:
    """One line for a PostgreSQL that gave no connection (too many clients, or none in time)."""
    text = " ".join(str(error).split())
    if any(sign in text for sign in REFUSALS):
        return REFUSED
    return f"PostgreSQL gave no connection ({text[:200]}): send it again shortly"
