"""verify's hot path (audit/verify.py `_ordinary`, audit/sealed_line.py) takes the ordinary
entries of a public bundle; the general path takes every other line and says what fails. On
any bundle, tampered or not, both must come to the same end: the same audit, or the same
failure at the same line with the same message."""

from __future__ import annotations

import json
from hashlib import sha256
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import audit.verify
from audit.bundle import ENTRY, PUBLIC, kind_of, line
from audit.checkpoints import leaves
from audit.errors import AuditError
from audit.merkle import root
from audit.witness import Seen
from domain.envelope import EVENT_PREFIX
from tests.audit.test_bundle import bundle_of, played_story, verified
from tests.audit.test_verify import synthetic

story_fixture = pytest.fixture(played_story, scope="module", name="story")


@pytest.fixture(scope="module")
def public(story) -> list[bytes]:
    return bundle_of(story, PUBLIC).splitlines(keepends=True)


def outcome(lines: list[bytes], **kwargs) -> tuple:
    try:
        audit = verified(b"".join(lines), **kwargs)
    except AuditError as error:
        return "failed", error.code, error.seq, error.line, str(error)
    return ("verified", audit.entries, audit.checkpoints, audit.marks, audit.results,
            audit.ended, audit.seed_revealed)


def general_path_only():
    """verify with the hot path taking nothing: every line goes the general way."""
    return mock.patch.object(audit.verify._Verifier, "_ordinary",
                             lambda self, lines, taken, sealed: taken)


def both_ways(lines: list[bytes], **kwargs) -> tuple:
    hot = outcome(lines, **kwargs)
    with general_path_only():
        assert outcome(lines, **kwargs) == hot
    return hot


def test_the_hot_path_takes_every_ordinary_entry(public):
    """The general path parses the header, the two entries it names, the checkpoints, the
    public facts verify acts on and their proofs: no other line."""
    noted = {"SeedContributed", "SeedRevealed", "MatchEnded", "MatchAbandoned", "SealOpened"}
    values = [json.loads(raw) for raw in public]
    general = [v for v in values if kind_of(v) != ENTRY or v["seq"] <= 2 or v["kind"] in noted]
    with mock.patch.object(audit.verify, "read_fast", wraps=audit.verify.read_fast) as parsed:
        verified(b"".join(public))
    assert [json.loads(raw) for (raw,), _ in parsed.call_args_list] == general


def test_a_long_synthetic_bundle_ends_the_same_both_ways():
    lines = list(synthetic(3_000))
    assert both_ways(lines)[:2] == ("verified", 3_000)
    lines[2_500] = lines[2_500].replace(b'"n":2500', b'"n":2501')
    assert both_ways(lines)[:3] == ("failed", "bad_hash", 2_500)


# -- any line tampered ------------------------------------------------------------------------

POSTING = {"amount": 1, "asset": "gold", "player": "ann", "reason": "x"}
OTHER_VALUES = {  # for each field of an entry, values of the right type and of the wrong one
    "actor": [None, "x", 1], "at": [None, "x", 1], "match": [None, "x"],
    "kind": [None, "x", "CommandAccepted", "SealOpened", "MatchEnded"],
    "postings": [None, [], [POSTING], [{**POSTING, "amount": 2**53}]],
    "prev": ["0" * 64, "F" * 64, None],
    "public": [None, {}, {"b": 1, "a": 2}, {"a": 2**53}, {"a": [1.5]}, {"a": "\u2028\x7f"},
               {"\ue000": 1, "\U0001f600": 2}],
    "seals": [[], ["F" * 64], ["g" * 64], ["0" * 63], ["0" * 65], ["0" * 64] * 3,
              ["0" * 64, "F" * 64], ["g" * 64, "0" * 64], ["0" * 64, "x" * 64],
              ["0" * 64, "0" * 63 + "-"]],
    "v": [0, 2, True]}


def rehashed(entry: dict, as_it_stands: bool = False) -> bytes:
    """An entry's line with its hash made again over the line as written, so that verify looks
    past the hash: canonical unless told otherwise or the values do not allow it, else as the
    values stand (the keys of `public` in their order, floats and large integers as they
    are)."""
    entry = {**entry, "hash": "0" * 64}
    try:
        if as_it_stands:
            raise ValueError
        text = line(entry).encode()
    except ValueError:
        text = json.dumps(dict(sorted(entry.items())), separators=(",", ":"),
                          ensure_ascii=False).encode() + b"\n"
    start = text.index(b'"hash":"') + 8
    digest = sha256(EVENT_PREFIX + text[:start - 8] + text[start + 66:-1]).hexdigest()
    return text[:start] + digest.encode() + text[start + 64:]


