"""Running the HTTP service for a test: uvicorn in a thread on 127.0.0.1 and a free port,
and clients that speak to it as the host, a player or anyone."""

from __future__ import annotations

import json
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import psycopg
import uvicorn

from commands.service.tokens import Tokens
from commands.web.app import create_app
from commands.web.worker import Service, Settings
from tests.support.host_key import SIGNER


class Server:
    """`arbiter serve` in a thread. Use as a context manager."""

    def __init__(self, url: str, **settings: Any) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.app = create_app(Settings(url=url, **{  # its links start with its own address
            "interval": 0.2, "signer": SIGNER, "public_url": self.url, **settings}))
        config = uvicorn.Config(self.app, log_level="warning", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)

    @property
    def service(self) -> Service:
        return self.app.state.service

    def __enter__(self) -> Server:
        self.thread.start()
        eventually(lambda: self.server.started, timeout=30)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.sock.close()

    def host_token(self) -> str:
        return Tokens(self.service.arbiter).set_host()

    def client(self, token: str | None = None) -> Client:
        return Client(self.url, token)


class Client:
    def __init__(self, url: str, token: str | None = None) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.http = httpx.Client(base_url=url, headers=headers, timeout=60)

    def get(self, path: str, **params: Any) -> httpx.Response:
        return self.http.get(path, params=params)

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.http.post(path, json=body or {})

    def ok(self, response: httpx.Response) -> Any:
        assert response.is_success, response.text
        return response.json()

    def events(self, path: str, until: Callable[[list[dict[str, Any]]], bool],
               timeout: float = 30) -> list[dict[str, Any]]:
        """Read a server-sent event stream until `until(entries so far)` holds, for at most
        `timeout` seconds in all (its keep-alive comments would defeat a read timeout)."""
        entries: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        with self.http.stream("GET", path, timeout=timeout) as response:
            assert response.status_code == 200, response.read()
            for line in response.iter_lines():
                if line.startswith("data:"):
                    entries.append(json.loads(line[5:].strip()))
                    if until(entries):
                        return entries
                if time.monotonic() > deadline:
                    raise AssertionError(f"{timeout} s passed with {len(entries)} entries")
        raise AssertionError(f"the stream ended after {len(entries)} entries")


@contextmanager
def database(pg_server: str) -> Iterator[str]:
    """A fresh PostgreSQL database for a module's tests (conftest's `pg_url` is per test)."""
    name = f"arbiter_test_{secrets.token_hex(6)}"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield pg_server.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(pg_server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def eventually(check: Callable[[], Any], timeout: float = 20, every: float = 0.05) -> Any:
    """Wait for `check()` to be truthy (views and deadlines are eventually current)."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {check}")
        time.sleep(every)
