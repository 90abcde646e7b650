"""RFC 9162 (RFC 6962) Merkle trees: roots, proofs and their verification.

Plain CT hashing, no sorted pairs and no duplicated last node: a proof must also prove the leaf's
position ("event #i is at i"). Leaves are the raw leaf inputs; proofs list hashes from the leaf
level upward.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from hashlib import sha256

from domain.merkle import EMPTY_ROOT, TreeBuilder, leaf_hash, node_hash

__all__ = ["EMPTY_ROOT", "TreeBuilder", "leaf_hash", "node_hash"]  # with the proofs below

HASH_SIZE = 32
MAX_SIZE = 2**64 - 1  # sizes are uint64 in CT, C2SP and Go; bigger ones are junk


def root(leaves: Iterable[bytes]) -> bytes:
    """MTH of the leaves; SHA-256("") when there are none."""
    hashes = [leaf_hash(data) for data in leaves]
    return _mth(hashes) if hashes else EMPTY_ROOT


def aligned_subtrees(start: int, leaves: Sequence[bytes]) -> list[tuple[bytes, int]]:
    """The leaves at positions `start` on as the fewest perfect subtrees each aligned to its own
    size, in order, as (root, height): what TreeBuilder.append_subtree takes to append them."""
    level = [sha256(b"\x00" + data).digest() for data in leaves]
    found: list[tuple[bytes, int]] = []
    end = start + len(level)
    while start < end:
        height = (start & -start).bit_length() - 1 if start else end.bit_length()
        while start + (1 << height) > end:
            height -= 1
        block = level[:1 << height]
        del level[:1 << height]
        while len(block) > 1:
            block = [sha256(b"\x01" + left + right).digest()
                     for left, right in zip(block[::2], block[1::2], strict=True)]
        found.append((block[0], height))
        start += 1 << height
    return found


def inclusion_proof(index: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PATH(index, D[n]): the siblings from leaf `index` up to the root."""
    return Proofs(leaves).inclusion(index, len(leaves))


def consistency_proof(size1: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PROOF(size1, D[n]): what shows the tree of all `leaves` extends its first `size1`."""
    return Proofs(leaves).consistency(size1, len(leaves))


def inclusion_path(index: int, size: int, root: Callable[[int, int], bytes]) -> list[bytes]:
    """PATH(index, D[size]) (RFC 9162 §2.1.3.1), from the leaf up, where `root(lo, hi)` is
    MTH of leaves [lo, hi): one walk for a bundle's leaves and for a log's tiles."""
    path = []
    lo, hi = 0, size
    while hi - lo > 1:
        mid = lo + _split(hi - lo)
        if index < mid:
            path.append(root(mid, hi))
            hi = mid
        else:
            path.append(root(lo, mid))
            lo = mid
    return path[::-1]


def consistency_path(size1: int, size2: int, root: Callable[[int, int], bytes]) -> list[bytes]:
    """PROOF(size1, D[size2]) (RFC 9162 §2.1.4.1), 0 < size1 <= size2, `root` as above."""
    proof = []
    lo, hi = 0, size2
    while size1 != hi:
        mid = lo + _split(hi - lo)
        if size1 <= mid:
            proof.append(root(mid, hi))
            hi = mid
        else:
            proof.append(root(lo, mid))
            lo = mid
    if lo:  # at lo == 0 the subtree is the old tree itself, whose root the verifier holds
        proof.append(root(lo, hi))
    return proof[::-1]


class Proofs:
    """Proofs in one log at any of its sizes: its leaves hashed once, and each subtree root
    computed once however many proofs ask for it (a bundle holds one per checkpoint)."""

    def __init__(self, leaves: Sequence[bytes]) -> None:
        self._hashes = [leaf_hash(data) for data in leaves]
        self._roots: dict[tuple[int, int], bytes] = {}

    def inclusion(self, index: int, size: int) -> list[bytes]:
        """PATH(index, D[size]): the siblings from leaf `index` up to the root."""
        if not 0 <= index < size <= len(self._hashes):
            raise ValueError(f"index {index} is outside a tree of {size} leaves")
        return inclusion_path(index, size, self._root)

    def consistency(self, size1: int, size2: int) -> list[bytes]:
        """PROOF(size1, D[size2]): what shows the tree of `size2` leaves extends its first
        `size1`."""
        if not 0 < size1 <= size2 <= len(self._hashes):
            raise ValueError(f"no consistency proof from size {size1} to size {size2}")
        return consistency_path(size1, size2, self._root)

    def _root(self, lo: int, hi: int) -> bytes:
        """MTH of leaves [lo, hi), split as the RFC splits it."""
        if hi - lo == 1:
            return self._hashes[lo]
        found = self._roots.get((lo, hi))
        if found is None:
            mid = lo + _split(hi - lo)
            found = self._roots[lo, hi] = node_hash(self._root(lo, mid), self._root(mid, hi))
        return found


def verify_inclusion(
    index: int, size: int, leaf_hash: bytes, proof: Sequence[bytes], root: bytes
) -> bool:
    """RFC 9162 §2.1.3.2 with the checks real verifiers add; False on any malformed input."""
    if not (
        _is_size(index)
        and _is_size(size)
        and index < size
        and _is_hash(leaf_hash)
        and _is_hash(root)
        and _is_proof(proof, size.bit_length())
    ):
        return False
    fn, sn, r = index, size - 1, leaf_hash
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == root


def verify_consistency(
    size1: int, size2: int, root1: bytes, root2: bytes, proof: Sequence[bytes]
) -> bool:
    """RFC 9162 §2.1.4.2 with the checks real verifiers add; False on any malformed input.

    A tree of size 0 proves nothing, so size1 == 0 is refused: a client that pinned an empty
    tree has nothing to check against.
    """
    if not (
        _is_size(size1)
        and _is_size(size2)
        and 0 < size1 <= size2
        and _is_hash(root1)
        and _is_hash(root2)
        and _is_proof(proof, 2 * size2.bit_length())
    ):
        return False
    if size1 == size2:
        return not proof and root1 == root2
    if not proof:
        return False
    if size1 & (size1 - 1) == 0:  # the old tree is a perfect subtree: its root is the seed
        proof = [root1, *proof]
    fn, sn = size1 - 1, size2 - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = proof[0]
    for c in proof[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not fn & 1 and fn:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr == root1 and sr == root2


def _split(n: int) -> int:
    """k, the largest power of two below n (n > 1): the RFC's left subtree size."""
    return 1 << ((n - 1).bit_length() - 1)


def _mth(hashes: list[bytes]) -> bytes:
    """MTH over leaf hashes, level by level; an odd last node rises unpaired, which builds the
    same tree as the RFC's largest-power-of-two split."""
    while len(hashes) > 1:
        paired = [node_hash(hashes[i], hashes[i + 1]) for i in range(0, len(hashes) - 1, 2)]
        hashes = [*paired, hashes[-1]] if len(hashes) % 2 else paired
    return hashes[0]


def _is_size(n: object) -> bool:
    return isinstance(n, int) and 0 <= n <= MAX_SIZE


def _is_hash(h: object) -> bool:
    return isinstance(h, bytes | bytearray) and len(h) == HASH_SIZE


def _is_proof(proof: object, max_len: int) -> bool:
    """A list of hashes no longer than any proof for the size could be (refused before hashing)."""
    return (
        isinstance(proof, list | tuple)
        and len(proof) <= max_len
        and all(_is_hash(p) for p in proof)
    )
