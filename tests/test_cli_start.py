"""A newcomer's first hour: `arbiter init`, `arbiter demo` (twice), the README's walk through a
first match, and a command line that starts without the HTTP stack."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
from hashlib import sha256
from pathlib import Path

import pytest
from click.testing import CliRunner

from audit.notes import parse_verifier_key
from commands.cli.main import cli
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens
from tests.support.words_check import offences

ROOT = Path(__file__).resolve().parents[1]
SMALL_SEED = ROOT / "seeds" / "totemic_might-garnet-tiebreak.json"


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A fresh folder as the working directory, with no store or key settings."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ARBITER_HOST_KEY", raising=False)
    monkeypatch.delenv("ARBITER_DATABASE_URL", raising=False)
    return tmp_path


def arbiter(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result


def test_init_makes_the_store_the_key_and_the_token_and_then_keeps_them(here):
    first = json.loads(arbiter("init", "--json").stdout)
    key = here / "arbiter-host.key"
    assert first["store"]["created"] and first["key"]["created"]
    assert first["key"]["file"] == "arbiter-host.key" and (here / "arbiter.db").exists()
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    vkey = first["key"]["verifier_key"]
    made = parse_verifier_key(vkey)  # named after itself: no other host's key has its name
    assert made.name == f"arbiter-{sha256(made.public_key).hexdigest()[:12]}"
    assert first["origin"] == {"prefix": made.name, "chosen": True}  # the key's name
    token = first["host_token"]["token"]
    app = Arbiter("sqlite:///arbiter.db")
    assert Tokens(app).is_host(token)
    app.close()
    again = arbiter("init")
    assert "kept" in again.stdout and token not in again.stdout and vkey in again.stdout
    second = json.loads(arbiter("init", "--json").stdout)
    assert second["key"] == {**first["key"], "created": False}
    assert second["host_token"] == {"created": False, "token": None}
    assert arbiter("keys", "show").stdout.strip() == vkey


def test_init_puts_the_key_where_ARBITER_HOST_KEY_says(here, monkeypatch):
    monkeypatch.setenv("ARBITER_HOST_KEY", str(here / "keys" / "spring.key"))
    (here / "keys").mkdir()
    made = json.loads(arbiter("init", "--name", "host.example", "--json").stdout)
    assert made["key"]["file"] == str(here / "keys" / "spring.key")
    assert made["key"]["verifier_key"].startswith("host.example+")
    assert not (here / "arbiter-host.key").exists()


def test_two_hosts_following_the_readme_never_share_an_origin(here, monkeypatch):
    """Each host's `init` names its key and its logs after the key itself: an auditor who
    verified the first host's kc-1 verifies the second's too (no false `key_changed`), and a
    host who prefers their domain sets it before their seasons."""
    bundles, origins = [], []
    for host in ("first", "second"):
        (here / host).mkdir()
        monkeypatch.chdir(here / host)
        made = json.loads(arbiter("init", "--json").stdout)
        origins.append(made["origin"]["prefix"])
        for line in (["season", "create", "autumn"],
                     ["season", "register", "autumn", "alice", "bob", "carol"],
                     ["match", "create", "kc-1", "--season", "autumn", "--game", "sealed_bid",
                      "--players", "alice,bob,carol"],
                     ["match", "host", "kc-1", "open_match"],
                     ["match", "close-round", "kc-1", "--round", "1"],
                     ["export", "kc-1", "--public", "-o", "kc-1.jsonl"]):
            arbiter(*line)
        bundles.append(here / host / "kc-1.jsonl")
    assert origins[0] != origins[1] and all(o.startswith("arbiter-") for o in origins)
    for bundle, prefix in zip(bundles, origins, strict=True):
        assert f"{prefix}/match/kc-1" in arbiter("verify", str(bundle)).stdout
    # The first host's domain, for the seasons to come; autumn keeps its origin.
    monkeypatch.chdir(here / "first")
    arbiter("season", "origin", "games.example.org")
    assert "games.example.org/season/winter" in arbiter("season", "create", "winter").stdout
    assert json.loads(arbiter("season", "show", "autumn", "--json").stdout)["origin"] == \
        f"{origins[0]}/season/autumn"
    refused = CliRunner().invoke(cli, ["season", "origin", "other.example.org"])
    assert refused.exit_code == 2 and "origin_set" in refused.output  # the host's: set once


def test_the_demo_plays_into_the_users_store_with_the_init_key_and_runs_again(here):
    seeds = here / "seeds-small"
    seeds.mkdir()
    shutil.copy(SMALL_SEED, seeds)
    first = arbiter("demo", "--seeds", str(seeds)).stdout
    assert "created as arbiter init makes it" in first
    assert "full bundle verified offline" in first and "1 matches, 1 as expected" in first
    assert "arbiter view totemic-might-garnet-tiebreak" in first  # the next steps
    assert "8000/m/totemic-might-garnet-tiebreak" in first  # its page, once served
    assert (here / "arbiter.db").exists() and (here / "arbiter-host.key").exists()
    vkey = arbiter("keys", "show").stdout.strip()
    assert vkey in first
    again = json.loads(arbiter("demo", "--seeds", str(seeds), "--json").stdout)
    assert again["key_created"] is False and again["verifier_key"] == vkey
    (played,) = again["matches"]
    assert played["played_before"] and played["mismatches"] == []
    assert played["audit"]["verified"] and played["audit"]["checkpoints"] > 0
    shown = json.loads(arbiter("view", "totemic-might-garnet-tiebreak", "--json").stdout)
    assert shown["as_of"]["seq"] == played["audit"]["entries"]  # the store the user goes on with


SERVING = {"fastapi", "uvicorn", "starlette", "sse_starlette", "jinja2", "multipart",
           "psycopg", "psycopg_pool", "rich"}


def test_a_command_that_does_not_serve_loads_no_http_stack(here, sqlite_url):
    """Nor PostgreSQL's driver for an SQLite store, nor rich for --json; and the command line
    itself, its help and its usage errors load no package but click (no pydantic, no event
    store, no cipher)."""
    arbiter("init")
    arbiter("--db", sqlite_url, "play", str(SMALL_SEED))
    match = "totemic-might-garnet-tiebreak"
    arbiter("--db", sqlite_url, "export", match, "--public", "-o", "m.jsonl")
    probe = """
