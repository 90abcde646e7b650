"""Receipts, the cases mutation testing found untested: each worked out from docs/audit.md
("Receipts") and c2sp.org/tlog-proof, on Bob's bid of round 1 (entry 7, two seals)."""

from __future__ import annotations

import base64
import copy
import io
import json

import pytest

from audit import keys
from audit.bundle import PUBLIC
from audit.errors import AuditError
from audit.notes import parse_verifier_key
from audit.receipts import opened_parts, prove, tlog_proof, verify_proof
from tests.audit.test_bundle import bundle_of, memory_app, start
from tests.audit.test_receipts import KEY, bob_bids


@pytest.fixture(scope="module")
def bid():
    """Bob's receipt, the bundle when round 1 closed, and the app to play on."""
    app = memory_app()
    receipt = bob_bids(app)
    yield app, receipt, bundle_of(app, PUBLIC)
    app.close()


def code_of(call, *args, **kwargs) -> str:
    return failure(call, *args, **kwargs)[0]


def failure(call, *args, **kwargs) -> tuple[str, int | None]:
    with pytest.raises(AuditError) as caught:
        call(*args, **kwargs)
    return caught.value.code, caught.value.seq


def changed(receipt: dict, change) -> dict:
    copied = copy.deepcopy(receipt)
    change(copied)
    return copied


def test_the_report_names_the_leaf_the_log_the_round_and_the_signer(bid):
    app, receipt, bundle = bid
    proven = prove(receipt, io.BytesIO(bundle))
    size = next(n["size"] for n in app.checkpoints("m1").notes if n["round"] == 1)
    seq = receipt["seq"]
    # The leaf of entry N is N - 1; the part's data is shown with its keys sorted.
    assert proven.report() == [
        f"entry {seq} of match m1 (hash {receipt['hash']}) is leaf {seq - 1} of the log of "
        f"{size} entries signed at the close of round 1 by {KEY}",
        'sealed part 0 opens to CommandAccepted by bob: {"args": {"amount": 4}, "name": "bid"}']


@pytest.mark.parametrize("change", [
    lambda r: r.update(extra=1),                                  # a field too many
    lambda r: r.update(entry="the entry"),                        # an entry that is no object
    lambda r: r["entry"].pop("seals"),                            # not the envelope's fields
])
def test_a_receipt_without_its_entry_is_refused_before_any_seq(bid, change):
    _, receipt, _ = bid
    assert failure(opened_parts, changed(receipt, change)) == ("malformed_receipt", None)


@pytest.mark.parametrize("change", [
    lambda r: r.update(salts=[r["salts"]["0"]]),                  # salts not an object
    lambda r: r.update(parts=[]),                                 # parts not an object
    lambda r: r["salts"].update({"1": "00" * 32}),                # a salt without its part
    lambda r: (r["salts"].update({"2": "00" * 32}), r["parts"].update({"2": {}})),  # 2 seals
    lambda r: (r["salts"].update({"01": "00" * 32}), r["parts"].update({"01": {}})),  # not 1
    lambda r: (r["salts"].update({"-1": "00" * 32}), r["parts"].update({"-1": {}})),
    lambda r: r["salts"].update({"0": 7}),                        # a salt that is no text
])
def test_a_malformed_receipt_is_refused_naming_its_seq(bid, change):
    _, receipt, _ = bid
    assert failure(opened_parts, changed(receipt, change)) == ("malformed_receipt",
                                                                receipt["seq"])


def test_a_receipt_that_is_no_object_is_refused():
    assert code_of(opened_parts, ["match", "seq"]) == "malformed_receipt"


def test_a_part_that_cannot_be_hashed_does_not_open(bid):
    _, receipt, _ = bid
    floated = changed(receipt, lambda r: r["parts"]["0"]["data"]["args"].update(amount=0.5))
    assert failure(opened_parts, floated) == ("bad_opening", receipt["seq"])


