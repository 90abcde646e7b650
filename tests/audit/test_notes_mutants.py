"""The edges of notes and checkpoints that C2SP fixes in numbers: a cosignature is an 8-byte
big-endian timestamp below 2^63 and a 64-byte Ed25519 signature; a tree size is a uint64
(at most 2^64 - 1, written in decimal without leading zeros); a verifier reads up to 100
signature lines (Go's limit, golang.org/x/mod/sumdb/note)."""

from __future__ import annotations

import base64
from dataclasses import FrozenInstanceError

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from audit.notes import (
    COSIGNATURE_V1,
    ED25519,
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

UINT64_MAX = 2**64 - 1
ROOT = bytes(range(32))
ROOT64 = base64.b64encode(ROOT).decode()
TEXT = f"log.example/match/m1\n8\n{ROOT64}\n"


def code_of(call, *args) -> str:
    with pytest.raises(NoteError) as caught:
        call(*args)
    return caught.value.code


def witness() -> tuple[Ed25519PrivateKey, VerifierKey]:
    private = Ed25519PrivateKey.generate()
    return private, VerifierKey("w.example", COSIGNATURE_V1,
                                private.public_key().public_bytes_raw())


def cosigned(private, key: VerifierKey, timestamp: int, extra: bytes = b"",
             cut: int = 0) -> str:
    """TEXT with one cosignature line of `key` over `timestamp`, as c2sp.org/tlog-cosignature
    lays it out: key ID, u64 big-endian time, Ed25519 over the cosignature/v1 message."""
    message = f"cosignature/v1\ntime {timestamp}\n{TEXT}".encode()
    raw = key.key_id + timestamp.to_bytes(8, "big") + private.sign(message) + extra
    raw = raw[: len(raw) - cut]
    return f"{TEXT}\n\N{EM DASH} {key.name} {base64.b64encode(raw).decode()}\n"


@pytest.mark.parametrize("timestamp", [0, 1700000000, 2**63 - 1])
def test_a_cosignature_below_2_63_verifies(timestamp: int) -> None:
    private, key = witness()
    assert verify_note(cosigned(private, key, timestamp), [key]) == [key]


@pytest.mark.parametrize("timestamp", [2**63, 2**64 - 1])
def test_a_cosignature_at_2_63_or_later_is_refused_though_signed(timestamp: int) -> None:
    private, key = witness()
    assert code_of(verify_note, cosigned(private, key, timestamp), [key]) == "bad_signature"


@pytest.mark.parametrize(("extra", "cut"), [(b"\0", 0), (b"", 1), (b"", 64)])
def test_a_cosignature_of_the_wrong_length_is_refused(extra: bytes, cut: int) -> None:
    private, key = witness()
    note = cosigned(private, key, 1700000000, extra, cut)
    assert code_of(verify_note, note, [key]) == "bad_signature"


def test_a_cosignature_key_does_not_take_a_plain_signature() -> None:
    private, key = witness()
    plain = sign_note(TEXT, key.name, private)  # same name; its key ID is the 0x01 key's
    log = VerifierKey(key.name, ED25519, key.public_key)
    assert verify_note(plain, [log, key]) == [log]


def test_exactly_the_maximum_of_signature_lines_is_read() -> None:
    private = Ed25519PrivateKey.generate()
    key = VerifierKey("log.example", ED25519, private.public_key().public_bytes_raw())
    line = sign_note(TEXT, key.name, private).split("\n\n")[1]
    note = f"{TEXT}\n{line * 100}"
    assert len(parse_note(note).signatures) == 100
    assert verify_note(note, [key]) == [key]
    assert code_of(parse_note, f"{TEXT}\n{line * 101}") == "too_many_signatures"


def test_the_largest_tree_size_is_the_largest_uint64() -> None:
    text = f"log\n{UINT64_MAX}\n{ROOT64}\n"
    assert parse_checkpoint(text).size == UINT64_MAX
    assert checkpoint_body("log", UINT64_MAX, ROOT) == text
    assert code_of(parse_checkpoint, f"log\n{UINT64_MAX + 1}\n{ROOT64}\n") == \
        "malformed_checkpoint"
    assert code_of(checkpoint_body, "log", UINT64_MAX + 1, ROOT) == "malformed_checkpoint"


def test_a_checkpoint_reads_back_its_fields() -> None:
    text = f"log\n0\n{ROOT64}\nround 1\nstate ab\n"
    checkpoint = parse_checkpoint(text)
    assert checkpoint == ("log", 0, ROOT, ("round 1", "state ab"))
    assert checkpoint_body("log", 0, ROOT, ["round 1", "state ab"]) == text


@pytest.mark.parametrize("text", [
    "log\n8\n\n",  # an empty root line
    f"log\n8\n{ROOT64}",  # no final newline
    f"log\n8\n{ROOT64}\x00\n",
    f"log\n8\n{ROOT64}\x1f\n",
    f"log\n8\n{ROOT64}\x7f\n".replace("\x7f", "\x0b"),
    f"log\n8\n{base64.b64encode(bytes(33)).decode()}\n",  # 33 bytes is not a SHA-256 hash
])
def test_checkpoint_texts_that_are_not_canonical(text: str) -> None:
    assert code_of(parse_checkpoint, text) == "malformed_checkpoint"


def test_a_signature_line_needs_a_key_id_and_at_least_one_byte() -> None:
    four = base64.b64encode(b"abcd").decode()
    five = base64.b64encode(b"abcde").decode()
    assert code_of(parse_note, f"{TEXT}\n\N{EM DASH} log {four}\n") == "malformed_note"
    note = parse_note(f"{TEXT}\n\N{EM DASH} log {five}\n")
    assert note.text == TEXT
    assert note.signatures[0] == ("log", b"abcd", b"e")


@pytest.mark.parametrize(("note", "code"), [
    (f"{TEXT}\n- log AAAAAAA=\n", "malformed_note"),  # a hyphen, not the em dash
    (f"{TEXT}\n\N{EM DASH} lo+g AAAAAAA=\n", "malformed_note"),
    (f"{TEXT}\n\N{EM DASH}  AAAAAAA=\n", "malformed_note"),
    (f"{TEXT}\n\N{EM DASH} log AAAAAAA\n", "malformed_note"),
    (f"{TEXT}\n\N{EM DASH} log AAAAAAA=", "malformed_note"),
    (TEXT, "malformed_note"),
    (b"\xff\n\n", "malformed_note"),
    ("\ud800\n\n", "malformed_note"),
])
def test_malformed_notes(note, code: str) -> None:
    assert code_of(parse_note, note) == code


def test_a_verifier_key_names_its_type_and_hash() -> None:
    _, key = witness()
    vkey = str(key)
    name, key_hash, key64 = vkey.split("+", 2)
    assert name == "w.example" and key_hash == key.key_id.hex()
    assert base64.b64decode(key64) == bytes([4]) + key.public_key
    assert parse_verifier_key(vkey) == key
    assert repr(key) == f"VerifierKey({vkey!r})"
    for bad in (f"{name}+{key_hash}+", f"{name}+{key_hash}+{base64.b64encode(b'x').decode()}",
                f"{name}+{key_hash}+{base64.b64encode(bytes([2]) + key.public_key).decode()}"):
        assert code_of(parse_verifier_key, bad) in ("malformed_key", "unsupported_key_type")
    with pytest.raises(NoteError) as caught:
        VerifierKey("w", 2, key.public_key)
    assert caught.value.code == "unsupported_key_type"
    assert code_of(VerifierKey, "w", ED25519, key.public_key[:31]) == "malformed_key"
    assert code_of(VerifierKey, "w x", ED25519, key.public_key) == "malformed_key"
    assert code_of(VerifierKey, "", ED25519, key.public_key) == "malformed_key"


def test_note_errors_carry_code_and_message() -> None:
    error = NoteError("bad_signature", "no")
    assert (error.code, error.message, str(error)) == ("bad_signature", "no", "bad_signature: no")


def test_notes_read_as_bytes_or_text_alike() -> None:
    private = Ed25519PrivateKey.generate()
    key = VerifierKey("log.example", ED25519, private.public_key().public_bytes_raw())
    note = sign_note(TEXT, key.name, private)
    assert verify_note(note.encode(), [key]) == [key]
    assert parse_note(note.encode()) == parse_note(note)


def test_the_last_blank_line_ends_the_text_even_at_the_start() -> None:
    five = base64.b64encode(b"abcde").decode()
    assert parse_note(f"\n\n\N{EM DASH} log {five}\n").text == "\n"


def test_a_signature_is_strict_base64() -> None:
    assert code_of(parse_note, f"{TEXT}\n\N{EM DASH} log YWJj!ZGU=\n") == "malformed_note"


def test_only_text_ending_in_a_newline_is_signed() -> None:
    private = Ed25519PrivateKey.generate()
    assert code_of(sign_note, "no newline", "log", private) == "malformed_note"
    assert code_of(sign_note, "a\x00\n", "log", private) == "malformed_note"


def test_a_public_key_is_32_bytes() -> None:
    assert code_of(VerifierKey, "w", ED25519, bytearray(32)) == "malformed_key"
    assert code_of(VerifierKey, "w", ED25519, bytes(33)) == "malformed_key"


def test_a_checkpoint_without_extension_lines_has_none() -> None:
    assert parse_checkpoint(f"log\n8\n{ROOT64}\n") == Checkpoint("log", 8, ROOT)
    assert Checkpoint("log", 8, ROOT).extensions == ()


def test_a_note_needs_its_blank_line_even_if_the_rest_reads_as_signatures() -> None:
    five = base64.b64encode(b"abcde").decode()
    assert code_of(parse_note, f"x\N{EM DASH} log {five}\n") == "malformed_note"


def test_a_verifier_key_is_an_immutable_value() -> None:
    _, key = witness()
    assert {key, parse_verifier_key(str(key))} == {key}
    with pytest.raises(FrozenInstanceError):
        key.name = "other"  # type: ignore[misc]
