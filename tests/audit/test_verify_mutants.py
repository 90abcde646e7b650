"""verify: the cases mutation testing found untested, each worked out from docs/audit.md
("`arbiter verify`", its report and its failure codes) on the story of tests/audit/test_bundle.py.
"""

from __future__ import annotations

import base64
import dataclasses
import gc
import json

import pytest

from audit import keys
from audit.bundle import CHECKPOINT, ENTRY, FULL, HEADER, OPENED, OPENING, PUBLIC, kind_of, line
from audit.canonical import commitment
from audit.checkpoints import leaves
from audit.errors import AuditError
from audit.merkle import consistency_proof, inclusion_proof, root
from audit.notes import checkpoint_body, parse_checkpoint, parse_note, parse_verifier_key
from audit.signing import extensions, parse_extensions
from audit.verify import verify
from audit.witness import Seen
from commands.cli.verify import verified_data
from domain.envelope import entry_hash
from tests.audit.test_bundle import (
    PLAYERS,
    SIGNER,
    STORY,
    bundle_of,
    memory_app,
    play,
    played_story,
    start,
    verified,
)
from tests.audit.test_verify import synthetic

story_fixture = pytest.fixture(played_story, scope="module", name="story")


def values(data: bytes) -> list[dict]:
    return [json.loads(raw) for raw in data.splitlines()]


def failure(data: bytes, **kwargs) -> tuple[str, int | None]:
    with pytest.raises(AuditError) as caught:
        verified(data, **kwargs)
    return caught.value.code, caught.value.seq


def test_the_report_of_a_full_and_a_public_bundle_line_by_line(story):
    """The report docs/audit.md shows, each finding's name padded to twelve columns."""
    for kind in (FULL, PUBLIC):
        data = bundle_of(story, kind)
        lines = values(data)
        entries = [v for v in lines if kind_of(v) == ENTRY]
        parts = sum(len(v[OPENING]["parts"]) for v in lines if kind_of(v) == OPENING)
        results = next(e["public"]["results"] for e in entries if e["kind"] == "MatchEnded")
        ranks = ", ".join(f"{p} {r}" for p, r in results["ranks"].items())
        n = len(entries)
        seed = "revealed at the end: it matches its commitment and re-derives the match seed"
        expected = [
            f"{kind} bundle of match m1: sealed_bid (sealed_bid/1), season spring, 3 players",
            f"entries      {n}: every line canonical, every hash and chain link holds"]
        if kind == FULL:
            expected += [f"openings     {parts} sealed parts open to their commitments with the "
                         "salts the salt key derives",
                         f"seed         the header's host seed matches its commitment; {seed}"]
        else:
            expected += [f"seed         {seed}"]
        expected += [
            f"checkpoints  3, each extending the one before; the last (round 2) covers {n} of "
            f"{n} entries",
            f"signed by    {SIGNER.verifier_key()} (named by the header: pass --key to pin the key"
            " the host published)"]
        if kind == FULL:
            expected += [f"rules        re-ran every command: all {n} entries and 3 signed state "
                         "roots reproduced"]
        expected += [f"outcome      {results['outcome']}; ranks {ranks}", "verified"]
        assert verified(data).report() == expected


def test_a_pinned_key_and_a_key_source_are_named_in_the_report(story):
    data = bundle_of(story, PUBLIC)
    pinned = verified(data, key=parse_verifier_key(SIGNER.verifier_key()))
    assert f"signed by    {SIGNER.verifier_key()} (pinned with --key)" in pinned.report()
    pinned.key_source = "remembered for this origin"
    assert f"signed by    {SIGNER.verifier_key()} (remembered for this origin)" in \
        pinned.report()


def test_a_match_under_way_has_no_outcome_and_no_seed_yet():
    app = memory_app()
    play(app, STORY[:5])  # round 1 is under way
    report = verified(bundle_of(app, PUBLIC)).report()
    assert "seed         not revealed yet" in report
    assert "outcome      the match has not ended" in report
    full = verified(bundle_of(app, FULL)).report()
    assert "seed         the header's host seed matches its commitment; not revealed yet" in full
    app.close()


def test_an_unsigned_match_says_so_and_a_weak_seed_is_named():
    app = memory_app(signer=None)
    app.create_season("s")
    for player in PLAYERS:
        app.register("s", player)
    app.create_match(match_id="w", season="s", game="sealed_bid", setup={"players": PLAYERS},
                     host_seed="tiny", salt_key="cd" * 32, allow_weak_seed=True, unsigned=True)
    report = verified(bundle_of(app, PUBLIC, match_id="w", signer=None)).report()
    assert "checkpoints  none: the host created this match unsigned (its genesis entry says so):" \
        " nothing in this bundle is signed" in report
    assert "seed         not revealed yet (a weak seed, under 128 bits: the host allowed it)" in \
        report
    app.close()