def test_a_part_other_than_the_first_is_opened_by_its_own_index(bid):
    _, receipt, _ = bid
    # The host's context part (index 1) is not the submitter's: the receipt has no salt for it.
    moved = changed(receipt, lambda r: (r["salts"].update({"1": r["salts"].pop("0")}),
                                        r["parts"].update({"1": r["parts"].pop("0")})))
    assert code_of(opened_parts, moved) == "bad_opening"


def proof_lines(bid) -> tuple[list[str], str]:
    _, receipt, bundle = bid
    head, _, note = prove(receipt, io.BytesIO(bundle)).proof.partition("\n\n")
    return head.split("\n"), note


def test_an_extra_line_of_a_proof_is_skipped(bid):
    _, receipt, _ = bid
    lines, note = proof_lines(bid)
    # c2sp.org/tlog-proof: an optional "extra" line after the header, opaque to the verifier.
    text = "\n".join([lines[0], "extra anything at all", *lines[1:]]) + "\n\n" + note
    assert verify_proof(receipt, text, KEY).seq == receipt["seq"]


def respelled(hash_line: str) -> str:
    """The same 32 bytes in base64 with non-zero padding bits: another spelling of them."""
    last = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".index(hash_line[-2])
    spelled = hash_line[:-2] + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[
        last ^ 1] + "="
    assert base64.b64decode(spelled) == base64.b64decode(hash_line) and spelled != hash_line
    return spelled


@pytest.mark.parametrize("edit", [
    lambda lines, note: "\n".join(lines) + "\n" + note,                # no blank line
    lambda lines, note: lines[0] + "\n\n" + note,                      # no index line
    lambda lines, note: "\n".join(["c2sp.org/tlog-proof@v2", *lines[1:]]) + "\n\n" + note,
    lambda lines, note: "\n".join([lines[0], "index 06", *lines[2:]]) + "\n\n" + note,
    lambda lines, note: "\n".join([*lines, "not base64!"]) + "\n\n" + note,
    lambda lines, note: "\n".join([*lines, base64.b64encode(bytes(31)).decode()]) + "\n\n" + note,
    lambda lines, note: "\n".join([*lines[:2], respelled(lines[2]), *lines[3:]]) + "\n\n" + note,
])
def test_a_proof_that_is_not_a_tlog_proof_text_is_malformed(bid, edit):
    _, receipt, _ = bid
    lines, note = proof_lines(bid)
    assert code_of(verify_proof, receipt, edit(lines, note), KEY) == "malformed_proof"


def test_a_proof_under_another_logs_checkpoint_is_the_wrong_origin(bid):
    app, receipt, _ = bid
    start(app, match_id="m2")
    app.submit("m2", "host", "open_match")
    other = app.checkpoints("m2").notes[-1]["note"]
    lines, _ = proof_lines(bid)
    text = "\n".join(lines) + "\n\n" + other
    assert failure(verify_proof, receipt, text, KEY) == ("wrong_origin", receipt["seq"])


def test_a_checkpoint_that_cannot_be_read_is_malformed(bid):
    _, receipt, bundle = bid
    assert failure(verify_proof, receipt, tlog_proof(6, [], "no note\n"), KEY) == \
        ("malformed_checkpoint", receipt["seq"])
    assert code_of(prove, receipt, io.BytesIO(bundle), note="no note\n") == \
        "malformed_checkpoint"


def test_a_bundle_of_another_match_does_not_prove_the_receipt(bid):
    app, receipt, _ = bid
    start(app, match_id="m3")
    app.submit("m3", "host", "open_match")
    assert code_of(prove, receipt, io.BytesIO(bundle_of(app, PUBLIC, match_id="m3"))) == \
        "receipt_mismatch"


