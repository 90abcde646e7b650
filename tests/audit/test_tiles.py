"""c2sp.org/tlog-tiles: the spec's own examples, a client written from the spec reading what
`TiledLog` cuts, and `TileReader`'s proofs against the RFC 9162 ones."""

from __future__ import annotations

from hashlib import sha256

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.errors import AuditError
from audit.merkle import consistency_proof, inclusion_proof, root
from audit.tiles import (
    Tile,
    TiledLog,
    TileReader,
    entry_bundle,
    index_path,
    parse_entry_bundle,
    parse_path,
    tiles_of,
)
from tests.support.tiles_client import SpecClient, rfc_mth, spec_index

LEAVES = [f'{{"entry":{i}}}'.encode() * (1 + i % 5) for i in range(70_000)]


def served(leaves: list[bytes], size: int):
    """A `get` over the tiles of a tree of `size`, as a server of TiledLog would answer."""
    log = TiledLog(leaves)
    fetched: list[str] = []

    def get(path: str) -> bytes:
        fetched.append(path)
        tile = parse_path(path)
        data = None if tile is None else log.tile(tile, size)
        if data is None:
            raise AuditError("tile_missing", path)
        return data

    return get, fetched


def test_the_specs_index_example_and_its_neighbours():
    # "index 1234067 will be encoded as x001/x234/067"
    assert index_path(1234067) == "x001/x234/067"
    assert [index_path(n) for n in (0, 7, 999, 1000, 1_000_000)] == [
        "000", "007", "999", "x001/000", "x001/x000/000"]
    assert Tile(0, 1234067).path == "tile/0/x001/x234/067"
    assert Tile(None, 3, 112).path == "tile/entries/003.p/112"
    assert Tile(2, 0, 1).path == "tile/2/000.p/1"


@given(st.integers(0, 2**48))
def test_paths_read_back_and_agree_with_a_spec_encoding(n):
    assert index_path(n) == spec_index(n)
    assert parse_path(f"tile/5/{index_path(n)}") == Tile(5, n)
    assert parse_path(f"tile/entries/{index_path(n)}.p/9") == Tile(None, n, 9)


@pytest.mark.parametrize("path", [
    "tile/0/x000/001",      # an extra leading group
    "tile/0/1",             # not three digits
    "tile/00/001",          # a level with a leading zero
    "tile/64/000",          # levels stop at 63
    "tile/0/001.p/0",       # widths are 1..255
    "tile/0/001.p/256",
    "tile/0/001.p/07",
    "tile/0/x001",          # the last element has no x
    "tile/entries/001/",
    "tile/data/001",
    "../checkpoint",
])
def test_paths_spelled_any_other_way_name_no_tile(path):
    assert parse_path(path) is None


def test_a_tree_of_70000_has_the_tiles_the_spec_lists():
    # "a tree of size 70,000 will be represented by 273 full level 0 tiles, one partial level
    # 0 tile of width 112, one full level 1 tile, one partial level 1 tile of width 17, and
    # one partial level 2 tile of width 1"
    tiles = [t for t in tiles_of(70_000) if t.level is not None]
    assert [t for t in tiles if t.level == 0 and t.full] == [Tile(0, n) for n in range(273)]
    assert [t for t in tiles if not t.full] == [Tile(0, 273, 112), Tile(1, 1, 17),
                                                Tile(2, 0, 1)]
    assert [t for t in tiles if t.level == 1 and t.full] == [Tile(1, 0)]
    assert len(tiles) == 273 + 1 + 1 + 1 + 1
    bundles = [t for t in tiles_of(70_000) if t.level is None]
    assert bundles == [*(Tile(None, n) for n in range(273)), Tile(None, 273, 112)]


def test_a_tree_of_256_is_a_full_tile_and_a_partial_one_above():
    # "a tree of size 256 will be represented by a full level 0 tile and a partial level 1
    # tile of width 1"
    assert [t for t in tiles_of(256) if t.level is not None] == [Tile(0, 0), Tile(1, 0, 1)]


