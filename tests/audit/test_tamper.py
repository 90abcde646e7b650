"""Tampering with a bundle, each way named by its failure code and the first bad seq.

Some forgeries are made by the host itself: re-sealed, re-chained and re-signed with the real
key. A public bundle cannot tell those from the truth; the full bundle's re-run can.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random

import pytest

from audit import keys
from audit.bundle import (
    CHECKPOINT,
    ENTRY,
    FULL,
    HEADER,
    OPENED,
    OPENING,
    PUBLIC,
    export,
    kind_of,
    line,
)
from audit.checkpoints import leaves, origin
from audit.errors import AuditError
from audit.merkle import root
from audit.notes import checkpoint_body, parse_checkpoint, parse_note
from audit.signing import extensions, parse_extensions
from audit.verify import ENVELOPE
from domain.envelope import GENESIS_PREV, entry_hash, seal_entry
from domain.match import parse_salt_key
from tests.audit.test_bundle import SIGNER, bundle_of, played_story, verified

story_fixture = pytest.fixture(played_story, scope="module", name="story")


@pytest.fixture(scope="module")
def public(story) -> list[bytes]:
    return bundle_of(story, PUBLIC).splitlines(keepends=True)


@pytest.fixture(scope="module")
def full(story) -> list[bytes]:
    return bundle_of(story, FULL).splitlines(keepends=True)


def failure(lines: list[bytes], **kwargs) -> tuple[str, int | None]:
    with pytest.raises(AuditError) as caught:
        verified(b"".join(lines), **kwargs)
    return caught.value.code, caught.value.seq


def values(lines: list[bytes]) -> list[dict]:
    return [json.loads(raw) for raw in lines]


def where(lines: list[bytes], kind: str) -> list[int]:
    return [i for i, value in enumerate(values(lines)) if kind_of(value) == kind]


def entry_at(lines: list[bytes], seq: int) -> int:
    return next(i for i, v in enumerate(values(lines)) if kind_of(v) == ENTRY and v["seq"] == seq)


def replaced(lines: list[bytes], index: int, value) -> list[bytes]:
    return [*lines[:index], line(value).encode(), *lines[index + 1:]]


# -- one entry changed -----------------------------------------------------------------------

def changed(value):
    """The same kind of value, one character (or one unit) different."""
    if isinstance(value, bool) or value is None:
        raise AssertionError("pick an entry whose fields are all set")
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return ("0" if value[0] != "0" else "1") + value[1:]
    if isinstance(value, list):
        return [changed(value[0]), *value[1:]] if value else [0]
    key = sorted(value)[0]
    return {**value, key: changed(value[key]) if value[key] else "x"}


@pytest.mark.parametrize("field", sorted(ENVELOPE))
def test_a_change_in_any_field_of_an_entry_breaks_its_hash(public, field):
    # A random public host command: every field of its envelope is set.
    commands = [v for v in values(public) if kind_of(v) == ENTRY and v["kind"] == "CommandAccepted"]
    entry = random.Random(7).choice(commands)
    forged = {**entry, field: changed(entry[field])}
    assert failure(replaced(public, entry_at(public, entry["seq"]), forged)) == \
        ("bad_hash", entry["seq"])


def test_a_flipped_byte_in_a_line_is_named_with_the_entry_after_which_it_is(public):
    index = entry_at(public, 9)
    raw = public[index]
    flipped = raw[:5] + bytes([raw[5] ^ 0x01]) + raw[6:]
    with pytest.raises(AuditError) as caught:
        verified(b"".join([*public[:index], flipped, *public[index + 1:]]))
    assert caught.value.code in ("malformed_line", "not_canonical", "malformed_entry", "bad_hash")
    assert caught.value.line == index + 1


def test_every_byte_of_a_public_bundle_is_covered(public):
    """Exhaustively: whichever byte of the whole bundle changes (here its lowest bit, which
    mostly keeps a digit a digit and a letter a letter), verify refuses it."""
    data = b"".join(public)
    for position in range(len(data)):
        changed = data[:position] + bytes([data[position] ^ 0x01]) + data[position + 1:]
        with pytest.raises(AuditError):
            verified(changed)


def test_a_self_consistent_entry_that_does_not_follow_its_predecessor_breaks_the_chain(public):
    index = entry_at(public, 12)
    entry = {**values(public)[index], "prev": "f" * 64}
    entry["hash"] = entry_hash(entry)
    assert failure(replaced(public, index, entry)) == ("broken_chain", 12)


# -- entries dropped, inserted, moved, cut off -----------------------------------------------

# Entry 12 is ann's sealed bid, inside round 1 (entries 11 and 12 are her command and bid).

def test_a_dropped_entry(public):
    index = entry_at(public, 12)
    assert failure([*public[:index], *public[index + 1:]]) == ("bad_seq", 12)


def test_an_inserted_entry(public):
    index = entry_at(public, 12)
    assert failure([*public[:index + 1], public[index], *public[index + 1:]]) == ("bad_seq", 13)


def test_an_inserted_forgery_that_links_to_its_predecessor(public):
    index = entry_at(public, 12)
    before = values(public)[index]
    nothing = {"audience": "host", "kind": "Nothing", "actor": "host", "at": None, "data": {}}
    forged = seal_entry(match="m1", seq=13, round=before["round"], prev=before["hash"],
                        salt_key=bytes(32), public=None, parts=[nothing, nothing])
    lines = [*public[:index + 1], line(forged).encode(), *public[index + 1:]]
    assert failure(lines) == ("bad_seq", 14)


def test_two_entries_swapped(public):
    i, j = entry_at(public, 10), entry_at(public, 11)
    lines = list(public)
    lines[i], lines[j] = lines[j], lines[i]
    assert failure(lines) == ("bad_seq", 10)


@pytest.mark.parametrize("cut", ["lines", "mid-line", "newline"])
def test_a_truncated_bundle(full, cut):
    data = b"".join(full)
    data = {"lines": b"".join(full[:-4]), "mid-line": data[:len(data) // 2],
            "newline": data[:-1]}[cut]
    with pytest.raises(AuditError) as caught:
        verified(data)
    assert caught.value.code == "truncated"


def test_a_bundle_that_holds_more_entries_than_its_header_says(public):
    header = values(public)[0]
    header[HEADER]["entries"] -= 1
    with pytest.raises(AuditError) as caught:
        verified(b"".join(replaced(public, 0, header)[:-1]))  # drop the last checkpoint too
    assert caught.value.code == "unexpected_line"


# -- sealed parts and their openings ---------------------------------------------------------

def test_a_replaced_plaintext_does_not_open_its_seal(full):
    index = next(i for i in where(full, OPENING)
                 if values(full)[i][OPENING]["parts"][0]["kind"] == "CommandAccepted"
                 and values(full)[i][OPENING]["parts"][0]["actor"] == "ann")
    opening = values(full)[index]
    part = opening[OPENING]["parts"][0]
    part["data"]["args"]["amount"] = 9
    assert failure(replaced(full, index, opening)) == ("bad_opening", opening[OPENING]["seq"])


def test_a_salt_that_the_salt_key_does_not_give(full):
    index = where(full, OPENING)[3]
    opening = values(full)[index]
    opening[OPENING]["salts"][0] = "0" * 64
    assert failure(replaced(full, index, opening)) == ("bad_salt", opening[OPENING]["seq"])


def test_a_sealed_entry_without_its_opening(full):
    index = where(full, OPENING)[2]
    seq = values(full)[index][OPENING]["seq"]
    assert failure([*full[:index], *full[index + 1:]]) == ("missing_opening", seq)


def test_an_opening_in_a_public_bundle(public, full):
    opening = full[where(full, OPENING)[0]]
    index = entry_at(public, 2)
    assert failure([*public[:index + 1], opening, *public[index + 1:]]) == \
        ("unexpected_line", 2)


# -- the header ------------------------------------------------------------------------------

@pytest.mark.parametrize("field, value, code", [
    ("players", ["ann", "bob"], "header_mismatch"),
    ("season", "autumn", "header_mismatch"),
    ("setup_commitment", "0" * 64, "header_mismatch"),
    ("kind", "public", "malformed_header"),
    pytest.param("host_key", keys.generate("host.example").verifier_key(),
                 "wrong_host_key", id="host_key-another-wrong_host_key"),
    ("host_seed", "t" * 40, "seed_mismatch"),
    ("salt_key", "cd" * 32, "bad_salt"),
    ("unsigned", True, "header_mismatch"),  # the genesis entry does not say so
    ("weak_seed", True, "header_mismatch"),
    ("unsigned", False, "malformed_header"),  # a flag is written only when true
])
def test_a_header_that_does_not_tell_the_truth(full, field, value, code):
    header = values(full)[0]
    header[HEADER][field] = value
    assert failure(replaced(full, 0, header))[0] == code


def test_lines_that_are_not_canonical(public):
    index = entry_at(public, 5)
    spaced = public[index].replace(b'"seq":5', b'"seq": 5')
    assert failure([*public[:index], spaced, *public[index + 1:]])[0] == "not_canonical"
    floated = public[index].replace(b'"round":0', b'"round":0.0')
    assert failure([*public[:index], floated, *public[index + 1:]])[0] == "not_canonical"


# -- checkpoints -----------------------------------------------------------------------------

def checkpoint(lines: list[bytes], number: int) -> tuple[int, dict, str]:
    index = where(lines, CHECKPOINT)[number]
    value = values(lines)[index]
    return index, value, parse_note(value[CHECKPOINT]["note"]).text


def with_note(value: dict, note: str) -> dict:
    return {CHECKPOINT: {**value[CHECKPOINT], "note": note}}


def forked_text(story, text: str) -> str:
    """The same size, round and state, over a log whose last entry differs."""
    cp = parse_checkpoint(text)
    entries = [r["entry"] for r in story.match("m1").records[:cp.size]]
    entries[-1] = {**entries[-1], "at": "2031-01-01T00:00:00Z"}
    return checkpoint_body(origin("m1"), cp.size, root(leaves(entries)), cp.extensions)


def test_a_checkpoint_re_signed_with_another_key(public):
    index, value, text = checkpoint(public, 1)
    for other in (keys.generate("host.example"), keys.generate("mallory.example")):
        assert failure(replaced(public, index, with_note(value, other.sign_note(text)))) == \
            ("wrong_host_key", parse_checkpoint(text).size)


def test_a_checkpoint_whose_signature_does_not_verify(public):
    index, value, _ = checkpoint(public, 1)
    signature = SIGNER.sign_note("another text\n").split("\n")[-2]
    note = value[CHECKPOINT]["note"].rsplit("\n", 2)[0] + "\n" + signature + "\n"
    assert failure(replaced(public, index, with_note(value, note)))[0] == "bad_signature"


def test_two_inconsistent_checkpoints(story, public):
    # The host signed a round-1 checkpoint over another history than round 0's extends to.
    index, value, text = checkpoint(public, 1)
    forged = with_note(value, SIGNER.sign_note(forked_text(story, text)))
    assert failure(replaced(public, index, forged)) == \
        ("inconsistent_checkpoints", parse_checkpoint(text).size)


def test_a_checkpoint_whose_root_is_not_the_logs(story, public):
    index, value, text = checkpoint(public, 0)
    forged = with_note(value, SIGNER.sign_note(forked_text(story, text)))
    assert failure(replaced(public, index, forged)) == ("root_mismatch",
                                                        parse_checkpoint(text).size)


def test_a_checkpoint_out_of_its_place(public):
    index, _, _ = checkpoint(public, 1)
    lines = list(public)
    lines[index - 1], lines[index] = lines[index], lines[index - 1]
    assert failure(lines)[0] == "checkpoint_misplaced"


def test_a_signed_state_root_the_rules_do_not_reach(full, public):
    index, value, text = checkpoint(full, 1)
    close = parse_extensions(parse_checkpoint(text).extensions)
    lied = text.replace(close.state_root, "0" * 64)
    forged = with_note(value, SIGNER.sign_note(lied))
    assert failure(replaced(full, index, forged))[0] == "state_root_mismatch"
    p_index = where(public, CHECKPOINT)[1]
    assert verified(b"".join(replaced(public, p_index, forged)))  # only the salt key can tell


# -- the host's own forgeries: re-sealed, re-chained, re-signed ------------------------------

def reforged(story, edit) -> dict[str, bytes]:
    """Both bundles of the story after `edit(records)`, every entry re-sealed and re-linked and
    every checkpoint re-signed with the host's real key."""
    match = story.match("m1")
    forged = dataclasses.replace(match, records=copy.deepcopy(list(match.records)))
    edit(forged.records)
    key, prev = parse_salt_key(forged.salt_key), GENESIS_PREV
    for record in forged.records:
        e = record["entry"]
        public = None if e["kind"] is None else \
            {"kind": e["kind"], "actor": e["actor"], "at": e["at"], "data": e["public"],
             "postings": e["postings"]}
        record["entry"] = seal_entry(match="m1", seq=e["seq"], round=e["round"], prev=prev,
                                     salt_key=key, public=public, parts=record["parts"])
        prev = record["entry"]["hash"]
    notes = []
    for stored in story.checkpoints("m1").notes:
        cp = parse_checkpoint(parse_note(stored["note"]).text)
        entries = [r["entry"] for r in forged.records[:cp.size]]
        close = parse_extensions(cp.extensions)
        notes.append(SIGNER.sign_note(checkpoint_body(
            origin("m1"), cp.size, root(leaves(entries)),
            extensions(close.round, close.state_root))))
    return {kind: "".join(export(forged, notes, kind, SIGNER.verifier_key())).encode()
            for kind in (PUBLIC, FULL)}


