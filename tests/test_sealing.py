"""Secrets at rest: the store file and its companions are private to their owner, and a reader
of the database alone learns no host seed, salt key or sealed plaintext (every event,
snapshot and private view row is encrypted with the store key; viewers are keyed). A row
edited without the key does not authenticate; a store without its key, or a store in the
clear opened with one, says so; `arbiter store encrypt` encrypts a store written before.

The whole suite runs on encrypted stores (tests/conftest.py sets ARBITER_STORE_KEY); the tests
of stores in the clear unset it.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from commands.cli.main import cli
from commands.service.arbiter import Arbiter
from domain.match import Match
from projections.projection import Ledger, bound
from projections.runner import catch_up
from projections.tables import open_views
from tests.support import tamper
from tests.support.host_key import SIGNER
from tests.test_match_ledger import PLAYERS, SALT_KEY, SEED, refused

MATCH = Match.create_id("m1")
CANARY = "CANARY-NOTE-0451"


def play(app: Arbiter, rounds: int = 2) -> None:
    """A match with a sealed bid carrying a canary, its views projected."""
    app.create_season("spring")
    for player in PLAYERS:
        app.register("spring", player)
    app.grant("spring", "ann", "garnets", 5, "CANARY-PURSE")
    app.create_match(match_id="m1", season="spring", game="sealed_bid",
                     setup={"players": PLAYERS, "rounds": rounds}, host_seed=SEED,
                     salt_key=SALT_KEY)
    app.submit("m1", "host", "open_match")
    app.submit("m1", "ann", "bid", {"amount": 3, "note": CANARY})
    app.submit("m1", "ann", "hint")


def project(url: str) -> None:
    from commands.store.settings import persistence_env

    ledger = Ledger(env=persistence_env(url))
    views = open_views(ledger.recorder.datastore, ledger.mapper.cipher)
    catch_up(ledger, views, bound(ledger)(views))
    ledger.close()


def stored_bytes(app: Arbiter) -> bytes:
    """Every value of every table of the store, as bytes."""
    datastore = app.recorder.datastore
    postgres = hasattr(datastore, "schema")
    with datastore.transaction(commit=False) as curs:
        if postgres:
            curs.execute("SELECT table_name FROM information_schema.tables WHERE "
                         "table_schema = 'public'")
            tables = [f'"public"."{r["table_name"]}"' for r in curs.fetchall()]
        else:
            curs.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            tables = [r["name"] for r in curs.fetchall()]
        found = b""
        for table in tables:
            curs.execute(f"SELECT * FROM {table}")
            for row in curs.fetchall():
                found += b"".join(bytes(v) if isinstance(v, bytes | memoryview) else
                                  str(v).encode() for v in dict(row).values())
    return found


def test_a_new_sqlite_store_and_its_companions_are_private(tmp_path):
    url = f"sqlite:///{tmp_path}/arbiter.db"
    app = Arbiter(url, signer=SIGNER)
    play(app)
    files = [tmp_path / name for name in ("arbiter.db", "arbiter.db-wal", "arbiter.db-shm")]
    assert all(f.exists() for f in files)  # WAL mode, the store open
    assert [stat.S_IMODE(f.stat().st_mode) for f in files] == [0o600] * 3
    app.close()


def test_a_reader_of_the_database_alone_learns_no_secret(app, db_url):
    play(app)
    project(db_url)
    found = stored_bytes(app)
    for secret in (SEED, SALT_KEY, CANARY, "CANARY-PURSE", '"amount":3'):
        assert secret.encode() not in found, secret
    if db_url.startswith("sqlite"):
        path = Path(db_url.removeprefix("sqlite:///"))
        raw = b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*"))
        for secret in (SEED, SALT_KEY, CANARY):
            assert secret.encode() not in raw, secret


def test_the_view_tables_do_not_say_who_was_told_what(app, db_url):
    play(app)
    project(db_url)
    named = {*PLAYERS, "public", "host"}
    prefix = '"public".arbiter_views_' if db_url.startswith("postgres") else "arbiter_views_"
    with app.recorder.datastore.transaction(commit=False) as curs:
        for table, column in (("readers", "viewer"), ("summaries", "viewer"),
                              ("rounds", "viewer"), ("receipts", "player"),
                              ("standings", "viewer")):
            curs.execute(f"SELECT {column} AS who FROM {prefix}{table}")
            keyed = {row["who"] for row in curs.fetchall()}
            assert keyed and not keyed & named, table


def test_the_views_read_back_what_each_viewer_may_see(app, db_url):
    play(app)
    project(db_url)
    views = open_views(app.recorder.datastore, app.mapper.cipher)
    told = views.inbox("m1", "ann")
    assert any(e.get("data", {}).get("args", {}).get("note") == CANARY for e in told["told"])
    assert not any(CANARY in json.dumps(e) for e in views.view("m1", "bob")["events"])
    assert views.standings("spring", "ann")["players"]
    assert views.seasons() == ["spring"]


def test_a_row_edited_without_the_key_does_not_authenticate(sqlite_url):
    app = Arbiter(sqlite_url, signer=SIGNER)
    play(app)
    tamper.scribble(app, MATCH, 8)  # ann's BidPlaced
    app.close()
    error = refused("forged_entry", Arbiter(sqlite_url, signer=SIGNER).match, "m1")
    assert error.message.startswith("match m1: entry 8 fails authentication: its stored "
                                    "bytes were changed")
    result = CliRunner().invoke(cli, ["--db", sqlite_url, "check", "--key",
                                      SIGNER.verifier_key()])
    assert (result.exit_code, result.output) == (1, "FAILED forged_entry: match m1: entry 8 "
                                                    "fails authentication: its stored bytes "
                                                    "were changed\n")


def test_a_row_stored_in_the_clear_in_an_encrypted_store_is_a_forgery(sqlite_url):
    app = Arbiter(sqlite_url, signer=SIGNER)
    play(app)
    event = app.mapper.to_domain_event(tamper.stored(app, MATCH, 8))
    clear = app.mapper.transcoder.encode({k: v for k, v in vars(event).items()
                                          if k not in ("originator_id", "originator_version")})
    tamper.write_state(app, MATCH, 8, clear)
    app.close()
    assert refused("forged_entry", Arbiter(sqlite_url, signer=SIGNER).match, "m1").message \
        .startswith("match m1: entry 8 is stored in the clear in an encrypted store")


def test_a_view_row_edited_in_the_database_is_refused(sqlite_url):
    app = Arbiter(sqlite_url, signer=SIGNER)
    play(app)
    project(sqlite_url)
    views = open_views(app.recorder.datastore, app.mapper.cipher)
    with app.recorder.datastore.transaction(commit=True) as curs:
        curs.execute("UPDATE arbiter_views_dashboards SET dashboard = 'AQAA' || dashboard")
        curs.execute("UPDATE arbiter_views_rounds SET shown = 'AQAA' || shown")
    assert refused("forged_entry", views.dashboard, "m1").message.startswith(
        "a view row fails authentication")
    # `arbiter view` reads the tables on a connection of its own (commands.store.reader)
    result = CliRunner().invoke(cli, ["--db", sqlite_url, "view", "m1"])
    assert (result.exit_code, result.output) == (2, "error: forged_entry: a view row fails "
                                                    "authentication: its stored bytes were "
                                                    "changed: the view tables were changed "
                                                    "outside Arbiter; rebuild them (arbiter "
                                                    "projections rebuild)\n")


def test_the_store_cipher_reads_and_writes_the_librarys_layout():
    """A store written with eventsourcing's own AES-GCM cipher (its nonce, tag, ciphertext)
    reads back, and the other way round: the cipher is the store's own, the bytes are not."""
    from eventsourcing.cryptography import AESCipher
    from eventsourcing.utils import Environment

    from commands.store.sealing import MARK, SealError, Sealing, read_key

    key = read_key()
    ours, library = Sealing(key), AESCipher(Environment(env={"CIPHER_KEY": key or ""}))
    written = ours.encrypt(b'{"seq":1}')
    assert written[:1] == MARK and len(written) == 1 + 12 + 16 + 9
    assert library.decrypt(written[1:]) == b'{"seq":1}'
    assert ours.decrypt(MARK + library.encrypt(b'{"seq":2}')) == b'{"seq":2}'
    for forged in (written[:-1] + bytes([written[-1] ^ 1]), written[:20]):
        with pytest.raises(SealError) as error:
            ours.decrypt(forged)
        assert error.value.code == "forged_entry"


