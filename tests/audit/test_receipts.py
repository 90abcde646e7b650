"""Receipts: a player proves what they sent, and that it was in the log the host signed when
the round closed, with nothing but the receipt, a bundle (or a saved proof) and the host's key."""

from __future__ import annotations

import copy
import io
import json

import pytest

from audit import keys
from audit.bundle import PUBLIC
from audit.errors import AuditError
from audit.notes import parse_verifier_key
from audit.receipts import TLOG_PROOF, opened_parts, parse_tlog_proof, prove, verify_proof
from commands.service.arbiter import Arbiter
from tests.audit.test_bundle import SIGNER, bundle_of, memory_app, start

KEY = parse_verifier_key(SIGNER.verifier_key())


def bob_bids(app: Arbiter) -> dict:
    """Bob bids 4 in round 1; the round closes (and is signed); he bids again in round 2."""
    start(app)
    app.submit("m1", "host", "open_match")
    receipt = app.submit("m1", "bob", "bid", {"amount": 4}).receipt.as_dict()
    app.submit("m1", "host", "close_round")
    return json.loads(json.dumps(receipt))  # as the player's file holds it


@pytest.fixture(scope="module")
def signed():
    app = memory_app()
    receipt = bob_bids(app)
    late = app.submit("m1", "bob", "bid", {"amount": 1}).receipt.as_dict()
    yield app, receipt, json.loads(json.dumps(late)), bundle_of(app, PUBLIC)
    app.close()


def test_a_receipt_carries_the_entry_and_the_submitters_own_parts(db_url):
    app = Arbiter(db_url, signer=SIGNER)
    receipt = bob_bids(app)
    record = app.match("m1").records[receipt["seq"] - 1]
    assert receipt["entry"] == record["entry"] and receipt["hash"] == record["entry"]["hash"]
    assert list(receipt["parts"]) == list(receipt["salts"]) == ["0"]  # not the host's context
    assert receipt["parts"]["0"]["data"] == {"name": "bid", "args": {"amount": 4}}
    entry, opened = opened_parts(receipt)
    assert opened == {0: receipt["parts"]["0"]} and entry["seq"] == receipt["seq"]
    proven = prove(receipt, io.BytesIO(bundle_of(app, PUBLIC)))  # the store's own bundle
    assert (proven.seq, proven.round) == (receipt["seq"], 1)
    app.close()


def test_a_receipt_is_proven_under_the_checkpoint_of_its_round(signed):
    app, receipt, _, bundle = signed
    proven = prove(receipt, io.BytesIO(bundle))
    round_1 = next(n for n in app.checkpoints("m1").notes if n["round"] == 1)
    assert (proven.round, proven.size) == (1, round_1["size"])
    assert proven.proof.startswith(f"{TLOG_PROOF}\nindex {receipt['seq'] - 1}\n")
    assert proven.proof.endswith(round_1["note"])
    index, hashes, note = parse_tlog_proof(proven.proof)
    assert (index, note) == (receipt["seq"] - 1, round_1["note"])
    assert len(hashes) <= round_1["size"].bit_length()
    # The saved proof alone, with the host's published key, proves it again offline.
    assert verify_proof(receipt, proven.proof, KEY) == proven
    assert "opens to CommandAccepted by bob" in "\n".join(proven.report())


def test_a_receipt_proven_under_a_checkpoint_as_published(signed):
    app, receipt, _, bundle = signed
    published = app.checkpoints("m1").notes[-1]["note"]
    proven = prove(receipt, io.BytesIO(bundle), note=published)
    assert proven.size == app.checkpoints("m1").notes[-1]["size"]


def test_a_submission_after_the_last_checkpoint_is_not_covered_yet(signed):
    _, _, late, bundle = signed
    with pytest.raises(AuditError) as caught:
        prove(late, io.BytesIO(bundle))
    assert caught.value.code == "not_covered"


def tampered(receipt: dict, change) -> dict:
    copied = copy.deepcopy(receipt)
    change(copied)
    return copied


@pytest.mark.parametrize("change, code", [
    (lambda r: r["parts"]["0"]["data"]["args"].update(amount=9), "bad_opening"),
    (lambda r: r["salts"].update({"0": "00" * 32}), "bad_opening"),
    (lambda r: r["salts"].update({"0": "not hex"}), "bad_opening"),
    (lambda r: r.update(hash="0" * 64), "receipt_mismatch"),
    (lambda r: r.update(seq=r["seq"] + 1), "receipt_mismatch"),
    (lambda r: r["entry"]["seals"].reverse(), "receipt_mismatch"),
    (lambda r: r.update(match="m2"), "receipt_mismatch"),
    (lambda r: r.pop("entry"), "malformed_receipt"),
    (lambda r: (r["salts"].update({"5": "00"}), r["parts"].update({"5": {}})),
     "malformed_receipt"),
    (lambda r: r["entry"].update(round=0.5), "malformed_receipt"),
])
def test_a_tampered_receipt_fails(signed, change, code):
    _, receipt, _, bundle = signed
    with pytest.raises(AuditError) as caught:
        prove(tampered(receipt, change), io.BytesIO(bundle))
    assert caught.value.code == code


def test_a_tampered_proof_or_the_wrong_key_fails(signed):
    _, receipt, _, bundle = signed
    proof = prove(receipt, io.BytesIO(bundle)).proof
    head, _, note = proof.partition("\n\n")
    lines = head.split("\n")
    moved = "\n".join([lines[0], "index 0", *lines[2:]]) + "\n\n" + note
    flipped = "\n".join([*lines[:2], lines[3], lines[2], *lines[4:]]) + "\n\n" + note
    stranger = parse_verifier_key(keys.generate("host.example").verifier_key())
    for text, key, code in [(moved, KEY, "not_included"), (flipped, KEY, "not_included"),
                            (proof, stranger, "wrong_host_key"),
                            ("c2sp.org/tlog-proof@v1\nindex x\n\n" + note, KEY,
                             "malformed_proof")]:
        with pytest.raises(AuditError) as caught:
            verify_proof(receipt, text, key)
        assert caught.value.code == code