def test_a_spec_client_reads_the_root_and_the_entries_back():
    for size in (1, 255, 256, 257, 511, 65_536, 70_000):
        get, _ = served(LEAVES, size)
        client = SpecClient(get)
        assert client.root(size) == rfc_mth(LEAVES[:size])
        entries = client.all_entries(size)
        assert entries == LEAVES[:size]
        # each entry hashes to its place in the level 0 tiles, each level 1 hash is the MTH of
        # the full tile below
        assert client.level_hashes(0, size) == [sha256(b"\x00" + e).digest() for e in entries]
        if size >= 256:
            assert client.level_hashes(1, size)[0] == rfc_mth(LEAVES[:256])


def test_a_tile_past_the_signed_size_is_not_handed_out():
    log = TiledLog(LEAVES[:600])
    assert log.tile(Tile(0, 1), 511) is None      # the second full tile needs 512
    assert log.tile(Tile(0, 1, 255), 511) is not None
    assert log.tile(Tile(0, 1, 255), 510) is None
    assert log.tile(Tile(1, 0, 2), 600) is not None
    assert log.tile(Tile(1, 0, 3), 600) is None
    assert log.tile(Tile(0, 0), 700) is None      # more than the log holds


def test_entry_bundles_are_length_prefixed_and_refuse_what_a_uint16_cannot_hold():
    assert entry_bundle([b"ab", b""]) == b"\x00\x02ab\x00\x00"
    assert parse_entry_bundle(b"\x00\x02ab\x00\x00", 2, "x") == [b"ab", b""]
    for bad, width in ((b"\x00\x05ab", 1), (b"\x00\x02ab", 2), (b"\x00", 1)):
        with pytest.raises(AuditError) as error:
            parse_entry_bundle(bad, width, "x")
        assert error.value.code == "malformed_tile"
    assert len(entry_bundle([b"x" * 65_535])) == 65_537
    with pytest.raises(AuditError) as error:
        entry_bundle([b"x" * 65_536])
    assert error.value.code == "entry_too_large"


@given(st.data())
def test_proofs_from_tiles_are_the_rfc_proofs(data):
    size = data.draw(st.integers(1, 1_300))
    tail = data.draw(st.integers(0, 40))
    get, _ = served(LEAVES, size)
    reader = TileReader(get, size, LEAVES[size:size + tail])
    total = size + tail
    index = data.draw(st.integers(0, total - 1))
    assert reader.inclusion_proof(index, total) == inclusion_proof(index, LEAVES[:total])
    old = data.draw(st.integers(1, total))
    assert reader.consistency_proof(old, total) == consistency_proof(old, LEAVES[:total])
    assert reader.root(total) == root(LEAVES[:total])


def test_a_proof_fetches_only_the_tiles_it_needs():
    get, fetched = served(LEAVES, 70_000)
    reader = TileReader(get, 70_000)
    reader.inclusion_proof(1234, 70_000)
    assert len(fetched) <= 6 and all(not p.startswith("tile/entries") for p in fetched)
    assert reader.entry(69_999) == LEAVES[69_999]
    assert fetched[-1] == "tile/entries/273.p/112"


def test_a_short_or_missing_tile_is_named():
    log = TiledLog(LEAVES[:300])

    def short(path: str) -> bytes:
        return log.tile(parse_path(path), 300)[:-1]

    with pytest.raises(AuditError) as error:
        TileReader(short, 300).root(300)
    assert error.value.code == "malformed_tile"
    with pytest.raises(AuditError) as error:
        TileReader(short, 300).entry(299)
    assert error.value.code == "malformed_tile"


def test_a_partial_tile_no_longer_kept_is_read_from_its_full_tile():
    """c2sp.org/tlog-tiles lets a log delete a partial tile once its full tile exists, and a
    client fall back to the full one: a tree of 300 read where only the tiles of 600 are
    kept, and of those no partial tile whose full tile exists."""
    log = TiledLog(LEAVES[:600])

    def get(path: str) -> bytes:
        tile = parse_path(path)
        kept = tile is not None and (tile.full or Tile(tile.level, tile.index).covered() > 600)
        data = log.tile(tile, 600) if tile is not None and kept else None
        if data is None:
            raise AuditError("tile_missing", path)
        return data

    reader = TileReader(get, 300)
    assert reader.root(300) == root(LEAVES[:300])
    assert reader.entry(299) == LEAVES[299]
    with pytest.raises(AuditError) as error:
        TileReader(get, 650).root(650)   # no full tile holds the entries past 512
    assert error.value.code == "tile_missing" and "002.p/138" in error.value.detail