def test_a_published_checkpoint_must_cover_the_entry_and_lie_within_the_bundle(bid):
    app, receipt, bundle = bid
    notes = app.checkpoints("m1").notes
    round_0 = next(n for n in notes if n["round"] == 0)
    assert round_0["size"] < receipt["seq"]  # signed before Bob's bid
    assert code_of(prove, receipt, io.BytesIO(bundle), note=round_0["note"]) == "not_covered"
    app.submit("m1", "ann", "bid", {"amount": 2})
    app.submit("m1", "host", "close_round")  # round 2 closes after the bundle was taken
    later = app.checkpoints("m1").notes[-1]
    assert later["size"] > json.loads(bundle.splitlines()[0])["header"]["entries"]
    assert code_of(prove, receipt, io.BytesIO(bundle), note=later["note"]) == "not_covered"


def test_failures_of_prove_name_the_receipts_seq(bid):
    app, receipt, bundle = bid
    seq = receipt["seq"]
    start(app, match_id="m4")
    app.submit("m4", "host", "open_match")
    other = bundle_of(app, PUBLIC, match_id="m4")
    assert failure(prove, receipt, io.BytesIO(other)) == ("receipt_mismatch", seq)
    round_0 = next(n for n in app.checkpoints("m1").notes if n["round"] == 0)
    assert failure(prove, receipt, io.BytesIO(bundle), note=round_0["note"]) == \
        ("not_covered", seq)


def test_a_key_given_to_prove_is_the_one_the_bundle_must_be_signed_by(bid):
    _, receipt, bundle = bid
    stranger = parse_verifier_key(keys.generate("host.example").verifier_key())
    assert code_of(prove, receipt, io.BytesIO(bundle), key=stranger) == "wrong_host_key"
    assert prove(receipt, io.BytesIO(bundle), key=KEY).signer == KEY


def test_a_receipt_for_the_last_entry_a_checkpoint_covers_is_proven_under_it(bid):
    """A receipt of a public entry opens no part; the entry that ends round 0 is the last one
    that round's checkpoint covers, so that checkpoint (size == seq) proves it."""
    app, _, bundle = bid
    round_0 = next(n for n in app.checkpoints("m1").notes if n["round"] == 0)
    entry = next(json.loads(raw) for raw in bundle.splitlines()[1:]
                 if json.loads(raw).get("seq") == round_0["size"])
    assert entry["seals"] == []
    receipt = {"match": "m1", "seq": entry["seq"], "hash": entry["hash"], "entry": entry,
               "salts": {}, "parts": {}}
    proven = prove(receipt, io.BytesIO(bundle))
    assert (proven.size, proven.round, proven.opened) == (round_0["size"], 0, {})
    assert prove(receipt, io.BytesIO(bundle), note=round_0["note"]).size == entry["seq"]


def test_a_published_checkpoint_of_the_whole_bundle_proves_and_one_past_it_names_the_seq(bid):
    app, receipt, bundle = bid
    entries = json.loads(bundle.splitlines()[0])["header"]["entries"]
    round_1 = next(n for n in app.checkpoints("m1").notes if n["round"] == 1)
    assert round_1["size"] == entries  # the bundle was taken when round 1 closed
    assert prove(receipt, io.BytesIO(bundle), note=round_1["note"]).size == entries
    assert failure(prove, receipt, io.BytesIO(bundle), note="no note\n") == \
        ("malformed_checkpoint", receipt["seq"])
    fresh = memory_app()
    bob_bids(fresh)
    late = json.loads(json.dumps(fresh.submit("m1", "cy", "bid", {"amount": 1})
                                 .receipt.as_dict()))
    assert failure(prove, late, io.BytesIO(bundle_of(fresh, PUBLIC))) == \
        ("not_covered", late["seq"])
    fresh.close()


def test_the_bundle_of_an_unsigned_match_names_the_receipt_when_it_has_no_key():
    app = memory_app(signer=None)
    start(app, match_id="u", unsigned=True)
    app.submit("u", "host", "open_match")
    receipt = json.loads(json.dumps(app.submit("u", "bob", "bid", {"amount": 4})
                                    .receipt.as_dict()))
    bundle = bundle_of(app, PUBLIC, match_id="u", signer=None)
    assert failure(prove, receipt, io.BytesIO(bundle)) == ("no_host_key", receipt["seq"])
    app.close()
