"""What each process of a run spent on the CPUs (Linux /proc): the bench's own (its client
threads, or the in-process service), the programs it started and waited for (wrk), each
process of `arbiter serve` (workers, the projection), and the database's backends serving it.

    with Spent(server_pid, database) as spent:
        ...
    spent.per(votes)  ->  {"client": ms, "workers": ms, "projection": ms, "database": ms}
"""

from __future__ import annotations

import os
from types import TracebackType

import psycopg

from bench.stores import SERVER

TICK = os.sysconf("SC_CLK_TCK")


def cpu_of(pid: int) -> float:
    """Seconds of CPU (user and system, every thread) `pid` has used; 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def children_of(pid: int) -> list[int]:
    """`pid` and every process under it."""
    found, parents = [pid], {pid}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (FileNotFoundError, ProcessLookupError):
            continue
        if parent in parents:
            found += children_of(int(entry))
    return found


def projecting(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return b"projections\x00run" in cmdline.read()
    except (FileNotFoundError, ProcessLookupError):
        return False


def backends(database: str | None, server: str = SERVER) -> list[int]:
    """The PostgreSQL backends connected to `database` (none for SQLite)."""
    if database is None:
        return []
    with psycopg.connect(server, autocommit=True) as conn:
        return [pid for (pid,) in conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s", (database,))]


class Spent:
    """CPU seconds spent between entering and leaving, by role: `client` (this process and
    the children it waited for), `workers` and `projection` (the processes of `server`, if
    any), `database` (the backends of `database`, if PostgreSQL)."""

    def __init__(self, server: int | None, database: str | None) -> None:
        self.server, self.database = server, database
        self.seconds: dict[str, float] = {}

    def roles(self) -> dict[str, list[int]]:
        served = [] if self.server is None else children_of(self.server)
        return {"workers": [p for p in served if not projecting(p)],
                "projection": [p for p in served if projecting(p)],
                "database": backends(self.database)}

    def __enter__(self) -> Spent:
        self.started = {role: {pid: cpu_of(pid) for pid in pids}
                        for role, pids in self.roles().items()}
        self.own = self.clock()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.seconds = {"client": self.clock() - self.own}
        for role, pids in self.roles().items():  # a process gone meanwhile is not counted
            before = self.started[role]
            self.seconds[role] = sum(max(0.0, cpu_of(pid) - before.get(pid, 0.0))
                                     for pid in pids)

    @staticmethod
    def clock() -> float:
        times = os.times()
        return times.user + times.system + times.children_user + times.children_system

    def per(self, votes: int) -> dict[str, float]:
        """Milliseconds of CPU a vote cost, by role."""
        return {role: seconds * 1000 / max(votes, 1) for role, seconds in self.seconds.items()}