def clear_store(url: str, monkeypatch, here: Path) -> None:
    """A store written before stores had a key."""
    monkeypatch.chdir(here)
    monkeypatch.delenv("ARBITER_STORE_KEY", raising=False)
    app = Arbiter(url, signer=SIGNER)
    play(app)
    app.close()
    project(url)


def test_a_store_opened_without_its_key_says_so(sqlite_url, monkeypatch, tmp_path):
    Arbiter(sqlite_url, signer=SIGNER).close()
    app = Arbiter(sqlite_url, signer=SIGNER)
    play(app)
    app.close()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ARBITER_STORE_KEY", raising=False)
    refused("store_key_required", Arbiter, sqlite_url)
    result = CliRunner().invoke(cli, ["--db", sqlite_url, "view", "m1"])
    assert result.exit_code == 2
    assert result.output.startswith("error: store_key_required: the SQLite file ")
    assert len(result.output.splitlines()) == 1


def test_a_store_in_the_clear_is_encrypted_by_store_encrypt(sqlite_url, monkeypatch, tmp_path):
    clear_store(sqlite_url, monkeypatch, tmp_path)
    assert SEED.encode() in b"".join(p.read_bytes() for p in tmp_path.glob("arbiter.db*"))
    result = CliRunner().invoke(cli, ["--db", sqlite_url, "store", "encrypt", "--json"])
    assert result.exit_code == 0, result.output
    done = json.loads(result.output)
    app = Arbiter(sqlite_url, signer=SIGNER)
    assert done["key_created"] and done["events"] == app.recorder.max_notification_id()
    assert stat.S_IMODE((tmp_path / "arbiter-store.key").stat().st_mode) == 0o600
    assert SEED.encode() not in stored_bytes(app)
    assert app.match("m1").state.bids == {"ann": 3}
    again = json.loads(CliRunner().invoke(cli, ["--db", sqlite_url, "store", "encrypt",
                                                "--json"]).output)
    assert (again["key_created"], again["events"], again["snapshots"]) == (False, 0, 0)
    assert CliRunner().invoke(cli, ["--db", sqlite_url, "check", "--key",
                                    SIGNER.verifier_key()]).exit_code == 0


