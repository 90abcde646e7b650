"""A published tiled log grown from its right edge: the plan worked out from the signed sizes
alone (checked by hand, and against publishing from scratch), and the tiles a `TiledLog`
grown from an edge hands out, read back by a client written from the spec alone."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from audit.tiles import Tile, TiledLog, TileReader
from audit.tiles_growth import growth
from tests.audit.test_tiles import served
from tests.support.tiles_client import SpecClient, rfc_mth

LEAVES = [f'{{"entry":{i}}}'.encode() * (1 + i % 3) for i in range(70_100)]
E = None  # an entry bundle's level


def test_growing_past_a_full_tile_writes_it_and_drops_the_partial_ones_it_holds():
    # at 300: tile/0/000 and entries/000 full, partial level 0 of width 44, level 1 of width 1
    # (100's partial tiles went when 256 filled tile 0)
    plan = growth([100, 300], [100, 300, 520])
    assert (plan.old, plan.new) == (300, 520)
    assert plan.write == [Tile(0, 1), Tile(E, 1), Tile(0, 2, 8), Tile(E, 2, 8), Tile(1, 0, 2)]
    assert plan.remove == [Tile(0, 1, 44), Tile(E, 1, 44)]
    assert plan.kept == 3  # tile/0/000, entries/000, tile/1/000.p/1


def test_a_partial_tile_two_sizes_share_is_written_once():
    # 800 and 900 both have 3 hashes at level 1: tile/1/000.p/3 is there already
    plan = growth([800], [800, 900])
    assert plan.write == [Tile(0, 3, 132), Tile(E, 3, 132)]
    assert plan.remove == []
    assert plan.kept == 6 + 3


def test_nothing_new_writes_nothing():
    plan = growth([100, 300], [100, 300])
    assert (plan.write, plan.remove, plan.kept) == ([], [], 5)
    assert growth([], []).write == []  # an unsigned log: no tile at all


def copy_of(signed: list[int]) -> set[Tile]:
    """What publishing `signed` into an empty place writes."""
    return set(growth([], signed).write)


@given(st.lists(st.integers(1, 3000), min_size=1, max_size=12, unique=True), st.data())
def test_growing_a_copy_makes_the_copy_publishing_from_scratch_makes(sizes, data):
    signed = sorted(sizes)
    published = signed[:data.draw(st.integers(0, len(signed)))]
    before = copy_of(published)
    plan = growth(published, signed)
    assert not before & set(plan.write)  # no tile there is written again
    assert set(plan.remove) <= before
    assert (before - set(plan.remove)) | set(plan.write) == copy_of(signed)
    assert plan.kept == len(before) - len(plan.remove)


def test_a_log_grown_from_the_edge_is_the_log_a_client_reads():
    for old, new in ((1, 600), (255, 256), (256, 70_000), (300, 65_536), (65_535, 65_537),
                     (65_536, 70_000), (69_999, 70_100)):
        get, fetched = served(LEAVES[:old], old)
        reader = TileReader(get, old)
        assert reader.root(old) == rfc_mth(LEAVES[:old])
        edge = reader.edge()
        # only the right edge was read: a partial tile per level, never a full one
        assert all(".p/" in path for path in fetched)
        assert len(fetched) <= 3
        first = old - old % 256
        grown = TiledLog(LEAVES[first:new], old, edge)
        published = {t.path: get(t.path) for t in growth([], [old]).write}
        published |= {t.path: grown.tile(t, new) for t in growth([old], [old, new]).write}
        client = SpecClient(published.__getitem__)
        assert client.root(new) == rfc_mth(LEAVES[:new])
        assert client.all_entries(new) == LEAVES[:new]


def test_a_grown_log_hands_out_nothing_before_its_edge():
    grown = TiledLog(LEAVES[256:600], 300, [[rfc_mth(LEAVES[:256])]])
    assert grown.tile(Tile(0, 0), 600) is None
    assert grown.tile(Tile(E, 0), 600) is None
    assert grown.tile(Tile(0, 1), 600) is not None
    assert grown.tile(Tile(1, 0, 2), 600) == rfc_mth(LEAVES[:256]) + rfc_mth(LEAVES[256:512])
