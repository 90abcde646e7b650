"""The command line: every command has --help; bad input exits 2 with one line."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from commands.cli import cli


def all_commands(group: click.Group, prefix=()):
    for name, command in group.commands.items():
        yield (*prefix, name)
        if isinstance(command, click.Group):
            yield from all_commands(command, (*prefix, name))


@pytest.mark.parametrize("path", list(all_commands(cli)), ids=" ".join)
def test_every_command_has_help(path):
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0
    assert "Usage:" in result.output


def run(db, *args):
    return CliRunner().invoke(cli, ["--db", db, *args])


def test_a_season_and_a_match_through_the_cli(sqlite_url):
    assert run(sqlite_url, "season", "create", "s").exit_code == 0
    assert run(sqlite_url, "season", "register", "s", "ann", "bob", "cy").exit_code == 0
    assert run(sqlite_url, "season", "grant", "s", "ann", "5", "--reason", "start").exit_code == 0
    created = run(sqlite_url, "match", "create", "m", "--season", "s", "--game", "sealed_bid",
                  "--players", "ann,bob,cy", "--setup", '{"rounds": 1}')
    assert created.exit_code == 0, created.output
    assert run(sqlite_url, "match", "host", "m", "open_match").exit_code == 0
    bid = run(sqlite_url, "match", "submit", "m", "bid", "amount=4", "--as", "bob", "--json")
    assert bid.exit_code == 0, bid.output
    receipt = json.loads(bid.output)["receipt"]
    assert receipt["match"] == "m" and len(receipt["hash"]) == 64
    assert run(sqlite_url, "match", "close-round", "m").exit_code == 0
    public = json.loads(run(sqlite_url, "view", "m", "--json").output)
    assert public["viewer"] == "public"
    assert "amount" not in json.dumps(public["events"])
    bob = json.loads(run(sqlite_url, "view", "m", "--player", "bob", "--json").output)
    assert any(e["kind"] == "BidPlaced" for e in bob["events"])
    standings = json.loads(run(sqlite_url, "season", "show", "s", "--json").output)
    assert all("garnets" not in row for row in standings["players"])


@pytest.mark.parametrize("args, code", [
    (["season", "grant", "nope", "ann", "5", "--reason", "x"], "unknown_season"),
    (["match", "submit", "nope", "vote", "--as", "ann"], "unknown_match"),
    (["match", "submit", "m", "vote", "candidate", "--as", "ann"], "invalid_input"),
    (["view", "nope"], "unknown_match"),
    (["play", "/dev/null"], "invalid_input"),
])
def test_bad_input_exits_2_with_one_line(sqlite_url, args, code):
    result = run(sqlite_url, *args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {code}"), result.output


def test_standings_keep_each_players_garnets_and_history_to_themselves(sqlite_url):
    run(sqlite_url, "season", "create", "s")
    run(sqlite_url, "season", "register", "s", "ann", "bob")
    run(sqlite_url, "season", "grant", "s", "ann", "4", "--reason", "won a bet")
    run(sqlite_url, "season", "grant", "s", "bob", "1", "--asset", "tol", "--reason", "prize")
    public = json.loads(run(sqlite_url, "season", "show", "s", "--json").output)
    assert [h["asset"] for h in public["history"] if "asset" in h] == ["tol"]
    ann = json.loads(run(sqlite_url, "season", "show", "s", "--player", "ann", "--json").output)
    assert [h["cause"] for h in ann["history"] if "cause" in h] == [{"grant": "won a bet"},
                                                                     {"grant": "prize"}]
    assert [row.get("garnets") for row in ann["players"]] == [4, None]
