"""`arbiter witness keygen|serve`: an independent witness of a host's logs
(c2sp.org/tlog-witness), with its own key and state file. docs/audit.md, "Witnesses"."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from commands.cli import render
from commands.cli.console import json_option


def register(cli: click.Group) -> None:
    cli.add_command(witness_group)


@click.group("witness", short_help="Run an independent witness of a host's logs.")
def witness_group() -> None:
    """A witness cosigns each checkpoint of a host's logs it is shown, after checking that it
    extends the last one it cosigned; players and auditors then require a quorum of
    cosignatures (`arbiter verify --witnesses FILE --quorum K`)."""


@witness_group.command("keygen", short_help="Make the witness's key.")
@click.option("--key", "path", required=True, type=click.Path(dir_okay=False),
              help="Where to write the key file (never overwritten).")
@click.option("--name", required=True, help="The witness's name, e.g. witness.example.org/w1.")
@json_option
def keygen(path: str, name: str, as_json: bool) -> None:
    """Write a new witness key (mode 0600) and print its verifier key (type 0x04), which
    verifiers list in their witnesses file."""
    from audit import cosign

    cosigner = cosign.generate(name)
    try:
        cosign.save(cosigner, path)
    except FileExistsError:
        raise click.UsageError(f"{path} exists: a witness key is never replaced") from None
    render.show({"key_file": path, "verifier_key": str(cosigner.verifier)}, as_json,
                lambda: [f"witness key written to {path}", "verifier key (list it in your "
                         f"witnesses file): {cosigner.verifier}"])


@witness_group.command("serve", short_help="Serve c2sp.org/tlog-witness add-checkpoint.")
@click.option("--key", "path", required=True, type=click.Path(dir_okay=False, exists=True),
              help="The witness's key file (`arbiter witness keygen`).")
@click.option("--state", required=True, type=click.Path(dir_okay=False),
              help="The file of the latest checkpoint cosigned per log.")
@click.option("--log", "logs", multiple=True, required=True, metavar="[PREFIX=]VKEY",
              help="A host's verifier key, trusted for the origins under PREFIX (default: "
                   "the key's name, which is the host's origin prefix). Repeat for more.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8090, show_default=True, type=click.IntRange(0, 65535))
def serve(path: str, state: str, logs: tuple[str, ...], host: str, port: int) -> None:
    """Answer POST /add-checkpoint as c2sp.org/tlog-witness says: 404 for a log it does not
    follow, 403 for a checkpoint its key did not sign, 409 (with the size it cosigned last)
    for a stale old size, 422 for a consistency proof that fails; else it records the
    checkpoint (synced to disk) and answers with its cosignature."""
    import uvicorn

    from audit import cosign
    from commands.web.witness import witness_app

    witness = cosign.Witness(cosign.load(path), trusted_logs(logs),
                             cosign.WitnessState(Path(state)), lambda: int(time.time()))
    uvicorn.run(witness_app(witness), host=host, port=port, log_level="warning")


def trusted_logs(logs: tuple[str, ...]) -> list[tuple[str, Any]]:
    """Each `--log [PREFIX=]VKEY` as (prefix, key). It is PREFIX=VKEY when the part before the
    first '+' holds an '=' (a key's base64 may end in '=', its name holds none)."""
    from audit.notes import NoteError, parse_verifier_key

    trusted = []
    for given in logs:
        prefix, _, vkey = given.partition("=") if "=" in given.split("+")[0] else ("", "", given)
        try:
            key = parse_verifier_key(vkey)
        except NoteError as error:
            raise click.BadParameter(f"{given}: {error.message}", param_hint="--log") from None
        trusted.append((prefix or key.name, key))
    return trusted
