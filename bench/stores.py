"""The two stores a benchmark runs on: a fresh SQLite file and a throwaway PostgreSQL database."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from uuid import uuid4

import psycopg

SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"


def sqlite_url() -> str:
    return f"sqlite:///{tempfile.mkdtemp(prefix='arbiter-bench-')}/bench.db"


@contextmanager
def postgres_url(server: str = SERVER) -> Iterator[str]:
    """A new database on `server`, dropped afterwards."""
    name = f"arbiter_bench_{uuid4().hex[:8]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def on_both_stores(run: Callable[[str], None], server: str = SERVER) -> None:
    """`run(url)` on a fresh SQLite file, then on a throwaway PostgreSQL database."""
    run(sqlite_url())
    with postgres_url(server) as url:
        run(url)
