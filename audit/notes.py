"""C2SP signed notes and tlog checkpoints with Ed25519 keys.

A checkpoint (origin, tree size, root) signed as a note is what the host publishes at each round
close. The text matches golang.org/x/mod/sumdb/note and c2sp.org byte for byte, so any tlog tool
(and any witness) can check it.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from hashlib import sha256
from typing import NamedTuple

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from audit.merkle import HASH_SIZE, MAX_SIZE

ED25519 = 0x01
COSIGNATURE_V1 = 0x04  # a witness's timestamped Ed25519 cosignature, c2sp.org/tlog-cosignature
MAX_SIGNATURES = 100  # C2SP asks verifiers to take at least 16; Go stops at 100

_SIG_PREFIX = "\N{EM DASH} "
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f]")
_SPACE_OR_PLUS = re.compile(r"[\s+]")  # \s is str.isspace, every code point of it
_KEY_HASH = re.compile(r"[0-9a-fA-F]{8}")
_DECIMAL = re.compile(r"0|[1-9][0-9]*")


class NoteError(ValueError):
    """A note, checkpoint or key that must not be trusted; `code` is stable, the message is not.

    Codes: malformed_note, too_many_signatures, malformed_key, unsupported_key_type,
    key_hash_mismatch, ambiguous_key, bad_signature, other_key (signed, but by none of the
    keys given: the message names the key that did), unverified, malformed_checkpoint.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, repr=False)
class VerifierKey:
    """A public key trusted to sign notes: a log's Ed25519 key or a witness's cosigning key."""

    name: str
    sig_type: int
    public_key: bytes

    def __post_init__(self) -> None:
        _check_name(self.name, "malformed_key")
        if self.sig_type not in (ED25519, COSIGNATURE_V1):
            raise NoteError("unsupported_key_type", f"signature type {self.sig_type:#04x}")
        if not isinstance(self.public_key, bytes) or len(self.public_key) != 32:
            raise NoteError("malformed_key", "an Ed25519 public key is 32 bytes")

    @cached_property
    def key_id(self) -> bytes:
        """SHA-256(name || "\\n" || type || public key)[:4], as signature lines carry it."""
        return sha256(f"{self.name}\n".encode() + self._typed_key).digest()[:4]

    @cached_property
    def ed25519(self) -> Ed25519PublicKey:
        """The key, loaded once for all the notes it checks."""
        return Ed25519PublicKey.from_public_bytes(self.public_key)

    @property
    def _typed_key(self) -> bytes:
        return bytes([self.sig_type]) + self.public_key

    def __str__(self) -> str:
        """The vkey form, name+hex(key ID)+base64(type || public key)."""
        return f"{self.name}+{self.key_id.hex()}+{_b64(self._typed_key)}"

    def __repr__(self) -> str:
        return f"VerifierKey({str(self)!r})"


class Checkpoint(NamedTuple):
    """A log's claim that its first `size` leaves have Merkle root `root`."""

    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()


class Signature(NamedTuple):
    name: str
    key_id: bytes
    signature: bytes


class Note(NamedTuple):
    text: str
    signatures: tuple[Signature, ...]


def parse_verifier_key(vkey: str) -> VerifierKey:
    """Read name+hex(key ID)+base64(type || key); the base64 may hold '+', so split twice only."""
    name, sep1, rest = vkey.partition("+")
    key_hash, sep2, key64 = rest.partition("+")
    if not (sep1 and sep2 and _KEY_HASH.fullmatch(key_hash)):
        raise NoteError("malformed_key", "expected name+keyhash+base64key")
    typed_key = _unb64(key64, "malformed_key")
    if not typed_key:
        raise NoteError("malformed_key", "empty key")
    key = VerifierKey(name, typed_key[0], typed_key[1:])
    if key.key_id != bytes.fromhex(key_hash):
        raise NoteError("key_hash_mismatch", f"{vkey!r} names the wrong key hash")
    return key


def checkpoint_body(origin: str, size: int, root: bytes, extensions: Iterable[str] = ()) -> str:
    """The checkpoint text to sign: origin, decimal size, base64 root, extension lines."""
    checkpoint = Checkpoint(origin, size, root, tuple(extensions))
    text = "\n".join([origin, str(size), _b64(root), *checkpoint.extensions]) + "\n"
    if parse_checkpoint(text) != checkpoint:  # e.g. a newline inside the origin
        raise NoteError("malformed_checkpoint", "fields do not survive a round trip")
    return text


def parse_checkpoint(text: str) -> Checkpoint:
    """Read a checkpoint's note text; only its one canonical spelling is accepted."""
    _check_text(text, "malformed_checkpoint")
    lines = text[:-1].split("\n")
    if len(lines) < 3 or not all(lines):
        raise NoteError("malformed_checkpoint", "need origin, size and root lines, none empty")
    origin, size, root64, *extensions = lines
    if not (_DECIMAL.fullmatch(size) and len(size) <= 20 and int(size) <= MAX_SIZE):
        raise NoteError("malformed_checkpoint", f"bad tree size {size!r}")
    root = _unb64(root64, "malformed_checkpoint")
    if len(root) != HASH_SIZE or _b64(root) != root64:
        raise NoteError("malformed_checkpoint", f"bad root hash {root64!r}")
    return Checkpoint(origin, int(size), root, tuple(extensions))


