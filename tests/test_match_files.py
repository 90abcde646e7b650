"""Every seed match file plays to its hand-worked expectations, the same on both stores."""

from __future__ import annotations

from pathlib import Path

import pytest

from commands.app import Arbiter
from commands.matchfile import load, play

SEEDS = sorted((Path(__file__).resolve().parents[1] / "seeds").glob("*.json"))


def hashes(app: Arbiter, match_id: str) -> list[str]:
    return [r["entry"]["hash"] for r in app.match(match_id).records]


@pytest.mark.parametrize("path", SEEDS, ids=[p.stem for p in SEEDS])
def test_seed_file_meets_its_expectations(app, path):
    file = load(path)
    assert file.expect is not None, "a seed file must carry its expectations"
    outcome, mismatches = play(app, file)
    assert mismatches == []
    assert outcome["ended"]


@pytest.mark.postgres
@pytest.mark.parametrize("path", SEEDS, ids=[p.stem for p in SEEDS])
def test_same_file_same_hashes_on_sqlite_and_postgres(path, sqlite_url, pg_url):
    file = load(path)
    lite, pg = Arbiter(sqlite_url), Arbiter(pg_url)
    play(lite, file)
    play(pg, file)
    assert hashes(lite, file.match) == hashes(pg, file.match)
    again = Arbiter(sqlite_url.replace("arbiter.db", "again.db"))
    play(again, file)
    assert hashes(again, file.match) == hashes(lite, file.match)
