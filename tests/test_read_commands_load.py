"""The commands that read a match (`view`, `checkpoint`, `receipt verify`) load only what they
use, each run as a person runs it, in a process of its own (docs/architecture.md, "What a
command loads"). A view the view tables hold is read with neither the event-sourcing library,
nor the validation library, nor the rules: its game's summary alone; a checkpoint they hold,
with no game at all. Where the tables do not hold the match, the log is read: the rules of its
own game, no other's. On PostgreSQL the same, with its driver: a read prints there what it
prints on SQLite, byte for byte."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from urllib.parse import urlparse

import psycopg
import pytest
from click.testing import CliRunner

from commands.cli.main import cli
from commands.cli.matchfile import load
from commands.service.arbiter import Arbiter
from domain.decider import HOST, PUBLIC
from projections.views import view
from tests.support.host_key import SIGNER
from tests.support.loaded import NEVER, VALIDATION, ran
from tests.support.seed_receipt import played_keeping_a_receipt

SEED = Path(__file__).resolve().parents[1] / "seeds" / "kings_court-king-win.json"
FILE = load(SEED)
MATCH = FILE.match
# The modules of King's Court that only its rules need: a view from the tables folds with its
# summary (and tells its story, in text) without them.
RULES = [f"domain.games.kings_court.{m}" for m in ("setup", "state", "decide", "evolve",
                                                    "draws", "roles", "results")]


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    """Two folders, each with a store where the King's Court seed was played (a receipt kept
    of the first vote): in `log`, the view tables hold nothing; in `tables`, they are
    current. And the match's public bundle, `kc.jsonl`."""
    folders = {}
    for name in ("log", "tables"):
        folder = folders[name] = tmp_path_factory.mktemp(name)
        url = f"sqlite:///{folder}/arbiter.db"
        app = Arbiter(url, signer=SIGNER)
        receipt = played_keeping_a_receipt(app, FILE)
        (folder / "receipt.json").write_text(json.dumps(receipt.as_dict()))
        (folder / "kc.jsonl").write_text("".join(app.bundle(MATCH, "public")))
        app.close()
        if name == "tables":
            built = CliRunner().invoke(cli, ["--db", url, "projections", "rebuild"])
            assert built.exit_code == 0, built.output
    return folders


@pytest.fixture(scope="module")
def pg_store(stores, pg_server, tmp_path_factory):
    """A PostgreSQL database of its own where the seed was played as in `stores`, the view
    tables rebuilt; a folder to run in, and its URL."""
    name = f"arbiter_test_{secrets.token_hex(6)}"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = urlparse(pg_server)._replace(path=f"/{name}").geturl()
    app = Arbiter(url, signer=SIGNER)
    played_keeping_a_receipt(app, FILE)
    app.close()
    built = CliRunner().invoke(cli, ["--db", url, "projections", "rebuild"])
    assert built.exit_code == 0, built.output
    yield tmp_path_factory.mktemp("pg"), url
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def reference(folder: Path | str, viewer: str, round: int | None) -> dict:
    """The view as the reference fold of the whole log makes it (of the store in `folder`, or
    at a URL)."""
    app = Arbiter(folder if isinstance(folder, str) else f"sqlite:///{folder}/arbiter.db")
    found = view(app.match(MATCH), viewer, round)
    app.close()
    return json.loads(json.dumps(found))


@pytest.mark.parametrize("viewer", [PUBLIC, HOST, FILE.players[0]])
@pytest.mark.parametrize("round", [None, 3])
def test_a_view_the_tables_hold_loads_its_games_summary_alone(stores, viewer, round):
    args = ["view", MATCH, "--json", *(["--round", str(round)] if round is not None else [])]
    args += [] if viewer == PUBLIC else ["--host"] if viewer == HOST else ["--player", viewer]
    done = ran(args, stores["tables"])
    assert done.code == 0, done.stderr
    assert done.stderr == ""  # no note: the tables held every entry it needs
    assert json.loads(done.stdout) == reference(stores["tables"], viewer, round)
    assert not done.roots & {*NEVER, *VALIDATION, "eventsourcing", "rich"}
    assert done.games == {"kings_court"}
    assert not done.under("domain.match", "domain.season", "domain.checkpoints",
                          "commands.service.unit_of_work", "commands.service.arbiter",
                          "projections.tables", "projections.follow", *RULES)


def test_a_view_told_in_words_loads_no_rules_either(stores):
    done = ran(["view", MATCH, "--round", "3"], stores["tables"])
    assert done.code == 0, done.stderr
    entries = reference(stores["tables"], PUBLIC, 3)["as_of"]["seq"]
    assert " ".join(done.stdout.split()).startswith(
        f"King's Court, match {MATCH}, as the public saw it at the end of round 3 "
        f"({entries} entries)")
    assert not done.roots & {*NEVER, *VALIDATION, "eventsourcing"}
    assert not done.under("domain.match", *RULES)


def test_a_view_of_a_match_the_tables_do_not_hold_loads_its_own_rules_alone(stores):
    done = ran(["view", MATCH, "--json"], stores["log"])
    assert done.code == 0, done.stderr
    assert "so it was read from its log" in done.stderr
    assert json.loads(done.stdout) == reference(stores["log"], PUBLIC, None)
    assert not done.roots & NEVER
    assert done.games == {"kings_court"}
    assert not done.under("commands.service.arbiter", "audit.cosign", "rich",
                          *(f"domain.games.kings_court.{m}" for m in ("decide", "story")))