def sign_note(text: str, name: str, key: Ed25519PrivateKey) -> str:
    """`text` signed as a note with one Ed25519 signature line."""
    _check_text(text, "malformed_note")
    key_id = VerifierKey(name, ED25519, key.public_key().public_bytes_raw()).key_id
    signature = key.sign(text.encode())
    return f"{text}\n{_SIG_PREFIX}{name} {_b64(key_id + signature)}\n"


def parse_note(note: str | bytes) -> Note:
    """Split a note into its text and signature lines, checking nothing cryptographic."""
    if isinstance(note, bytes):
        try:
            note = note.decode()
        except UnicodeDecodeError:
            raise NoteError("malformed_note", "not UTF-8") from None
    _check_text(note, "malformed_note")
    split = note.rfind("\n\n")  # the last blank line ends the text
    if split < 0:
        raise NoteError("malformed_note", "no blank line before the signatures")
    lines = note[split + 2 : -1].split("\n")
    if len(lines) > MAX_SIGNATURES:
        raise NoteError("too_many_signatures", f"more than {MAX_SIGNATURES}")
    return Note(note[: split + 1], tuple(_parse_signature_line(line) for line in lines))


def verify_note(note: str | bytes, keys: Iterable[VerifierKey]) -> list[VerifierKey]:
    """The given keys that signed the note, in signature order.

    Signatures by keys not given are ignored (other witnesses, rotated keys). A given key's bad
    signature rejects the whole note, and so does a note that no given key signed.
    """
    return verify_parsed_note(parse_note(note), keys)


def verify_parsed_note(parsed: Note, keys: Iterable[VerifierKey]) -> list[VerifierKey]:
    """`verify_note` of a note already parsed."""
    return _signers(parsed, _known(keys))


def _known(keys: Iterable[VerifierKey]) -> dict[tuple[str, bytes], VerifierKey]:
    known: dict[tuple[str, bytes], VerifierKey] = {}
    for key in keys:
        if known.setdefault((key.name, key.key_id), key) != key:
            raise NoteError("ambiguous_key", f"two keys are {key.name}+{key.key_id.hex()}")
    return known


def _signers(parsed: Note, known: dict[tuple[str, bytes], VerifierKey]) -> list[VerifierKey]:
    verified: list[VerifierKey] = []
    for sig in parsed.signatures:
        signer = known.get((sig.name, sig.key_id))
        if signer is None or signer in verified:
            continue
        if not _signed(signer, parsed.text, sig.signature):
            raise NoteError("bad_signature",
                            f"{signer.name}+{signer.key_id.hex()} did not sign this")
        verified.append(signer)
    if not verified:
        others = [f"{sig.name}+{sig.key_id.hex()}" for sig in parsed.signatures]
        if others:
            expected = ", ".join(f"{k.name}+{k.key_id.hex()}" for k in known.values())
            raise NoteError("other_key", f"signed by {', '.join(others)}, not by "
                            f"{expected or 'any key given'}")
        raise NoteError("unverified", "no given key signed this note")
    return verified


def _signed(key: VerifierKey, text: str, signature: bytes) -> bool:
    message = text.encode()
    if key.sig_type == COSIGNATURE_V1:  # signature = u64 timestamp || Ed25519 signature
        timestamp = int.from_bytes(signature[:8], "big")
        if len(signature) != 72 or timestamp >= 2**63:
            return False
        message = f"cosignature/v1\ntime {timestamp}\n".encode() + message
        signature = signature[8:]
    try:
        key.ed25519.verify(signature, message)
    except InvalidSignature:
        return False
    return True


def _parse_signature_line(line: str) -> Signature:
    if not line.startswith(_SIG_PREFIX):
        raise NoteError("malformed_note", f"not a signature line: {line[:40]!r}")
    name, _, sig64 = line[len(_SIG_PREFIX) :].partition(" ")
    _check_name(name, "malformed_note")
    raw = _unb64(sig64, "malformed_note")
    if len(raw) < 5:
        raise NoteError("malformed_note", f"signature by {name} is too short")
    return Signature(name, raw[:4], raw[4:])


def _check_name(name: str, code: str) -> None:
    if not name or _SPACE_OR_PLUS.search(name):
        raise NoteError(code, f"key name {name!r} is empty or holds a space or '+'")


def _check_text(text: str, code: str) -> None:
    """UTF-8, no ASCII control character but newline, ending in a newline."""
    try:
        text.encode()
    except UnicodeEncodeError:
        raise NoteError(code, "not encodable as UTF-8") from None
    if _CONTROL.search(text):
        raise NoteError(code, "holds a control character other than newline")
    if not text.endswith("\n"):
        raise NoteError(code, "does not end in a newline")


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def _unb64(text: str, code: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except ValueError:
        raise NoteError(code, f"not base64: {text[:40]!r}") from None
