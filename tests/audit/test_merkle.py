"""RFC 9162 trees: the shared vectors, the RFC's own recursive definitions, and tampering."""

import base64
from hashlib import sha256

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.merkle import (
    EMPTY_ROOT,
    TreeBuilder,
    consistency_proof,
    inclusion_proof,
    leaf_hash,
    node_hash,
    root,
    verify_consistency,
    verify_inclusion,
)
from tests.vectors import VECTORS

TREE = [bytes.fromhex(data) for data in VECTORS["tree"]["leaf_inputs_hex"]]
LEAVES = [f"event {i}".encode() for i in range(200)]
ROOTS = [root(LEAVES[:n]) for n in range(65)]


def unhex(hashes: list[str]) -> list[bytes]:
    return [bytes.fromhex(h) for h in hashes]


def flip(data: bytes, position: int, delta: int) -> bytes:
    return data[:position] + bytes([data[position] ^ delta]) + data[position + 1 :]


# The RFC 9162 §2.1 definitions as written, over raw leaf inputs: the reference to compare with.


def ref_split(n: int) -> int:
    k = 1
    while 2 * k < n:
        k *= 2
    return k


def ref_mth(d: list[bytes]) -> bytes:
    if not d:
        return sha256(b"").digest()
    if len(d) == 1:
        return sha256(b"\x00" + d[0]).digest()
    k = ref_split(len(d))
    return sha256(b"\x01" + ref_mth(d[:k]) + ref_mth(d[k:])).digest()


def ref_path(m: int, d: list[bytes]) -> list[bytes]:
    if len(d) == 1:
        return []
    k = ref_split(len(d))
    if m < k:
        return [*ref_path(m, d[:k]), ref_mth(d[k:])]
    return [*ref_path(m - k, d[k:]), ref_mth(d[:k])]


def ref_subproof(m: int, d: list[bytes], b: bool) -> list[bytes]:
    if m == len(d):
        return [] if b else [ref_mth(d)]
    k = ref_split(len(d))
    if m <= k:
        return [*ref_subproof(m, d[:k], b), ref_mth(d[k:])]
    return [*ref_subproof(m - k, d[k:], False), ref_mth(d[:k])]


def ref_proof(m: int, d: list[bytes]) -> list[bytes]:
    return ref_subproof(m, d, True)


# Upstream vectors.


def test_hashing_vectors() -> None:
    assert EMPTY_ROOT.hex() == VECTORS["hashing"]["empty_tree_root"]
    cases = VECTORS["hasher_vectors"]["cases"]
    for case in cases:
        if "leaf_input_hex" in case:
            got = leaf_hash(bytes.fromhex(case["leaf_input_hex"]))
        elif "left_hex" in case:
            got = node_hash(bytes.fromhex(case["left_hex"]), bytes.fromhex(case["right_hex"]))
        else:
            got = root([])
        assert got.hex() == case["expect"], case["desc"]
    assert len(cases) == 4


def test_tree_leaf_hashes() -> None:
    assert [leaf_hash(data).hex() for data in TREE] == VECTORS["tree"]["leaf_hashes"]


@pytest.mark.parametrize("size", range(9))
def test_tree_roots(size: int) -> None:
    expected = VECTORS["tree"]["root_by_size"][str(size)]
    builder = TreeBuilder()
    for data in TREE[:size]:
        builder.append(data)
    assert root(TREE[:size]).hex() == builder.root().hex() == expected


def case_id(case: dict) -> str:
    return case["source"]["path"].removeprefix("testdata/")


@pytest.mark.parametrize("case", VECTORS["inclusion_proofs"], ids=case_id)
def test_inclusion_probe(case: dict) -> None:
    index, size = case["leaf_index"], case["tree_size"]
    proof = unhex(case["proof"])
    leaf, tree_root = bytes.fromhex(case["leaf_hash"]), bytes.fromhex(case["root"])
    assert verify_inclusion(index, size, leaf, proof, tree_root) is case["valid"]
    if case["valid"]:
        assert leaf == leaf_hash(TREE[index])
        assert inclusion_proof(index, TREE[:size]) == proof


@pytest.mark.parametrize("case", VECTORS["consistency_proofs"], ids=case_id)
def test_consistency_probe(case: dict) -> None:
    size1, size2 = case["size1"], case["size2"]
    proof = unhex(case["proof"])
    root1, root2 = bytes.fromhex(case["root1"]), bytes.fromhex(case["root2"])
    assert verify_consistency(size1, size2, root1, root2, proof) is case["valid"]
    if case["valid"]:
        assert consistency_proof(size1, TREE[:size2]) == proof


GENERATED = VECTORS["generated_all_proofs_sizes_1_to_8"]


@pytest.mark.parametrize("key", GENERATED["inclusion"])
def test_generated_inclusion(key: str) -> None:
    index, size = map(int, key.split("/"))
    proof = inclusion_proof(index, TREE[:size])
    assert proof == unhex(GENERATED["inclusion"][key])
    assert verify_inclusion(index, size, leaf_hash(TREE[index]), proof, root(TREE[:size]))