import json, sys
before = set(sys.modules)
from commands.cli.main import cli
def loaded():
    names = {m.split(".")[0] for m in set(sys.modules) - before}
    return sorted(names - set(sys.stdlib_module_names))
found = {"import": loaded()}
for args in json.loads(sys.argv[1]):
    sys.stdout = open("/dev/null", "w")
    try:
        cli.main(args, standalone_mode=False)
    except SystemExit:  # a refusal is an answer too
        pass
    sys.stdout = sys.__stdout__
    found[" ".join(args[2:])] = loaded()
print(json.dumps(found))
"""
    runs = [["--db", sqlite_url, *args] for args in (
        ["--help"], ["view"], ["view", match, "--json"], ["match", "submit", match, "wager",
                                                         "--as", "amy", "--json"],
        ["verify", "m.jsonl", "--json"], ["games", "--json"], ["announce", match, "--json"])]
    done = subprocess.run([sys.executable, "-c", probe, json.dumps(runs)], cwd=here,
                          capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    found = json.loads(done.stdout)  # what each run loaded, and those before it
    starting = [found.pop(run) for run in ("import", "--help", "view")]  # "view": no MATCH
    assert all(set(names) <= {"click", "commands", "domain", "audit", "projections"}
               for names in starting), \
        done.stdout
    assert all(not set(names) & SERVING for names in found.values()), done.stdout


def test_a_view_loads_the_game_its_match_names_and_no_other(here, sqlite_url):
    """`view`, `announce` and `checkpoint` of a Totemic Might match, from the view tables
    and without them, import that game's package and no other game's, and no pydantic plugin
    is looked for (it would read every installed package's metadata)."""
    arbiter("init")
    arbiter("--db", sqlite_url, "play", str(SMALL_SEED))
    match = "totemic-might-garnet-tiebreak"
    probe = """
import json, sys
from commands.cli.main import cli
from domain.games import game_ids
games = {f"domain.games.{game}" for game in game_ids()}
found = {}
for args in json.loads(sys.argv[1]):
    before = set(sys.modules)
    sys.stdout = open("/dev/null", "w")
    cli.main(args, standalone_mode=False)
    sys.stdout = sys.__stdout__
    found[" ".join(args[2:])] = sorted(games & set(sys.modules) - before)
print(json.dumps({**found, "plugins": sys.modules["pydantic.plugin._loader"]._plugins}))
"""
    runs = [["--db", sqlite_url, *args] for args in (
        ["view", match, "--json"], ["projections", "rebuild"], ["view", match, "--round", "1"],
        ["announce", match, "--json"], ["checkpoint", match])]
    done = subprocess.run([sys.executable, "-c", probe, json.dumps(runs)], cwd=here,
                          capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    found = json.loads(done.stdout)
    assert found.pop(f"view {match} --json") == ["domain.games.totemic_might"], done.stdout
    assert found.pop("projections rebuild") == []  # loaded already: nothing new
    assert found.pop("plugins") is None  # never looked for
    assert all(games == [] for games in found.values()), done.stdout


FIRST_HOUR = re.compile(r"<!-- first-hour -->\n```sh\n(.*?)```\n<!-- /first-hour -->", re.S)


def test_the_readmes_first_hour_is_true_after_the_demo(here):
    """In the README's order: the demo plays into ./arbiter.db, then the first hour goes on in
    the same folder (its season and matches must not collide with the demo's)."""
    demo = CliRunner().invoke(cli, ["demo"])
    assert demo.exit_code == 0, demo.output
    # What a new host reads first is in words (tests/support/words_check.py); the seed files'
    # names are typed as they are.
    assert offences(re.sub(r"(?m)^== \S+", "", demo.output)) == []
    block = FIRST_HOUR.search((ROOT / "README.md").read_text()).group(1)
    lines = [line for line in block.splitlines() if line.startswith("arbiter ")]
    assert len(lines) >= 15
    for line in lines:
        words = shlex.split(line.split("  #")[0])
        result = CliRunner().invoke(cli, words[1:])
        assert result.exit_code == 0, f"{line}\n{result.output}"
        if words[1] not in ("init", "keys", "tokens"):  # keys and tokens print to be copied
            told = re.sub(r"(?m)^next: .*$", "", result.output)  # a command, to type
            assert offences(told) == [], (line, result.output)
    assert json.loads(Path("bob-vote.json").read_text())["match"] == "kc-1"
