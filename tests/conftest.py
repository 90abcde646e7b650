"""Stores for the tests: an SQLite file, and a real PostgreSQL database of their own.

PostgreSQL: the server on 127.0.0.1:5432 (or ARBITER_TEST_PG_URL's server) when it answers;
otherwise a throwaway server started with pytest-postgresql. Never skipped.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from glob import glob
from urllib.parse import urlparse

import psycopg
import pytest
from hypothesis import HealthCheck, settings

from domain.games import register_game

register_game("sealed_bid", "tests.support.sealed_bid")
register_game("whispers", "tests.support.whispers")

settings.register_profile("default", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default"))

SERVER_URL = os.environ.get("ARBITER_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def _store_key() -> str:
    """Every store of the suite is encrypted at rest, as `arbiter init` makes a new one: one
    store key for the whole run (tests of stores without one unset ARBITER_STORE_KEY)."""
    from commands.store.sealing import make_key

    path = os.path.join(tempfile.mkdtemp(prefix="arbiter-store-key-"), "arbiter-store.key")
    make_key(path)
    return path


os.environ["ARBITER_STORE_KEY"] = _store_key()


def _answers(url: str) -> bool:
    try:
        with psycopg.connect(url, connect_timeout=3):
            return True
    except psycopg.OperationalError:
        return False


@pytest.fixture(autouse=True)
def known_origins(tmp_path, monkeypatch):
    """Each test verifies as a witness with its own memory (audit.witness), never the user's."""
    path = tmp_path / "known_origins"
    monkeypatch.setenv("ARBITER_KNOWN_KEYS", str(path))
    return path


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A URL of a PostgreSQL server's maintenance database."""
    if _answers(SERVER_URL):
        yield SERVER_URL
        return
    from pytest_postgresql.executors.proc import PostgreSQLExecutor

    pg_ctl = sorted(glob("/usr/lib/postgresql/*/bin/pg_ctl")) or [shutil.which("pg_ctl")]
    workdir = tempfile.mkdtemp(prefix="arbiter-pg-")
    port = 55432 + int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    executor = PostgreSQLExecutor(
        executable=pg_ctl[-1], host="127.0.0.1", port=port, datadir=f"{workdir}/data",
        unixsocketdir=workdir, logfile=f"{workdir}/log", startparams="-w", dbname="postgres")
    with executor:
        executor.wait_for_postgres()
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    """A fresh database for one test, dropped afterwards."""
    name = f"arbiter_test_{secrets.token_hex(6)}"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    server = urlparse(pg_server)
    yield server._replace(path=f"/{name}").geturl()
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path}/arbiter.db"


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request) -> str:
    """Every test that takes this runs on both stores."""
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_url")
    request.applymarker(pytest.mark.postgres)
    return request.getfixturevalue("pg_url")


@pytest.fixture
def app(db_url):
    from commands.service.arbiter import Arbiter
    from tests.support.host_key import SIGNER

    application = Arbiter(db_url, signer=SIGNER)
    yield application
    application.close()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--serve-starts", type=int, default=3,
                     help="how many times `serve --workers 4` starts on a fresh PostgreSQL "
                          "database (tests/service/test_serve_starts.py; the issue's count "
                          "is 50)")
    parser.addoption("--contract-long", action="store_true", default=False,
                     help="the long schemathesis run, stateful phase included "
                          "(tests/service/test_http_contract.py)")
