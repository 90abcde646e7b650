"""A match log's identity (audit/checkpoints.py): its origin `<prefix>/match/<id>`, `arbiter`
when no prefix is set (docs/audit.md), and its leaves, each entry's canonical text."""

from __future__ import annotations

import pytest

from audit.checkpoints import is_origin_of, leaves, origin
from domain.envelope import entry_bytes


def test_an_origin_is_the_prefix_then_match_then_the_id() -> None:
    assert origin("m1") == "arbiter/match/m1"
    assert origin("kc-1", "games.example.org/arbiter") == "games.example.org/arbiter/match/kc-1"


@pytest.mark.parametrize(("text", "expected"), [
    ("arbiter/match/m1", True),
    ("ab/match/m1", True),  # a prefix shorter than the suffix
    ("games.example.org/arbiter/match/m1", True),
    ("arbiter/match/m2", False),
    ("arbiter/season/m1", False),
    ("/match/m1", False),  # no prefix
    ("a b/match/m1", False),
    ("arbiter//match/m1", False),
])
def test_an_origin_is_recognised_only_with_a_well_formed_prefix(text: str, expected: bool) -> None:
    assert is_origin_of(text, "match", "m1") is expected


def test_the_leaves_are_the_entries_canonical_texts() -> None:
    entries = [{"seq": 1, "b": [1, 2], "a": "x", "hash": "ff"}, {"seq": 2}]
    assert leaves(entries) == [entry_bytes(entries[0]), entry_bytes(entries[1])]
    assert leaves(entries)[0] == b'{"a":"x","b":[1,2],"seq":1}'
    assert leaves([]) == []
