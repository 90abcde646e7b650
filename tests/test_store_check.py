"""The store proves itself: an operator who edits, deletes or swaps rows in the database is
caught, by every load (`missing_entry`, `forged_entry`) or by `arbiter check`, which also
holds the stored log against the host's signed checkpoints and the rules.

The match: sealed_bid in season spring (tests.test_match_ledger.new_match). Season entries:
1 SeasonStarted, 2 ann registered, 3 ann's 5 garnets (sealed to her), 4 bob registered, 5
bob's garnet, 6 cy registered, 7 MatchAdded. Match entries: 1 MatchCreated, 2 the sealed
setup, 3-6 open_match (command, MatchOpened, the sealed secret, RoundOpened; the checkpoint of
round 0 signs these 6), 7-8 ann's bid (command, BidPlaced), 9-10 bob's.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from commands.cli.main import cli
from commands.service.arbiter import Arbiter
from domain.envelope import commitment, salt
from domain.errors import RuleViolation
from domain.match import Match, parse_salt_key
from domain.season import Season
from tests.support import tamper
from tests.support.host_key import SIGNER
from tests.test_match_ledger import new_match, refused

VKEY = SIGNER.verifier_key()
MATCH = Match.create_id("m1")
SEASON = Season.create_id("spring")


@pytest.fixture
def played(db_url):
    """The match played up to two bids in round 1, and the store's URL."""
    app = Arbiter(db_url, signer=SIGNER)
    new_match(app)
    app.submit("m1", "host", "open_match")
    app.submit("m1", "ann", "bid", {"amount": 3})
    app.submit("m1", "bob", "bid", {"amount": 5})
    app.close()
    return db_url


def check(url, *args):
    result = CliRunner().invoke(cli, ["--db", url, "check", "--key", VKEY, *args])
    return result.exit_code, result.output


def fresh(url):
    """A service started after the tampering: nothing of the store is cached."""
    return Arbiter(url, signer=SIGNER)


def test_an_untouched_store_checks_out(played):
    code, out = check(played, "--json")
    assert code == 0, out
    found = json.loads(out)
    assert found["intact"] is True
    assert (found["matches"], found["entries"]) == (1, 10)
    assert (found["seasons"], found["season_entries"]) == (1, 7)
    # The match's only checkpoint closes round 0; the season signed each of its 7 entries.
    assert (found["match_checkpoints"], found["season_checkpoints"]) == (1, 7)
    assert found["signed_by"] == VKEY


def test_an_edited_grant_amount_is_refused_by_every_read_and_named_by_check(played):
    app = fresh(played)
    tamper.rewrite(app, SEASON, 3, lambda e: e.record["parts"][0]["data"].update(amount=50))
    refused("forged_entry", fresh(played).season, "spring")
    code, out = check(played)
    assert code == 1
    assert out == "FAILED forged_entry: season spring: entry 3: a sealed part does not open " \
                  "its commitment\n"
    # The CLI answers every command on that season in one line, exit 2.
    result = CliRunner().invoke(cli, ["--db", played, "season", "show", "spring"])
    assert result.exit_code == 2
    assert result.output.startswith("error: forged_entry: season spring: entry 3: a sealed")
    assert len(result.output.splitlines()) == 1


def test_a_grant_reforged_with_every_key_is_caught_by_the_signed_checkpoint(played):
    """The forger holds the salt key (it is in the store) and re-seals the grant, then
    recomputes every hash after it: every read passes, the signed season checkpoints do not."""
    app = fresh(played)

    def inflate(event):
        part = event.record["parts"][0]
        part["data"]["amount"] = 50
        key = parse_salt_key(event_salt_key)
        event.record["entry"]["seals"] = [commitment(salt(key, 3, 0), part)]

    event_salt_key = app.season("spring").salt_key
    tamper.rewrite(app, SEASON, 3, inflate)
    tamper.rechain(app, SEASON, 3, season=True)
    assert fresh(played).season("spring").balances["ann"]["garnets"] == 50  # it reads...
    code, out = check(played)
    assert code == 1
    assert out == "FAILED root_mismatch: season spring: entries 3 to 3 as stored are not what " \
                  "the signed checkpoint of 3 entries signs: one was changed and the hashes " \
                  "after it recomputed\n"


