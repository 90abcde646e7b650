"""The command line: every command has --help and a whole short help, every command that prints
has --json, text is plain in a pipe, lists are written a,b, the host's key comes first."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from audit import keys
from commands.cli.main import cli
from domain.decider import HOST, Arg, CommandSpec, to_player
from domain.errors import RuleViolation
from tests.support import sealed_bid
from tests.support.host_key import SIGNER

# Commands that print nothing to read: the server, and the projection loop until stopped.
SILENT = {("serve",), ("projections", "run"), ("witness", "serve")}


def all_commands(group: click.Group, prefix=()):
    """Every command, as `--help` lists them: the main group imports a command's module only
    when asked (commands.cli.main.MODULES), so its own `commands` starts empty."""
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        assert command is not None, name
        yield (*prefix, name), command
        if isinstance(command, click.Group):
            yield from all_commands(command, (*prefix, name))


COMMANDS = list(all_commands(cli))
LEAVES = [(path, command) for path, command in COMMANDS if not isinstance(command, click.Group)]


def test_every_module_of_the_command_line_is_listed():
    """Else the tests below would run on nothing, and pass."""
    from commands.cli.main import MODULES

    listed = {path[0] for path, _ in COMMANDS}
    assert listed == {name for names in MODULES.values() for name in names}


@pytest.mark.parametrize("path", [path for path, _ in COMMANDS], ids=" ".join)
def test_every_command_has_help(path):
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0
    assert "Usage:" in result.output


@pytest.mark.parametrize("path, command", COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_every_short_help_is_a_whole_sentence(path, command):
    """Click cuts a long first sentence with "..." (and at "e.g." it cut one short)."""
    short = command.get_short_help_str(limit=55)
    assert short and not short.endswith("...") and "e.g" not in short, short
    assert short.endswith(".") and len(short) <= 55, short


@pytest.mark.parametrize("path, command", [(p, c) for p, c in LEAVES if p not in SILENT],
                         ids=[" ".join(p) for p, c in LEAVES if p not in SILENT])
def test_every_command_that_prints_has_json(path, command):
    assert any(param.name == "as_json" for param in command.params), " ".join(path)


def run(db, *args):
    return CliRunner().invoke(cli, ["--db", db, *args])


def ok(result) -> str:
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture
def host_key(tmp_path, monkeypatch):
    """The host's key file, where ARBITER_HOST_KEY points."""
    path = tmp_path / "host.key"
    keys.save(SIGNER, path)
    monkeypatch.setenv("ARBITER_HOST_KEY", str(path))
    return path


