"""The host's audit commands: the key, checkpoints, bundles and the store check; and what the
checking commands share (commands.cli.verify, commands.cli.disputes).

`register(cli)` adds them to the main group. The host's key file is a setting: `--key PATH` on
the commands that sign, else $ARBITER_HOST_KEY, else ./arbiter-host.key. Commands that check a
signature take the host's published verifier key instead (`--key VKEY`). docs/audit.md has the
formats and failure codes. A checkpoint or proof read from a file may have lost its final
newline in a chat: it is put back (`commands.cli.inputs.pasted_note`).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from audit.errors import AuditError
from commands.cli import render
from commands.cli.console import app_of, db_of, json_option, read_side_of
from commands.service.keys import DEFAULT_KEY, KEY_VARIABLE, check_signed_by, signer_from

if TYPE_CHECKING:
    from audit.keys import Signer
    from audit.notes import VerifierKey

PROGRESS_ABOVE = 10_000  # entries: a bundle this long shows a progress bar on stderr

key_file_option = click.option(
    "--key", "key_path", envvar=KEY_VARIABLE, default=None, metavar="PATH",
    help=f"The host's key file (default ./{DEFAULT_KEY}, or ${KEY_VARIABLE}).")
vkey_option = click.option(
    "--key", "vkey", default=None, metavar="VKEY",
    help="The host's published verifier key; checkpoints must be signed by it "
         "(default: the key the bundle's header names).")
viewer_option = click.option(
    "--as", "viewer", default="public", show_default=True,
    help="The viewer: public, host or a player id.")
in_file = click.Path(dir_okay=False)


def required_signer(path: str | None) -> Signer:
    signer = signer_from(path)
    if signer is None:
        raise AuditError("no_host_key", f"no key file at ./{DEFAULT_KEY}: run arbiter init "
                         "(or arbiter keys generate), or pass --key PATH")
    return signer


def vkey_of(vkey: str | None) -> VerifierKey | None:
    from audit.notes import parse_verifier_key

    return parse_verifier_key(vkey) if vkey else None


def register(cli: click.Group) -> None:
    for command in (keys_group, checkpoint_command, export_command, check_command):
        cli.add_command(command)


# -- keys -----------------------------------------------------------------------------------

@click.group("keys", short_help="The host's signing key.")
def keys_group() -> None:
    """The host's Ed25519 signing key: every checkpoint is signed with it."""


@keys_group.command("generate", short_help="Make the host's key; print its verifier key.")
@key_file_option
@click.option("--name", default=None,
              help="The key's name in every signature line (no spaces or '+'), for example "
                   "the host's domain; default: arbiter- and 12 hex digits of the key's own.")
@json_option
def keys_generate(key_path: str | None, name: str | None, as_json: bool) -> None:
    """Make a key pair in the key file (mode 0600, never replacing one) and print the verifier
    key to publish. `arbiter init` does this and more."""
    from audit import keys

    file = Path(key_path or DEFAULT_KEY)
    if file.exists():
        raise AuditError("key_exists", f"{file} exists already: a host key is never replaced")
    signer = keys.generate(name)
    keys.save(signer, file)
    key_data(file, signer, as_json)
    if not as_json:
        click.echo(f"{file} created (mode 0600): keep it secret; publish the verifier key "
                   "above", err=True)


@keys_group.command("show", short_help="Print the host's verifier key.")
@key_file_option
@json_option
def keys_show(key_path: str | None, as_json: bool) -> None:
    """Print the verifier key of the configured key file (C2SP name+hash+key form)."""
    key_data(Path(key_path or os.environ.get(KEY_VARIABLE) or DEFAULT_KEY),
             required_signer(key_path), as_json)


def key_data(file: Path, signer: Signer, as_json: bool) -> None:
    """The verifier key alone on a line (to copy or to script), or JSON with its file."""
    data = {"key_file": str(file), "verifier_key": signer.verifier_key()}
    render.emit(data, as_json, data["verifier_key"])


