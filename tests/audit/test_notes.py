"""Signed notes and checkpoints: the Go and C2SP examples, forgeries and malformed text."""

import base64
from collections.abc import Callable
from hashlib import sha256

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.merkle import MAX_SIZE
from audit.notes import (
    ED25519,
    MAX_SIGNATURES,
    Checkpoint,
    NoteError,
    VerifierKey,
    checkpoint_body,
    parse_checkpoint,
    parse_note,
    parse_verifier_key,
    sign_note,
    verify_note,
)
from tests.vectors import VECTORS

CASES = VECTORS["signed_note"]["cases"]
PETER, ENOCH = CASES[:2]
CHECKPOINT = VECTORS["signed_note"]["self_generated_checkpoint"]
ROOT_8 = bytes.fromhex(VECTORS["tree"]["root_by_size"]["8"])
BOUNDED = settings(max_examples=200, deadline=None)


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def signature_line(case: dict) -> str:
    return case.get("signature_line") or case["expected_signature_line"]


def new_key(name: str) -> tuple[Ed25519PrivateKey, VerifierKey]:
    private = Ed25519PrivateKey.generate()
    return private, VerifierKey(name, ED25519, private.public_key().public_bytes_raw())


def code_of(call: Callable[..., object], *args: object) -> str:
    with pytest.raises(NoteError) as caught:
        call(*args)
    return caught.value.code


# The upstream examples.


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["vkey"].split("+")[0])
def test_upstream_note_verifies(case: dict) -> None:
    key = parse_verifier_key(case["vkey"])
    assert str(key) == case["vkey"]
    note = case["text"] + "\n" + signature_line(case)
    assert case.get("valid", True)  # the file has no invalid note vectors
    assert verify_note(note, [key]) == [key]
    assert verify_note(note.encode(), [key]) == [key]
    assert parse_note(note).text == case["text"]


def test_doubly_signed_note_from_go_docs() -> None:
    note = PETER["text"] + "\n" + signature_line(PETER) + signature_line(ENOCH)
    peter, enoch = parse_verifier_key(PETER["vkey"]), parse_verifier_key(ENOCH["vkey"])
    assert verify_note(note, [enoch, peter]) == [peter, enoch]
    assert verify_note(note, [enoch]) == [enoch]  # Peter's signature: unknown, ignored


def test_checkpoint_vector() -> None:
    key = parse_verifier_key(CHECKPOINT["vkey"])
    assert verify_note(CHECKPOINT["checkpoint"], [key]) == [key]
    text = parse_note(CHECKPOINT["checkpoint"]).text
    assert parse_checkpoint(text) == ("example.com/garnet-ledger-test", 8, ROOT_8, ())
    assert checkpoint_body("example.com/garnet-ledger-test", 8, ROOT_8) == text


def test_witness_cosignature_vector() -> None:
    log = parse_verifier_key(CHECKPOINT["vkey"])
    witness = parse_verifier_key(CHECKPOINT["cosigner_vkey_type_0x04"])
    cosigned = CHECKPOINT["checkpoint"] + CHECKPOINT["cosignature_line"]
    assert verify_note(cosigned, [log, witness]) == [log, witness]
    assert verify_note(cosigned, [witness]) == [witness]
    # The vector's signed message really is what the cosignature covers.
    raw = base64.b64decode(CHECKPOINT["cosignature_line"].split()[-1])
    assert int.from_bytes(raw[4:12], "big") == 1700000000
    message = CHECKPOINT["cosignature_v1_signed_message"].encode()
    Ed25519PublicKey.from_public_bytes(witness.public_key).verify(raw[12:], message)
    # The timestamp is signed too.
    backdated = raw[:11] + bytes([raw[11] ^ 1]) + raw[12:]
    forged = CHECKPOINT["checkpoint"] + f"— {witness.name} {b64(backdated)}\n"
    assert code_of(verify_note, forged, [witness]) == "bad_signature"


def test_cosignature_is_not_a_log_signature() -> None:
    """The vector reuses one Ed25519 key for log and witness; the types keep them apart."""
    log = parse_verifier_key(CHECKPOINT["vkey"])
    witness = parse_verifier_key(CHECKPOINT["cosigner_vkey_type_0x04"])
    assert log.public_key == witness.public_key and log.key_id != witness.key_id
    assert code_of(verify_note, CHECKPOINT["checkpoint"], [witness]) == "other_key"


# Signing and forgeries.

CHARS = st.characters(codec="utf-8", exclude_categories=["Cc"], include_characters="\n")
TEXTS = st.text(CHARS, max_size=60).map(lambda text: text + "\n")


@BOUNDED
@given(TEXTS)
def test_sign_verify_round_trip(text: str) -> None:
    private, key = new_key("arbiter.example/match-1")
    note = sign_note(text, key.name, private)
    assert verify_note(note, [key]) == [key]
    assert parse_note(note).text == text