def test_a_signed_match_without_checkpoints_yet_says_nothing_is_signed():
    app = memory_app()
    start(app)  # round 0 has not closed: no checkpoint yet
    report = verified(bundle_of(app, PUBLIC)).report()
    assert "checkpoints  none: nothing in this bundle is signed" in report
    app.close()


def test_a_stranger_key_pinned_is_refused_even_when_the_header_names_the_right_one(story):
    stranger = parse_verifier_key(keys.generate("host.example").verifier_key())
    assert failure(bundle_of(story, PUBLIC), key=stranger)[0] == "wrong_host_key"


def test_an_empty_bundle_and_a_first_line_that_is_no_header():
    assert failure(b"")[0] == "malformed_header"
    assert failure(line({"checkpoint": {}}).encode())[0] == "malformed_header"


def test_each_kind_of_line_out_of_place(story):
    # Each put after entry 2, which the error names.
    lines = bundle_of(story, PUBLIC).splitlines(keepends=True)
    header = lines[0]
    assert failure(b"".join([*lines[:3], header, *lines[3:]])) == ("unexpected_line", 2)
    assert failure(b"".join([*lines[:3], line({"what": 1}).encode(), *lines[3:]])) == \
        ("malformed_line", 2)
    opened = next(raw for raw in lines if kind_of(json.loads(raw)) == OPENED)
    assert failure(b"".join([*lines[:3], opened, *lines[3:]])) == ("unexpected_line", 2)


def test_a_checkpoint_line_of_the_wrong_shape(story):
    lines = bundle_of(story, PUBLIC).splitlines(keepends=True)
    index = next(i for i, raw in enumerate(lines) if kind_of(json.loads(raw)) == CHECKPOINT)
    value = json.loads(lines[index])[CHECKPOINT]
    for bad in ({**value, "extra": 1}, {"note": value["note"]}, {**value, "note": 5},
                {**value, "consistency": "none"}, "a note"):
        forged = [*lines[:index], line({CHECKPOINT: bad}).encode(), *lines[index + 1:]]
        assert failure(b"".join(forged))[0] == "malformed_checkpoint"


def test_a_header_not_in_its_one_spelling(story):
    data = bundle_of(story, PUBLIC)
    lines = data.splitlines(keepends=True)
    header = json.loads(lines[0])
    host_key = header[HEADER]["host_key"]
    while host_key.split("+")[1].isdigit():  # a key hash of digits alone has one spelling
        host_key = keys.generate("test-host").verifier_key()
    name, key_hash, rest = host_key.split("+", 2)
    header[HEADER]["host_key"] = f"{name}+{key_hash.upper()}+{rest}"
    assert key_hash != key_hash.upper()
    assert failure(b"".join([line(header).encode(), *lines[1:]]))[0] == "malformed_header"
    header[HEADER]["host_key"] = "not a key"
    assert failure(b"".join([line(header).encode(), *lines[1:]]))[0] == "malformed_header"


# -- one entry edited and hashed again: the check that names it is the one under test --------

def rehashed(data: bytes, seq: int, edit) -> bytes:
    """The bundle with entry `seq` edited and its hash recomputed (the chain after it breaks,
    but only after the entry itself was checked)."""
    lines = data.splitlines(keepends=True)
    index = next(i for i, raw in enumerate(lines)
                 if kind_of(v := json.loads(raw)) == ENTRY and v["seq"] == seq)
    entry = json.loads(lines[index])
    edit(entry)
    entry["hash"] = entry_hash({k: v for k, v in entry.items() if k != "hash"})
    return b"".join([*lines[:index], line(entry).encode(), *lines[index + 1:]])


