"""`arbiter verify` as an auditor runs it, a whole process per bundle: it loads only what the
bundle needs. A public bundle needs no rules, no validation library, no store; a full one
re-runs its own game's rules and loads no other game's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from commands.cli.matchfile import load, prepare_season, run
from commands.service.arbiter import Arbiter
from tests.support.host_key import SIGNER

SEED = Path(__file__).resolve().parents[2] / "seeds" / "kings_court-king-win.json"
PROBE = """
import json, sys
from commands.cli.main import cli
try:
    cli.main(["verify", sys.argv[1], "--json"], standalone_mode=False)
finally:
    print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


@pytest.fixture(scope="module")
def bundles(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bundles")
    app = Arbiter("sqlite:///:memory:", signer=SIGNER)
    file = load(SEED)
    prepare_season(app, file)
    assert run(app, file)[1] == []
    for kind in ("public", "full"):
        (folder / f"{kind}.jsonl").write_text("".join(app.bundle(file.match, kind)))
    app.close()
    return folder


def loaded(bundle: Path, tmp_path: Path) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, str(bundle)], capture_output=True,
                          text=True, cwd=Path(__file__).resolve().parents[2],
                          env={"ARBITER_KNOWN_KEYS": str(tmp_path / "known"),
                               "PATH": "/usr/bin:/bin"}, check=False)
    assert json.loads(done.stdout)["verified"] is True, done.stderr
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def roots(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_a_public_bundle_loads_no_rules_no_store_no_validation_library(bundles, tmp_path):
    modules = loaded(bundles / "public.jsonl", tmp_path)
    assert not roots(modules) & {"pydantic", "eventsourcing", "sqlalchemy", "psycopg",
                                  "fastapi", "starlette", "uvicorn", "jinja2", "rich"}
    assert not {m for m in modules if m.startswith(("domain.games", "domain.match",
                                                    "domain.season", "commands.service.",
                                                    "commands.store", "commands.web"))} - {
        "commands.service.keys"}  # where the key file lives: os and paths, nothing more
    cli = {m for m in modules if m.startswith("commands.cli.")}
    assert cli <= {"commands.cli.main", "commands.cli.console", "commands.cli.verify",
                   "commands.cli.audit", "commands.cli.render", "commands.cli.inputs",
                   "commands.cli.tiled"}


def test_a_full_bundle_loads_its_own_game_alone(bundles, tmp_path):
    modules = loaded(bundles / "full.jsonl", tmp_path)
    games = {m.split(".")[2] for m in modules if m.startswith("domain.games.")}
    assert games == {"kings_court"}
    assert "domain.season" not in modules