@pytest.mark.parametrize("key", GENERATED["consistency"])
def test_generated_consistency(key: str) -> None:
    size1, size2 = map(int, key.split("/"))
    proof = consistency_proof(size1, TREE[:size2])
    assert proof == unhex(GENERATED["consistency"][key])
    assert verify_consistency(size1, size2, root(TREE[:size1]), root(TREE[:size2]), proof)


def test_generated_proofs_cover_every_pair() -> None:
    assert len(GENERATED["inclusion"]) == 36
    assert len(GENERATED["consistency"]) == 28


ARGON = VECTORS["real_log_argon2020"]


def test_real_ct_log_inclusion() -> None:
    leaf = leaf_hash(base64.b64decode(ARGON["leaf_input_b64"]))
    assert leaf.hex() == ARGON["leaf_hash"]
    proof, tree_root = unhex(ARGON["inclusion_proof"]), bytes.fromhex(ARGON["root"])
    index, size = ARGON["leaf_index"], ARGON["tree_size"]
    assert verify_inclusion(index, size, leaf, proof, tree_root)
    assert not verify_inclusion(index + 1, size, leaf, proof, tree_root)
    for i in range(len(proof)):
        tampered = [*proof[:i], flip(proof[i], 31, 1), *proof[i + 1 :]]
        assert not verify_inclusion(index, size, leaf, tampered, tree_root)


def test_real_ct_log_consistency() -> None:
    proof = unhex(ARGON["consistency_proof"])
    old_size, size = ARGON["old_tree_size"], ARGON["tree_size"]
    old_root, new_root = bytes.fromhex(ARGON["old_root"]), bytes.fromhex(ARGON["root"])
    assert verify_consistency(old_size, size, old_root, new_root, proof)
    assert not verify_consistency(old_size + 1, size, old_root, new_root, proof)
    assert not verify_consistency(old_size, size, new_root, old_root, proof)
    for i in range(len(proof)):
        tampered = [*proof[:i], flip(proof[i], 0, 0x80), *proof[i + 1 :]]
        assert not verify_consistency(old_size, size, old_root, new_root, tampered)


# Every index and size up to 64 against the RFC's recursions.


@pytest.mark.parametrize("size", range(1, 65))
def test_proofs_match_rfc_definitions(size: int) -> None:
    leaves = LEAVES[:size]
    assert ROOTS[size] == ref_mth(leaves)
    for index in range(size):
        proof = inclusion_proof(index, leaves)
        assert proof == ref_path(index, leaves)
        leaf = leaf_hash(leaves[index])
        assert verify_inclusion(index, size, leaf, proof, ROOTS[size])
        if index + 1 < size:
            assert not verify_inclusion(index + 1, size, leaf, proof, ROOTS[size])
    for size1 in range(1, size + 1):
        proof = consistency_proof(size1, leaves)
        assert proof == ref_proof(size1, leaves)
        assert verify_consistency(size1, size, ROOTS[size1], ROOTS[size], proof)
        if size1 < size:
            assert not verify_consistency(size1 + 1, size, ROOTS[size1], ROOTS[size], proof)
            assert not verify_consistency(size1, size, ROOTS[size1], ROOTS[size1], proof)


def test_generators_refuse_impossible_proofs() -> None:
    with pytest.raises(ValueError):
        inclusion_proof(8, TREE)
    with pytest.raises(ValueError):
        inclusion_proof(-1, TREE)
    with pytest.raises(ValueError):
        consistency_proof(0, TREE)
    with pytest.raises(ValueError):
        consistency_proof(9, TREE)


# Tampering: one changed byte anywhere breaks the proof.

BOUNDED = settings(max_examples=200, deadline=None)


@BOUNDED
@given(st.data())
def test_inclusion_breaks_on_any_byte_change(data: st.DataObject) -> None:
    size = data.draw(st.integers(1, 64), label="size")
    index = data.draw(st.integers(0, size - 1), label="index")
    parts = {"leaf": LEAVES[index], "root": ROOTS[size]}
    parts |= {f"proof[{i}]": p for i, p in enumerate(inclusion_proof(index, LEAVES[:size]))}

    def verify(p: dict[str, bytes]) -> bool:
        proof = [p[f"proof[{i}]"] for i in range(len(p) - 2)]
        return verify_inclusion(index, size, leaf_hash(p["leaf"]), proof, p["root"])

    assert verify(parts)
    target = data.draw(st.sampled_from(sorted(parts)), label="target")
    position = data.draw(st.integers(0, len(parts[target]) - 1), label="position")
    delta = data.draw(st.integers(1, 255), label="xor")
    assert not verify(parts | {target: flip(parts[target], position, delta)})


