"""Every command given input it cannot use: one line `error: CODE: message` on stderr and exit
code 2, within seconds, never a traceback, and nothing recorded."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

from audit import keys
from commands.cli.main import cli
from tests.support.host_key import SIGNER

UNREACHABLE = "postgresql://postgres@127.0.0.1:1/x"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A match `m` in round 1, a host key, and files good and bad, in a folder of their own."""
    folder = tmp_path_factory.mktemp("errors")
    keys.save(SIGNER, folder / "host.key")
    db = f"sqlite:///{folder}/arbiter.db"
    env = {"ARBITER_HOST_KEY": str(folder / "host.key")}
    for args in (["season", "create", "s"], ["season", "register", "s", "ann", "bob"],
                 ["match", "create", "m", "--season", "s", "--game", "sealed_bid",
                  "--players", "ann,bob"], ["match", "host", "m", "open_match"],
                 ["export", "m", "--public", "-o", str(folder / "m.jsonl")]):
        result = CliRunner(env=env).invoke(cli, ["--db", db, *args])
        assert result.exit_code == 0, result.output
    (folder / "not-json.txt").write_text("this is not JSON\n")
    (folder / "shape.json").write_text(json.dumps({"format": "arbiter-match/1"}))
    return {"db": db, "dir": folder, "env": env}


def run(store, *args, db=None):
    args = [a.format(dir=store["dir"]) for a in args]
    return CliRunner(env=store["env"]).invoke(cli, ["--db", db or store["db"], *args])