@BOUNDED
@given(st.data())
def test_tampered_text_is_rejected(data: st.DataObject) -> None:
    note = CHECKPOINT["checkpoint"]
    text = parse_note(note).text
    position = data.draw(st.integers(0, len(text) - 1), label="position")
    new = data.draw(st.characters(codec="utf-8").filter(lambda c: c != text[position]))
    tampered = note[:position] + new + note[position + 1 :]
    key = parse_verifier_key(CHECKPOINT["vkey"])
    assert code_of(verify_note, tampered, [key]) in {"bad_signature", "malformed_note"}


def test_note_signed_by_another_key_is_rejected() -> None:
    private, key = new_key("arbiter.example/match-1")
    impostor, _ = new_key("arbiter.example/match-1")
    text = checkpoint_body("arbiter.example/match-1", 8, ROOT_8)
    forged = sign_note(text, key.name, impostor)
    assert code_of(verify_note, forged, [key]) == "other_key"
    # The message names the key that did sign: same name, another key ID.
    signed_by = parse_note(forged).signatures[0]
    with pytest.raises(NoteError) as refused:
        verify_note(forged, [key])
    assert refused.value.message == (f"signed by {key.name}+{signed_by.key_id.hex()}, not by "
                                     f"{key.name}+{key.key_id.hex()}")
    assert signed_by.key_id != key.key_id
    # The impostor's signature presented under the real key's ID.
    forged_raw = key.key_id + impostor.sign(text.encode())
    forged = f"{text}\n— {key.name} {b64(forged_raw)}\n"
    assert code_of(verify_note, forged, [key]) == "bad_signature"
    assert verify_note(sign_note(text, key.name, private), [key]) == [key]


def test_a_bad_known_signature_rejects_despite_a_good_one() -> None:
    private, key = new_key("log")
    other_private, other = new_key("witness")
    text = "hello\n"
    good = sign_note(text, key.name, private)
    bad = sign_note("other\n", other.name, other_private).splitlines(keepends=True)[-1]
    assert code_of(verify_note, good + bad, [key, other]) == "bad_signature"
    assert verify_note(good + bad, [key]) == [key]


def test_repeated_signatures_count_once() -> None:
    private, key = new_key("log")
    note = sign_note("hello\n", key.name, private)
    line = note.splitlines(keepends=True)[-1]
    assert verify_note(note + line + line, [key, key]) == [key]


def test_sixteen_signers_verify_and_more_than_the_cap_is_refused() -> None:
    pairs = [new_key(f"witness-{i}") for i in range(16)]
    lines = [sign_note("hi\n", key.name, private).split("\n\n")[1] for private, key in pairs]
    keys = [key for _, key in pairs]
    assert verify_note("hi\n\n" + "".join(lines), keys) == keys
    too_many = "hi\n\n" + lines[0] * (MAX_SIGNATURES + 1)
    assert code_of(verify_note, too_many, keys) == "too_many_signatures"


def test_keys_colliding_on_name_and_id_are_refused() -> None:
    """Key IDs are 32 bits, so two keys can share name and ID; guessing between them is unsafe."""
    seen: dict[bytes, bytes] = {}
    for counter in range(2**20):  # a collision is due after about 2^16 keys
        public = sha256(counter.to_bytes(4, "big")).digest()
        key_id = sha256(b"log\n\x01" + public).digest()[:4]
        if key_id in seen:
            break
        seen[key_id] = public
    first, second = (VerifierKey("log", ED25519, pk) for pk in (seen[key_id], public))
    assert first.key_id == second.key_id
    note = CHECKPOINT["checkpoint"]
    assert code_of(verify_note, note, [first, first]) == "other_key"
    assert code_of(verify_note, note, [first, second]) == "ambiguous_key"


# Malformed notes and keys.

GOOD_LINE = signature_line(PETER)


@pytest.mark.parametrize(
    ("note", "code"),
    [
        ("hello\n", "malformed_note"),
        ("hello\n\n", "malformed_note"),
        ("hello\n\n" + GOOD_LINE.rstrip("\n"), "malformed_note"),
        ("hel\rlo\n\n" + GOOD_LINE, "malformed_note"),
        ("hel\tlo\n\n" + GOOD_LINE, "malformed_note"),
        ("hello\ud800\n\n" + GOOD_LINE, "malformed_note"),
        (b"hello\xff\n\n" + GOOD_LINE.encode(), "malformed_note"),
        ("hello\n\n" + GOOD_LINE.replace("—", "--"), "malformed_note"),
        ("hello\n\n" + GOOD_LINE.replace("PeterNeumann", "Peter+Neumann"), "malformed_note"),
        ("hello\n\n" + GOOD_LINE.replace("PeterNeumann", ""), "malformed_note"),
        ("hello\n\n" + GOOD_LINE.replace("PeterNeumann ", "PeterNeumann  "), "malformed_note"),
        ("hello\n\n" + GOOD_LINE.replace("=", ""), "malformed_note"),
        ("hello\n\n— PeterNeumann AAAAAA==\n", "malformed_note"),
        ("hello\n\n" + GOOD_LINE + "\n", "malformed_note"),
        ("hello\n\n" + GOOD_LINE, "bad_signature"),
        ("hello\n\n" + GOOD_LINE.replace("x08g", "x08h"), "other_key"),
    ],
)
def test_malformed_or_unsigned_notes(note: str | bytes, code: str) -> None:
    assert code_of(verify_note, note, [parse_verifier_key(PETER["vkey"])]) == code