@pytest.mark.parametrize("seq, edit", [
    (7, lambda e: e.update(v=2)),                                  # another envelope version
    (7, lambda e: e.update(match="m2")),                           # another match's entry
    (7, lambda e: e.update(round="0")),                            # a round that is no integer
    (7, lambda e: e.update(seals="none")),                         # seals that are no list
    (7, lambda e: e.update(seals=[e["seals"][0].upper()])),        # not lower-case hex
    (7, lambda e: e.update(seals=[e["seals"][0][:63]])),           # not 64 digits
    (7, lambda e: e.update(seals=[7])),
    (7, lambda e: e.update(seals=[])),                             # a public command carries one
    (8, lambda e: e.update(seals=["0" * 64])),                     # a public fact none
    (9, lambda e: e.update(seals=e["seals"][:1])),                 # a sealed entry two
    (9, lambda e: e.update(actor="host")),                         # sealed: shows nothing
    (9, lambda e: e.update(at="2026-11-21T20:02:00Z")),
    (9, lambda e: e.update(public={})),
    (9, lambda e: e.update(postings=[])),
    (8, lambda e: e.update(kind=5)),                               # public: kind, actor texts
    (8, lambda e: e.update(actor=None)),
    (8, lambda e: e.update(at=5)),
    (8, lambda e: e.update(public=[])),
    (8, lambda e: e.update(postings=None)),
    (8, lambda e: e.update(postings=[{"player": "ann", "asset": "garnets", "amount": "1",
                                      "reason": "r"}])),
    (8, lambda e: e.update(postings=[{"player": "ann", "asset": "garnets", "amount": 1}])),
    (8, lambda e: e.update(postings=[{"player": 1, "asset": "garnets", "amount": 1,
                                      "reason": "r"}])),
    (8, lambda e: e.update(postings=[{"player": "ann", "asset": 1, "amount": 1,
                                      "reason": "r"}])),
    (8, lambda e: e.update(postings=[{"player": "ann", "asset": "garnets", "amount": 1,
                                      "reason": None}])),
    (8, lambda e: e.update(postings=["ann"])),
    (8, lambda e: e.pop("postings")),                              # not the envelope's fields
])
def test_an_entry_of_the_wrong_envelope_is_malformed(story, seq, edit):
    # Entry 7 is the host's public open_match, 8 the public MatchOpened, 9 a sealed fact.
    assert failure(rehashed(bundle_of(story, PUBLIC), seq, edit)) == ("malformed_entry", seq)


def test_a_public_fact_may_carry_no_time_and_well_formed_postings(story):
    data = rehashed(bundle_of(story, PUBLIC), 35, lambda e: e.update(at=None, postings=[
        {"player": "ann", "asset": "garnets", "amount": -1, "reason": "r"}]))
    assert failure(data)[0] == "root_mismatch"  # the envelope passed; the signed root did not


def test_a_hash_that_is_no_text_or_a_seq_that_is_no_integer(story):
    data = bundle_of(story, PUBLIC)
    lines = data.splitlines(keepends=True)
    entry = json.loads(lines[1])
    numbered = {**entry, "hash": 5}
    assert failure(b"".join([lines[0], line(numbered).encode(), *lines[2:]])) == ("bad_hash", 1)
    assert failure(rehashed(data, 1, lambda e: e.update(seq=True))) == ("bad_seq", 1)


def test_the_genesis_entry_must_be_the_match_created_in_round_0(story):
    data = bundle_of(story, PUBLIC)
    assert failure(rehashed(data, 1, lambda e: e.update(kind="MatchMade"))) == \
        ("header_mismatch", 1)
    assert failure(rehashed(data, 1, lambda e: e.update(round=1))) == ("header_mismatch", 1)


def test_an_entry_in_the_round_a_checkpoint_closed(story):
    # Entry 11 opens round 1 after the checkpoint of round 0: moved back into round 0.
    data = rehashed(bundle_of(story, PUBLIC), 11, lambda e: e.update(round=0))
    assert failure(data) == ("bad_round", 11)


@pytest.mark.parametrize("edit", [
    lambda d: d.update(host_seed=5),                                # no text
    lambda d: d.update(host_seed="t" * 40),                         # not the committed one
    lambda d: d.update(contributions={}),                           # not the logged ones
    lambda d: d.update(contributions={"bob": "bob's luck", "cy": "x"}),
    lambda d: d.update(seed="0" * 64),                              # does not re-derive
    lambda d: d.pop("seed"),
])
def test_a_revealed_seed_that_does_not_hold(story, edit):
    data = rehashed(bundle_of(story, PUBLIC), 35, lambda e: edit(e["public"]))
    assert failure(data) == ("seed_mismatch", 35)


# -- seals opened in public: entry 33 opens the secret drawn at entry 9 ----------------------

def opened_line(data: bytes, edit) -> bytes:
    """The bundle with the proof line after the SealOpened entry edited."""
    lines = data.splitlines(keepends=True)
    index = next(i for i, raw in enumerate(lines) if kind_of(json.loads(raw)) == OPENED)
    return line_edit(lines, index, OPENED, edit)


def line_edit(lines: list[bytes], index: int, kind: str, edit) -> bytes:
    """The bundle with line `index`, a `kind` line, edited in place, or replaced by what the
    edit returns."""
    value = json.loads(lines[index])[kind]
    edited = edit(value)
    return b"".join([*lines[:index], line({kind: value if edited is None else edited})
                     .encode(), *lines[index + 1:]])


