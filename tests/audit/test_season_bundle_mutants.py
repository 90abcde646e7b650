"""Season bundles (audit/season_bundle.py): the header's bounds and rules and the kinds of
line, each worked out from docs/audit.md ("The season bundle")."""

from __future__ import annotations

import base64
import json
from dataclasses import FrozenInstanceError

import pytest

from audit.canonical import MAX_SAFE_INTEGER
from audit.checkpoints import leaves
from audit.errors import AuditError
from audit.headers import HeaderError
from audit.merkle import leaf_hash, root, verify_consistency, verify_inclusion
from audit.notes import parse_checkpoint, parse_note
from audit.season_bundle import (
    CHECKPOINT,
    CITED,
    ENTRY,
    FULL,
    HEADER,
    MATCH_CHECKPOINTS,
    OPENING,
    SeasonHeader,
    cite,
    export_season,
    kind_of,
)
from tests.audit.test_season_bundle import PUBLIC, SIGNER, bundle, played, verified


@pytest.fixture(scope="module")
def header(story) -> dict:
    return json.loads(bundle(story, PUBLIC)[0])[HEADER]


def test_the_least_and_the_largest_counts_and_the_prefix(header):
    least = SeasonHeader.read({**header, "entries": 1, "checkpoints": 0})
    assert (least.entries, least.checkpoints) == (1, 0)
    largest = SeasonHeader.read({**header, "entries": MAX_SAFE_INTEGER,
                                           "checkpoints": MAX_SAFE_INTEGER})
    assert largest.entries == largest.checkpoints == 2**53 - 1
    assert least.prefix == "games.example.org"  # the origin less "/season/spring"
    assert SeasonHeader.read({**header, "kind": FULL, "salt_key": "ab" * 32}).salt_key


@pytest.mark.parametrize("change", [
    {"entries": 0}, {"entries": 2**53}, {"checkpoints": -1}, {"checkpoints": 2**53},
    {"salt_key": "ab" * 32},                                   # a public header with the key
    {"kind": FULL},                                            # a full one without it
    {"origin": "games.example.org/season/autumn"},             # another season's log
    {"origin": "games.example.org/match/spring"},
    {"matches": ["m1", "m1"]},                                 # a match named twice
])
def test_a_season_header_out_of_bounds_or_of_the_wrong_kind_is_refused(header, change):
    with pytest.raises(HeaderError):
        SeasonHeader.read({**header, **change})


@pytest.mark.parametrize("value, kind", [
    ({HEADER: {}}, HEADER), ({MATCH_CHECKPOINTS: {}}, MATCH_CHECKPOINTS),
    ({OPENING: {}}, OPENING), ({CITED: {}}, CITED), ({CHECKPOINT: {}}, CHECKPOINT),
    ({"hash": "h", "seq": 1}, ENTRY), ({"hash": "h"}, ENTRY), ({"opened": {}}, None),
    ({}, None), ({"seq": 1, "season": "s"}, None), ([HEADER], None), (None, None),
])
def test_each_kind_of_season_line_is_told_by_its_members(value, kind):
    assert kind_of(value) == kind


@pytest.fixture(scope="module")
def story():
    app = played()
    yield app
    app.close()


def test_every_line_is_tagged_as_the_format_names_it(story):
    """docs/audit.md, "The season bundle": the header, one `match_checkpoints` line per match,
    then the entries (untagged, with their `hash`), a full bundle's `opening` after each sealed
    one, a `cited` line after each entry resting on a match entry, and the `checkpoint`s."""
    for kind, tags in ((PUBLIC, ["header", "match_checkpoints", "cited", "checkpoint"]),
                       (FULL, ["header", "match_checkpoints", "opening", "cited", "checkpoint"])):
        values = [json.loads(raw) for raw in bundle(story, kind)]
        assert [next(iter(v)) for v in values[:2]] == ["header", "match_checkpoints"]
        assert values[1]["match_checkpoints"]["match"] == "m1"
        found = {next(iter(v)) for v in values if len(v) == 1}
        assert found == set(tags)
        entries = [v for v in values if len(v) > 1]
        assert [v["seq"] for v in entries] == list(range(1, len(entries) + 1))
        assert all("hash" in v for v in entries)
    for tag in ("header", "match_checkpoints", "opening", "cited", "checkpoint"):
        assert kind_of({tag: {}}) == tag


@pytest.mark.parametrize("change", [
    {"entries": "16"},            # a count is a JSON integer, not its text
    {"checkpoints": "9"},
    {"matches": "m1"},
    {"note": "a field the format does not name"},
])
def test_a_season_header_holds_the_named_fields_alone_each_of_its_json_type(header, change):
    with pytest.raises(HeaderError):
        SeasonHeader.read({**header, **change})


