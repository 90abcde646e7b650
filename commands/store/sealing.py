"""The store key: every stored event, snapshot and view row encrypted at rest.

A reader of the events database alone (the SQLite file, a PostgreSQL dump, a backup) must not
learn the host seeds, salt keys or sealed plaintexts it holds (docs/threat-model.md). So the
application encrypts each stored event's and snapshot's state with AES-GCM (the `cryptography`
package), under a 256-bit key kept in a file beside the host's key, mode 0600:
`$ARBITER_STORE_KEY`, else ./arbiter-store.key. `arbiter init` makes it with a new store;
`arbiter store encrypt` makes it for a store written before and encrypts what the store holds.

Each state is laid out as the eventsourcing library's `AESCipher` lays it out (nonce, tag,
ciphertext), so the two read each other's (tests/test_sealing.py). The cipher is this module's
own, apart from the library (commands.store.stored.StoreCipher plugs it in), so that a command
that only reads the view tables opens them with neither the library nor its mapper.

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

from domain.errors import RuleViolation

KEY_VARIABLE = "ARBITER_STORE_KEY"
DEFAULT_KEY = "arbiter-store.key"
MARK = b"\x01"  # before every encrypted state; a JSON state begins with "{"
KEY_BYTES = 32
NONCE, TAG = 12, 16  # bytes of AES-GCM's nonce and tag, in that order before the ciphertext
TAG_CONTEXT = b"arbiter/views/viewer-tag/v1\n"
CIPHER_TOPIC = "commands.store.stored:StoreCipher"
CIPHER_KEY = "CIPHER_KEY"  # the library's setting (`AESCipher.CIPHER_KEY`): the key, base64


class SealError(Exception):
    """A stored state the cipher will not hand back, with the code a reader is told."""

    def __init__(self, code: str, why: str) -> None:
        super().__init__(f"{code}: {why}")
        self.code = code
        self.why = why


class Sealing:
    """The store key's cipher; without a key, states pass in the clear and an encrypted one is
    refused, so the store never mixes the two. Also what the view tables need of the key: a
    viewer's tag, and a row's text sealed and opened."""

    def __init__(self, key: str | None) -> None:
        self.key = base64.b64decode(key) if key else None
        self._aes: Any = None

    @property
    def sealed(self) -> bool:
        return self.key is not None

    @property
    def aes(self) -> Any:
        """AES-GCM under the key, made when first used (a store in the clear never loads it)."""
        if self._aes is None:
            from cryptography.hazmat.primitives.ciphers.aead import AESGCM

            assert self.key is not None  # asked for only with a key
            self._aes = AESGCM(self.key)
        return self._aes

    def encrypt(self, plaintext: bytes) -> bytes:
        if self.key is None:
            return plaintext
        nonce = os.urandom(NONCE)
        sealed = self.aes.encrypt(nonce, plaintext, None)  # the ciphertext, then the tag
        return MARK + nonce + sealed[-TAG:] + sealed[:-TAG]

    def decrypt(self, ciphertext: bytes) -> bytes:
        encrypted = ciphertext[:1] == MARK
        if self.key is None:
            if encrypted:
                raise SealError("store_key_required", "the store is encrypted: give its key "
                                f"file (${KEY_VARIABLE}, default ./{DEFAULT_KEY})")
            return ciphertext
        if not encrypted:
            raise SealError("forged_entry", "is stored in the clear in an encrypted store")
        from cryptography.exceptions import InvalidTag

        nonce, tag = ciphertext[1:1 + NONCE], ciphertext[1 + NONCE:1 + NONCE + TAG]
        if len(tag) == TAG:  # and so the nonce whole
            with contextlib.suppress(InvalidTag):
                return bytes(self.aes.decrypt(nonce, ciphertext[1 + NONCE + TAG:] + tag, None))
        raise SealError("forged_entry", "fails authentication: its stored bytes were changed")

    def tag(self, viewer: str) -> str:
        """A viewer's name as the view tables key it: keyed, so a reader of the database does
        not learn who was told what (who peeked, who has voted)."""
        if self.key is None:
            return viewer
        return hmac.new(self.key, TAG_CONTEXT + viewer.encode(), hashlib.sha256).hexdigest()

    def seal_text(self, text: str) -> str:
        if self.key is None:
            return text
        return base64.b64encode(self.encrypt(text.encode())).decode()

    def open_text(self, text: str) -> str:
        if self.key is None:
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
        out.write(base64.b64encode(os.urandom(KEY_BYTES)).decode() + "\n")
    return file


def cipher_env(path: str | None = None) -> dict[str, str]:
    """The eventsourcing settings every reader and writer of the store shares."""
    key = read_key(path)
    return {"CIPHER_TOPIC": CIPHER_TOPIC,
            "MAPPER_TOPIC": "commands.store.stored:CheckedMapper",
            CIPHER_KEY: key or ""}


def store_kind(recorder: Any) -> str | None:
    """How the store keeps its events: "encrypted", "clear", or None when it holds none."""
    first = recorder.select_notifications(start=1, limit=1)
    return kind_of(first[0].state if first else None)


def kind_of(first: bytes | None) -> str | None:
    """How a store keeps its events, told by the state of its first (None: it holds none)."""
    if first is None:
        return None
    return "encrypted" if first[:1] == MARK else "clear"


def check_key_fits(kind: str | None, sealed: bool, store: str) -> None:
    """A store is encrypted from its first event or not at all: opened without its key, or
    with a key while it holds events in the clear, it says so before anything is read."""
    if kind == "clear" and sealed:
        raise RuleViolation("store_not_encrypted", f"{store} holds events written in the "
                            "clear, before it had a store key: encrypt them with `arbiter "
                            f"store encrypt` (or unset ${KEY_VARIABLE} to use it as it is)")
    if kind == "encrypted" and not sealed:
        raise RuleViolation("store_key_required", f"{store} is encrypted: give its store key "
                            f"file (${KEY_VARIABLE}, default ./{DEFAULT_KEY})")


def private_file(path: str) -> None:
    """An SQLite store created mode 0600: SQLite gives its -wal and -shm files the mode of the
    database file."""
    if path == ":memory:" or path.startswith("file:"):
        return
    with contextlib.suppress(FileExistsError, FileNotFoundError):  # SQLite says the rest
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
