"""A tiles client written from c2sp.org/tlog-tiles and RFC 6962 §2.1 alone, to hold the
project's tiles to the spec: it never imports the project's Merkle or tiles code, so a bug
shared by the writer and the project's own reader cannot hide.

`get(path)` returns the bytes under a log's prefix (HTTP or a folder).
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from hashlib import sha256


def rfc_mth(leaves: list[bytes]) -> bytes:
    """RFC 6962 §2.1 MTH as written: the largest power of two below n splits the list."""
    if not leaves:
        return sha256(b"").digest()
    if len(leaves) == 1:
        return sha256(b"\x00" + leaves[0]).digest()
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return sha256(b"\x01" + rfc_mth(leaves[:k]) + rfc_mth(leaves[k:])).digest()


def spec_index(n: int) -> str:
    """"index 1234067 will be encoded as x001/x234/067": 3-digit elements, all but the last
    beginning with x."""
    elements = []
    while True:
        elements.append(f"{n % 1000:03d}")
        n //= 1000
        if n == 0:
            break
    elements.reverse()
    return "/".join(["x" + e for e in elements[:-1]] + [elements[-1]])


class SpecClient:
    def __init__(self, get: Callable[[str], bytes]) -> None:
        self.get = get

    def checkpoint(self) -> tuple[str, int, bytes, str]:
        """origin, tree size, root hash, and the whole note."""
        note = self.get("checkpoint").decode()
        origin, size, root = note.split("\n")[:3]
        return origin, int(size), base64.b64decode(root), note

    def tile(self, level: int | str, n: int, size: int) -> bytes:
        """The tile at `level` (or "entries") holding position n*256.. of a tree of `size`:
        full when the tree holds all 256, else partial, floor(s / 256**l) mod 256 wide."""
        lvl = 0 if level == "entries" else int(level)
        count = size // 256 ** lvl
        width = 256 if count >= (n + 1) * 256 else count % 256
        path = f"tile/{level}/{spec_index(n)}" + ("" if width == 256 else f".p/{width}")
        return self.get(path)

    def hashes(self, level: int, n: int, size: int) -> list[bytes]:
        data = self.tile(level, n, size)
        assert len(data) % 32 == 0
        return [data[i:i + 32] for i in range(0, len(data), 32)]

    def entries(self, n: int, size: int) -> list[bytes]:
        """An entry bundle: "sequences of big-endian uint16 length-prefixed log entries"."""
        data, out = self.tile("entries", n, size), []
        while data:
            length = int.from_bytes(data[:2], "big")
            out.append(data[2:2 + length])
            assert len(out[-1]) == length
            data = data[2 + length:]
        return out

    def all_entries(self, size: int) -> list[bytes]:
        out: list[bytes] = []
        for n in range((size + 255) // 256):
            out += self.entries(n, size)
        return out

    def level_hashes(self, level: int, size: int) -> list[bytes]:
        """Every hash of `level` the tree of `size` has: MTH of each complete 256**level run."""
        count = size // 256 ** level
        out: list[bytes] = []
        for n in range((count + 255) // 256):
            out += self.hashes(level, n, size)
        assert len(out) == count
        return out

    def root(self, size: int) -> bytes:
        """The tree's root from its tiles: the highest level that has hashes gives the complete
        256**L runs, each lower level the runs left over, right to left."""
        pieces: list[tuple[int, bytes]] = []  # (leaves covered, subtree hash), left to right
        covered, level = 0, 0
        while 256 ** (level + 1) <= size:
            level += 1
        while level >= 0:
            run = 256 ** level
            hashes = self.level_hashes(level, size)
            for i in range(covered // run, size // run):
                pieces.append((run, hashes[i]))
            covered = (size // run) * run
            level -= 1
        return _mth_nodes(pieces)


def _mth_nodes(nodes: list[tuple[int, bytes]]) -> bytes:
    """MTH over a list of perfect subtrees (size, root), by the RFC's split of their leaves."""
    total = sum(size for size, _ in nodes)
    if len(nodes) == 1:
        return nodes[0][1]
    k = 1
    while k * 2 < total:
        k *= 2
    left, acc = [], 0
    rest = list(nodes)
    while acc < k:
        size, h = rest.pop(0)
        if acc + size <= k:
            left.append((size, h))
            acc += size
        else:  # a perfect subtree the split cuts: never happens for runs aligned as tiles are
            raise AssertionError("a tile run straddles the RFC's split")
    return sha256(b"\x01" + _mth_nodes(left) + _mth_nodes(rest)).digest()