@pytest.mark.parametrize("edit", [
    lambda o: o.update(extra=1),
    lambda o: o.pop("proof"),                                   # (the line becomes the list)
    lambda o: nothing(o.pop("proof")),                          # the proof member missing
    lambda o: o.update(seq=8),                                  # not the seq the claim names
    lambda o: o.update(entry="entry 9"),
    lambda o: o.update(proof="none"),
    lambda o: "a proof",
    lambda o: o.update(proof=o["proof"][1:]),                   # a sibling hash missing
    lambda o: o.update(proof=[*o["proof"][:-1], "0" * 44]),     # not a base64 hash
    lambda o: o["entry"].update(round=1),                       # not the entry as hashed
    lambda o: o["entry"].update(seq=8),
])
def test_a_seal_proof_line_that_does_not_hold(story, edit):
    assert failure(opened_line(bundle_of(story, PUBLIC), edit)) == ("bad_seal_opening", 33)


def claimed(data: bytes, edit) -> bytes:
    """The SealOpened entry (33) with its claim edited and re-hashed, and its proof line made
    again over the edited log, so the claim itself is what is checked."""
    edited = rehashed(data, 33, lambda e: edit(e["public"]))
    entries = [v for v in values(edited) if kind_of(v) == ENTRY][:33]
    proof = inclusion_proof(8, leaves(entries))
    return opened_line(edited, lambda o: o.update(
        proof=[base64.b64encode(h).decode() for h in proof]))


@pytest.mark.parametrize("edit", [
    lambda c: c.update(extra=1),
    lambda c: c.pop("salt"),
    lambda c: c.update(seq="9"),
    lambda c: c.update(index="0"),
    lambda c: c.update(salt=5),
    lambda c: c.update(salt=c["salt"].upper()),
    lambda c: c.update(salt=c["salt"][:62]),
    lambda c: c.update(index=1),                                 # the padding part's seal
    lambda c: c.update(index=2),                                 # no such seal
    lambda c: c.update(index=-1),
    lambda c: c.update(salt="0" * 64),
    lambda c: c["part"]["data"].update(secret=c["part"]["data"]["secret"] + 1),
])
def test_a_seal_opened_that_does_not_open_its_seal(story, edit):
    assert failure(claimed(bundle_of(story, PUBLIC), edit)) == ("bad_seal_opening", 33)


def test_a_seal_opened_as_claimed_verifies_and_its_part_must_be_a_part(story):
    data = bundle_of(story, PUBLIC)
    assert verified(claimed(data, lambda c: None)).entries == 35  # the helper alone changes nothing
    assert failure(claimed(data, lambda c: c["part"].update(audience=["ann", 5]))) == \
        ("bad_opening", 33)


def test_seal_opened_names_an_earlier_entry_only(story):
    for seq in (0, 33, 34):
        def claim(e, seq=seq):
            e["public"]["seq"] = seq
        data = opened_line(rehashed(bundle_of(story, PUBLIC), 33, claim),
                           lambda o, seq=seq: o.update(seq=seq))
        assert failure(data) == ("bad_seal_opening", 33)


def test_a_bundle_that_ends_right_after_a_seal_opened(story):
    lines = bundle_of(story, PUBLIC).splitlines(keepends=True)
    index = next(i for i, raw in enumerate(lines) if kind_of(json.loads(raw)) == OPENED)
    header = json.loads(lines[0])
    header[HEADER]["entries"] = 33
    cut = b"".join([line(header).encode(), *lines[1:index]])
    assert failure(cut) == ("missing_seal_proof", 33)
    header[HEADER]["entries"] = 34  # entry 34 is missing too: cut, naming the first lost
    assert failure(b"".join([line(header).encode(), *lines[1:index]])) == ("truncated", 34)


# -- openings of a full bundle ---------------------------------------------------------------

def opening_of(data: bytes, seq: int, edit) -> bytes:
    lines = data.splitlines(keepends=True)
    index = next(i for i, raw in enumerate(lines) if kind_of(v := json.loads(raw)) == OPENING
                 and v[OPENING]["seq"] == seq)
    return line_edit(lines, index, OPENING, edit)


@pytest.mark.parametrize("edit, code", [
    (lambda o: o.update(extra=1), "missing_opening"),
    (lambda o: o.pop("salts"), "missing_opening"),             # (the line becomes the list)
    (lambda o: nothing(o.pop("salts")), "missing_opening"),    # the salts member missing
    (lambda o: o.update(seq=10), "missing_opening"),
    (lambda o: [o], "missing_opening"),
    (lambda o: o.update(parts=o["parts"][:1]), "bad_opening"),
    (lambda o: o.update(salts=o["salts"][:1]), "bad_opening"),
    (lambda o: o.update(parts=o["parts"][:1], salts=o["salts"][:1]), "bad_opening"),
    (lambda o: o.update(parts="parts"), "bad_opening"),
    (lambda o: o.update(salts="salts"), "bad_opening"),
    (lambda o: o["salts"].reverse(), "bad_salt"),
])
def test_an_opening_of_the_wrong_shape(story, edit, code):
    assert failure(opening_of(bundle_of(story, FULL), 9, edit)) == (code, 9)


