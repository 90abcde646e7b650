"""The store key: every stored event, snapshot and view row encrypted at rest.

A reader of the events database alone (the SQLite file, a PostgreSQL dump, a backup) must not
learn the host seeds, salt keys or sealed plaintexts it holds (docs/threat-model.md). So the
application encrypts each stored event's and snapshot's state with the eventsourcing library's
AES-GCM cipher (`eventsourcing.cryptography.AESCipher`, the `cryptography` package), under a
256-bit key kept in a file beside the host's key, mode 0600: `$ARBITER_STORE_KEY`, else
./arbiter-store.key. `arbiter init` makes it with a new store; `arbiter store encrypt` makes it
for a store written before and encrypts what the store holds.

AES-GCM authenticates as it decrypts, so a row edited in the database without the key does not
read back: it is `forged_entry`, named with its log and seq by commands.store.stored. Each
encrypted state starts with one marker byte (JSON never does), so a row stored in the clear in
an encrypted store is told from a store never encrypted: the first is a forgery, the second
needs `arbiter store encrypt`, and a store opened without its key says so before anything
else (`store_key_required`).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
from pathlib import Path
from typing import Any

from eventsourcing.cryptography import AESCipher
from eventsourcing.persistence import Cipher

from domain.errors import RuleViolation

KEY_VARIABLE = "ARBITER_STORE_KEY"
DEFAULT_KEY = "arbiter-store.key"
MARK = b"\x01"  # before every encrypted state; a JSON state begins with "{"
KEY_BYTES = 32
TAG_CONTEXT = b"arbiter/views/viewer-tag/v1\n"
CIPHER_TOPIC = "commands.store.sealing:StoreCipher"


class SealError(Exception):
    """A stored state the cipher will not hand back, with the code a reader is told."""

    def __init__(self, code: str, why: str) -> None:
        super().__init__(f"{code}: {why}")
        self.code = code
        self.why = why


class StoreCipher(Cipher):
    """The library's AES-GCM cipher when the store has a key (CIPHER_KEY); without one, states
    pass in the clear and an encrypted one is refused, so the store never mixes the two."""

    def __init__(self, environment: Any) -> None:
        key = environment.get(AESCipher.CIPHER_KEY)
        self.aes = AESCipher(environment) if key else None

    @property
    def sealed(self) -> bool:
        return self.aes is not None

    def encrypt(self, plaintext: bytes) -> bytes:
        return plaintext if self.aes is None else MARK + self.aes.encrypt(plaintext)

    def decrypt(self, ciphertext: bytes) -> bytes:
        encrypted = ciphertext[:1] == MARK
        if self.aes is None:
            if encrypted:
                raise SealError("store_key_required", "the store is encrypted: give its key "
                                f"file (${KEY_VARIABLE}, default ./{DEFAULT_KEY})")
            return ciphertext
        if not encrypted:
            raise SealError("forged_entry", "is stored in the clear in an encrypted store")
        try:
            return self.aes.decrypt(ciphertext[1:])
        except ValueError:
            raise SealError("forged_entry", "fails authentication: its stored bytes were "
                            "changed") from None

    def tag(self, viewer: str) -> str:
        """A viewer's name as the view tables key it: keyed, so a reader of the database does
        not learn who was told what (who peeked, who has voted)."""
        if self.aes is None:
            return viewer
        return hmac.new(self.aes.key, TAG_CONTEXT + viewer.encode(), hashlib.sha256).hexdigest()

    def seal_text(self, text: str) -> str:
        if self.aes is None:
            return text
        return base64.b64encode(self.encrypt(text.encode())).decode()

    def open_text(self, text: str) -> str:
        if self.aes is None:
            return text
        try:
            raw = base64.b64decode(text, validate=True)
        except ValueError:
            raw = b""
        try:
            return self.decrypt(raw).decode()
        except SealError as error:
            raise RuleViolation(error.code, f"a view row {error.why}: the view tables were "
                                "changed outside Arbiter; rebuild them (`arbiter projections "
                                "rebuild`)") from None


def key_file(path: str | None = None) -> Path:
    return Path(path or os.environ.get(KEY_VARIABLE) or DEFAULT_KEY)


def read_key(path: str | None = None) -> str | None:
    """The store key (base64) from its file, or None when the default file does not exist; a
    file named explicitly must exist."""
    file = key_file(path)
    named = path or os.environ.get(KEY_VARIABLE)
    try:
        text = file.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        if named:
            raise RuleViolation("no_store_key", f"no store key file at {file}") from None
        return None
    try:
        valid = len(base64.b64decode(text, validate=True)) == KEY_BYTES
    except ValueError:
        valid = False
    if not valid:
        raise RuleViolation("malformed_key", f"{file} does not hold a store key (base64 of "
                            f"{KEY_BYTES} bytes)")
    return text


def make_key(path: str | None = None) -> Path:
    """A new store key in its file, mode 0600, never replacing one (`key_exists`)."""
    file = key_file(path)
    try:
        handle = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise RuleViolation("key_exists", f"{file} exists already: a store key is never "
                            "replaced") from None
    with os.fdopen(handle, "w", encoding="ascii") as out:
        out.write(AESCipher.create_key(KEY_BYTES) + "\n")
    return file


def cipher_env(path: str | None = None) -> dict[str, str]:
    """The eventsourcing settings every reader and writer of the store shares."""
    key = read_key(path)
    return {"CIPHER_TOPIC": CIPHER_TOPIC,
            "MAPPER_TOPIC": "commands.store.stored:CheckedMapper",
            AESCipher.CIPHER_KEY: key or ""}


def store_kind(recorder: Any) -> str | None:
    """How the store keeps its events: "encrypted", "clear", or None when it holds none."""
    first = recorder.select_notifications(start=1, limit=1)
    if not first:
        return None
    return "encrypted" if first[0].state[:1] == MARK else "clear"


def private_file(path: str) -> None:
    """An SQLite store created mode 0600: SQLite gives its -wal and -shm files the mode of the
    database file."""
    if path == ":memory:" or path.startswith("file:"):
        return
    with contextlib.suppress(FileExistsError, FileNotFoundError):  # SQLite says the rest
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
