"""One writer per match across worker processes.

The application service already serialises commands on one match inside a process and
retries a stale write. Across processes its retries can starve: a worker with a warm cache
and a queue of commands keeps winning. A PostgreSQL advisory lock per match, held around
each command on a connection of its own, makes the workers queue (in order) instead.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from psycopg_pool import ConnectionPool

from projections.runner import conninfo

SIZE = 10  # commands of one worker holding or awaiting a match lock at once


def lock_key(match_id: str) -> int:
    digest = hashlib.sha256(f"arbiter/match/{match_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class MatchLocks:
    def __init__(self, env: Mapping[str, str]) -> None:
        self.pool = ConnectionPool(conninfo(env), min_size=1, max_size=SIZE,
                                   kwargs={"autocommit": True}, open=True)

    @contextmanager
    def holding(self, match_id: str) -> Iterator[None]:
        key = lock_key(match_id)
        with self.pool.connection() as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (key,))
            try:
                yield
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (key,))

    def close(self) -> None:
        self.pool.close()
