"""Where the events live: one database URL picks SQLite (the default) or PostgreSQL."""

from __future__ import annotations

import os
from urllib.parse import unquote, urlparse

from domain.errors import RuleViolation

DEFAULT_URL = "sqlite:///arbiter.db"
URL_VARIABLE = "ARBITER_DATABASE_URL"


def database_url(explicit: str | None = None) -> str:
    return explicit or os.environ.get(URL_VARIABLE) or DEFAULT_URL


def persistence_env(url: str) -> dict[str, str]:
    """eventsourcing settings for a database URL.

    sqlite:///relative/file.db, sqlite:////absolute/file.db, sqlite:///:memory:
    postgresql://user[:password]@host[:port]/dbname
    """
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
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": unquote(dbname),
            "POSTGRES_HOST": parsed.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(parsed.port or 5432),
            "POSTGRES_USER": unquote(parsed.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(parsed.password or ""),
            "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": "60",
        }
    raise RuleViolation("invalid_database_url",
                        f"{url!r}: use sqlite:///FILE or postgresql://USER@HOST:PORT/DB")
