"""The rulebook's worked example (docs/games/amalgamation.md, 10.1) reproduces as written: its
match file plays on a real store with the weak seed `example-seed`, and its Python lines give
the draws it states."""

from __future__ import annotations

import json
import re
from pathlib import Path

from commands.cli.matchfile import MatchFile, play
from commands.service.arbiter import Arbiter
from domain.records import headline
from domain.rng import seed_commitment
from tests.support.host_key import SIGNER

RULEBOOK = Path(__file__).resolve().parents[3] / "docs" / "games" / "amalgamation.md"


def blocks(language: str) -> list[str]:
    text = RULEBOOK.read_text()
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.DOTALL)


def public_facts(app: Arbiter, match_id: str, kind: str) -> list[dict]:
    return [
        headline(r)["data"]
        for r in app.match(match_id).records
        if r["entry"]["kind"] == kind and r["role"] == "fact"
    ]


def test_the_example_match_file_plays_the_stated_draws(sqlite_url):
    file = MatchFile.model_validate(json.loads(blocks("json")[0]))
    app = Arbiter(sqlite_url, signer=SIGNER)
    _, mismatches = play(app, file)
    assert mismatches == []
    genesis = app.match(file.match).records[0]["entry"]["public"]
    assert genesis["seed_commitment"] == (
        "cd139b161afd30dee3e1924f98dbae55ed2206c803f2a1dff5f4b6b62ce0d9f7"
    )
    assert genesis["weak_seed"] is True
    (closed,) = public_facts(app, file.match, "PregameClosed")
    assert closed["gamewide_tiebreak"] == ["p4", "p5", "p1", "p6", "p2", "p3"]
    assert closed["ma_initial_order"] == ["p4", "p5", "p1", "p6", "p2", "p3"]
    assert closed["teams"] == {"red": ["p2", "p3", "p4"], "white": ["p1", "p5", "p6"]}
    opened = public_facts(app, file.match, "RoundOpened")
    assert opened[0]["tiles"] == [-22, -8, -29, -15, -21]
    (chip_thief,) = public_facts(app, file.match, "ChipThiefRoundResolved")
    assert chip_thief["roles"] == {
        "p1": "police",
        "p2": "police",
        "p3": "police",
        "p4": "mafia",
        "p5": "cartel",
        "p6": "cartel",
    }
    # Two cartel outnumber one mafia: 2 chips each, the fifth is lost (no beggar).
    assert chip_thief["chips"] == {"p1": 0, "p2": 0, "p3": 0, "p4": 0, "p5": 2, "p6": 2}


def test_the_rulebooks_python_lines_give_the_stated_draws():
    (code,) = blocks("python")
    found: dict = {}
    exec(code, found)  # the reader's few lines, exactly as printed
    assert found["gt"] == ["p4", "p5", "p1", "p6", "p2", "p3"]
    assert found["rounds"][0] == [-22, -8, -29, -15, -21]
    assert found["rounds"][6] == [-18, -5, -33, -17, -35]
    assert found["roles"] == ["police", "police", "police", "mafia", "cartel", "cartel"]
    assert found["H"]("gt", "p1") == (
        0x5F584B129918E4E79129334FEF2369C3937692C54C172306A15908A5BE5B3792
    )
    assert seed_commitment("example-seed").startswith("cd139b16")
