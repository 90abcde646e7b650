"""The host's Ed25519 signing key and its key file.

The file is one line in Go's note signer-key form, so golang.org/x/mod/sumdb/note and other tlog
tools read it too:

    PRIVATE+KEY+<name>+<hex key ID>+<base64(0x01 || 32-byte Ed25519 seed)>

It is created with mode 0600 and never overwritten.
"""

from __future__ import annotations

import base64
import os
from hashlib import sha256
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from audit.notes import ED25519, NoteError, VerifierKey, sign_note

_PREFIX = "PRIVATE+KEY+"
SHARED_NAME = "arbiter-host"  # every new key's name before names were made unique


def own_name(public_key: bytes) -> str:
    """A name no other host's key has: `arbiter-` and 12 hex digits of SHA-256 of the public
    key (c2sp.org/tlog-checkpoint: the key's name should be the log's origin, which must be
    unique)."""
    return f"arbiter-{sha256(public_key).hexdigest()[:12]}"


class Signer:
    """A private key with the name its signature lines and verifier key carry."""

    __slots__ = ("_key", "_verifier")

    def __init__(self, name: str, key: Ed25519PrivateKey) -> None:
        self._key = key
        self._verifier = VerifierKey(name, ED25519, key.public_key().public_bytes_raw())

    @property
    def name(self) -> str:
        return self._verifier.name

    @property
    def public_key(self) -> bytes:
        return self._verifier.public_key

    def verifier_key(self) -> str:
        """The vkey string to publish, so anyone can check this host's notes."""
        return str(self._verifier)

    def sign_note(self, text: str) -> str:
        """`text` as a note signed by this key."""
        return sign_note(text, self.name, self._key)


def generate(name: str | None = None) -> Signer:
    """A fresh key named `name`, which should be the logs' origin prefix (e.g. the host's
    domain); by default a name of its own (`own_name`)."""
    key = Ed25519PrivateKey.generate()
    return Signer(name or own_name(key.public_key().public_bytes_raw()), key)


def save(signer: Signer, path: str | os.PathLike[str]) -> None:
    """Write the key file; refuse to replace one, since a lost host key loses the log's identity."""
    write_key_file(path, signer._verifier, signer._key)


def load(path: str | os.PathLike[str]) -> Signer:
    """Read a key file written by `save` or by Go's note.GenerateKey."""
    name, key_hash, key = read_key_file(path, ED25519, "Ed25519")
    signer = Signer(name, key)
    if signer._verifier.key_id.hex() != key_hash.lower():
        raise NoteError("key_hash_mismatch", f"{path} names the wrong key hash")
    return signer


def write_key_file(path: str | os.PathLike[str], verifier: VerifierKey,
                   key: Ed25519PrivateKey) -> None:
    """One line, PRIVATE+KEY+name+hex key ID+base64(type || seed), mode 0600, synced; never
    replacing a file (a key is an identity: the host's, or a witness's)."""
    seed = base64.b64encode(bytes([verifier.sig_type]) + key.private_bytes_raw()).decode()
    line = f"{_PREFIX}{verifier.name}+{verifier.key_id.hex()}+{seed}\n"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(line)
        file.flush()
        os.fsync(file.fileno())


def read_key_file(path: str | os.PathLike[str], sig_type: int,
                  kind: str) -> tuple[str, str, Ed25519PrivateKey]:
    """(name, hex key ID as written, key) of a key file of signature type `sig_type`; the
    caller checks the ID against the key, as its own key type derives it."""
    skey = Path(path).read_text(encoding="utf-8").strip()
    if not skey.startswith(_PREFIX):
        raise NoteError("malformed_key", f"{path} does not start with {_PREFIX}")
    name, _, rest = skey[len(_PREFIX) :].partition("+")
    key_hash, _, key64 = rest.partition("+")
    try:
        typed_seed = base64.b64decode(key64, validate=True)
    except ValueError:
        raise NoteError("malformed_key", f"{path}: the key is not base64") from None
    if typed_seed[:1] != bytes([sig_type]) or len(typed_seed) != 33:
        raise NoteError("malformed_key", f"{path}: not a type {sig_type:#04x} ({kind}) "
                        "32-byte seed")
    return name, key_hash, Ed25519PrivateKey.from_private_bytes(typed_seed[1:])