def test_a_bundle_that_ends_before_an_opening(story):
    lines = bundle_of(story, FULL).splitlines(keepends=True)
    index = next(i for i, raw in enumerate(lines) if kind_of(v := json.loads(raw)) == OPENING
                 and v[OPENING]["seq"] == 9)
    header = json.loads(lines[0])
    header[HEADER]["entries"] = 9
    with pytest.raises(AuditError) as caught:
        verified(b"".join([line(header).encode(), *lines[1:index]]))
    assert (caught.value.code, caught.value.seq) == ("truncated", 9)
    assert "(and before an opening)" in caught.value.message


# -- checkpoints: round 0 closes at entry 10, round 1 at 19, round 2 (the end) at 35 ---------

def with_checkpoint(data: bytes, number: int, note: str | None = None,
                    consistency: list | None = None) -> bytes:
    """The bundle with checkpoint `number` given another note or consistency proof."""
    lines = data.splitlines(keepends=True)
    index = [i for i, raw in enumerate(lines) if kind_of(json.loads(raw)) == CHECKPOINT][number]
    value = json.loads(lines[index])[CHECKPOINT]
    value = {"note": value["note"] if note is None else note,
             "consistency": value["consistency"] if consistency is None else consistency}
    return b"".join([*lines[:index], line({CHECKPOINT: value}).encode(), *lines[index + 1:]])


def resigned(story, number: int, *, origin_of: str = "arbiter/match/m1", round_by: int = 0):
    text = parse_note(story.checkpoints("m1").notes[number]["note"]).text
    cp = parse_checkpoint(text)
    close = parse_extensions(cp.extensions)
    return SIGNER.sign_note(checkpoint_body(origin_of, cp.size, cp.root,
                                            extensions(close.round + round_by, close.state_root)))


def test_a_checkpoint_of_another_log_or_closing_another_round(story):
    data = bundle_of(story, PUBLIC)
    assert failure(with_checkpoint(data, 1, resigned(story, 1, origin_of="arbiter/match/m2"))) \
        == ("wrong_origin", 19)
    assert failure(with_checkpoint(data, 1, resigned(story, 1, round_by=1))) == ("bad_round", 19)
    assert failure(with_checkpoint(data, 1, resigned(story, 1, round_by=-1))) == \
        ("bad_round", 19)
    assert verified(with_checkpoint(data, 1, resigned(story, 1))).entries == 35  # re-signed alike


def test_a_signature_in_another_spelling_of_its_bytes(story):
    note = story.checkpoints("m1").notes[0]["note"]
    text, signature_line = note.rstrip("\n").rsplit("\n", 1)
    b64 = signature_line.rsplit(" ", 1)[1]
    assert b64.endswith("=") and not b64.endswith("==")  # 68 bytes: two spare bits at the end
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    other = b64[:-2] + alphabet[alphabet.index(b64[-2]) ^ 1] + "="
    assert base64.b64decode(other) == base64.b64decode(b64)
    respelled = f"{text}\n{signature_line.rsplit(' ', 1)[0]} {other}\n"
    assert failure(with_checkpoint(bundle_of(story, PUBLIC), 0, respelled)) == \
        ("malformed_checkpoint", 10)


def test_a_signed_match_whose_header_names_no_key_needs_one(story):
    lines = bundle_of(story, PUBLIC).splitlines(keepends=True)
    header = json.loads(lines[0])
    header[HEADER]["host_key"] = None
    data = b"".join([line(header).encode(), *lines[1:]])
    assert failure(data) == ("no_host_key", 10)
    assert verified(data, key=parse_verifier_key(SIGNER.verifier_key())).entries == 35


@pytest.mark.parametrize("proof", [
    ["not base64"], [base64.b64encode(bytes(31)).decode()], [5], ["\N{EM DASH}" * 44],
])
def test_a_consistency_hash_that_cannot_be_read(story, proof):
    assert failure(with_checkpoint(bundle_of(story, PUBLIC), 1, consistency=proof)) == \
        ("malformed_checkpoint", 19)


def test_the_first_checkpoint_has_no_consistency_proof(story):
    data = with_checkpoint(bundle_of(story, PUBLIC), 0,
                           consistency=[base64.b64encode(bytes(32)).decode()])
    assert failure(data) == ("inconsistent_checkpoints", 10)


