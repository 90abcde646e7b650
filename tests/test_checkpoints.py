"""The host signs a checkpoint at every round close and at the end of the match."""

from __future__ import annotations

from audit import keys
from audit.checkpoints import leaves, origin
from audit.merkle import root
from audit.notes import parse_checkpoint, parse_note, parse_verifier_key, verify_note
from commands.app import Arbiter
from tests.test_match_ledger import new_match


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


def test_without_a_key_nothing_is_signed(app):
    new_match(app)
    app.submit("m1", "host", "open_match")
    assert app.checkpoints("m1").notes == []
