"""What the host signs after each change of a season (audit/season_signing.py): the cases
mutation testing found untested, each worked out from docs/audit.md ("Auditing a season")."""

from __future__ import annotations

import base64
import hashlib
from types import SimpleNamespace

import pytest

from audit.canonical import canonical
from audit.checkpoints import leaves
from audit.errors import AuditError
from audit.merkle import root
from audit.notes import parse_checkpoint, parse_note
from audit.season_signing import (
    MatchMark,
    SeasonTree,
    extensions,
    mark_of,
    parse_season_extensions,
    season_checkpoint_text,
    standings_hash,
)
from domain.season import public_standings
from tests.audit.test_season_bundle import played

ROOT = base64.b64encode(bytes(range(32))).decode()
STANDINGS = "ab" * 32


@pytest.fixture(scope="module")
def story():
    app = played()
    yield app
    app.close()


def test_the_standings_hash_is_sha256_of_the_prefixed_canonical_json():
    standings = {"players": {"ann": {"tol": 1}}, "champion": None}
    assert standings_hash(standings) == hashlib.sha256(
        b'arbiter/standings/v1\n{"champion":null,"players":{"ann":{"tol":1}}}').hexdigest()


def test_extension_lines_read_back_exactly():
    marks = [MatchMark("m1", 0, ROOT), MatchMark("a match id with spaces", 9_999_999_999_999_999,
                                                 ROOT)]
    lines = extensions(STANDINGS, marks)
    assert lines == [f"standings {STANDINGS}", f"match 0 {ROOT} m1",
                     f"match 9999999999999999 {ROOT} a match id with spaces"]
    close = parse_season_extensions(tuple(lines))
    assert close.standings == STANDINGS and close.matches == tuple(marks)
    assert parse_season_extensions((f"standings {STANDINGS}",)).matches == ()


@pytest.mark.parametrize("lines", [
    (),
    (f"standings {STANDINGS.upper()}",),
    (f"standings {STANDINGS[:62]}",),
    (f"standings {STANDINGS} ",),
    (f"x standings {STANDINGS}",),
    (f"match 1 {ROOT} m1", f"standings {STANDINGS}"),               # standings come first
    (f"standings {STANDINGS}", f"match 01 {ROOT} m1"),              # one spelling of a size
    (f"standings {STANDINGS}", f"match 10000000000000000 {ROOT} m1"),  # seventeen digits
    (f"standings {STANDINGS}", f"match -1 {ROOT} m1"),
    (f"standings {STANDINGS}", f"match 1 {ROOT[:-1]} m1"),          # not a 32-byte root
    (f"standings {STANDINGS}", f"match 1 {ROOT}"),                  # no id
    (f"standings {STANDINGS}", f"match 1 {ROOT} "),
    (f"standings {STANDINGS}", f"xmatch 1 {ROOT} m1"),
    (f"standings {STANDINGS}", f"match 1 {ROOT} m1", "trailing"),
])
def test_lines_that_are_not_a_season_checkpoints_extensions(lines):
    with pytest.raises(AuditError) as caught:
        parse_season_extensions(lines)
    assert caught.value.code == "malformed_checkpoint"


def test_a_mark_is_the_size_and_the_root_as_the_match_note_spells_them(story):
    note = story.checkpoints("m1").notes[-1]["note"]
    text = parse_note(note).text
    assert mark_of("m1", note) == MatchMark("m1", parse_checkpoint(text).size,
                                            text.split("\n")[2])


def test_the_season_checkpoint_names_only_matches_with_a_note(story):
    season = story.season("spring")
    note = story.checkpoints("m1").notes[-1]["note"]
    text = season_checkpoint_text(season, {"m1": note, "not-in-this-season": note})
    cp = parse_checkpoint(text)
    assert (cp.origin, cp.size) == (season.origin, season.version)
    assert cp.root == root(leaves(r["entry"] for r in season.records))
    close = parse_season_extensions(cp.extensions)
    assert close.standings == hashlib.sha256(
        b"arbiter/standings/v1\n" + canonical(public_standings(season))).hexdigest()
    assert close.matches == (mark_of("m1", note),)
    assert parse_season_extensions(parse_checkpoint(season_checkpoint_text(season, {}))
                                   .extensions).matches == ()
    given = bytes(32)
    assert parse_checkpoint(season_checkpoint_text(season, {}, given)).root == given


def test_the_season_tree_follows_a_growing_log_and_starts_over_on_another(story):
    records = list(story.season("spring").records)
    tree = SeasonTree()  # it reads a season's records alone
    for size in (1, 2, len(records) - 1, len(records)):
        prefix = SimpleNamespace(records=records[:size])
        assert tree.root(prefix) == root(leaves(r["entry"] for r in records[:size]))
    # Shorter than what it saw (a change evicted): it starts over.
    shorter = SimpleNamespace(records=records[:3])
    assert tree.root(shorter) == root(leaves(r["entry"] for r in records[:3]))
    # As long, but another last entry: it starts over too.
    forked = [*records[:2], {**records[2], "entry": {**records[2]["entry"], "hash": "f" * 64,
                                                     "at": "2031-01-01T00:00:00Z"}},
              *records[3:]]
    other = SimpleNamespace(records=forked)
    assert tree.root(other) == root(leaves(r["entry"] for r in forked))


def test_the_season_tree_keeps_its_leaves_and_appends_only_new_entries(story):
    """What the tree is for: signing after each change does not re-hash the whole season. The
    same log again, or a longer one that extends it, keeps the leaves it holds."""
    records = list(story.season("spring").records)
    tree = SeasonTree()
    tree.root(SimpleNamespace(records=records[:3]))
    kept = tree.tree
    assert kept.size == 3
    assert tree.root(SimpleNamespace(records=records[:3])) == root(
        leaves(r["entry"] for r in records[:3]))
    assert tree.tree is kept and kept.size == 3  # nothing new: nothing appended
    tree.root(SimpleNamespace(records=records))
    assert tree.tree is kept and kept.size == len(records)
    assert tree.last == records[-1]["entry"]["hash"]