# -- checkpoints and bundles ----------------------------------------------------------------

@click.command("checkpoint", short_help="Print a round's signed checkpoint, to paste.")
@click.argument("match_id", metavar="MATCH")
@click.option("--round", "round_", type=int, default=None,
              help="The round whose close to show (default: the last one closed).")
@key_file_option
@json_option
@click.pass_context
def checkpoint_command(ctx: click.Context, match_id: str, round_: int | None,
                       key_path: str | None, as_json: bool) -> None:
    """Print the signed checkpoint of a round's close, ready to paste into the game's chat.

    The stored one when the round was signed as it closed; otherwise (a match created
    unsigned) one signed now with the configured key over the log as it stood at the end of
    that round, not stored.
    """
    from commands.service.reading import Signed
    from commands.service.rounds import check_round

    app = None
    held = read_side_of(ctx).signed(match_id)  # the view tables, when they hold it all
    if held is None:
        app = app_of(ctx, signing=False)
        match = app.match(match_id)
        held = Signed.of(match.round, match.ended, match.records[-1]["entry"]["round"],
                         app.checkpoints(match_id).notes)
    check_round(round_, held.round, held.ended, match_id)  # one code per kind of bad round
    round_ = held.last_closed if round_ is None else round_
    stored = held.notes
    if round_ in stored:
        note = stored[round_]
    elif not 0 <= round_ <= held.last_closed:
        raise AuditError("round_not_closed", f"round {round_} of {match_id} has not closed"
                         + (f" (the last closed is {held.last_closed})"
                            if held.last_closed >= 0 else ""))
    else:  # an unsigned match: signed now over the log as it stood at the round's end
        from audit.signing import sign_round

        app = app or app_of(ctx, signing=False)
        size = sum(1 for r in app.match(match_id).records if r["entry"]["round"] <= round_)
        note = sign_round(required_signer(key_path), app.match(match_id, version=size), round_)
    data = {"match": match_id, "round": round_, "note": note, "stored": round_ in stored}
    if as_json:
        render.show(data, True, list)
    else:
        click.echo(note, nl=False)


@click.command("export", short_help="Write a match's or a season's audit bundle.")
@click.argument("match_id", metavar="MATCH", required=False)
@click.option("--season", "season_name", default=None, metavar="SEASON",
              help="Export the season's bundle instead: its log, every match entry it rests "
                   "on and every signed checkpoint.")
@click.option("--public", "kind", flag_value="public", help="What the public may see.")
@click.option("--full", "kind", flag_value="full",
              help="Also every sealed plaintext and salt, the host seed and the salt key.")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="The bundle file (- for stdout).")
@key_file_option
@json_option
@click.pass_context
def export_command(ctx: click.Context, match_id: str | None, season_name: str | None,
                   kind: str | None, output: str, key_path: str | None, as_json: bool) -> None:
    """Export a match's log (or with --season, a season's) as an audit bundle (JSON Lines,
    docs/audit.md): --public for anyone, --full for an auditor. Its header names the host key
    that signed it."""
    from audit.bundle import export
    from audit.notes import parse_verifier_key
    from domain.checkpoints import cosigned

    if kind is None:
        raise AuditError("invalid_input", "choose --public or --full")
    if (match_id is None) == (season_name is None):
        raise AuditError("invalid_input", "name a MATCH, or a season with --season")
    app = app_of(ctx, signing=False)
    signer = signer_from(key_path)
    host_key = signer.verifier_key() if signer else None
    if season_name is not None:
        lines = app.season_bundle(season_name, kind, host_key)
        notes = app.signed_notes(season_name)
        data = {"season": season_name, "kind": kind, "file": output,
                "entries": app.season(season_name).version, "checkpoints": len(notes)}
        what, signed = f"season {season_name}", f"{len(notes)} signed checkpoints (the " \
            "season's and its matches')"
    else:
        assert match_id is not None  # one of the two (above)
        match = app.match(match_id)
        checkpoints = app.checkpoints(match_id)
        notes = [cosigned(n) for n in app.cosigned_notes(match_id)]
        lines = export(match, notes, kind, host_key, checkpoints.origin)
        data = {"match": match_id, "kind": kind, "file": output, "entries": match.version,
                "checkpoints": len(notes), "unsigned": match.unsigned}
        what = match_id
        signed = "unsigned match" if match.unsigned else f"{len(notes)} signed checkpoints"
    if host_key is not None:  # there is a signer
        check_signed_by(notes, parse_verifier_key(host_key))
    elif notes:
        click.echo("warning: no host key configured, so the header names none: verify with "
                   "--key VKEY", err=True)
    with click.open_file(output, "w", encoding="utf-8") as out:
        out.writelines(lines)
    render.show(data, as_json, lambda: [
        f"{kind} bundle of {what} written to {output}: {data['entries']} entries, {signed}"],
        err=output == "-")