def test_a_checkpoint_inside_a_command_or_before_the_setup(story):
    """Signed by the host at a size the log holds, right after that entry: in a full bundle the
    re-run shows the command at entry 11 (ann's bid) is not done until entry 12."""
    entries = [r["entry"] for r in story.match("m1").records]
    lines = bundle_of(story, FULL).splitlines(keepends=True)
    for size, after_kind in ((11, OPENING), (1, ENTRY)):
        state = "0" * 64
        note = SIGNER.sign_note(checkpoint_body("arbiter/match/m1", size,
                                                root(leaves(entries[:size])),
                                                extensions(0 if size == 1 else 1, state)))
        index = next(i for i, raw in enumerate(lines)
                     if kind_of(v := json.loads(raw)) == after_kind
                     and (v[OPENING]["seq"] if after_kind == OPENING else v["seq"]) == size)
        consistency = [] if size == 1 else None
        if consistency is None:
            consistency = [base64.b64encode(h).decode()
                           for h in consistency_proof(10, leaves(entries[:size]))]
        inserted = line({CHECKPOINT: {"note": note, "consistency": consistency}}).encode()
        data = b"".join([*lines[:index + 1], inserted, *lines[index + 1:]])
        assert failure(data) == ("checkpoint_misplaced", size)


def test_a_note_that_cannot_be_read_is_a_malformed_checkpoint(story):
    data = with_checkpoint(bundle_of(story, PUBLIC), 0, "no note\n")
    assert failure(data) == ("malformed_checkpoint", 10)


def test_results_without_ranks_report_the_outcome_alone(story):
    audit = verified(bundle_of(story, PUBLIC))
    audit.results = {"outcome": "abandoned"}
    assert "outcome      abandoned; ranks " in audit.report()


def test_a_bundle_cut_cleanly_after_an_entry_is_truncated_at_the_next(story):
    """Nothing pending, no seal awaiting its proof: the header's count alone shows the cut."""
    lines = bundle_of(story, PUBLIC).splitlines(keepends=True)
    index = next(i for i, raw in enumerate(lines)
                 if kind_of(v := json.loads(raw)) == ENTRY and v["seq"] == 20)
    assert failure(b"".join(lines[:index + 1])) == ("truncated", 21)


@pytest.mark.parametrize("raw", [b'{"seq":\xff}\n', b"{not json\n"])
def test_a_line_that_is_not_utf8_json_is_malformed(story, raw):
    lines = bundle_of(story, PUBLIC).splitlines(keepends=True)
    assert failure(b"".join([*lines[:3], raw, *lines[3:]]))[0] == "malformed_line"


def test_a_bundle_without_checkpoints_of_a_log_seen_signed_is_rolled_back(story):
    """Seen signed at the close of round 0 (size 10); a bundle of the same match that holds no
    checkpoint at all covers 0 entries under a signature: rolled back."""
    round_0 = next(n for n in story.checkpoints("m1").notes if n["round"] == 0)
    cp = parse_checkpoint(parse_note(round_0["note"]).text)
    seen = Seen("arbiter/match/m1", SIGNER.verifier_key(), cp.size, cp.root)
    lines = bundle_of(story, PUBLIC).splitlines(keepends=True)
    header = json.loads(lines[0])
    header[HEADER]["checkpoints"] = 0
    bare = [line(header).encode(), *(raw for raw in lines[1:]
                                      if kind_of(json.loads(raw)) != CHECKPOINT)]
    assert failure(b"".join(bare), seen=seen, complete=False) == ("rolled_back", 35)


# -- the second run (bench/mutation.py): what it found untested -----------------------------

def test_progress_is_reported_after_each_chunk_of_1024_lines():
    """docs/audit.md: lines are read in chunks of 1,024; progress comes after each. A bundle of
    3,000 entries is 3,001 lines (the header first): chunks end after entries 1,023 and 2,047,
    then the last after entry 3,000."""
    seen = []
    verify(synthetic(3_000), progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1_023, 3_000), (2_047, 3_000), (3_000, 3_000)]


def test_a_kept_log_holds_every_entry_and_none_is_kept_unless_asked(story):
    data = bundle_of(story, FULL)
    entries = [v for v in values(data) if kind_of(v) == ENTRY]
    assert verified(data, keep_log=True).kept == entries
    plain = verified(data)  # flat memory: nothing kept by default
    assert plain.log is None
    with pytest.raises(AssertionError):
        assert plain.kept is None  # raises first


def test_a_match_under_way_is_reported_not_ended_and_an_ended_one_ended(story):
    """`verify --json` prints `ended`: false (not null) while the match goes on."""
    app = memory_app()
    play(app, STORY[:5])
    under_way = verified(bundle_of(app, PUBLIC))
    assert under_way.ended is False and under_way.results is None
    assert verified_data(under_way)["ended"] is False
    app.close()
    assert verified(bundle_of(story, PUBLIC)).ended is True


