"""A log as c2sp.org/tlog-tiles: the Merkle tree cut into tiles of height 8, and its entries in
bundles, as static files any web server, object store or CDN can serve.

Under a log's prefix:

    checkpoint                     the latest signed checkpoint (a C2SP signed note)
    tile/<L>/<N>[.p/<W>]           hashes: level 0 the leaf hashes, level L the roots of the
                                   full tiles of level L-1; 256 a full tile, W in 1..255 a
                                   partial one
    tile/entries/<N>[.p/<W>]       entries: each a big-endian uint16 length, then the exact
                                   bytes the log hashed (an entry's Merkle leaf)

`<N>` is written in groups of three digits, all but the last led by `x`: 1234067 is
`x001/x234/067`. A tree of size s has, at each level L, floor(s / 256**L) // 256 full tiles
and a partial tile of width floor(s / 256**L) % 256 when that is not zero.

`TiledLog` cuts a log held in memory into tiles (what `arbiter serve` and `arbiter publish`
hand out); `TileReader` reads a log back from its tiles and entry bundles through any
`fetch(path) -> bytes`, fetching only the tiles a proof or a range of entries needs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from hashlib import sha256

from audit.errors import AuditError
from audit.merkle import HASH_SIZE, MAX_SIZE, consistency_path, inclusion_path

HEIGHT = 8
WIDTH = 1 << HEIGHT  # hashes in a full tile, entries in a full bundle
MAX_ENTRY = 0xFFFF  # an entry bundle's length prefix is a uint16
CHECKPOINT = "checkpoint"

_PATH = re.compile(
    r"tile/(entries|0|[1-9][0-9]?)/((?:x[0-9]{3}/)*[0-9]{3})(?:\.p/([1-9][0-9]{0,2}))?")


@dataclass(frozen=True)
class Tile:
    """One resource of the tree: `level` None for an entry bundle; `width` 256 when full."""

    level: int | None
    index: int
    width: int = WIDTH

    @property
    def full(self) -> bool:
        return self.width == WIDTH

    @property
    def path(self) -> str:
        level = "entries" if self.level is None else str(self.level)
        partial = "" if self.full else f".p/{self.width}"
        return f"tile/{level}/{index_path(self.index)}{partial}"

    def span(self) -> tuple[int, int]:
        """The hashes (at level `level`, entries for a bundle) the tile holds: [start, end)."""
        start = self.index * WIDTH
        return start, start + self.width

    def covered(self) -> int:
        """The smallest tree size that holds the whole tile."""
        return (self.index * WIDTH + self.width) << (HEIGHT * (self.level or 0))


def index_path(index: int) -> str:
    """`N` in the C2SP spelling: zero-padded groups of three digits, all but the last led by x."""
    digits = str(index)
    digits = "0" * (-len(digits) % 3) + digits
    groups = [digits[i:i + 3] for i in range(0, len(digits), 3)]
    return "/".join([*(f"x{g}" for g in groups[:-1]), groups[-1]])


def parse_path(path: str) -> Tile | None:
    """The tile a path names, in its one canonical spelling (no extra leading zero group, a
    level of 0 to 63, a width of 1 to 255); None for anything else."""
    found = _PATH.fullmatch(path)
    if found is None:
        return None
    level_text, index_text, width_text = found.groups()
    level = None if level_text == "entries" else int(level_text)
    groups = index_text.split("/")
    if len(groups) > 1 and groups[0] == "x000":  # 1 is 001, never x000/001
        return None
    index = int("".join(g.lstrip("x") for g in groups))
    width = WIDTH if width_text is None else int(width_text)
    if (level is not None and level > 63) or (width_text is not None and width >= WIDTH):
        return None
    if index * WIDTH + width > MAX_SIZE:
        return None
    return Tile(level, index, width)


def tiles_of(size: int) -> Iterator[Tile]:
    """Every tile and entry bundle of the tree of `size` leaves: the full ones, and the
    partial ones of this size."""
    level, count = 0, size
    while count:
        for tile in _row(level, count):
            yield tile
            if level == 0:
                yield Tile(None, tile.index, tile.width)
        level, count = level + 1, count // WIDTH


def _row(level: int, count: int) -> Iterator[Tile]:
    full, rest = divmod(count, WIDTH)
    yield from (Tile(level, n) for n in range(full))
    if rest:
        yield Tile(level, full, rest)


def entry_bundle(entries: Sequence[bytes]) -> bytes:
    """Entries as a bundle: each a uint16 big-endian length, then its bytes."""
    out = bytearray()
    for data in entries:
        if len(data) > MAX_ENTRY:
            raise AuditError("entry_too_large", f"an entry of {len(data)} bytes does not fit "
                             f"an entry bundle (at most {MAX_ENTRY})")
        out += len(data).to_bytes(2, "big") + data
    return bytes(out)


def parse_entry_bundle(data: bytes, width: int, where: str) -> list[bytes]:
    """The `width` entries of a bundle; `malformed_tile` for any other count or a cut one."""
    entries, at = [], 0
    while at < len(data):
        length = int.from_bytes(data[at:at + 2], "big")
        entry = data[at + 2:at + 2 + length]
        if at + 2 > len(data) or len(entry) != length:
            raise AuditError("malformed_tile", f"{where}: an entry is cut short")
        entries.append(entry)
        at += 2 + length
    if len(entries) != width:
        raise AuditError("malformed_tile", f"{where} holds {len(entries)} entries, not {width}")
    return entries


class TiledLog:
    """The tiles of a log held in memory: its leaves (the bytes each entry's hash covers) from
    entry `first` on, a multiple of 256 (0 by default: the whole log).

    The hashes of every level are worked out once; a tile is then a slice of them. A log held
    from `first` on grows a tree of `start` entries already tiled elsewhere (`first` is where
    its last entry bundle begins): its `edge` (`TileReader.edge`), the hashes the partial
    tiles of `start` hold at each level above 0, stand for everything before, so only the
    tiles past `start`'s full ones are worked out. Only tiles within `size` (the signed size)
    are ever handed out."""

    def __init__(self, leaves: Sequence[bytes], start: int = 0,
                 edge: Sequence[Sequence[bytes]] = ()) -> None:
        self.first = start - start % WIDTH
        self.leaves = leaves
        level = [sha256(b"\x00" + data).digest() for data in leaves]
        self.levels = [(self.first, level)]  # (index of the first hash held, the hashes)
        height = 1
        while start >> (HEIGHT * height) or len(level) >= WIDTH:
            count = start >> (HEIGHT * height)  # the hashes of this level `start` has
            kept = list(edge[height - 1]) if height <= len(edge) else []
            assert len(kept) == count % WIDTH, "the edge of another tree size"
            level = kept + [_perfect_root(level[i:i + WIDTH])
                            for i in range(0, len(level) - WIDTH + 1, WIDTH)]
            self.levels.append((count - count % WIDTH, level))
            height += 1

    def tile(self, tile: Tile, size: int) -> bytes | None:
        """The tile's bytes in the tree of `size` leaves, or None when that tree lacks it (or
        it lies wholly before `first`)."""
        if not 0 < size <= self.first + len(self.leaves) or tile.covered() > size:
            return None
        start, end = tile.span()
        first, held = (self.first, self.leaves) if tile.level is None else \
            self.levels[tile.level]
        if start < first:
            return None
        part = held[start - first:end - first]
        return entry_bundle(part) if tile.level is None else b"".join(part)


def _perfect_root(hashes: Sequence[bytes]) -> bytes:
    """The root over a power-of-two count of hashes."""
    while len(hashes) > 1:
        hashes = [sha256(b"\x01" + hashes[i] + hashes[i + 1]).digest()
                  for i in range(0, len(hashes), 2)]
    return hashes[0]


Fetch = Callable[[str], bytes]


class TileReader:
    """A log of `size` entries read through its tiles: any subtree hash, any inclusion or
    consistency proof up to `size`, any entry. Each tile is fetched once, when needed. `tail`
    are the leaves after `size` (not yet in any tile), so proofs reach past it.
    `fetch(path)` returns the resource's bytes or raises AuditError (`tile_missing`)."""

    def __init__(self, fetch: Fetch, size: int, tail: Sequence[bytes] = ()) -> None:
        self.fetch = fetch
        self.size = size
        self.tail = [sha256(b"\x00" + data).digest() for data in tail]
        self._tiles: dict[tuple[int | None, int], list[bytes]] = {}

    def _tile(self, level: int | None, index: int) -> list[bytes]:
        key = (level, index)
        if key not in self._tiles:
            count = self.size >> (HEIGHT * (level or 0))
            width = min(WIDTH, count - index * WIDTH)
            if width <= 0:
                raise AuditError("tile_missing", f"a tree of {self.size} entries has no tile "
                                 f"{Tile(level, index).path}")
            tile, data = self._fetched(Tile(level, index, width))
            if level is None:
                found = parse_entry_bundle(data, tile.width, tile.path)
            elif len(data) != tile.width * HASH_SIZE:
                raise AuditError("malformed_tile", f"{tile.path} holds {len(data)} bytes, not "
                                 f"{tile.width * HASH_SIZE}")
            else:
                found = [data[i:i + HASH_SIZE] for i in range(0, len(data), HASH_SIZE)]
            self._tiles[key] = found[:width]
        return self._tiles[key]

    def _fetched(self, tile: Tile) -> tuple[Tile, bytes]:
        """The tile, or, for a partial tile the log no longer keeps (c2sp.org/tlog-tiles lets
        a log delete one once its full tile exists), the full tile it begins."""
        try:
            return tile, self.fetch(tile.path)
        except AuditError as error:
            if error.code != "tile_missing" or tile.full:
                raise
            full = Tile(tile.level, tile.index)
            try:
                return full, self.fetch(full.path)
            except AuditError as again:
                if again.code == "tile_missing":
                    raise error from None  # name the tile the tree of this size needs
                raise

    def edge(self) -> list[list[bytes]]:
        """The hashes the partial tile of each level above 0 holds in the tree of `size`
        (level 1 first; none for a level whose count is a multiple of 256): what a `TiledLog`
        grows the tree from. Reading the root of `size` reads the same tiles."""
        edge, height = [], 1
        while self.size >> (HEIGHT * height):
            count = self.size >> (HEIGHT * height)
            edge.append(self._tile(height, count // WIDTH) if count % WIDTH else [])
            height += 1
        return edge

    def entry(self, index: int) -> bytes:
        """The bytes of entry `index` (from 0), as its bundle holds them."""
        return self._tile(None, index // WIDTH)[index % WIDTH]

    def entries(self, start: int, end: int) -> Iterator[bytes]:
        for index in range(start, end):
            yield self.entry(index)
            if index % WIDTH == WIDTH - 1:  # a bundle read through is not needed again
                self._tiles.pop((None, index // WIDTH), None)

    def perfect(self, height: int, index: int) -> bytes:
        """MTH of the 2**height leaves from index * 2**height (a subtree of the tree)."""
        if (index + 1) << height > self.size:  # reaches into the tail: built from its leaves
            if height == 0:
                return self.tail[index - self.size]
            return sha256(b"\x01" + self.perfect(height - 1, 2 * index)
                          + self.perfect(height - 1, 2 * index + 1)).digest()
        level, rest = divmod(height, HEIGHT)
        first = index << rest
        tile = self._tile(level, first // WIDTH)
        return _perfect_root(tile[first % WIDTH:first % WIDTH + (1 << rest)])

    def subtree(self, lo: int, hi: int) -> bytes:
        """MTH(D[lo:hi]) for a range the RFC's recursion makes (lo a multiple of a power of
        two at least hi - lo)."""
        n = hi - lo
        if n & (n - 1) == 0:
            height = n.bit_length() - 1
            return self.perfect(height, lo >> height)
        k = 1 << ((n - 1).bit_length() - 1)
        return sha256(b"\x01" + self.subtree(lo, lo + k) + self.subtree(lo + k, hi)).digest()

    def root(self, size: int) -> bytes:
        return self.subtree(0, size) if size else sha256(b"").digest()

    def inclusion_proof(self, index: int, size: int) -> list[bytes]:
        """PATH(index, D[size]), leaf upward (RFC 9162 §2.1.3.1)."""
        return inclusion_path(index, size, self.subtree)

    def consistency_proof(self, size1: int, size2: int) -> list[bytes]:
        """PROOF(size1, D[size2]) (RFC 9162 §2.1.4.1), 0 < size1 <= size2."""
        return consistency_path(size1, size2, self.subtree)
