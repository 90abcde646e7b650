"""`arbiter verify` as an auditor runs it, a whole process per bundle: it loads only what the
bundle needs. A public bundle needs no rules, no validation library, no store; a full one
re-runs its own game's rules and loads no other game's.

The command runs as the console script runs it, printing text as well as JSON: a test that
only asked for JSON missed the text's title loading the season's audit, and with it the rules
and pydantic (the title told a season's audit from a match's by importing the season's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from commands.cli.matchfile import load, prepare_season, run
from commands.service.arbiter import Arbiter
from tests.support.host_key import SIGNER
from tests.support.loaded import NEVER, VALIDATION, Ran, ran

SEED = Path(__file__).resolve().parents[2] / "seeds" / "kings_court-king-win.json"
PRINTING = ["--json", None]  # JSON, then text


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


def verified(bundle: Path, printing: str | None, tmp_path: Path) -> Ran:
    done = ran(["verify", str(bundle), *([printing] if printing else [])], tmp_path,
               ARBITER_KNOWN_KEYS=str(tmp_path / "known"))
    assert done.code == 0, done.stderr
    if printing:
        assert json.loads(done.stdout)["verified"] is True
    else:  # the title names the game as people name it, and the last line says it held
        assert done.stdout.startswith(f"{bundle.stem} bundle of match kings-court-king-win: "
                                      "King's Court (rules version 1)")
        assert done.stdout.rstrip().endswith("verified")
    return done


@pytest.mark.parametrize("printing", PRINTING, ids=["json", "text"])
def test_a_public_bundle_loads_no_rules_no_store_no_validation_library(bundles, tmp_path,
                                                                        printing):
    done = verified(bundles / "public.jsonl", printing, tmp_path)
    assert not done.roots & {*NEVER, *VALIDATION, "eventsourcing", "sqlite3"}
    assert not done.games
    assert not done.under("domain.match", "domain.season", "domain.decider",
                          "audit.season_verify", "audit.season_bundle", "audit.rerun",
                          "commands.store", "commands.web", "projections.story")
    assert done.under("commands.service") <= {"commands.service", "commands.service.keys"}
    assert done.under("commands.cli") <= {
        "commands.cli", "commands.cli.main", "commands.cli.console", "commands.cli.verify",
        "commands.cli.audit", "commands.cli.render", "commands.cli.inputs",
        "commands.cli.tiled"}
    assert ("rich" in done.roots) == (printing is None)  # text is drawn with rich; JSON is not


@pytest.mark.parametrize("printing", PRINTING, ids=["json", "text"])
def test_a_full_bundle_loads_its_own_game_alone(bundles, tmp_path, printing):
    done = verified(bundles / "full.jsonl", printing, tmp_path)
    assert done.games == {"kings_court"}
    assert not done.roots & {*NEVER, "sqlite3"}
    assert not done.under("domain.season", "audit.season_verify", "audit.season_bundle",
                          "commands.store", "commands.web")
    # The re-run needs the rules, not the game's story, forms or picture.
    assert not done.under(*(f"domain.games.kings_court.{m}"
                            for m in ("story", "narration", "picture")))