def one_line(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert "Traceback" not in result.output
    return lines[0].removeprefix("error: ").split(":", 1)[0]


UNKNOWN_MATCH = [
    ["view", "nope"],
    ["view", "nope", "--player", "ann", "--round", "1"],
    ["match", "submit", "nope", "bid", "amount=1", "--as", "ann"],
    ["match", "spend", "nope", "hint", "--as", "ann"],
    ["match", "close-round", "nope", "--round", "1"],
    ["match", "host", "nope", "open_match"],
    ["match", "deadline", "nope", "2030-01-01T00:00:00Z"],
    ["match", "correct", "nope", "--void", "3", "--reason", "typo"],
    ["match", "end", "nope", "--reason", "storm"],
    ["checkpoint", "nope"],
    ["export", "nope", "--public", "-o", "{dir}/nope.jsonl"],
    ["replay", "nope", "--round", "0"],
    ["diff", "nope", "--from", "0", "--to", "1"],
    ["tokens", "issue", "nope", "ann"],
    ["announce", "nope"],
]


@pytest.mark.parametrize("args", UNKNOWN_MATCH, ids=" ".join)
def test_an_unknown_match(store, args):
    assert one_line(run(store, *args)) == "unknown_match"


@pytest.mark.parametrize("args, code", [
    (["view", "m", "--round", "-1"], "invalid_round"),
    (["view", "m", "--round", "9"], "round_not_reached"),  # the match is in round 1
    (["view", "m", "--round", "two"], "invalid_usage"),
    (["announce", "m", "--round", "-1"], "invalid_round"),
    (["announce", "m", "--round", "9"], "round_not_reached"),
    (["checkpoint", "m", "--round", "9"], "round_not_reached"),  # as view says it
    (["checkpoint", "m", "--round", "1"], "round_not_closed"),  # reached, still open
    (["checkpoint", "m", "--round", "-1"], "invalid_round"),
    (["replay", "m", "--round", "9"], "round_not_reached"),
    (["replay", "m", "--round", "-1"], "invalid_round"),
    (["replay", "{dir}/m.jsonl", "--round", "9"], "round_not_reached"),
    (["diff", "m", "--from", "0", "--to", "9"], "round_not_reached"),
    (["view", "m", "--player", "zed"], "unknown_player"),
    (["replay", "{dir}/m.jsonl", "--round", "0", "--as", "zed"], "unknown_player"),
])
def test_a_round_or_a_viewer_the_match_does_not_have(store, args, code):
    assert one_line(run(store, *args)) == code


@pytest.mark.parametrize("args, code", [
    (["play", "{dir}/missing.json"], "no_file"),
    (["verify", "{dir}/missing.jsonl"], "no_file"),
    (["receipt", "verify", "{dir}/missing.json", "--bundle", "{dir}/m.jsonl"], "no_file"),
    (["bisect", "{dir}/m.jsonl", "{dir}/missing.jsonl"], "no_file"),
    (["replay", "{dir}/missing.jsonl", "--round", "0"], "no_file"),
    (["match", "create", "m2", "--season", "s", "--game", "sealed_bid", "--players", "ann,bob",
      "--setup", "@{dir}/missing.json"], "no_file"),
    (["play", "{dir}"], "invalid_usage"),  # a folder
    (["play", "{dir}/not-json.txt"], "invalid_file"),
    (["play", "{dir}/shape.json"], "invalid_file"),
    (["receipt", "verify", "{dir}/not-json.txt", "--bundle", "{dir}/m.jsonl"], "invalid_file"),
    (["match", "create", "m2", "--season", "s", "--game", "sealed_bid", "--players", "ann,bob",
      "--setup", "@{dir}/not-json.txt"], "invalid_file"),
    (["match", "create", "m2", "--season", "s", "--game", "sealed_bid", "--players", "ann,bob",
      "--setup", "{{rounds"], "invalid_setup"),
    (["match", "create", "m2", "--season", "s", "--game", "chess", "--players", "ann,bob"],
     "unknown_game"),
])
def test_a_missing_or_malformed_file(store, args, code):
    assert one_line(run(store, *args)) == code


@pytest.mark.parametrize("args, code", [
    (["nope"], "invalid_usage"),
    (["match", "submit", "m", "bid", "amount=1"], "invalid_usage"),  # no --as
    (["match", "submit", "m", "bid", "amount", "--as", "ann"], "invalid_input"),
    (["match", "submit", "m", "bid", "amount=12", "--as", "ann"], "invalid_bid"),
    (["match", "spend", "m", "bid", "amount=1", "--as", "ann"], "not_a_spend"),
    (["match", "correct", "m", "--reason", "x"], "invalid_correction"),
    (["export", "m", "-o", "{dir}/x.jsonl"], "invalid_input"),
    (["view", "m", "--host", "--player", "ann"], "invalid_input"),
    (["games", "chess"], "unknown_game"),
])
def test_bad_arguments(store, args, code):
    assert one_line(run(store, *args)) == code


@pytest.mark.parametrize("url, code", [
    ("mysql://x/y", "invalid_database_url"),
    ("postgresql://postgres@127.0.0.1:port/x", "invalid_database_url"),
    ("postgresql://postgres@127.0.0.1/x?connect_timeout=soon", "invalid_database_url"),
    ("sqlite:////no/such/folder/arbiter.db", "store_unreachable"),
])
def test_a_store_url_that_cannot_work(store, url, code):
    assert one_line(run(store, "view", "m", db=url)) == code


@pytest.mark.parametrize("args", [["view", "m"], ["match", "submit", "m", "bid", "amount=1",
                                                  "--as", "ann"]], ids=" ".join)
def test_an_unreachable_postgresql_is_one_line_within_seconds(store, args):
    start = time.monotonic()
    result = run(store, *args, db=UNREACHABLE)
    assert one_line(result) == "store_unreachable"
    assert "127.0.0.1:1" in result.output and "refused" in result.output
    assert time.monotonic() - start < 8  # the pool waits 4 s, then one direct try says why


def test_a_verify_of_a_file_that_is_no_bundle_is_its_answer_not_bad_input(store, tmp_path):
    result = run(store, "verify", "{dir}/not-json.txt")
    assert result.exit_code == 1 and result.output.startswith("FAILED not_a_bundle: this is "
                                                              "not an audit bundle")
    (tmp_path / "empty.jsonl").write_bytes(b"")
    empty = run(store, "verify", str(tmp_path / "empty.jsonl"))
    assert empty.exit_code == 1 and "not_a_bundle" in empty.output and "empty" in empty.output


def test_a_missing_argument_is_named(store, tmp_path):
    """King's Court declares vote's candidate required: left out, it is named, not read as
    "None is not a player"; nothing is recorded."""
    players = "ann,bob,cy,di,ed,flo,gus,hal,ivy,jo,kit"
    db = f"sqlite:///{tmp_path}/kc.db"
    for args in (["season", "create", "s"], ["season", "register", "s", *players.split(",")],
                 ["match", "create", "kc", "--season", "s", "--game", "kings_court",
                  "--players", players], ["match", "host", "kc", "open_match"]):
        assert run(store, *args, db=db).exit_code == 0
    before = json.loads(run(store, "view", "kc", "--host", "--json", db=db).stdout)["as_of"]
    result = run(store, "match", "submit", "kc", "--as", "bob", "vote", db=db)
    assert one_line(result) == "missing_argument"
    assert "vote needs candidate (a player outside the court, not yourself)" in result.output
    assert "None" not in result.output
    assert json.loads(run(store, "view", "kc", "--host", "--json", db=db).stdout)["as_of"] \
        == before


def test_nothing_was_recorded_by_any_of_it(store):
    view = json.loads(run(store, "view", "m", "--host", "--json").stdout)
    assert view["as_of"] == {"round": 0, "seq": 6}  # created (2), opened (4): nothing since
