"""The RFC 9162 tree hashes a match keeps as it grows: leaves, nodes, and the root of a log fed
one leaf at a time (audit/merkle.py adds proofs and their verification)."""

from __future__ import annotations

from collections.abc import Iterable
from hashlib import sha256
from typing import Any

EMPTY_ROOT = sha256(b"").digest()


def leaf_hash(data: bytes) -> bytes:
    """SHA-256(0x00 || data); the prefix keeps a leaf from posing as an inner node."""
    return sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """SHA-256(0x01 || left || right)."""
    return sha256(b"\x01" + left + right).digest()


class TreeBuilder:
    """The root of a log fed one leaf at a time, in O(log n) memory.

    It keeps one perfect-subtree root per set bit of the size, largest first; appending merges
    equal-sized subtrees like a carry in binary addition. Enough to check the root of a
    million-event bundle while streaming it.
    """

    __slots__ = ("_size", "_stack")

    def __init__(self) -> None:
        self._size = 0
        self._stack: list[bytes] = []

    @property
    def size(self) -> int:
        return self._size

    def append(self, leaf_data: bytes) -> None:
        # sha256 inlined: this is the hot loop of a full-bundle verify.
        h = sha256(b"\x00" + leaf_data).digest()
        n = self._size
        while n & 1:
            h = sha256(b"\x01" + self._stack.pop() + h).digest()
            n >>= 1
        self._stack.append(h)
        self._size += 1

    def extend(self, leaves: Iterable[bytes]) -> None:
        """Append many leaves (what `append` does one by one), a level at a time: each level's
        pairs hashed in one comprehension, each unpaired root kept. The hot loop of a verify."""
        level = [sha256(b"\x00" + data).digest() for data in leaves]
        size, kept = self._size, []
        self._size += len(level)
        while level:
            if size & 1:  # the subtree of this height on the stack takes the level's first
                level.insert(0, self._stack.pop())
            if len(level) & 1:
                kept.append(level.pop())
            level = [sha256(b"\x01" + left + right).digest()
                     for left, right in zip(level[::2], level[1::2], strict=True)]
            size >>= 1
        self._stack.extend(reversed(kept))

    def append_subtree(self, root: bytes, height: int) -> None:
        """Append the 2**height leaves whose perfect subtree has root `root`, as `extend`
        would append them: the size must be a multiple of 2**height (an aligned subtree)."""
        if self._size % (1 << height):
            raise ValueError(f"a subtree of height {height} cannot start at leaf {self._size}")
        n = self._size >> height
        while n & 1:
            root = sha256(b"\x01" + self._stack.pop() + root).digest()
            n >>= 1
        self._stack.append(root)
        self._size += 1 << height

    def root(self) -> bytes:
        """MTH of the leaves so far: the subtree roots folded from the right."""
        if not self._stack:
            return EMPTY_ROOT
        acc = self._stack[-1]
        for h in reversed(self._stack[:-1]):
            acc = node_hash(h, acc)
        return acc

    def state(self) -> list[Any]:
        """[size, [hex subtree roots]]: plain JSON, to keep in a snapshot."""
        return [self._size, [h.hex() for h in self._stack]]

    @classmethod
    def from_state(cls, state: list[Any]) -> TreeBuilder:
        tree = cls()
        tree._size, tree._stack = state[0], [bytes.fromhex(h) for h in state[1]]
        return tree