def test_the_marks_and_signed_checkpoints_of_an_audit_cannot_be_changed(story):
    """What was found signed is a record: a mark or a checkpoint read from a bundle is frozen
    (and so can be a key or a set member)."""
    audit = verified(bundle_of(story, PUBLIC))
    mark, checkpoint = audit.marks[0], audit.checkpoints[0]
    for record, name in ((mark, "size"), (checkpoint, "size")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, name, 1)
    assert len({mark, mark, checkpoint}) == 2


def test_a_seal_opened_followed_by_anything_but_its_proof(story):
    """The line after a SealOpened entry (33) must be its proof: a second header there, or
    the proof line dropped so entry 34 follows, is `missing_seal_proof` naming entry 33, on
    that line."""
    lines = bundle_of(story, PUBLIC).splitlines(keepends=True)
    index = next(i for i, raw in enumerate(lines) if kind_of(json.loads(raw)) == OPENED)
    for other in ([lines[0]], []):
        with pytest.raises(AuditError) as caught:
            verified(b"".join([*lines[:index], *other, *lines[index + 1:]]))
        assert (caught.value.code, caught.value.seq, caught.value.line) == \
            ("missing_seal_proof", 33, index + 1)


def test_verify_gives_the_garbage_collector_back_as_it_found_it(story):
    """verify turns the collector off while it streams; the caller's setting comes back after
    a verify that passes and after one that fails."""
    data = bundle_of(story, PUBLIC)
    assert gc.isenabled()
    try:
        verified(data)
        assert gc.isenabled()
        failure(data[:-1])
        assert gc.isenabled()
        gc.disable()
        verified(data)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_full_headers_host_seed_is_checked_on_the_header_line(story):
    """The header's host seed must hash to its seed commitment: refused on line 1, before
    any entry (no seq)."""
    lines = bundle_of(story, FULL).splitlines(keepends=True)
    header = json.loads(lines[0])
    header[HEADER]["host_seed"] = "t" * 40
    with pytest.raises(AuditError) as caught:
        verified(b"".join([line(header).encode(), *lines[1:]]))
    assert (caught.value.code, caught.value.seq, caught.value.line) == ("seed_mismatch", None, 1)


def test_a_setup_commitment_not_the_sealed_setups_names_entry_2(story):
    lines = bundle_of(story, PUBLIC).splitlines(keepends=True)
    header = json.loads(lines[0])
    header[HEADER]["setup_commitment"] = "0" * 64
    assert failure(b"".join([line(header).encode(), *lines[1:]])) == ("header_mismatch", 2)


def test_an_abandoned_match_has_ended_without_results():
    """The host ends the match in round 1 (MatchAbandoned): it has ended, with no outcome, and
    the round under way closed with the host's signed checkpoint."""
    app = memory_app()
    play(app, STORY[:5])
    app.submit("m1", "host", "end", {"reason": "the host's connection died"})
    for kind in (PUBLIC, FULL):
        audit = verified(bundle_of(app, kind))
        assert audit.ended is True and audit.results is None
        assert not any(r.startswith("outcome") for r in audit.report())
        assert sorted(audit.marks) == [0, 1] and audit.checkpoints[-1].round == 1
    app.close()


def test_a_checkpoint_in_the_bundle_of_a_match_created_unsigned(story):
    """Nothing of an unsigned match is signed: any checkpoint line in its bundle is out of
    place, whatever it holds and whatever key is pinned."""
    app = memory_app(signer=None)
    app.create_season("s")
    for player in PLAYERS:
        app.register("s", player)
    app.create_match(match_id="w", season="s", game="sealed_bid", setup={"players": PLAYERS},
                     host_seed="h" * 40, salt_key="cd" * 32, unsigned=True)
    lines = bundle_of(app, PUBLIC, match_id="w", signer=None).splitlines(keepends=True)
    signed = bundle_of(story, PUBLIC).splitlines(keepends=True)
    checkpoint = next(raw for raw in signed if kind_of(json.loads(raw)) == CHECKPOINT)
    header = json.loads(lines[0])
    for announced in (0, None):  # announcing none, or not announcing: out of place either way
        if announced is None:
            del header[HEADER]["checkpoints"]
        else:
            assert header[HEADER]["checkpoints"] == announced
        forged = b"".join([line(header).encode(), *lines[1:], checkpoint])
        assert failure(forged) == ("unexpected_line", 2)
        assert failure(forged, key=parse_verifier_key(SIGNER.verifier_key())) == \
            ("unexpected_line", 2)
    app.close()