def code_of(data: bytes) -> tuple[str, int | None]:
    with pytest.raises(AuditError) as caught:
        verified(data)
    return caught.value.code, caught.value.seq


def test_a_published_result_the_rules_do_not_give(story):
    closed = next(r for r in story.match("m1").records if r["entry"]["kind"] == "RoundClosed")
    seq = closed["entry"]["seq"]

    def crown_cy(records):
        records[seq - 1]["entry"]["public"]["winner"] = "cy"

    bundles = reforged(story, crown_cy)
    assert verified(bundles[PUBLIC]).entries  # signed by the host: the public cannot tell
    assert code_of(bundles[FULL]) == ("rerun_mismatch", seq)


def test_a_recorded_command_the_rules_refuse(story):
    bid = next(r for r in story.match("m1").records
               if r["parts"] and r["parts"][0]["kind"] == "CommandAccepted"
               and r["parts"][0]["data"]["name"] == "bid")
    seq = bid["entry"]["seq"]

    def overbid(records):
        records[seq - 1]["parts"][0]["data"]["args"]["amount"] = 12

    assert code_of(reforged(story, overbid)[FULL]) == ("rerun_refused", seq)


def test_an_entry_of_a_round_already_closed(story):
    late = next(r for r in story.match("m1").records if r["entry"]["round"] == 2)
    seq = late["entry"]["seq"]

    def backdate(records):
        records[seq - 1]["entry"]["round"] = 0

    assert code_of(reforged(story, backdate)[PUBLIC]) == ("bad_round", seq)


