"""Host keys: the key file, Go's test key, and reproducing the vectors' signatures exactly."""

import base64
import re
import stat
from pathlib import Path

import pytest

from audit import keys
from audit.notes import NoteError, checkpoint_body, parse_verifier_key, verify_note
from tests.vectors import VECTORS

PETER = VECTORS["signed_note"]["cases"][0]
CHECKPOINT = VECTORS["signed_note"]["self_generated_checkpoint"]
PETER_SEED64 = PETER["private_key_TEST_ONLY"].split("+", 4)[4]


def key_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "host.key"
    path.write_text(text, encoding="utf-8")
    return path


def test_generate_save_load(tmp_path: Path) -> None:
    signer = keys.generate("arbiter.example/season-3")
    path = tmp_path / "host.key"
    keys.save(signer, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    line = path.read_text(encoding="utf-8")
    assert re.fullmatch(r"PRIVATE\+KEY\+arbiter\.example/season-3\+[0-9a-f]{8}\+\S{44}\n", line)
    loaded = keys.load(path)
    assert loaded.name == signer.name
    assert loaded.verifier_key() == signer.verifier_key()
    # Ed25519 is deterministic: the same key gives the same signature.
    assert loaded.sign_note("round 1\n") == signer.sign_note("round 1\n")


def test_save_never_replaces_a_key(tmp_path: Path) -> None:
    path = tmp_path / "host.key"
    keys.save(keys.generate("log"), path)
    before = path.read_bytes()
    with pytest.raises(FileExistsError):
        keys.save(keys.generate("log"), path)
    assert path.read_bytes() == before


def test_signed_note_verifies_with_the_published_key() -> None:
    signer = keys.generate("arbiter.example/match-7")
    key = parse_verifier_key(signer.verifier_key())
    note = signer.sign_note(checkpoint_body("arbiter.example/match-7", 0, bytes(32)))
    assert verify_note(note, [key]) == [key]
    assert key.name == "arbiter.example/match-7"


def test_go_test_key_reproduces_its_signature(tmp_path: Path) -> None:
    signer = keys.load(key_file(tmp_path, PETER["private_key_TEST_ONLY"] + "\n"))
    assert signer.verifier_key() == PETER["vkey"]
    expected = PETER["text"] + "\n" + PETER["expected_signature_line"]
    assert signer.sign_note(PETER["text"]) == expected


def test_go_test_key_reproduces_the_checkpoint_vector(tmp_path: Path) -> None:
    name = "example.com/garnet-ledger-test"
    signer = keys.load(key_file(tmp_path, f"PRIVATE+KEY+{name}+be0945b1+{PETER_SEED64}"))
    assert signer.verifier_key() == CHECKPOINT["vkey"]
    root = bytes.fromhex(VECTORS["tree"]["root_by_size"]["8"])
    assert signer.sign_note(checkpoint_body(name, 8, root)) == CHECKPOINT["checkpoint"]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "malformed_key"),
        (f"PRIVATE+KEYS+PeterNeumann+c74f20a3+{PETER_SEED64}", "malformed_key"),
        (f"PRIVATE+KEY+PeterNeumann+c74f20a3+{PETER_SEED64}!", "malformed_key"),
        (f"PRIVATE+KEY+PeterNeumann+c74f20a3+{PETER_SEED64[:-4]}", "malformed_key"),
        (
            "PRIVATE+KEY+PeterNeumann+c74f20a3+" + base64.b64encode(b"\x04" + bytes(32)).decode(),
            "malformed_key",
        ),
        (f"PRIVATE+KEY+Peter Neumann+c74f20a3+{PETER_SEED64}", "malformed_key"),
        (f"PRIVATE+KEY+PeterNeumann+c74f20a4+{PETER_SEED64}", "key_hash_mismatch"),
        (f"PRIVATE+KEY+PaulNeumann+c74f20a3+{PETER_SEED64}", "key_hash_mismatch"),
    ],
)
def test_malformed_key_files(tmp_path: Path, text: str, code: str) -> None:
    with pytest.raises(NoteError) as caught:
        keys.load(key_file(tmp_path, text))
    assert caught.value.code == code


def test_names_follow_the_note_rules() -> None:
    with pytest.raises(NoteError) as caught:
        keys.generate("two words")
    assert caught.value.code == "malformed_key"