def test_a_key_beside_a_store_in_the_clear_is_refused(sqlite_url, monkeypatch, tmp_path):
    clear_store(sqlite_url, monkeypatch, tmp_path)
    from commands.store.sealing import make_key

    make_key()
    error = refused("store_not_encrypted", Arbiter, sqlite_url)
    assert "`arbiter store encrypt`" in error.message
    result = CliRunner().invoke(cli, ["--db", sqlite_url, "view", "m1"])  # the tables' reader
    assert result.exit_code == 2
    assert result.output.startswith("error: store_not_encrypted: the SQLite file ")


def test_init_makes_the_store_key_with_a_new_store_only(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ARBITER_STORE_KEY", raising=False)
    made = json.loads(CliRunner().invoke(cli, ["init", "--json"]).output)
    assert made["store_key"] == {"file": "arbiter-store.key", "created": True, "clear": False}
    assert stat.S_IMODE(os.stat("arbiter-store.key").st_mode) == 0o600
    kept = json.loads(CliRunner().invoke(cli, ["init", "--json"]).output)
    assert kept["store_key"]["created"] is False
    old = tmp_path / "old"
    old.mkdir()
    clear_store(f"sqlite:///{old}/arbiter.db", monkeypatch, old)
    said = CliRunner().invoke(cli, ["--db", f"sqlite:///{old}/arbiter.db", "init", "--json"])
    assert json.loads(said.output)["store_key"] == {"file": "arbiter-store.key",
                                                    "created": False, "clear": True}
    assert not (old / "arbiter-store.key").exists()


@pytest.mark.parametrize("text", ["", "not base64!", "AAAA"])
def test_a_store_key_file_that_holds_no_key(tmp_path, monkeypatch, text):
    key = tmp_path / "bad.key"
    key.write_text(text)
    monkeypatch.setenv("ARBITER_STORE_KEY", str(key))
    refused("malformed_key", Arbiter, f"sqlite:///{tmp_path}/a.db")


def test_a_checkpoint_row_edited_without_the_key_is_named_with_its_log(sqlite_url):
    from domain.checkpoints import MatchCheckpoints

    app = Arbiter(sqlite_url, signer=SIGNER)
    play(app)
    tamper.scribble(app, MatchCheckpoints.create_id("m1"), 2)  # the checkpoint of round 0
    app.close()
    assert refused("forged_entry", Arbiter(sqlite_url, signer=SIGNER).match, "m1").message \
        .startswith("the checkpoints of match m1: event 2 fails authentication")


def test_store_encrypt_on_postgresql(pg_url, monkeypatch, tmp_path):
    clear_store(pg_url, monkeypatch, tmp_path)
    app = Arbiter(pg_url, signer=SIGNER)
    assert SEED.encode() in stored_bytes(app)
    app.close()
    result = CliRunner().invoke(cli, ["--db", pg_url, "store", "encrypt", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["snapshots"] == 0
    app = Arbiter(pg_url, signer=SIGNER)
    assert SEED.encode() not in stored_bytes(app)
    assert app.match("m1").state.bids == {"ann": 3}
    views = open_views(app.recorder.datastore, app.mapper.cipher)
    assert views.dashboard("m1")["match"] == "m1"
    app.close()
