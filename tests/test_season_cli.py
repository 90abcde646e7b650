"""The season commands: bulk registration and grants from files, DMOs, rulings, the season's
story as tables and JSON, its bundle, season files, and every player's token at once."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from audit import keys
from commands.cli.main import cli
from tests.support.host_key import SIGNER

SEEDS = Path(__file__).resolve().parents[1] / "seeds"


@pytest.fixture(autouse=True)
def host_key(tmp_path, monkeypatch):
    """The host's key file, where ARBITER_HOST_KEY points (a test may name another)."""
    path = tmp_path / "test-host.key"
    keys.save(SIGNER, path)
    monkeypatch.setenv("ARBITER_HOST_KEY", str(path))
    return path


def run(db, *args, env=None):
    return CliRunner().invoke(cli, ["--db", db, *args], env=env)


def ok(db, *args, env=None):
    result = run(db, *args, env=env)
    assert result.exit_code == 0, result.output
    return result


def test_players_and_grants_from_files_in_one_command_each(sqlite_url, tmp_path):
    ok(sqlite_url, "season", "create", "s")
    roster = tmp_path / "players.txt"
    roster.write_text("ann\nbob\n\ncy\n")
    ok(sqlite_url, "season", "register", "s", "--file", str(roster))
    listed = tmp_path / "more.json"
    listed.write_text('["dee", "eve"]')
    assert json.loads(ok(sqlite_url, "season", "register", "s", "--file", str(listed),
                         "--json").output)["registered"] == ["dee", "eve"]
    grants = tmp_path / "grants.csv"
    grants.write_text("player,amount,asset,reason\nann,5,,opening purse\nbob,2,tol,a prize\n"
                      "cy,3,,\n")
    ok(sqlite_url, "season", "grant", "s", "--file", str(grants), "--reason", "purse")
    shown = json.loads(ok(sqlite_url, "season", "show", "s", "--host", "--json").output)
    assert {r["player"]: (r["garnets"], r["tol"]) for r in shown["players"]} == {
        "ann": (5, 0), "bob": (0, 2), "cy": (3, 0), "dee": (0, 0), "eve": (0, 0)}
    reasons = [line["cause"]["grant"] for line in shown["history"] if "cause" in line]
    assert reasons == ["opening purse", "a prize", "purse"]
    # One bad line: nothing is granted.
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"player": "ann", "amount": 1, "reason": "x"},
                               {"player": "zed", "amount": 1, "reason": "x"}]))
    refused = run(sqlite_url, "season", "grant", "s", "--file", str(bad))
    assert (refused.exit_code, refused.output) == (2, "error: unknown_player: “zed” is not in "
                                                      "season s\n")
    assert json.loads(ok(sqlite_url, "season", "show", "s", "--player", "ann", "--json")
                      .output)["players"][0]["garnets"] == 5
    typo = tmp_path / "typo.csv"
    typo.write_text("player,amount\nann,five\n")
    assert run(sqlite_url, "season", "grant", "s", "--file", str(typo)).output.startswith(
        "error: invalid_file: ")