def test_a_season_header_once_read_cannot_be_changed(header):
    read = SeasonHeader.read(header)
    with pytest.raises(FrozenInstanceError):
        read.entries = 3  # type: ignore[misc]
    assert read.entries == header["entries"]


def export_of(story, notes=None, match_notes=None):
    season = story.season("spring")
    matches = {m: story.match(m) for m in season.matches}
    return export_season(
        season, [n["note"] for n in story.season_checkpoints("spring").notes]
        if notes is None else notes, matches,
        {m: [n["note"] for n in story.checkpoints(m).notes] for m in matches}
        if match_notes is None else match_notes, PUBLIC, SIGNER.verifier_key())


def test_every_season_note_is_exported_or_nothing(story):
    """docs/audit.md: export never leaves a note out, and refuses before the first line a store
    whose season notes do not grow or sign past its log."""
    notes = [n["note"] for n in story.season_checkpoints("spring").notes]
    assert len(notes) > 2
    for bad, code in (([notes[1], notes[0]], "inconsistent_checkpoints"),
                      ([notes[0], notes[0]], "inconsistent_checkpoints")):
        with pytest.raises(AuditError) as caught:
            export_of(story, notes=bad)
        assert caught.value.code == code
    m1 = [n["note"] for n in story.checkpoints("m1").notes]
    with pytest.raises(AuditError) as caught:
        export_of(story, match_notes={"m1": [m1[1], m1[0]]})
    assert caught.value.code == "inconsistent_checkpoints"
    assert next(export_of(story, match_notes={})).startswith('{"header":')  # none signed yet


def test_each_citation_proves_its_entry_under_the_matchs_latest_signed_checkpoint(story):
    """A cited match entry comes with its inclusion proof in the match log of the size of the
    match's latest signed checkpoint, whenever that covers it (`size` null, no proof, when it
    does not)."""
    notes = story.checkpoints("m1").notes
    latest = parse_checkpoint(parse_note(notes[-1]["note"]).text)
    cited = [json.loads(raw)[CITED] for raw in bundle(story, PUBLIC)
             if json.loads(raw).keys() == {CITED}]
    assert cited
    for c in cited:
        seq = c["entry"]["seq"]
        assert seq <= latest.size and c["size"] == latest.size
        proof = [base64.b64decode(h) for h in c["proof"]]
        assert verify_inclusion(seq - 1, latest.size, leaf_hash(leaves([c["entry"]])[0]), proof,
                                latest.root)


def test_a_citation_of_the_last_entry_a_checkpoint_covers_is_proven(story):
    """Covered means seq <= size: the checkpoint's own last entry is covered; the next is not."""
    match = story.match("m1")
    data = leaves(r["entry"] for r in match.records)
    for size in (1, 5, match.version):
        covered = cite(40, match, size, size, PUBLIC)
        assert (covered["seq"], covered["match"], covered["size"]) == (40, "m1", size)
        assert covered["entry"] == match.records[size - 1]["entry"]
        proof = [base64.b64decode(h) for h in covered["proof"]]
        assert verify_inclusion(size - 1, size, leaf_hash(data[size - 1]), proof,
                                root(data[:size]))
    beyond = cite(40, match, 6, 5, PUBLIC)
    assert (beyond["size"], beyond["proof"]) == (None, [])


def test_the_first_season_checkpoint_has_no_consistency_proof_the_next_extend_it(story):
    """docs/audit.md: each checkpoint with the RFC 9162 consistency proof from the one before,
    empty for the first, also when the first the store holds signs more than one entry (a season
    whose first changes were made while no key was configured: here its first note left out)."""
    notes = [n["note"] for n in story.season_checkpoints("spring").notes]
    assert len(notes) > 2
    for given in (notes, notes[1:]):
        lines = [raw.encode() for raw in export_of(story, notes=given)]
        season = [v[CHECKPOINT] for v in map(json.loads, lines) if v.keys() == {CHECKPOINT}]
        checkpoints = [parse_checkpoint(parse_note(c["note"]).text) for c in season]
        assert season[0]["consistency"] == [] and len(season) == len(given)
        for before, after, line_ in zip(checkpoints, checkpoints[1:], season[1:], strict=False):
            proof = [base64.b64decode(h) for h in line_["consistency"]]
            assert verify_consistency(before.size, after.size, before.root, after.root, proof)
    assert checkpoints[0].size > 1  # the second note's
    assert verified(lines).header.checkpoints == len(notes) - 1  # and it verifies
