"""Every seed match file plays to its hand-worked expectations, the same on both stores."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit import keys
from audit.bundle import FULL, PUBLIC, export
from audit.verify import verify
from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from tests.support.host_key import SIGNER

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
    lite, pg = Arbiter(sqlite_url, signer=SIGNER), Arbiter(pg_url, signer=SIGNER)
    play(lite, file)
    play(pg, file)
    assert hashes(lite, file.match) == hashes(pg, file.match)
    again = Arbiter(sqlite_url.replace("arbiter.db", "again.db"), signer=SIGNER)
    play(again, file)
    assert hashes(again, file.match) == hashes(lite, file.match)


@pytest.mark.parametrize("path", SEEDS, ids=[p.stem for p in SEEDS])
def test_every_seed_match_verifies_offline_public_and_full(path, sqlite_url):
    """The audit re-runs every command of every game through its rules, hash by hash."""
    signer = keys.generate("seed-host")
    app = Arbiter(sqlite_url, signer=signer)
    file = load(path)
    play(app, file)
    notes = [n["note"] for n in app.checkpoints(file.match).notes]
    for kind in (PUBLIC, FULL):
        bundle = "".join(export(app.match(file.match), notes, kind, signer.verifier_key()))
        audit = verify(line.encode() + b"\n" for line in bundle.splitlines())
        assert audit.entries == app.match(file.match).version
        assert audit.ended


OPENED_AT_THE_END = {"tile_joust": "OrderingsRecorded", "totemic_might": "SecretSetupRecorded",
                     "kings_court": "GameRolesDrawn"}


def test_a_reveal_at_the_end_opens_what_was_committed_at_the_start(sqlite_url):
    app = Arbiter(sqlite_url, signer=SIGNER)
    for path in SEEDS:
        file = load(path)
        if file.game not in OPENED_AT_THE_END:
            continue
        play(app, file)
        records = app.match(file.match).records
        opened = [r["entry"]["public"] for r in records if r["entry"]["kind"] == "SealOpened"]
        assert [o["part"]["kind"] for o in opened] == [OPENED_AT_THE_END[file.game]]


def test_king_court_opens_the_last_games_roles_never_an_early_kings_game_nor_the_lists(
        sqlite_url):
    app = Arbiter(sqlite_url, signer=SIGNER)
    file = load(Path(__file__).resolve().parents[1] / "seeds" / "kings_court-team-win.json")
    play(app, file)
    records = app.match(file.match).records
    drawn = [r for r in records if r["parts"] and r["parts"][0]["kind"] == "GameRolesDrawn"]
    assert [r["parts"][0]["data"]["game"] for r in drawn] == [1, 2]  # an early end, then game 2
    (opened,) = [r["entry"]["public"] for r in records if r["entry"]["kind"] == "SealOpened"]
    assert opened["seq"] == drawn[1]["entry"]["seq"]
    assert set(opened["part"]["data"]) == {"game", "roles", "annoyed_duke", "annoyed_noble"}
