"""Season bundles (audit/season_bundle.py): the header's bounds and rules and the kinds of
line, each worked out from docs/audit.md ("The season bundle")."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from audit.canonical import MAX_SAFE_INTEGER
from audit.season_bundle import (
    CHECKPOINT,
    CITED,
    ENTRY,
    FULL,
    HEADER,
    MATCH_CHECKPOINTS,
    OPENING,
    SeasonHeader,
    kind_of,
)
from tests.audit.test_season_bundle import PUBLIC, bundle, played


@pytest.fixture(scope="module")
def header() -> dict:
    app = played()
    first = json.loads(bundle(app, PUBLIC)[0])[HEADER]
    app.close()
    return first


def test_the_least_and_the_largest_counts_and_the_prefix(header):
    least = SeasonHeader.model_validate({**header, "entries": 1, "checkpoints": 0})
    assert (least.entries, least.checkpoints) == (1, 0)
    largest = SeasonHeader.model_validate({**header, "entries": MAX_SAFE_INTEGER,
                                           "checkpoints": MAX_SAFE_INTEGER})
    assert largest.entries == largest.checkpoints == 2**53 - 1
    assert least.prefix == "games.example.org"  # the origin less "/season/spring"
    assert SeasonHeader.model_validate({**header, "kind": FULL, "salt_key": "ab" * 32}).salt_key


@pytest.mark.parametrize("change", [
    {"entries": 0}, {"entries": 2**53}, {"checkpoints": -1}, {"checkpoints": 2**53},
    {"salt_key": "ab" * 32},                                   # a public header with the key
    {"kind": FULL},                                            # a full one without it
    {"origin": "games.example.org/season/autumn"},             # another season's log
    {"origin": "games.example.org/match/spring"},
    {"matches": ["m1", "m1"]},                                 # a match named twice
])
def test_a_season_header_out_of_bounds_or_of_the_wrong_kind_is_refused(header, change):
    with pytest.raises(ValidationError):
        SeasonHeader.model_validate({**header, **change})


@pytest.mark.parametrize("value, kind", [
    ({HEADER: {}}, HEADER), ({MATCH_CHECKPOINTS: {}}, MATCH_CHECKPOINTS),
    ({OPENING: {}}, OPENING), ({CITED: {}}, CITED), ({CHECKPOINT: {}}, CHECKPOINT),
    ({"hash": "h", "seq": 1}, ENTRY), ({"hash": "h"}, ENTRY), ({"opened": {}}, None),
    ({}, None), ({"seq": 1, "season": "s"}, None), ([HEADER], None), (None, None),
])
def test_each_kind_of_season_line_is_told_by_its_members(value, kind):
    assert kind_of(value) == kind
