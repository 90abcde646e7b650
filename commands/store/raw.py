"""The store's tables as they are stored: no check, nothing refused (`arbiter store encrypt`,
and a store's kind before it is opened with a key)."""

from __future__ import annotations

from typing import Any


def raw_store(url: str, key: str | None) -> Any:
    """The store's tables, its rows read as they are stored (no check, nothing refused)."""
    from contextlib import closing

    from eventsourcing.application import Application

    from commands.store.sealing import CIPHER_TOPIC, private_file
    from commands.store.settings import database_env

    class RawStore(Application):
        name = "arbiter"
        is_snapshotting_enabled = True

    env = database_env(url)
    if env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite":
        private_file(env["SQLITE_DBNAME"])
    return closing(RawStore(env={**env, "CIPHER_TOPIC": CIPHER_TOPIC, "CIPHER_KEY": key or ""}))


def encrypt_rows(raw: Any) -> tuple[int, int]:
    """Every event and snapshot stored in the clear, encrypted in place, in one transaction."""
    from commands.store.sealing import MARK

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