def test_a_sealed_entry_that_shows_its_kind(story):
    sealed = next(r for r in story.match("m1").records[2:] if r["entry"]["kind"] is None)
    seq = sealed["entry"]["seq"]

    def reveal(records):
        records[seq - 1]["entry"]["kind"] = "BidPlaced"

    assert code_of(reforged(story, reveal)[PUBLIC]) == ("malformed_entry", seq)


def test_a_sealed_entry_with_one_seal_fewer(story):
    """Every sealed entry carries SEALS commitments: one fewer would tell it apart."""
    fact = next(r for r in story.match("m1").records
                if r["role"] == "fact" and r["entry"]["kind"] is None)
    seq = fact["entry"]["seq"]

    def unpad(records):
        records[seq - 1]["parts"] = records[seq - 1]["parts"][:1]

    assert code_of(reforged(story, unpad)[PUBLIC]) == ("malformed_entry", seq)


def test_padding_that_hides_something(story):
    """A padding entry the host fills with a note of its own: the public cannot tell, the
    re-run of the full bundle does (the rules pad with nothing)."""
    padding = next(r for r in story.match("m1").records if r["role"] == "padding")
    seq = padding["entry"]["seq"]

    def note(records):
        records[seq - 1]["parts"][0]["data"] = {"note": "bob bid 5"}

    bundles = reforged(story, note)
    assert verified(bundles[PUBLIC]).entries
    assert code_of(bundles[FULL]) == ("rerun_mismatch", seq)