@click.command("check", short_help="Check every stored entry, checkpoint and balance.")
@click.option("--key", "vkey", default=None, metavar="VKEY",
              help="The host's verifier key the stored checkpoints must be signed by (default: "
                   "the configured key file's).")
@json_option
@click.pass_context
def check_command(ctx: click.Context, vkey: str | None, as_json: bool) -> None:
    """Check the whole store: every entry of every match and season re-hashed and chained,
    every sealed part against its commitment, every signed checkpoint against the log it
    signs, every command and every balance re-derived by the rules, every snapshot against
    the replay. Exit 0 when it holds, 1 naming the first forged or missing entry."""
    from commands.service.check import StoreFault, check_store
    from commands.store.settings import database_url, store_name

    key = vkey_of(vkey)
    if key is None:
        signer = signer_from()
        key = vkey_of(signer.verifier_key()) if signer else None
    app = app_of(ctx, signing=False)
    store = store_name(database_url(db_of(ctx)))
    try:
        found = check_store(app, key)
    except StoreFault as fault:
        if as_json:
            click.echo(json.dumps({"intact": False, "store": store, "code": fault.code,
                                   "message": fault.message}, indent=2, sort_keys=True))
        else:
            click.echo(f"FAILED {fault.code}: {fault.message}")
        sys.exit(1)
    data = {"intact": True, "store": store, "matches": found.matches, "entries": found.entries,
            "seasons": found.seasons, "season_entries": found.season_entries,
            "match_checkpoints": found.match_checkpoints,
            "season_checkpoints": found.season_checkpoints, "snapshots": found.snapshots,
            "postings": found.postings, "signed_by": found.signer, "unsigned": found.unsigned,
            "encrypted": found.encrypted,
            "findings": dict(found.findings())}
    render.show(data, as_json, lambda: [store, render.pairs(found.findings()), "intact"])


def judged(check: Callable[[], Any], as_json: bool = False) -> Any:
    """Run a verification: what it finds wrong is its answer (exit 1), not bad input (exit 2)."""
    try:
        return check()
    except AuditError as error:
        if as_json:
            click.echo(json.dumps({"verified": False, "code": error.code,
                                   "message": error.detail, "seq": error.seq,
                                   "line": error.line}, indent=2, sort_keys=True))
        else:
            click.echo(f"FAILED {error.code}: {error.message}")
        sys.exit(1)


def progress_bar(stack: ExitStack) -> Callable[[int, int], None]:
    """A progress callback that draws a bar on stderr once a bundle is long enough to wait for."""
    bar = None

    def step(done: int, total: int) -> None:
        nonlocal bar
        if total <= PROGRESS_ABOVE:
            return
        if bar is None:
            bar = stack.enter_context(click.progressbar(length=total, label="verifying",
                                                        file=sys.stderr))
        bar.update(done - bar.pos)

    return step