@BOUNDED
@given(st.data())
def test_consistency_breaks_on_any_byte_change(data: st.DataObject) -> None:
    size2 = data.draw(st.integers(1, 64), label="size2")
    size1 = data.draw(st.integers(1, size2), label="size1")
    parts = {"root1": ROOTS[size1], "root2": ROOTS[size2]}
    parts |= {f"proof[{i}]": p for i, p in enumerate(consistency_proof(size1, LEAVES[:size2]))}

    def verify(p: dict[str, bytes]) -> bool:
        proof = [p[f"proof[{i}]"] for i in range(len(p) - 2)]
        return verify_consistency(size1, size2, p["root1"], p["root2"], proof)

    assert verify(parts)
    target = data.draw(st.sampled_from(sorted(parts)), label="target")
    position = data.draw(st.integers(0, 31), label="position")
    delta = data.draw(st.integers(1, 255), label="xor")
    assert not verify(parts | {target: flip(parts[target], position, delta)})


# Malformed input: False, never an exception.

GOOD_INCLUSION = {
    "index": 5,
    "size": 8,
    "leaf_hash": leaf_hash(TREE[5]),
    "proof": inclusion_proof(5, TREE),
    "root": root(TREE),
}
GOOD_CONSISTENCY = {
    "size1": 6,
    "size2": 8,
    "root1": root(TREE[:6]),
    "root2": root(TREE),
    "proof": consistency_proof(6, TREE),
}
BAD_PROOFS = [
    None,
    b"".join(GOOD_INCLUSION["proof"]),
    [None] * 3,
    [h.hex() for h in GOOD_INCLUSION["proof"]],
    [h[:31] for h in GOOD_INCLUSION["proof"]],
    [*GOOD_INCLUSION["proof"], GOOD_INCLUSION["proof"][0]],
    GOOD_INCLUSION["proof"][:-1],
    [EMPTY_ROOT] * 1000,
]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("index", 8),
        ("index", -1),
        ("index", "5"),
        ("index", 5.0),
        ("size", 0),
        ("size", 2**64),
        ("size", None),
        ("leaf_hash", b""),
        ("leaf_hash", GOOD_INCLUSION["leaf_hash"].hex()),
        ("leaf_hash", GOOD_INCLUSION["leaf_hash"] + b"\x00"),
        ("root", GOOD_INCLUSION["root"][:31]),
        ("root", None),
        *(("proof", proof) for proof in BAD_PROOFS),
    ],
)
def test_malformed_inclusion_is_false(field: str, value: object) -> None:
    assert verify_inclusion(**GOOD_INCLUSION)
    assert verify_inclusion(**GOOD_INCLUSION | {field: value}) is False


@pytest.mark.parametrize(
    ("changes"),
    [
        {"size1": 0},
        {"size1": 0, "size2": 0, "root1": EMPTY_ROOT, "root2": EMPTY_ROOT, "proof": []},
        {"size1": 9},
        {"size1": -6},
        {"size2": 2**64},
        {"size2": "8"},
        {"size1": 8, "root1": root(TREE)},
        {"size1": 8, "proof": []},
        {"proof": []},
        {"root1": b""},
        {"root2": root(TREE).hex()},
        *({"proof": proof} for proof in BAD_PROOFS),
    ],
    ids=lambda changes: ",".join(changes),
)
def test_malformed_consistency_is_false(changes: dict) -> None:
    assert verify_consistency(**GOOD_CONSISTENCY)
    assert verify_consistency(**GOOD_CONSISTENCY | changes) is False


def test_equal_sizes_need_equal_roots_and_no_proof() -> None:
    assert verify_consistency(8, 8, root(TREE), root(TREE), [])


JUNK = st.one_of(
    st.none(),
    st.integers(-2, 2**65),
    st.floats(),
    st.text(max_size=4),
    st.binary(max_size=40),
    st.lists(st.binary(min_size=30, max_size=33), max_size=70),
    st.lists(st.none() | st.text(max_size=2), max_size=3),
)


@BOUNDED
@given(JUNK, JUNK, JUNK, JUNK, JUNK)
def test_verifiers_never_raise(a: object, b: object, c: object, d: object, e: object) -> None:
    assert isinstance(verify_inclusion(a, b, c, d, e), bool)  # type: ignore[arg-type]
    assert isinstance(verify_consistency(a, b, c, d, e), bool)  # type: ignore[arg-type]


# The streaming builder.


def test_tree_builder_matches_root_in_flat_memory() -> None:
    builder = TreeBuilder()
    for size in range(201):
        assert builder.size == size
        assert builder.root() == root(LEAVES[:size])
        assert len(builder._stack) == size.bit_count()  # one subtree root per set bit
        if size < 200:
            builder.append(LEAVES[size])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 25), max_size=8))
def test_a_tree_extended_in_runs_is_the_tree_appended_one_by_one(runs: list[int]) -> None:
    """`extend` folds a run of leaves a level at a time; whatever the runs, the subtree roots
    it keeps are `append`'s."""
    extended, appended, size = TreeBuilder(), TreeBuilder(), 0
    for run in runs:
        extended.extend(LEAVES[size:size + run])
        for data in LEAVES[size:size + run]:
            appended.append(data)
        size += run
        assert extended.size == size and extended.state() == appended.state()
        assert extended.root() == root(LEAVES[:size])
