"""Bundles: the cases mutation testing found untested, each worked out from docs/audit.md
("Bundles": the header's fields and bounds, the kinds of line, every note exported or none)."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError

import pytest

from audit.bundle import (
    CHECKPOINT,
    ENTRY,
    FULL,
    HEADER,
    OPENED,
    OPENING,
    PUBLIC,
    Header,
    export,
    kind_of,
    signed_sizes,
)
from audit.canonical import MAX_SAFE_INTEGER
from audit.errors import AuditError
from audit.headers import HeaderError
from tests.audit.test_bundle import SALT_KEY, SIGNER, bundle_of, memory_app, played_story, start

story_fixture = pytest.fixture(played_story, scope="module", name="story")


@pytest.fixture(scope="module")
def header(story) -> dict:
    """The story's public header, as exported."""
    return json.loads(bundle_of(story, PUBLIC).splitlines()[0])[HEADER]


def test_the_least_and_the_largest_counts_a_header_may_state(header):
    assert Header.read({**header, "entries": 2, "checkpoints": 0}).entries == 2
    largest = Header.read({**header, "entries": MAX_SAFE_INTEGER,
                                     "checkpoints": MAX_SAFE_INTEGER})
    assert largest.entries == largest.checkpoints == 2**53 - 1
    assert Header.read({k: v for k, v in header.items() if k != "checkpoints"}) \
        .checkpoints is None  # a bundle made before the count was added


@pytest.mark.parametrize("change", [
    {"entries": 1}, {"entries": 2**53}, {"checkpoints": -1}, {"checkpoints": 2**53},
    {"origin": "arbiter/match/m2"},                    # another match's log
    {"host_seed": "s" * 40},                           # a public header with a secret
    {"salt_key": SALT_KEY},
    {"kind": FULL, "host_seed": "s" * 40},             # a full one without its salt key
    {"kind": FULL, "salt_key": SALT_KEY},              # or without its host seed
])
def test_a_header_out_of_bounds_or_of_the_wrong_kind_is_refused(header, change):
    with pytest.raises(HeaderError):
        Header.read({**header, **change})


def test_a_full_header_holds_both_secrets(header):
    full = Header.read({**header, "kind": FULL, "host_seed": "s" * 40,
                                  "salt_key": SALT_KEY})
    assert (full.host_seed, full.salt_key) == ("s" * 40, SALT_KEY)


@pytest.mark.parametrize("value, kind", [
    ({HEADER: {}}, HEADER), ({OPENING: {}}, OPENING), ({OPENED: {}}, OPENED),
    ({CHECKPOINT: {}}, CHECKPOINT), ({"hash": "h", "seq": 1}, ENTRY),
    ({"hash": "h"}, None),                  # one member that names no kind of line
    ({"entry": {}}, None), ({}, None), ({"seq": 1, "round": 0}, None),
    ([HEADER], None), ("header", None), (None, None),
])
def test_each_kind_of_line_is_told_by_its_members(value, kind):
    assert kind_of(value) == kind


def test_signed_sizes_grow_and_stay_within_the_log(story):
    notes = [n["note"] for n in story.checkpoints("m1").notes]
    sizes = [n["size"] for n in story.checkpoints("m1").notes]
    version = story.match("m1").version
    assert sizes[-1] == version  # the match ended: its last checkpoint covers every entry
    assert signed_sizes(notes, version, "match m1") == dict(zip(sizes, notes, strict=True))
    for twice in ([notes[0], notes[0]], [notes[1], notes[0]]):
        with pytest.raises(AuditError) as caught:
            signed_sizes(twice, version, "match m1")
        assert caught.value.code == "inconsistent_checkpoints"
    with pytest.raises(AuditError) as caught:
        signed_sizes(notes, version - 1, "match m1")
    assert caught.value.code == "missing_entry"


def test_a_bundle_counts_its_checkpoints_and_an_unsigned_match_names_no_key(story):
    header = json.loads(bundle_of(story, PUBLIC).splitlines()[0])[HEADER]
    assert header["checkpoints"] == len(story.checkpoints("m1").notes) == 3
    assert header["host_key"] == SIGNER.verifier_key()
    app = memory_app(signer=None)
    start(app, match_id="u", unsigned=True)
    # Even handed a key, the bundle of a match created unsigned names none: it signed nothing.
    first = next(export(app.match("u"), [], PUBLIC, SIGNER.verifier_key()))
    unsigned = json.loads(first)[HEADER]
    assert unsigned["host_key"] is None and unsigned["unsigned"] is True
    assert unsigned["checkpoints"] == 0 and "weak_seed" not in unsigned
    app.close()


def test_every_line_is_tagged_as_the_format_names_it(story):
    """docs/audit.md, "Bundles": the header `{"header": ...}`, in a full bundle an opening
    `{"opening": ...}` after each sealed entry, `{"opened": ...}` after each public SealOpened
    entry (the story's rules open one sealed bid in public), `{"checkpoint": ...}`; an entry
    is no tagged line but the entry itself, with its `hash` and `seq`."""
    for kind, tags in ((PUBLIC, {"header", "opened", "checkpoint"}),
                       (FULL, {"header", "opening", "opened", "checkpoint"})):
        values = [json.loads(raw) for raw in bundle_of(story, kind).splitlines()]
        assert list(values[0]) == ["header"]
        assert {next(iter(v)) for v in values if len(v) == 1} == tags
        entries = [v for v in values if len(v) > 1]
        assert [v["seq"] for v in entries] == list(range(1, len(entries) + 1))
        assert all("hash" in v for v in entries)
    for tag in ("header", "opening", "opened", "checkpoint"):
        assert kind_of({tag: {}}) == tag


@pytest.mark.parametrize("change", [
    {"entries": "40"},            # a count is a JSON integer, not its text
    {"checkpoints": "3"},
    {"players": "ann"},
    {"host_key": 5},
    {"note": "a field the format does not name"},
])
def test_a_header_holds_the_named_fields_alone_each_of_its_json_type(header, change):
    with pytest.raises(HeaderError):
        Header.read({**header, **change})


def test_a_header_once_read_cannot_be_changed(header):
    read = Header.read(header)
    with pytest.raises(FrozenInstanceError):
        read.entries = 3  # type: ignore[misc]
    assert read.entries == header["entries"]
