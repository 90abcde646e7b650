"""The host signs a checkpoint at every round close and at the end of the match."""

from __future__ import annotations

import pytest

from audit import keys
from audit.checkpoints import leaves, origin
from audit.merkle import root
from audit.notes import parse_checkpoint, parse_note, parse_verifier_key, verify_note
from commands.service.arbiter import Arbiter
from domain.errors import RuleViolation
from tests.test_match_ledger import PLAYERS, new_match


def test_round_closes_and_the_end_are_signed(db_url):
    signer = keys.generate("host.example")
    app = Arbiter(db_url, signer=signer)
    new_match(app)
    app.submit("m1", "host", "open_match")  # opens round 1: round 0 (setup) is closed
    app.submit("m1", "ann", "bid", {"amount": 3})
    app.submit("m1", "host", "close_round")
    app.submit("m1", "host", "close_round")  # the last round: the match ends

    notes = app.checkpoints("m1").notes
    assert [n["round"] for n in notes] == [0, 1, 2]
    vkey = parse_verifier_key(signer.verifier_key())
    records = app.match("m1").records
    for signed in notes:
        assert verify_note(signed["note"], [vkey]) == [vkey]
        checkpoint = parse_checkpoint(parse_note(signed["note"]).text)
        assert checkpoint.origin == origin("m1")
        assert checkpoint.size == signed["size"]
        assert checkpoint.root == root(leaves(r["entry"] for r in records[: signed["size"]]))
    assert notes[-1]["size"] == len(records)


def test_without_a_key_a_match_is_created_only_unsigned_and_then_never_signed(db_url):
    keyless = Arbiter(db_url)
    with pytest.raises(RuleViolation) as caught:
        new_match(keyless)
    assert caught.value.code == "no_host_key"
    assert keyless.season("spring").matches == {}  # nothing saved
    with pytest.raises(RuleViolation):
        keyless.match("m1")
    keyless.create_match(match_id="m1", season="spring", game="sealed_bid",
                         setup={"players": PLAYERS}, host_seed="s" * 40, salt_key="ab" * 32,
                         unsigned=True)
    assert keyless.match("m1").records[0]["entry"]["public"]["unsigned"] is True
    keyless.submit("m1", "host", "open_match")
    assert keyless.checkpoints("m1").notes == []
    signing = Arbiter(db_url, signer=keys.generate("host.example"))  # a key found later
    signing.submit("m1", "host", "close_round")
    assert signing.checkpoints("m1").notes == []


def test_a_signed_match_closes_no_round_without_the_key(db_url):
    signing = Arbiter(db_url, signer=keys.generate("host.example"))
    new_match(signing, garnets=(5, 1, 0))
    assert "unsigned" not in signing.match("m1").records[0]["entry"]["public"]
    signing.submit("m1", "host", "open_match")
    keyless = Arbiter(db_url)
    keyless.submit("m1", "ann", "bid", {"amount": 3})  # closes nothing: no key needed
    before = keyless.match("m1").version
    garnets = keyless.season("spring").garnets(PLAYERS)
    with pytest.raises(RuleViolation) as caught:
        keyless.submit("m1", "host", "close_round")
    assert caught.value.code == "no_host_key"
    assert keyless.match("m1").version == before
    assert keyless.season("spring").garnets(PLAYERS) == garnets
    assert [n["round"] for n in keyless.checkpoints("m1").notes] == [0]
    with pytest.raises(RuleViolation) as caught:
        keyless.submit("m1", "host", "end", {"reason": "the host left"})
    assert caught.value.code == "no_host_key"
    signing.submit("m1", "host", "close_round")
    assert [n["round"] for n in signing.checkpoints("m1").notes] == [0, 1]