@pytest.fixture
def no_key(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ARBITER_HOST_KEY", raising=False)


def season(db, players=("ann", "bob", "cy")):
    ok(run(db, "season", "create", "s"))
    ok(run(db, "season", "register", "s", *players))


def new_match(db, *extra, rounds=2):
    season(db)
    ok(run(db, "match", "create", "m", "--season", "s", "--game", "sealed_bid", "--players",
           "ann,bob,cy", "--setup", json.dumps({"rounds": rounds}), *extra))
    ok(run(db, "match", "host", "m", "open_match"))


def test_a_season_and_a_match_through_the_cli(sqlite_url, host_key):
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
    assert run(sqlite_url, "match", "close-round", "m", "--round", "1").exit_code == 0
    public = json.loads(run(sqlite_url, "view", "m", "--json").stdout)
    assert public["viewer"] == "public"
    assert "amount" not in json.dumps(public["events"])
    bob = json.loads(run(sqlite_url, "view", "m", "--player", "bob", "--json").stdout)
    assert any(e["kind"] == "BidPlaced" for e in bob["events"])
    standings = json.loads(run(sqlite_url, "season", "show", "s", "--json").output)
    assert all("garnets" not in row for row in standings["players"])


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


# -- the host's key first -------------------------------------------------------------------

def test_without_a_key_a_match_is_created_only_unsigned(sqlite_url, no_key):
    season(sqlite_url)
    refused = run(sqlite_url, "match", "create", "m", "--season", "s", "--game", "sealed_bid",
                  "--players", "ann,bob,cy")
    assert refused.exit_code == 2
    assert refused.output.startswith("error: no_host_key: ") and "arbiter init" in refused.output
    assert "unknown_match" in run(sqlite_url, "view", "m").output  # nothing was saved
    created = json.loads(ok(run(sqlite_url, "match", "create", "m", "--season", "s", "--game",
                                "sealed_bid", "--players", "ann,bob,cy", "--unsigned",
                                "--json")))
    assert created["unsigned"] is True and created["host_key"] is None
    ok(run(sqlite_url, "match", "host", "m", "open_match"))
    ok(run(sqlite_url, "match", "close-round", "m", "--round", "1"))  # closes unsigned
    bundle = Path("m.jsonl")
    ok(run(sqlite_url, "export", "m", "--full", "-o", str(bundle)))
    assert json.loads(bundle.read_text().splitlines()[0])["header"]["unsigned"] is True
    report = ok(run(sqlite_url, "verify", str(bundle)))
    assert "created this match unsigned" in report and report.strip().endswith("verified")
    assert json.loads(ok(run(sqlite_url, "verify", str(bundle), "--json")))["unsigned"] is True


def test_a_signed_match_does_not_close_its_round_once_the_key_is_gone(sqlite_url, host_key,
                                                                       monkeypatch):
    new_match(sqlite_url)
    monkeypatch.setenv("ARBITER_HOST_KEY", "")
    monkeypatch.chdir(host_key.parent)
    host_key.rename(host_key.with_suffix(".away"))
    refused = run(sqlite_url, "match", "close-round", "m", "--round", "1")
    assert refused.exit_code == 2 and refused.output.startswith("error: no_host_key: ")
    before = json.loads(ok(run(sqlite_url, "view", "m", "--json")))["as_of"]
    host_key.with_suffix(".away").rename(host_key)
    monkeypatch.setenv("ARBITER_HOST_KEY", str(host_key))
    ok(run(sqlite_url, "match", "close-round", "m", "--round", "1"))
    after = json.loads(ok(run(sqlite_url, "view", "m", "--json")))["as_of"]
    # created (2 entries), opened (command, MatchOpened, SecretDrawn, RoundOpened); then the
    # close: its command, RoundClosed, RoundOpened (nobody had garnets to lose).
    assert (before, after) == ({"round": 0, "seq": 6}, {"round": 1, "seq": 9})


# -- output ---------------------------------------------------------------------------------

def test_text_is_plain_in_a_pipe_and_the_view_header_agrees_with_the_summary(sqlite_url,
                                                                             host_key):
    new_match(sqlite_url)
    ok(run(sqlite_url, "match", "submit", "m", "bid", "amount=4", "--as", "bob"))
    ok(run(sqlite_url, "match", "close-round", "m", "--round", "1"))  # round 2 is open now
    for args in (["view", "m"], ["view", "m", "--round", "1", "--host"], ["games"],
                 ["match", "submit", "m", "bid", "amount=2", "--as", "cy"]):
        text = ok(run(sqlite_url, *args))
        assert "\x1b[" not in text and "{" not in text, text  # no colour, no JSON dumped
    now = ok(run(sqlite_url, "view", "m")).splitlines()[0]
    assert now.startswith("Sealed Bid, match m, as the public sees it now: round 2 is open (")
    then = ok(run(sqlite_url, "view", "m", "--round", "1")).splitlines()[0]
    # 2 created, 4 opened, 2 bob's bid, 3 closed (command, RoundClosed, RoundOpened)
    assert then == "Sealed Bid, match m, as the public saw it at the end of round 1 (11 entries)"
    so_far = ok(run(sqlite_url, "view", "m", "--round", "2")).splitlines()[0]
    assert "sees round 2 so far: it is still open" in so_far


def test_a_receipt_saved_with_the_submission_verifies(sqlite_url, host_key, tmp_path):
    new_match(sqlite_url)
    receipt = tmp_path / "bob-bid.json"
    said = run(sqlite_url, "match", "submit", "m", "bid", "amount=4", "--as", "bob",
               "--receipt", str(receipt))
    assert said.exit_code == 0 and f"receipt saved to {receipt}" in said.stderr
    saved = json.loads(receipt.read_text())
    assert saved["match"] == "m" and saved["parts"]["0"]["data"]["args"] == {"amount": 4}
    ok(run(sqlite_url, "match", "close-round", "m", "--round", "1"))
    bundle = tmp_path / "m.jsonl"
    ok(run(sqlite_url, "export", "m", "--public", "-o", str(bundle)))
    checked = ok(run(sqlite_url, "receipt", "verify", str(receipt), "--bundle", str(bundle)))
    # created (2 entries), opened (4): bob's bid is entry 7, under round 1's checkpoint
    assert checked.startswith("bob's bid of 4 chips, entry #7, is in the log under the "
                              "checkpoint of round 1.")
    assert "{" not in checked


# -- list arguments -------------------------------------------------------------------------

RULES = sealed_bid.decide


def pick(state, command):
    """A command the rules take only with a list of players."""
    if command.name != "pick":
        return RULES(state, command)
    targets = command.args.get("targets")
    if not isinstance(targets, list) or not all(t in state.players for t in targets):
        raise RuleViolation("invalid_targets", "targets: a list of players")
    return [to_player(command.actor, "Picked", actor=command.actor, targets=targets,
                      note=command.args.get("note"))]


@pytest.fixture
def picking(monkeypatch, sqlite_url, host_key):
    monkeypatch.setattr(sealed_bid, "decide", pick)
    new_match(sqlite_url)


def picked(db, *pairs) -> dict:
    told = json.loads(ok(run(db, "match", "submit", "m", "pick", *pairs, "--as", "bob",
                             "--json")))["told"]
    return next(e["data"] for e in told if e["kind"] == "Picked")


def test_without_a_spec_a_comma_text_is_sent_as_a_list_only_when_refused(sqlite_url, picking):
    assert picked(sqlite_url, "targets=ann,cy")["targets"] == ["ann", "cy"]
    assert picked(sqlite_url, 'targets=["cy"]', "note=hi, there")["note"] == "hi, there"
    refused = run(sqlite_url, "match", "submit", "m", "pick", "targets=ann,zed", "--as", "bob")
    assert refused.output.strip() == "error: invalid_targets: targets: a list of players"
    assert json.loads(ok(run(sqlite_url, "view", "m", "--player", "bob", "--json"))
                      )["as_of"]["seq"] == 10  # two picks of two entries after the opening


def test_a_spec_reads_each_argument_by_its_kind(sqlite_url, picking, monkeypatch):
    spec = {"pick": CommandSpec("player", {"targets": Arg("list", items="player"),
                                           "note": Arg("text", required=False)},
                                "Pick players"),
            "bid": CommandSpec("player", {"amount": Arg("int")}, "Bid 0 to 9"),
            "close_round": CommandSpec(HOST, {}, "Close the round")}
    monkeypatch.setattr(sealed_bid, "COMMANDS", spec, raising=False)
    assert picked(sqlite_url, "targets=ann", "note=3") == {"targets": ["ann"], "note": "3"}
    assert picked(sqlite_url, "targets=ann, cy", 'note="quoted"')["note"] == "quoted"
    helped = ok(run(sqlite_url, "match", "submit", "m", "--help"))
    assert "pick targets=PLAYER,... [note=TEXT]" in helped and "Pick players" in helped
    assert "close_round" not in helped
    assert "close_round" in ok(run(sqlite_url, "match", "host", "m", "--help"))
    listed = json.loads(ok(run(sqlite_url, "games", "sealed_bid", "--json")))["games"][0]
    assert listed["commands"]["pick"]["args"]["targets"]["kind"] == "list"


def test_help_of_a_match_command_still_helps_when_the_match_is_unknown(tmp_path):
    url = f"sqlite:///{tmp_path}/none.db"
    helped = run(url, "match", "submit", "nope", "--help")
    assert helped.exit_code == 0 and "Usage:" in helped.output


def test_a_report_keeps_a_key_and_a_hash_whole_at_80_columns(sqlite_url, tmp_path, monkeypatch):
    """Issue 24: no word cut across lines at 80 columns. A verifier key as `arbiter init`
    names it (arbiter- and 12 hex digits: 20 + 1 + 8 + 1 + 44 = 74 characters) and a seed
    commitment (64 hex digits) do not fit beside a report's names (`seed commitment` and two
    spaces leave 63 columns): each goes under its name, whole; the other lines stay aligned."""
    signer = keys.generate("arbiter-0123456789ab")
    key = tmp_path / "host.key"
    keys.save(signer, key)
    assert len(signer.verifier_key()) == 74
    monkeypatch.setenv("ARBITER_HOST_KEY", str(key))
    monkeypatch.setenv("ARBITER_KNOWN_KEYS", str(tmp_path / "known"))
    monkeypatch.setenv("COLUMNS", "80")
    season(sqlite_url)
    created = ok(run(sqlite_url, "match", "create", "m", "--season", "s", "--game",
                     "sealed_bid", "--players", "ann,bob,cy", "--setup", '{"rounds": 1}'))
    lines = [line.rstrip() for line in created.splitlines()]
    assert all(len(line) <= 80 for line in lines), created
    assert "players          ann, bob, cy" in lines  # the names' column as wide as before
    at = lines.index("seed commitment")
    assert re.fullmatch(r"  [0-9a-f]{64}", lines[at + 1]), created
    assert f"  {signer.verifier_key()}" in lines, created
    ok(run(sqlite_url, "match", "host", "m", "open_match"))
    bundle = tmp_path / "m.jsonl"
    ok(run(sqlite_url, "export", "m", "--public", "-o", str(bundle)))
    verified = ok(run(sqlite_url, "verify", str(bundle)))
    lines = [line.rstrip() for line in verified.splitlines()]
    assert all(len(line) <= 80 for line in lines), verified
    assert lines[lines.index("signed by") + 1] == f"  {signer.verifier_key()}", verified
    assert lines[-1] == "verified" and any(line.startswith("entries      ") for line in lines)