def test_a_dropped_command_with_everything_re_signed(story):
    """The host drops a whole command (its entries) and re-numbers the rest."""
    bid = next(r for r in story.match("m1").records
               if r["parts"] and r["parts"][0]["kind"] == "CommandAccepted"
               and r["parts"][0]["actor"] == "bob")
    seq = bid["entry"]["seq"]

    def drop(records):
        del records[seq - 1:seq + 1]
        for record in records[seq - 1:]:
            record["entry"]["seq"] -= 2

    with pytest.raises(AuditError):  # the stored checkpoints' sizes no longer fit
        verified(reforged(story, drop)[FULL])


# -- seals opened in public ------------------------------------------------------------------

def test_a_seal_opening_without_its_proof(public):
    index = next(i for i, v in enumerate(values(public)) if kind_of(v) == OPENED)
    opener = values(public)[index - 1]
    assert opener["kind"] == "SealOpened"
    assert failure([*public[:index], *public[index + 1:]]) == \
        ("missing_seal_proof", opener["seq"])


def test_a_seal_opening_that_discloses_another_secret(story):
    opener = next(r for r in story.match("m1").records if r["entry"]["kind"] == "SealOpened")
    seq = opener["entry"]["seq"]

    def another_secret(records):
        records[seq - 1]["entry"]["public"]["part"]["data"]["secret"] += 1

    bundles = reforged(story, another_secret)
    assert code_of(bundles[PUBLIC]) == ("bad_seal_opening", seq)