def test_a_checkpoint_the_tables_hold_loads_no_game_and_no_cipher(stores):
    done = ran(["checkpoint", MATCH, "--round", "3", "--json"], stores["tables"])
    assert done.code == 0, done.stderr
    printed = json.loads(done.stdout)
    assert (printed["round"], printed["stored"]) == (3, True)
    assert printed["note"].startswith(f"arbiter/match/{MATCH}\n")
    again = ran(["checkpoint", MATCH, "--round", "3", "--json"], stores["log"])
    assert again.code == 0 and json.loads(again.stdout) == printed  # the log's own note
    assert not done.roots & {*NEVER, *VALIDATION, "eventsourcing", "rich", "cryptography"}
    assert not done.games
    assert not done.under("domain.match", "commands.service.arbiter", "audit.signing",
                          "audit.notes", "domain.decider")
    assert not again.roots & NEVER
    assert again.games == {"kings_court"}


@pytest.mark.parametrize("viewer", [PUBLIC, HOST, FILE.players[0]])
@pytest.mark.parametrize("round", [None, 3])
def test_a_view_on_postgresql_loads_its_driver_and_its_games_summary_alone(pg_store, viewer,
                                                                          round):
    folder, url = pg_store
    args = ["--db", url, "view", MATCH, "--json",
            *(["--round", str(round)] if round is not None else [])]
    args += [] if viewer == PUBLIC else ["--host"] if viewer == HOST else ["--player", viewer]
    done = ran(args, folder)
    assert done.code == 0, done.stderr
    assert done.stderr == ""  # no note: the tables held every entry it needs
    assert json.loads(done.stdout) == reference(url, viewer, round)
    assert "psycopg" in done.roots  # the one import an SQLite store's read does without
    assert not done.roots & {*VALIDATION, "eventsourcing", "rich", "psycopg_pool", "sqlite3"}
    assert done.games == {"kings_court"}
    assert not done.under("domain.match", "domain.season", "domain.checkpoints",
                          "commands.service.unit_of_work", "commands.service.arbiter",
                          "projections.tables", "projections.follow", *RULES)


def test_a_checkpoint_on_postgresql_loads_no_game_and_no_service(pg_store):
    folder, url = pg_store
    done = ran(["--db", url, "checkpoint", MATCH, "--round", "3", "--json"], folder)
    assert done.code == 0, done.stderr
    printed = json.loads(done.stdout)
    assert (printed["round"], printed["stored"]) == (3, True)
    assert printed["note"].startswith(f"arbiter/match/{MATCH}\n")
    assert not done.roots & {*VALIDATION, "eventsourcing", "rich", "cryptography",
                             "psycopg_pool", "sqlite3"}
    assert not done.games
    assert not done.under("domain.match", "commands.service.arbiter", "audit.signing",
                          "domain.decider")


@pytest.mark.parametrize("args", [
    ["view", MATCH, "--json"], ["view", MATCH, "--round", "3"],
    ["view", MATCH, "--host", "--round", "2", "--json"], ["view", MATCH, "--player", "alice"],
    ["checkpoint", MATCH, "--round", "3"], ["checkpoint", MATCH, "--json"],
    ["view", MATCH, "--round", "99"], ["view", MATCH, "--round", "-1", "--json"],
    ["view", MATCH, "--player", "zed"], ["view", "no-such-match"],
    ["checkpoint", MATCH, "--round", "99"]], ids=" ".join)
def test_a_read_prints_the_same_bytes_on_either_store(stores, pg_store, args):
    """The same match played into an SQLite file and a PostgreSQL database, the tables of
    both rebuilt: each read prints the same, or is refused in the same words."""
    folder, url = pg_store
    on_sqlite = ran(args, stores["tables"])
    on_postgres = ran(["--db", url, *args], folder)
    assert (on_postgres.code, on_postgres.stdout, on_postgres.stderr) == \
        (on_sqlite.code, on_sqlite.stdout, on_sqlite.stderr)
    assert on_sqlite.stdout or on_sqlite.stderr.startswith("error: ")


@pytest.mark.parametrize("printing", ["--json", None], ids=["json", "text"])
def test_a_receipt_is_verified_against_a_bundle_with_no_store_and_no_game(stores, printing):
    folder = stores["log"]
    done = ran(["receipt", "verify", "receipt.json", "--bundle", "kc.jsonl",
                *([printing] if printing else [])], folder)
    assert done.code == 0, done.stderr
    receipt = json.loads((folder / "receipt.json").read_text())
    if printing:
        assert json.loads(done.stdout)["seq"] == receipt["seq"]
    else:
        voter = receipt["parts"]["0"]["actor"]
        assert done.stdout.startswith(f"{voter}'s vote for ")
    assert not done.roots & {*NEVER, *VALIDATION, "eventsourcing", "sqlite3"}
    assert not done.games
    assert not done.under("domain.match", "domain.decider", "commands.store", "audit.rerun")
    assert done.under("commands.service") <= {"commands.service", "commands.service.keys"}
    assert ("rich" in done.roots) == (printing is None)
