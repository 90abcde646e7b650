"""Where the events live: one database URL picks SQLite (the default) or PostgreSQL."""

from __future__ import annotations

import os
from urllib.parse import parse_qs, unquote, urlparse

from commands.store.sealing import cipher_env
from domain.errors import RuleViolation

DEFAULT_URL = "sqlite:///arbiter.db"
URL_VARIABLE = "ARBITER_DATABASE_URL"
# Seconds to wait for a PostgreSQL connection before giving up: a server that is down is said
# within five seconds, not after the pool's 30. `?connect_timeout=N` in the URL sets another.
CONNECT_TIMEOUT = 4
# The most connections one process's application pool holds (two kept open): sixteen CLI
# processes and the service's workers must fit in PostgreSQL's max_connections (100).
POOL_VARIABLE = "ARBITER_PG_POOL"
POOL = 8


def database_url(explicit: str | None = None) -> str:
    return explicit or os.environ.get(URL_VARIABLE) or DEFAULT_URL


def persistence_env(url: str) -> dict[str, str]:
    """eventsourcing settings for a database URL, with the store key's (commands.store.sealing):
    every writer and reader of one store gets the same.

    sqlite:///relative/file.db, sqlite:////absolute/file.db, sqlite:///:memory:
    postgresql://user[:password]@host[:port]/dbname[?connect_timeout=SECONDS]
    """
    return {**database_env(url), **cipher_env()}


def database_env(url: str) -> dict[str, str]:
    parsed = urlparse(url)
    if parsed.scheme == "sqlite":
        path = parsed.path[1:] if parsed.path.startswith("/") else parsed.path
        if not path:
            raise RuleViolation("invalid_database_url", f"no file in {url!r}")
        return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": unquote(path),
                "SQLITE_LOCK_TIMEOUT": "30"}
    if parsed.scheme in ("postgresql", "postgres"):
        dbname = parsed.path.lstrip("/")
        if not dbname:
            raise RuleViolation("invalid_database_url", f"no database name in {url!r}")
        try:
            port = parsed.port or 5432
        except ValueError:
            raise RuleViolation("invalid_database_url", f"a port is a number: {url!r}") from None
        timeout = parse_qs(parsed.query).get("connect_timeout", [str(CONNECT_TIMEOUT)])[-1]
        if not timeout.isdigit() or int(timeout) < 1:
            raise RuleViolation("invalid_database_url", f"connect_timeout={timeout!r} in "
                                f"{url!r}: a whole number of seconds")
        pool = pool_size()
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": unquote(dbname),
            "POSTGRES_HOST": parsed.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(port),
            "POSTGRES_USER": unquote(parsed.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(parsed.password or ""),
            "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": "60",
            "POSTGRES_CONNECT_TIMEOUT": timeout,
            "POSTGRES_POOL_SIZE": str(min(2, pool)),
            "POSTGRES_MAX_OVERFLOW": str(pool - min(2, pool)),
        }
    raise RuleViolation("invalid_database_url",
                        f"{url!r}: use sqlite:///FILE or postgresql://USER@HOST:PORT/DB")


def pool_size() -> int:
    value = os.environ.get(POOL_VARIABLE) or str(POOL)
    if not value.isdigit() or int(value) < 1:
        raise RuleViolation("invalid_setting", f"${POOL_VARIABLE}={value!r}: a whole number "
                            "of connections, at least 1")
    return int(value)


def store_name(url: str) -> str:
    """The store a URL names, as an error may show it (never its password)."""
    parsed = urlparse(url)
    if parsed.scheme == "sqlite":
        return f"the SQLite file {parsed.path[1:] or url}"
    return (f"PostgreSQL database {parsed.path.lstrip('/')} at {parsed.hostname}:"
            f"{parsed.port or 5432}")
