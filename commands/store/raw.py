"""The store's tables as they are stored, no check and nothing refused: what `arbiter store
encrypt` rewrites, and what `arbiter init` and `arbiter demo` look at before a store is opened
with a key."""

from __future__ import annotations

from contextlib import closing
from typing import Any

from eventsourcing.application import Application

from commands.store.sealing import (
    CIPHER_TOPIC,
    DEFAULT_KEY,
    KEY_VARIABLE,
    MARK,
    key_file,
    make_key,
    private_file,
    read_key,
    store_kind,
)
from commands.store.settings import database_env
from domain.errors import RuleViolation


def raw_store(url: str, key: str | None) -> Any:
    """The store's tables, its rows read as they are stored (no check, nothing refused)."""
    class RawStore(Application):
        name = "arbiter"
        is_snapshotting_enabled = True

    env = database_env(url)
    if env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite":
        private_file(env["SQLITE_DBNAME"])
    return closing(RawStore(env={**env, "CIPHER_TOPIC": CIPHER_TOPIC, "CIPHER_KEY": key or ""}))


def encrypt_rows(raw: Any) -> tuple[int, int]:
    """Every event and snapshot stored in the clear, encrypted in place, in one transaction."""
    cipher = raw.mapper.cipher
    counts = []
    with raw.recorder.datastore.transaction(commit=True) as curs:
        for recorder in (raw.recorder, raw.snapshots.recorder):
            table, mark = _table(recorder)
            curs.execute(f"SELECT originator_id, originator_version, state FROM {table}")
            rows = [(r["originator_id"], r["originator_version"], bytes(r["state"]))
                    for r in curs.fetchall()]
            clear = [(cipher.encrypt(state), oid, version) for oid, version, state in rows
                     if state[:1] != MARK]
            for params in clear:
                curs.execute(f"UPDATE {table} SET state = {mark} WHERE originator_id = {mark} "
                             f"AND originator_version = {mark}", params)
            counts.append(len(clear))
    return counts[0], counts[1]


def _table(recorder: Any) -> tuple[str, str]:
    name = recorder.events_table_name
    schema = getattr(recorder.datastore, "schema", None)
    return (f'"{schema}"."{name}"', "%s") if schema else (name, "?")


def store_key_for(url: str) -> dict[str, Any]:
    """The store key `arbiter init` and `arbiter demo` see to: kept when its file exists, made
    for a store that holds no event yet, and for a store written in the clear, left to
    `arbiter store encrypt` (which the answer names)."""
    file = key_file()
    if file.exists():
        read_key()
        return {"file": str(file), "created": False, "clear": False}
    with raw_store(url, None) as raw:
        kind = store_kind(raw.recorder)
    if kind is not None:
        if kind == "encrypted":
            raise RuleViolation("store_key_required", f"the store is encrypted: give its store "
                                f"key file (${KEY_VARIABLE}, default ./{DEFAULT_KEY})")
        return {"file": str(file), "created": False, "clear": True}
    make_key()
    return {"file": str(file), "created": True, "clear": False}
