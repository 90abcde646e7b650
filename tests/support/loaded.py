"""What a command of the command line loads, run as a person runs it: a process of its own that
starts where the `arbiter` console script starts (commands.cli.main:main), printing text or
JSON as asked, its modules listed as it exits, however it ends."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from domain.games import game_ids

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import atexit, json, os, sys
atexit.register(lambda: open(os.environ["ARBITER_TEST_MODULES"], "w").write(
    json.dumps(sorted(sys.modules))))
from commands.cli.main import main
main()
"""
# What no read command needs: the validation library, Unicode's confusables (a new name's
# check), the HTTP stack and PostgreSQL's driver (on an SQLite store).
NEVER = {"confusable_homoglyphs", "fastapi", "starlette", "uvicorn", "jinja2", "httpx",
         "psycopg", "psycopg_pool"}
VALIDATION = {"pydantic", "pydantic_core"}


@dataclass(frozen=True)
class Ran:
    code: int
    stdout: str
    stderr: str
    modules: frozenset[str]

    @property
    def roots(self) -> set[str]:
        """The top-level packages it loaded."""
        return {m.split(".")[0] for m in self.modules}

    @property
    def games(self) -> set[str]:
        """The games whose package it loaded."""
        return {g for g in game_ids() if f"domain.games.{g}" in self.modules}

    def under(self, *prefixes: str) -> set[str]:
        """The modules it loaded of these packages (a prefix ends a name or is followed by
        a dot)."""
        return {m for m in self.modules for p in prefixes if m == p or m.startswith(f"{p}.")}


def ran(args: Iterable[str], cwd: Path, **env: str) -> Ran:
    """`arbiter ARGS` in a process of its own, in `cwd`, with the tests' environment and
    `env`."""
    with tempfile.TemporaryDirectory() as folder:
        listing = Path(folder) / "modules.json"
        done = subprocess.run(
            [sys.executable, "-c", PROBE, *args], cwd=cwd, capture_output=True, text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT), **env,
                 "ARBITER_TEST_MODULES": str(listing)}, check=False, timeout=120)
        modules = frozenset(json.loads(listing.read_text()))
    return Ran(done.returncode, done.stdout, done.stderr, modules)