def test_an_edited_sealed_vote_is_refused_by_every_read_and_named_by_check(played):
    app = fresh(played)
    tamper.rewrite(app, MATCH, 8, lambda e: e.record["parts"][0]["data"].update(amount=9))
    refused("forged_entry", fresh(played).match, "m1")
    refused("forged_entry", fresh(played).submit, "m1", "cy", "bid", {"amount": 1})
    code, out = check(played)
    assert (code, out) == (1, "FAILED forged_entry: match m1: entry 8: a sealed part does not "
                              "open its commitment\n")


def test_an_edited_public_entry_with_a_recomputed_hash_is_caught_by_the_signed_checkpoint(
        played):
    """RoundOpened (entry 6) given another time, its hash and every later prev and hash
    recomputed: the chain holds, the checkpoint of round 0 (6 entries) does not."""
    app = fresh(played)
    tamper.rewrite(app, MATCH, 6, lambda e: e.record["entry"].update(at="2020-01-01T00:00:00Z"))
    tamper.rechain(app, MATCH, 6)
    assert fresh(played).match("m1").records[5]["entry"]["at"] == "2020-01-01T00:00:00Z"
    code, out = check(played)
    assert (code, out) == (1, "FAILED root_mismatch: match m1: entries 1 to 6 as stored are "
                              "not what the signed checkpoint of 6 entries signs: one was "
                              "changed and the hashes after it recomputed\n")


def test_a_deleted_middle_row_is_named_by_every_command_and_read(played):
    tamper.delete(fresh(played), MATCH, 8)
    said = "match m1: entry 8 is missing from the store (entry 9 comes after entry 7)"
    assert refused("missing_entry", fresh(played).match, "m1").message.startswith(said)
    assert refused("missing_entry", fresh(played).submit, "m1", "cy", "bid",
                   {"amount": 1}).message.startswith(said)
    for args in (["view", "m1"], ["match", "submit", "m1", "bid", "amount=1", "--as", "cy"],
                 ["export", "m1", "--public", "-o", "-"]):
        result = CliRunner().invoke(cli, ["--db", played, *args])
        assert result.exit_code == 2, args
        assert result.output.startswith(f"error: missing_entry: {said}"), result.output
        assert len(result.output.splitlines()) == 1
    assert check(played) == (1, f"FAILED missing_entry: {said}\n")


def test_deleted_last_rows_under_a_signed_checkpoint_are_named_and_never_exported(played):
    app = fresh(played)
    app.submit("m1", "host", "close_round")  # 11-13 or so: round 1 closes, signed
    size = app.checkpoints("m1").notes[-1]["size"]
    app.close()
    tamper.delete(fresh(played), MATCH, size, size - 1, size - 2)
    said = (f"match m1: entry {size - 2} is missing from the store (a signed checkpoint covers "
            f"{size} entries, the store holds {size - 3})")
    assert refused("missing_entry", fresh(played).match, "m1").message.startswith(said)
    app = fresh(played)
    assert refused("missing_entry", app.submit, "m1", "cy", "bid",
                   {"amount": 1}).message.startswith(said)
    result = CliRunner().invoke(cli, ["--db", played, "export", "m1", "--public", "-o", "-"])
    assert (result.exit_code, result.output) == (2, f"error: missing_entry: {said}; the store "
                                                    "was changed outside Arbiter; arbiter "
                                                    "check tells more\n")
    assert check(played) == (1, f"FAILED missing_entry: {said}\n")


def test_a_deleted_season_row_is_named(played):
    tamper.delete(fresh(played), SEASON, 4)
    said = "season spring: entry 4 is missing from the store (entry 5 comes after entry 3)"
    assert refused("missing_entry", fresh(played).season, "spring").message.startswith(said)
    assert check(played) == (1, f"FAILED missing_entry: {said}\n")


def test_deleted_last_season_rows_under_a_signed_checkpoint_are_named(played):
    tamper.delete(fresh(played), SEASON, 7, 6)
    said = ("season spring: entry 6 is missing from the store (a signed checkpoint covers 7 "
            "entries, the store holds 5)")
    assert refused("missing_entry", fresh(played).season, "spring").message.startswith(said)
    assert refused("missing_entry", fresh(played).submit, "m1", "cy", "bid",
                   {"amount": 1}).message.startswith(said)
    assert check(played) == (1, f"FAILED missing_entry: {said}\n")