@pytest.mark.parametrize("args, code", [
    (["season", "create", "two words"], "invalid_season"),
    (["season", "register", "nope", "ann"], "unknown_season"),
    (["season", "register", "s"], "invalid_input"),
    (["season", "grant", "s"], "invalid_input"),
    (["season", "dmo", "s", "m", "ann", "--reason", "r"], "unknown_match"),
    (["season", "rule", "s", "ann", "--reason", "r"], "invalid_ruling"),
    (["season", "origin", "has space"], "invalid_origin"),
    (["season", "show", "s", "--player", "zed"], "unknown_player"),
    (["match", "create", "m", "--season", "s", "--game", "sealed_bid"], "invalid_input"),
    (["match", "create", "m", "--season", "s", "--game", "sealed_bid", "--from", "x"],
     "not_a_duel_game"),
    (["export", "--season", "s", "m", "--public", "-o", "-"], "invalid_input"),
])
def test_bad_input_exits_2_with_one_line(sqlite_url, args, code):
    ok(sqlite_url, "season", "create", "s")
    ok(sqlite_url, "season", "register", "s", "ann")
    result = run(sqlite_url, *args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {code}: "), result.output


def test_the_seed_season_played_shown_exported_and_verified(sqlite_url, tmp_path):
    key = tmp_path / "host.key"
    signer = keys.generate("host.example")
    keys.save(signer, key)
    env = {"ARBITER_HOST_KEY": str(key)}
    ok(sqlite_url, "season", "origin", "games.example.org", env=env)
    played = ok(sqlite_url, "season", "play", str(SEEDS / "seasons" / "spring.json"), env=env)
    assert "fin won it" in played.output
    text = ok(sqlite_url, "season", "show", "spring").output
    assert "runner-up" in text and "runner_up" not in text and "spring-dm-1" in text
    assert "garnets" not in text.split("matches")[0]  # public: no garnets
    assert "eliminated in spring-dm-2" in text
    assert "ruling: -1 ToL, reinstated (spends a Token of Life" in text
    # By rank, as the season page (tests/service/test_pages.py): fin won the Final, amy lost
    # it; ben, cal, dee and eve left together by the host's ruling (no Token of Life among
    # them: by name), after gil (the first Death Match). The history follows the same order.
    standings = text[text.index("standings"):text.index("matches")]
    assert re.findall(r"^(\w+) +(?:champion|runner-up|out)", standings, re.M) == \
        ["fin", "amy", "ben", "cal", "dee", "eve", "gil"]
    history = text[text.index("history"):]
    assert re.findall(r"^(\w+) +\d+ +registered", history, re.M) == \
        ["fin", "amy", "ben", "cal", "dee", "eve", "gil"]
    # The matches in the order the season played them.
    matches = text[text.index("matches"):text.index("history")]
    assert re.findall(r"^(spring-[\w-]+)", matches, re.M) == \
        ["spring-totems", "spring-dm-1", "spring-amalgamation", "spring-dm-2", "spring-final"]
    amy = json.loads(ok(sqlite_url, "season", "show", "spring", "--player", "amy", "--json")
                     .output)
    assert [r.get("garnets") for r in amy["players"]][:2] == [7, None]
    bundle = tmp_path / "spring.jsonl"
    ok(sqlite_url, "export", "--season", "spring", "--full", "-o", str(bundle), env=env)
    verified = ok(sqlite_url, "verify", str(bundle), "--key", signer.verifier_key())
    assert "full bundle of season spring (games.example.org/season/spring)" in verified.output
    assert verified.output.rstrip().endswith("verified")
    forged = bundle.read_text().replace('"amount":3,"asset":"garnets"',
                                        '"amount":30,"asset":"garnets"', 1)
    bundle.write_text(forged)
    failed = run(sqlite_url, "verify", str(bundle))
    assert failed.exit_code == 1 and failed.output.startswith("FAILED ")


def test_every_players_token_at_once(sqlite_url):
    ok(sqlite_url, "season", "create", "s")
    ok(sqlite_url, "season", "register", "s", "ann", "bob")
    ok(sqlite_url, "match", "create", "m", "--season", "s", "--game", "sealed_bid",
       "--players", "ann,bob")
    rows = json.loads(ok(sqlite_url, "tokens", "issue-all", "m", "--url",
                         "https://games.example.org", "--json").output)
    assert [r["player"] for r in rows] == ["ann", "bob"]
    code = rows[0]["link"].removeprefix("https://games.example.org/m/m/join#")
    assert len(code) == 43 and code != rows[0]["token"]  # a join code, not the API token
    assert len({r["token"] for r in rows}) == 2
    text = ok(sqlite_url, "tokens", "issue-all", "m").output
    lines = [line.split() for line in text.splitlines()]
    assert [(words[0], len(words)) for words in lines] == [("ann", 3), ("bob", 3)]
    assert lines[1][2].startswith("http://127.0.0.1:8000/m/m/join#")  # whole, to copy
    assert len(lines[1][2].partition("#")[2]) == 43
    assert rows[1]["token"] != lines[1][1]  # issued again: the new one replaced it


def test_a_negative_grant_is_written_plainly_and_a_huge_one_refused(sqlite_url):
    from commands.service.arbiter import Arbiter

    ok(sqlite_url, "season", "create", "s")
    ok(sqlite_url, "season", "register", "s", "ann")
    ok(sqlite_url, "season", "grant", "s", "ann", "5", "--reason", "purse")
    ok(sqlite_url, "season", "grant", "s", "ann", "-3", "--reason", "a fine")
    ok(sqlite_url, "season", "grant", "s", "ann", "--reason", "another", "-1")
    version = Arbiter(sqlite_url).season("s").version
    refused = run(sqlite_url, "season", "grant", "s", "ann", "99999999999999999999",
                  "--reason", "x")
    assert refused.exit_code == 2
    lines = refused.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: invalid_amount"), refused.output
    assert run(sqlite_url, "season", "grant", "s", "ann", "-2", "--reasn", "x").exit_code == 2
    app = Arbiter(sqlite_url)
    assert app.season("s").version == version
    assert app.season("s").balances["ann"]["garnets"] == 5 - 3 - 1
