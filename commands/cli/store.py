"""`arbiter store encrypt`: a store written in the clear, encrypted at rest
(commands.store.sealing).

A store made before stores had a key holds every event and snapshot in the clear, with the
host seeds, salt keys and sealed plaintexts in them; opened with a store key, it is refused
(`store_not_encrypted`) until this has run. It makes the store key if there is none (mode
0600), encrypts every stored event and snapshot in one transaction (rows encrypted already are
left as they are, so it can be run again), and rebuilds the view tables under the key.
"""

from __future__ import annotations

import click

from commands.cli import render
from commands.cli.console import db_of, json_option
from domain.errors import RuleViolation


def register(cli: click.Group) -> None:
    cli.add_command(store_group)


@click.group("store", short_help="The store at rest: its key and its encryption.")
def store_group() -> None:
    """The store at rest: every event, snapshot and view row is encrypted with the store key
    ($ARBITER_STORE_KEY, default ./arbiter-store.key; docs/threat-model.md)."""


@store_group.command("encrypt", short_help="Encrypt a store written in the clear.")
@json_option
@click.pass_context
def store_encrypt(ctx: click.Context, as_json: bool) -> None:
    """Encrypt a store written before it had a store key: make the key (mode 0600) if there is
    none, encrypt every stored event and snapshot in one transaction, rebuild the views."""
    from commands.store.raw import encrypt_rows, raw_store
    from commands.store.sealing import key_file, make_key, read_key, store_kind
    from commands.store.settings import database_url, store_name

    url = database_url(db_of(ctx))
    created = not key_file().exists()
    with raw_store(url, "") as raw:
        kind = store_kind(raw.recorder)
    if kind == "encrypted" and created:
        raise RuleViolation("store_key_required", f"{store_name(url)} is encrypted already, "
                            f"with a key that is not at {key_file()}: give its key file")
    if created:
        make_key()
    with raw_store(url, read_key()) as raw:
        events, snapshots = encrypt_rows(raw)
    rebuilt = rebuild_views(url)
    data = {"store": url, "key_file": str(key_file()), "key_created": created,
            "events": events, "snapshots": snapshots, "view_events": rebuilt}
    render.show(data, as_json, lambda: [render.pairs([
        ("store", store_name(url)),
        ("store key", f"{key_file()}: " + ("created (mode 0600): keep it secret, back it up "
                                            "beside the host key" if created else "kept")),
        ("encrypted", f"{events} events and {snapshots} snapshots"
         + ("" if events or snapshots else " (all were encrypted already)")),
        ("views", f"rebuilt under the key from {rebuilt} events")])])


def rebuild_views(url: str) -> int:
    """The view tables rebuilt under the store's key; the number of events projected."""
    from contextlib import closing

    from commands.store.settings import persistence_env
    from projections import runner
    from projections.projection import Ledger
    from projections.tables import datastore_of, open_views

    with closing(Ledger(env=persistence_env(url))) as ledger:
        runner.rebuild(ledger, open_views(datastore_of(ledger), ledger.mapper.cipher))
        return ledger.recorder.max_notification_id() or 0
