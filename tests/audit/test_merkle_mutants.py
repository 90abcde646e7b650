"""Edges of audit/merkle.py that the RFC 9162 vectors do not reach: tree sizes are uint64 (at
most 2^64 - 1, as in CT, C2SP and Go), and no consistency proof starts from an empty tree."""

from __future__ import annotations

import pytest

from audit.merkle import consistency_proof, inclusion_proof, verify_consistency, verify_inclusion

UINT64_MAX = 2**64 - 1
R = bytes(range(32))


def test_equal_sizes_verify_up_to_the_largest_uint64() -> None:
    # Equal sizes need equal roots and an empty proof, whatever the size a checkpoint states.
    assert verify_consistency(UINT64_MAX, UINT64_MAX, R, R, [])
    assert not verify_consistency(UINT64_MAX + 1, UINT64_MAX + 1, R, R, [])
    assert not verify_consistency(1, UINT64_MAX + 1, R, R, [R])


def test_no_size_past_the_largest_uint64_is_verified() -> None:
    assert not verify_inclusion(0, UINT64_MAX + 1, R, [R] * 64, R)
    assert not verify_inclusion(UINT64_MAX + 1, 1, R, [], R)


@pytest.mark.parametrize(("size1", "leaves"), [(0, []), (0, [b"a"]), (1, []), (2, [b"a"])])
def test_no_consistency_proof_from_an_empty_or_larger_tree(size1: int, leaves: list) -> None:
    with pytest.raises(ValueError, match="no consistency proof"):
        consistency_proof(size1, leaves)


@pytest.mark.parametrize(("index", "leaves"), [(0, []), (1, [b"a"]), (-1, [b"a"])])
def test_no_inclusion_proof_outside_the_tree(index: int, leaves: list) -> None:
    with pytest.raises(ValueError, match="outside a tree"):
        inclusion_proof(index, leaves)


def test_a_one_leaf_tree_proves_only_its_leaf() -> None:
    # The root of a one-leaf tree is the leaf's hash, with an empty proof, at index 0 only.
    assert verify_inclusion(0, 1, R, [], R)
    assert not verify_inclusion(1, 1, R, [], R)