def test_an_entry_with_any_field_changed_ends_the_same_both_ways(public):
    for index, raw in enumerate(public):
        entry = json.loads(raw)
        if kind_of(entry) != ENTRY:
            continue
        changes = [(field, value) for field, values in OTHER_VALUES.items() for value in values]
        changes += [("seq", entry["seq"] - 1), ("seq", entry["seq"] + 1), ("seq", True),
                    ("round", entry["round"] - 1), ("round", entry["round"] + 1),
                    ("round", 2**53)]
        lines = [rehashed({**entry, field: value}) for field, value in changes]
        lines += [rehashed({**entry, "public": value}, as_it_stands=True)
                  for value in OTHER_VALUES["public"]]
        lines += [line({**entry, "hash": "0" * 64}).encode(),
                  line({**entry, "hash": entry["hash"].upper()}).encode()]
        for changed in lines:
            both_ways([*public[:index], changed, *public[index + 1:]])


def test_an_ordinary_entry_in_place_of_a_seal_proof_ends_the_same_both_ways(public):
    """After a SealOpened comes its proof: an entry there is refused where it stands."""
    values = [json.loads(raw) for raw in public]
    index = next(i for i, v in enumerate(values) if v.get("kind") == "SealOpened")
    opener, sealed = values[index], next(v for v in values if v.get("seals") and not v["kind"])
    entry = {**sealed, "seq": opener["seq"] + 1, "prev": opener["hash"], "round": opener["round"]}
    lines = [*public[:index + 1], rehashed(entry), *public[index + 2:]]
    assert both_ways(lines)[:3] == ("failed", "missing_seal_proof", opener["seq"])


@pytest.mark.parametrize("sealed", [True, False], ids=["sealed", "public"])
def test_the_hot_path_stops_at_a_line_it_cannot_take_though_the_next_links_past_it(
        public, sealed):
    values = [json.loads(raw) for raw in public]
    index = next(i for i, v in enumerate(values[:-1]) if kind_of(v) == kind_of(values[i + 1])
                 == ENTRY and v["seq"] > 2 and (v["kind"] is None) == sealed
                 and values[i + 1]["kind"] not in audit.verify._NOTED)
    bad, after = values[index], values[index + 1]
    linked = rehashed({**after, "prev": bad["prev"]})  # as if the bad line were not there
    lines = [*public[:index], public[index].replace(b'"seq"', b'"seq" '), linked,
             *public[index + 2:]]
    assert both_ways(lines)[:3] == ("failed", "not_canonical", None)


def test_a_line_left_out_or_moved_or_cut_ends_the_same_both_ways(public):
    for index in range(1, len(public)):
        rest = [*public[:index], *public[index + 1:]]
        both_ways(rest)
        both_ways([*public[:index], public[index][:-1] + b" "])  # cut: the newline lost
        both_ways([*rest[:index], public[index], *rest[index:]])  # unmoved: verifies
        if index + 1 < len(public):
            both_ways([*rest[:index + 1], public[index], *rest[index + 1:]])


TEXT_EDITS = [(b'":', b'": '), (b',"', b', "'), (b'"a', b'"\\u0061'), (b'a', b'A'), (b'\n', b''),
              (b'\n', b'\n\n'), (b':1,', b':1.0,'), (b'"v":1', b'"v":01'), (b'null', b'nul'),
              (b'[', b'[ '), (b'"seq"', b'"seq":0,"seq"')]


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_changed_byte_or_text_ends_the_same_both_ways(public, data):
    index = data.draw(st.integers(1, len(public) - 1))
    raw, rest = public[index], [*public[:index], *public[index + 1:]]
    if data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(raw) - 1))
        raw = raw[:at] + bytes([data.draw(st.integers(0, 255))]) + raw[at + 1:]
    else:
        old, new = data.draw(st.sampled_from(TEXT_EDITS))
        raw = raw.replace(old, new, data.draw(st.integers(1, 2)))
    both_ways([*rest[:index], raw, *rest[index:]])


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_log_seen_before_is_held_to_the_same_both_ways(public, data):
    """At the size of a checkpoint seen before the hot path hands over, so that the general
    path compares the roots (audit.witness)."""
    entries = [v for v in map(json.loads, public) if kind_of(v) == ENTRY]
    size = data.draw(st.integers(1, len(entries)))
    seen_root = root(leaves(entries[:size])) if data.draw(st.booleans()) else bytes(32)
    seen = Seen(json.loads(public[0])["header"]["origin"], "key", size, seen_root)
    lines = list(public)
    if data.draw(st.booleans()):  # with one line of the bundle left out
        del lines[data.draw(st.integers(1, len(lines) - 1))]
    both_ways(lines, seen=seen, complete=data.draw(st.booleans()))