def test_swapped_rows_break_the_chain(played):
    tamper.swap(fresh(played), MATCH, 7, 9)  # ann's and bob's bid commands
    refused("forged_entry", fresh(played).match, "m1")
    assert check(played) == (1, "FAILED forged_entry: match m1: entry 9 is stored as entry "
                                "7\n")


class Snapshotting(Arbiter):
    snapshotting_intervals = {Match: 4}  # noqa: RUF012 - the library reads a class attribute


def test_a_forged_snapshot_is_named_by_check(sqlite_url):
    """A snapshot (the match's state as of entry 8) edited: the entries after it still chain
    on its last entry, so only the replay tells."""
    app = Snapshotting(sqlite_url, signer=SIGNER)
    new_match(app)
    app.submit("m1", "host", "open_match")
    app.submit("m1", "ann", "bid", {"amount": 3})
    app.close()
    assert check(sqlite_url)[0] == 0
    app = Snapshotting(sqlite_url, signer=SIGNER)
    recorder = app.snapshots.recorder
    (stored,) = recorder.select_events(MATCH, gt=7, lte=8)
    snapshot = app.snapshots.mapper.to_domain_event(stored)
    snapshot.state["state"]["value"]["points"] = {"ann": 5}
    forged = app.snapshots.mapper.to_stored_event(snapshot).state
    with recorder.datastore.transaction(commit=True) as curs:
        curs.execute(f"UPDATE {recorder.events_table_name} SET state = ? WHERE "
                     "originator_version = 8", (forged,))
    assert check(sqlite_url) == (1, "FAILED forged_snapshot: match m1: the stored snapshot at "
                                    "entry 8 is not the match replayed to it\n")


def test_a_store_whose_checkpoints_another_key_signed_is_named(played):
    from audit import keys

    other = keys.generate("test-host").verifier_key()
    result = CliRunner().invoke(cli, ["--db", played, "check", "--key", other])
    assert result.exit_code == 1
    assert result.output.startswith("FAILED wrong_host_key: match m1: a stored checkpoint: "
                                    "signed by test-host+")


def test_without_a_key_check_asks_for_one(played, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ARBITER_HOST_KEY", raising=False)
    result = CliRunner().invoke(cli, ["--db", played, "check"])
    assert result.exit_code == 2
    assert result.output == "error: no_host_key: match m1 has signed checkpoints: give the " \
                            "host's key (its key file, or --key VKEY) to check them\n"


def test_a_refusal_leaves_the_store_as_it_was(played):
    tamper.delete(fresh(played), MATCH, 8)
    app = fresh(played)
    with pytest.raises(RuleViolation):
        app.submit("m1", "cy", "bid", {"amount": 1})
    rows = app.recorder.select_events(MATCH)
    assert [r.originator_version for r in rows] == [1, 2, 3, 4, 5, 6, 7, 9, 10]


def test_the_read_side_does_not_project_an_edited_entry(played):
    """The view tables are built through the same checks: the projection stops at the edited
    entry (and says so) rather than show it."""
    from commands.store.settings import persistence_env
    from projections.projection import Ledger, bound
    from projections.runner import catch_up
    from projections.tables import open_views

    tamper.rewrite(fresh(played), MATCH, 8, lambda e: e.record["parts"][0]["data"].update(
        amount=9))
    ledger = Ledger(env=persistence_env(played))
    views = open_views(ledger.recorder.datastore, ledger.mapper.cipher)
    error = refused("forged_entry", catch_up, ledger, views, bound(ledger)(views))
    assert error.message.startswith("match m1: entry 8: a sealed part does not open")
    assert views.view("m1", "ann")["as_of"]["seq"] == 7  # up to the entry before it
    ledger.close()


def test_a_reader_that_a_writer_overtakes_between_its_two_reads_is_not_missing_entries(played):
    """A reader holds the log at some version; a writer then saves entries and the checkpoint
    that covers them; the reader's check of its log against the checkpoint sees a checkpoint
    past its log, but the store holds every entry: not missing_entry."""
    reader, writer = fresh(played), fresh(played)
    stale = reader.repository.get(MATCH)
    writer.submit("m1", "host", "close_round")
    signed = writer.checkpoints("m1").notes[-1]["size"]
    assert signed > stale.version
    reader._check_complete(stale)  # the check itself, at the racy moment
    tamper.delete(fresh(played), MATCH, signed)
    with pytest.raises(RuleViolation) as caught:
        reader._check_complete(stale)
    assert caught.value.code == "missing_entry"
