"""The seed matches played into one store for the page tests, and what no page may show a
viewer: the canaries of each match as of each round."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from markupsafe import escape

from commands.cli.matchfile import MatchFile, load, play
from commands.service.arbiter import Arbiter
from domain.decider import HOST
from domain.envelope import salt
from domain.match import Match, parse_salt_key
from domain.records import headline
from tests.support.host_key import SIGNER

SEEDS = sorted((Path(__file__).resolve().parents[2] / "seeds").glob("*.json"))
FILES = [load(path) for path in SEEDS]


def play_seeds(url: str) -> Arbiter:
    """Every seed match played into `url`, a key signing each round's checkpoint."""
    app = Arbiter(url, signer=SIGNER)
    for file in FILES:
        _, mismatches = play(app, file)
        assert not mismatches, mismatches
    return app


def last_round(match: Match) -> int:
    return match.records[-1]["entry"]["round"]


def records_to(match: Match, round: int | None) -> list[dict[str, Any]]:
    return [r for r in match.records if round is None or r["entry"]["round"] <= round]


def canaries(file: MatchFile, match: Match, viewer: str, round: int | None) -> list[str]:
    """What `viewer` may not know as of the end of `round`: the salt key, the host's seed
    until it is revealed, and the salt of every sealed part that is not theirs and that no
    public SealOpened has opened (a salt opens its commitment, whatever the value)."""
    records = records_to(match, round)
    kinds = [headline(r)["kind"] for r in records if r["entry"]["kind"] is not None]
    found = [file.salt_key]
    if "SeedRevealed" not in kinds:
        found.append(file.host_seed)
    opened = {headline(r)["data"]["seq"] for r in records
              if r["entry"]["kind"] == "SealOpened"}
    key = parse_salt_key(file.salt_key)
    for record in records:
        seq = record["entry"]["seq"]
        for i, part in enumerate(record["parts"]):
            mine = viewer == HOST or (isinstance(part["audience"], list)
                                      and viewer in part["audience"])
            if not mine and seq not in opened:
                found.append(salt(key, seq, i).hex())
    return found


def shows(page: str, line: str) -> bool:
    """A sentence of the story appears on the page, as the template escaped it."""
    return str(escape(line)) in page