PETER_KEY64 = PETER["vkey"].split("+", 2)[2]


@pytest.mark.parametrize(
    ("vkey", "code"),
    [
        ("PeterNeumann", "malformed_key"),
        ("PeterNeumann+c74f20a3", "malformed_key"),
        ("PeterNeumann+c74f20a+" + PETER_KEY64, "malformed_key"),
        ("PeterNeumann+0xc74f20+" + PETER_KEY64, "malformed_key"),
        ("PeterNeumann+c74f20a3+" + PETER_KEY64 + "!", "malformed_key"),
        ("PeterNeumann+c74f20a3+", "malformed_key"),
        ("Peter Neumann+c74f20a3+" + PETER_KEY64, "malformed_key"),
        ("PeterNeumann+c74f20a4+" + PETER_KEY64, "key_hash_mismatch"),
        ("PeterNeumann+c74f20a3+" + b64(b"\x01" + bytes(31)), "malformed_key"),
        ("PeterNeumann+c74f20a3+" + b64(b"\x02" + bytes(32)), "unsupported_key_type"),
    ],
)
def test_malformed_verifier_keys(vkey: str, code: str) -> None:
    assert code_of(parse_verifier_key, vkey) == code


def test_verifier_key_hash_is_case_insensitive_like_go() -> None:
    assert str(parse_verifier_key(PETER["vkey"].replace("c74f20a3", "C74F20A3"))) == PETER["vkey"]


# Checkpoint text.

ROOT64 = b64(ROOT_8)


@pytest.mark.parametrize(
    "text",
    [
        f"log\n8\n{ROOT64}",
        f"log\n8\n{ROOT64}\n\n",
        f"log\n8\n{ROOT64}\n\nextension\n",
        f"\n8\n{ROOT64}\n",
        f"log\n{ROOT64}\n",
        f"log\n08\n{ROOT64}\n",
        f"log\n-8\n{ROOT64}\n",
        f"log\n+8\n{ROOT64}\n",
        f"log\n 8\n{ROOT64}\n",
        f"log\n\u0668\n{ROOT64}\n",
        f"log\n{MAX_SIZE + 1}\n{ROOT64}\n",
        f"log\n{'9' * 5000}\n{ROOT64}\n",
        f"log\n8\n{ROOT64[:-2]}\n",
        f"log\n8\n{ROOT64[:-2]}h=\n",  # same bytes, but not the canonical spelling
        f"log\n8\n{b64(ROOT_8[:31])}\n",
        f"log\n8\n{ROOT_8.hex()}\n",
        f"lo\tg\n8\n{ROOT64}\n",
    ],
)
def test_malformed_checkpoints(text: str) -> None:
    assert code_of(parse_checkpoint, text) == "malformed_checkpoint"


@pytest.mark.parametrize(
    ("origin", "size", "root", "extensions"),
    [
        ("", 8, ROOT_8, ()),
        ("log\n9", 8, ROOT_8, ()),
        ("log", -1, ROOT_8, ()),
        ("log", True, ROOT_8, ()),
        ("log", MAX_SIZE + 1, ROOT_8, ()),
        ("log", 8, ROOT_8[:31], ()),
        ("log", 8, ROOT_8, ("",)),
        ("log", 8, ROOT_8, ("a\nb",)),
    ],
)
def test_checkpoint_body_refuses_what_could_not_be_read_back(
    origin: str, size: int, root: bytes, extensions: tuple[str, ...]
) -> None:
    assert code_of(checkpoint_body, origin, size, root, extensions) == "malformed_checkpoint"


LINES = st.text(st.characters(codec="utf-8", exclude_categories=["Cc"]), min_size=1, max_size=20)


@BOUNDED
@given(LINES, st.integers(0, MAX_SIZE), st.binary(min_size=32, max_size=32), st.lists(LINES))
def test_checkpoint_round_trip(origin: str, size: int, root: bytes, extensions: list[str]) -> None:
    checkpoint = Checkpoint(origin, size, root, tuple(extensions))
    assert parse_checkpoint(checkpoint_body(*checkpoint)) == checkpoint
