"""A host's slips refused at every entry point, nothing recorded: a close typed twice (the
second would close the tie-break the first opened, or the next round), a stale close, a
deadline already past (a mistyped year). `now` says it means now."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from audit import keys
from commands.cli.main import cli
from commands.service.arbiter import Arbiter
from domain.decider import HOST
from domain.errors import RuleViolation
from tests.support.host_key import SIGNER
from tests.support.seed_until import first, played_until

SEED = Path(__file__).resolve().parents[1] / "seeds" / "kings_court-king-win.json"


def run(db: str, *args: str):
    return CliRunner().invoke(cli, ["--db", db, *args])


@pytest.fixture
def key_file(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "host.key"
    keys.save(SIGNER, path)
    monkeypatch.setenv("ARBITER_HOST_KEY", str(path))
    return path


def tied(app: Arbiter) -> tuple[str, int]:
    """The King's Court seed played up to its first tie: the close of the round's election
    tied, so the tie-break is open in the same round (docs/games/kings_court.md 5.3)."""
    file = played_until(app, first("tiebreak"))
    return file.match, app.match(file.match).round


def test_a_close_typed_twice_does_not_close_the_tiebreak_the_first_opened(sqlite_url, key_file):
    app = Arbiter(sqlite_url, signer=SIGNER)
    match, round = tied(app)
    before = app.match(match).version
    assert app.phase(match, round) == "election"  # what "close round N" means

    # The command line: the same line again, as after the first close.
    again = run(sqlite_url, "match", "close-round", match, "--round", str(round))
    assert again.exit_code == 2
    assert again.output.startswith(f"error: round_moved: round {round} of {match} has moved on "
                                   "from the election to the tie-break; nothing was recorded")
    # The Python API and so the HTTP API and the pages: aimed at the election, or a round ago.
    for aim in ({"expect_round": round, "expect_phase": "election"},
                {"expect_round": round - 1}):
        with pytest.raises(RuleViolation) as refused:
            app.submit(match, HOST, "close_tiebreak", **aim)
        assert refused.value.code == "round_moved"
    # Without --round the command line does not guess.
    assert "Missing option '--round'" in run(sqlite_url, "match", "close-round", match).output
    assert app.match(match).version == before

    # Naming the tie-break closes it, and only it: the King's default joins the court.
    closed = json.loads(run(sqlite_url, "match", "close-round", match, "--round", str(round),
                            "--phase", "tiebreak", "--json").output)
    assert closed["receipt"]["seq"] == before + 1
    assert app.match(match).version > before
    assert run(sqlite_url, "match", "close-round", match, "--round", str(round), "--phase",
               "tiebreak").output.startswith("error: round_moved: ")


def test_a_deadline_already_past_is_refused_and_now_means_now(sqlite_url, key_file):
    app = Arbiter(sqlite_url, signer=SIGNER)
    match, round = tied(app)
    before = app.match(match).version
    at = "2026-11-21T20:00:00+00:00"
    for typo in ("2020-01-01T00:00:00Z", "2026-11-21T19:59:59Z", "2026-11-21T20:00:00+01:00"):
        with pytest.raises(RuleViolation) as refused:
            app.submit(match, HOST, "set_deadline", {"deadline": typo}, at=at)
        assert refused.value.code == "deadline_past"
        assert f"would close round {round} at once" in refused.value.message
    with pytest.raises(RuleViolation) as refused:
        app.submit(match, HOST, "set_deadline", {"deadline": "2O26-11-22T20:00:00Z"}, at=at)
    assert refused.value.code == "invalid_deadline"
    typed = run(sqlite_url, "match", "deadline", match, "2020-01-01T00:00:00Z")
    assert typed.exit_code == 2 and typed.output.startswith("error: deadline_past: ")
    assert app.match(match).version == before

    later = app.submit(match, HOST, "set_deadline", {"deadline": "2026-11-22T20:00:00Z"}, at=at)
    assert later.told[-1]["data"] == {"round": round, "deadline": "2026-11-22T20:00:00Z"}
    now = app.submit(match, HOST, "set_deadline", {"deadline": "now"}, at=at,
                     command_id="form-1")
    assert now.told[-1]["data"] == {"round": round, "deadline": at}  # the instant it meant
    again = app.submit(match, HOST, "set_deadline", {"deadline": "now"},
                       at="2026-11-21T20:00:05+00:00", command_id="form-1")
    assert again.seqs == now.seqs  # a form sent twice is recorded once


def test_a_close_aimed_at_a_round_that_never_was_says_so_with_the_readers_codes(sqlite_url,
                                                                                 key_file):
    """Issue 24: a round error has one code wherever it is met. A close aimed at a round the
    match has not reached is not "over", and a negative round is no round: the same codes and
    words as `view` and `checkpoint` give them, nothing recorded."""
    app = Arbiter(sqlite_url, signer=SIGNER)
    match, round = tied(app)
    before = app.match(match).version
    ahead = round + 5
    closed = run(sqlite_url, "match", "close-round", match, "--round", str(ahead))
    assert closed.exit_code == 2
    assert closed.output.startswith(
        f"error: round_not_reached: round {ahead} of {match} has not been reached: the match "
        f"is in round {round}; nothing was recorded")
    viewed = run(sqlite_url, "view", match, "--round", str(ahead))
    assert viewed.output.startswith(f"error: round_not_reached: round {ahead} of {match} has "
                                    "not been reached")
    for command in (["match", "close-round", match], ["view", match], ["checkpoint", match]):
        negative = run(sqlite_url, *command, "--round", "-2")
        assert negative.exit_code == 2
        assert negative.output.startswith("error: invalid_round: round -2: rounds count from 0 "
                                          "(the setup)"), command
    with pytest.raises(RuleViolation) as refused:  # the Python API, the HTTP API, the pages
        app.submit(match, HOST, "close_round", expect_round=ahead)
    assert refused.value.code == "round_not_reached"
    assert app.match(match).version == before
