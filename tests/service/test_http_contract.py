"""The OpenAPI contract, checked by schemathesis against the live service on SQLite with no
token, the host token and a player's token: every operation, every built-in check (status
codes and content types as documented, responses matching their schemas, schema-valid data
accepted or refused only by a rule, invalid data rejected, authentication enforced) and ours
(tests/service/contract_checks.py). Bounded in time; `--contract-long` adds the stateful
phase and runs longer."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from service_harness import Server

ROOT = Path(__file__).resolve().parents[2]
ST = Path(sys.executable).parent / "st"
CONFIG = """
[checks.positive_data_acceptance]
expected-statuses = ["2xx", "401", "403", "404", "409", "422"]
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("contract")
    with Server(f"sqlite:///{folder}/arbiter.db") as server:
        host = server.client(server.host_token())
        host.ok(host.post("/seasons", {"name": "spring"}))
        host.ok(host.post("/seasons/spring/players", {"players": ["ann", "bob", "cy"]}))
        host.ok(host.post("/matches", {"match": "m1", "season": "spring", "game": "sealed_bid",
                                       "players": ["ann", "bob", "cy"]}))
        ann = host.ok(host.post("/matches/m1/players/ann/token"))["token"]
        tokens = {"none": None, "host": host.http.headers["Authorization"].split()[1],
                  "player": ann}
        (folder / "schemathesis.toml").write_text(CONFIG)
        yield server, tokens, folder


@pytest.mark.parametrize("who", ["none", "host", "player"])
def test_the_service_keeps_its_contract(served, who, request):
    server, tokens, folder = served
    long = request.config.getoption("--contract-long")
    command = [
        str(ST), "--config-file", str(folder / "schemathesis.toml"), "run",
        f"{server.url}/openapi.json", "--checks", "all", "--exclude-path-regex", "/events$",
        "--phases", "examples,coverage,fuzzing" + (",stateful" if long else ""),
        "--max-examples", "200" if long else "8", "--max-time", "600" if long else "12",
        "--seed", "1", "--generation-codec", "ascii", "--generation-database", "none",
        "--no-color", "--workers", "1"]
    if tokens[who]:
        command += ["--header", f"Authorization: Bearer {tokens[who]}"]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "contract_checks",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "tests" / "service"), str(ROOT)])}
    run = subprocess.run(command, capture_output=True, text=True, env=env, cwd=folder,
                         timeout=3600 if long else 120)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