def test_an_opening_part_of_the_wrong_shape_that_opens_its_commitment(story):
    """Entry 9 sealed again over a part of the wrong shape (an extra field), its commitment
    and hash made anew: the part opens its seal but is no part (`bad_opening`, entry 9)."""
    lines = bundle_of(story, FULL).splitlines(keepends=True)
    at = next(i for i, raw in enumerate(lines)
              if kind_of(v := json.loads(raw)) == ENTRY and v["seq"] == 9)
    entry, opening = json.loads(lines[at]), json.loads(lines[at + 1])[OPENING]
    for bad in ({**opening["parts"][0], "extra": 1}, {**opening["parts"][0], "data": []}):
        parts = [bad, *opening["parts"][1:]]
        seals = [commitment(bytes.fromhex(s), p) for s, p in zip(opening["salts"], parts,
                                                                  strict=True)]
        sealed = {**entry, "seals": seals}
        sealed["hash"] = entry_hash({k: v for k, v in sealed.items() if k != "hash"})
        forged = [*lines[:at], line(sealed).encode(),
                  line({OPENING: {**opening, "parts": parts}}).encode(), *lines[at + 2:]]
        assert failure(b"".join(forged)) == ("bad_opening", 9)


def test_a_bundle_with_no_checkpoint_is_older_than_any_seen_signed(story):
    """The witness's rule holds at its smallest: a log seen signed at size 1 (entry 1 alone)
    and a bundle of it holding no checkpoint (0 entries signed) is rolled back."""
    lines = bundle_of(story, PUBLIC).splitlines(keepends=True)
    first = next(json.loads(raw) for raw in lines if kind_of(json.loads(raw)) == ENTRY)
    seen = Seen("arbiter/match/m1", SIGNER.verifier_key(), 1, root(leaves([first])))
    header = json.loads(lines[0])
    header[HEADER]["checkpoints"] = 0
    bare = [line(header).encode(), *(raw for raw in lines[1:]
                                      if kind_of(json.loads(raw)) != CHECKPOINT)]
    assert failure(b"".join(bare), seen=seen, complete=False) == ("rolled_back", 35)


@pytest.mark.parametrize("edit", [
    lambda p: p.update(kind=5),
    lambda p: p.update(actor=None),
    lambda p: p.update(data=[]),
    lambda p: p.update(at=5),
    lambda p: p.update(postings=None),
    lambda p: p.update(postings=["ann"]),
    lambda p: p.update(postings=[{"player": "ann", "asset": "garnets", "amount": True,
                                  "reason": "r"}]),
    lambda p: p.update(audience="everyone"),
    lambda p: p.update(audience=[5]),
    lambda p: p.update(audience=None),
    lambda p: p.update(extra=1),
    lambda p: nothing(p.pop("at")),
])
def test_a_disclosed_part_of_the_wrong_shape(story, edit):
    """docs/audit.md: a part is {audience, kind, actor, at, data, postings}, the audience
    "host" or a list of player names. Checked before its commitment (`bad_opening`)."""
    assert failure(claimed(bundle_of(story, PUBLIC), lambda c: edit(c["part"]))) == \
        ("bad_opening", 33)


@pytest.mark.parametrize("edit", [
    lambda p: p.update(at=None),                                  # no time is a part's right
    lambda p: p.update(audience=["ann", "bob"]),
    lambda p: p.update(postings=[{"player": "ann", "asset": "garnets", "amount": -1,
                                  "reason": "r"}]),
])
def test_a_disclosed_part_of_the_right_shape_must_still_open_its_seal(story, edit):
    assert failure(claimed(bundle_of(story, PUBLIC), lambda c: edit(c["part"]))) == \
        ("bad_seal_opening", 33)


def nothing(_: object) -> None:
    """An edit's value, dropped (the line helpers replace a value only when given one)."""


@pytest.mark.parametrize("raw", [b'{"seq":\xff}\n', b"{not json\n", b'{"a":1.5}\n'])
def test_a_line_that_cannot_be_read_names_the_entry_it_follows(story, raw):
    """A line that is not UTF-8, not JSON or not canonical has no seq yet: the error names
    none, and says which entry the line follows (here entry 2, on line 4)."""
    lines = bundle_of(story, PUBLIC).splitlines(keepends=True)
    with pytest.raises(AuditError) as caught:
        verified(b"".join([*lines[:3], raw, *lines[3:]]))
    error = caught.value
    assert (error.seq, error.line) == (None, 4)
    assert error.code == ("not_canonical" if b"1.5" in raw else "malformed_line")
    assert "(the line after entry 2)" in error.detail


def test_a_checkpoint_cosigned_by_a_witness_still_verifies(story):
    """A note may carry signatures by other keys (a witness's cosignature): they are ignored,
    each line in its one spelling, and the host's signature still holds."""
    note = story.checkpoints("m1").notes[0]["note"]
    text = parse_note(note).text
    witness = keys.generate("witness.example").sign_note(text)
    cosigned = note + witness.split("\n\n", 1)[1]  # the witness's signature line after the host's
    assert len(parse_note(cosigned).signatures) == 2
    assert verified(with_checkpoint(bundle_of(story, PUBLIC), 0, cosigned)).entries == 35
