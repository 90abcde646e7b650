"""The key file's edges (audit/keys.py): `PRIVATE+KEY+<name>+<hex key ID>+<base64(0x01 ||
32-byte seed)>`, the key ID read as hex whatever its case (as Go's note package does)."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from audit import keys
from audit.notes import NoteError

SEED = bytes(range(32))


def written(tmp_path: Path, typed_seed: bytes, key_hash: str | None = None) -> Path:
    signer = keys.generate("log.example")
    path = tmp_path / "a.key"
    keys.save(signer, path)
    _, _, name, real_hash, _ = path.read_text().strip().split("+", 4)  # base64 may hold '+'
    path.unlink()
    key64 = base64.b64encode(typed_seed).decode()
    path.write_text(f"PRIVATE+KEY+{name}+{key_hash or real_hash}+{key64}\n")
    return path


def test_a_key_file_round_trips_its_seed_and_name(tmp_path: Path) -> None:
    signer = keys.generate("log.example")
    keys.save(signer, tmp_path / "a.key")
    line = (tmp_path / "a.key").read_text()
    assert line.startswith("PRIVATE+KEY+log.example+") and line.endswith("\n")
    seed = base64.b64decode(line.strip().split("+", 4)[4])
    assert seed[0] == 1 and len(seed) == 33
    assert keys.load(tmp_path / "a.key").verifier_key() == signer.verifier_key()


def test_the_key_id_is_read_in_either_case(tmp_path: Path) -> None:
    signer = keys.generate("log.example")
    keys.save(signer, tmp_path / "a.key")
    text = (tmp_path / "a.key").read_text()
    _, _, name, key_hash, seed = text.split("+", 4)
    (tmp_path / "b.key").write_text(f"PRIVATE+KEY+{name}+{key_hash.upper()}+{seed}")
    assert keys.load(tmp_path / "b.key").verifier_key() == signer.verifier_key()


@pytest.mark.parametrize("typed_seed", [bytes([1]) + SEED + b"\0", bytes([1]) + SEED[:31],
                                        b"", bytes([2]) + SEED])
def test_only_a_type_1_seed_of_32_bytes_is_a_key(tmp_path: Path, typed_seed: bytes) -> None:
    with pytest.raises(NoteError) as caught:
        keys.load(written(tmp_path, typed_seed))
    assert caught.value.code == "malformed_key"


def test_a_file_without_the_private_key_prefix_is_refused(tmp_path: Path) -> None:
    keys.save(keys.generate("log.example"), tmp_path / "a.key")
    rest = (tmp_path / "a.key").read_text().removeprefix("PRIVATE+KEY+")
    (tmp_path / "b.key").write_text("private+key+" + rest)  # as long, but not the prefix
    with pytest.raises(NoteError) as caught:
        keys.load(tmp_path / "b.key")
    assert caught.value.code == "malformed_key"
