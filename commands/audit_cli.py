"""The audit commands: the host's key, checkpoints, receipts, bundles, verify, replay, disputes.

`register(cli)` adds them to the main group. The host's key file is a setting: `--key PATH` on
the commands that sign, else $ARBITER_HOST_KEY, else ./arbiter-host.key. Commands that check a
signature take the host's published verifier key instead (`--key VKEY`). docs/audit.md has the
formats and failure codes.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import click

from audit import keys
from audit.bundle import FULL, PUBLIC, export
from audit.errors import AuditError
from audit.keys import Signer
from audit.notes import NoteError, VerifierKey, parse_verifier_key, verify_note
from audit.receipts import prove, verify_proof
from audit.replay import bisect, diff, replay
from audit.season_verify import verify_any
from audit.signing import sign_round
from audit.verify import Audit, verify
from commands import render
from commands.app import Arbiter
from domain.match import Match

DEFAULT_KEY = "arbiter-host.key"
KEY_VARIABLE = "ARBITER_HOST_KEY"
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
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def signer_from(path: str | None = None) -> Signer | None:
    """The host's signer from its key file: `path`, else $ARBITER_HOST_KEY, else the default.
    None when the default file does not exist (then nothing is signed); a key file named
    explicitly must exist."""
    named = path or os.environ.get(KEY_VARIABLE)
    file = Path(named or DEFAULT_KEY)
    if file.exists():
        return keys.load(file)
    if named:
        raise AuditError("no_host_key", f"no key file at {file}")
    return None


def required_signer(path: str | None) -> Signer:
    signer = signer_from(path)
    if signer is None:
        raise AuditError("no_host_key", f"no key file at ./{DEFAULT_KEY}: run `arbiter keys "
                         "generate` or pass --key PATH")
    return signer


def register(cli: click.Group) -> None:
    for command in (keys_group, checkpoint_command, receipt_group, export_command,
                    verify_command, replay_command, diff_command, bisect_command):
        cli.add_command(command)


# -- keys -----------------------------------------------------------------------------------

@click.group("keys")
def keys_group() -> None:
    """The host's Ed25519 signing key: every checkpoint is signed with it."""


@keys_group.command("generate")
@key_file_option
@click.option("--name", default="arbiter-host", show_default=True,
              help="The key's name in every signature line (no spaces or '+'), e.g. the "
                   "host's domain.")
def keys_generate(key_path: str | None, name: str) -> None:
    """Make a key pair in the key file (never replacing one); print the verifier key to publish."""
    file = Path(key_path or DEFAULT_KEY)
    if file.exists():
        raise AuditError("key_exists", f"{file} exists already: a host key is never replaced")
    signer = keys.generate(name)
    keys.save(signer, file)
    click.echo(signer.verifier_key())


@keys_group.command("show")
@key_file_option
def keys_show(key_path: str | None) -> None:
    """Print the verifier key of the configured key file (C2SP name+hash+key form)."""
    click.echo(required_signer(key_path).verifier_key())


# -- checkpoints and bundles ----------------------------------------------------------------

@click.command("checkpoint")
@click.argument("match_id", metavar="MATCH")
@click.option("--round", "round_", type=int, default=None,
              help="The round whose close to show (default: the last one closed).")
@key_file_option
@click.pass_context
def checkpoint_command(ctx: click.Context, match_id: str, round_: int | None,
                       key_path: str | None) -> None:
    """Print the signed checkpoint of a round's close, ready to paste into the game's chat.

    The stored one when the round was signed as it closed; otherwise one signed now with the
    configured key over the log as it stood at the end of that round (not stored).
    """
    app = Arbiter(ctx.obj["db"])
    match = app.match(match_id)
    last = last_closed_round(match)
    round_ = last if round_ is None else round_
    stored = {n["round"]: n["note"] for n in app.checkpoints(match_id).notes}
    if round_ in stored:
        click.echo(stored[round_], nl=False)
        return
    if not 0 <= round_ <= last:
        raise AuditError("round_not_closed", f"round {round_} of {match_id} has not closed"
                         + (f" (the last closed is {last})" if last >= 0 else ""))
    size = sum(1 for record in match.records if record["entry"]["round"] <= round_)
    note = sign_round(required_signer(key_path), app.match(match_id, version=size), round_)
    click.echo(note, nl=False)


def last_closed_round(match: Match) -> int:
    """Every round of an ended match is closed; otherwise those before the open one."""
    return match.records[-1]["entry"]["round"] if match.ended else match.round - 1


@click.command("export")
@click.argument("match_id", metavar="MATCH", required=False)
@click.option("--season", "season_name", default=None, metavar="SEASON",
              help="Export the season's bundle instead: its log, every match entry it rests "
                   "on and every signed checkpoint.")
@click.option("--public", "kind", flag_value=PUBLIC, help="What the public may see.")
@click.option("--full", "kind", flag_value=FULL,
              help="Also every sealed plaintext and salt, the host seed and the salt key.")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="The bundle file (- for stdout).")
@key_file_option
@click.pass_context
def export_command(ctx: click.Context, match_id: str | None, season_name: str | None,
                   kind: str | None, output: str, key_path: str | None) -> None:
    """Export a match's (or with --season, a season's) log as an audit bundle (JSON Lines,
    docs/audit.md)."""
    if kind is None:
        raise AuditError("invalid_input", "choose --public or --full")
    if (match_id is None) == (season_name is None):
        raise AuditError("invalid_input", "name a MATCH, or a season with --season")
    app = Arbiter(ctx.obj["db"])
    signer = signer_from(key_path)
    host_key = signer.verifier_key() if signer else None
    if season_name is not None:
        lines, notes, what = app.season_bundle(season_name, kind, host_key), \
            app.signed_notes(season_name), f"season {season_name}"
    else:
        match = app.match(match_id)
        notes = [n["note"] for n in app.checkpoints(match_id).notes]
        lines = export(match, notes, kind, host_key, app.checkpoints(match_id).origin)
        what = f"{match_id}: {match.version} entries"
    if signer is not None:
        check_signed_by(notes, parse_verifier_key(host_key))
    elif notes:
        click.echo("warning: no host key configured, so the header names none: verify with "
                   "--key VKEY", err=True)
    with click.open_file(output, "w", encoding="utf-8") as out:
        out.writelines(lines)
    click.echo(f"{kind} bundle of {what}, {len(notes)} checkpoints", err=True)


def check_signed_by(notes: list[str], key: VerifierKey) -> None:
    """A bundle names the key that signed its checkpoints, so refuse to name another."""
    for note in notes:
        try:
            verify_note(note, [key])
        except NoteError:
            raise AuditError("wrong_host_key", f"the match's checkpoints were not signed by "
                             f"{key}") from None


# -- verifying ------------------------------------------------------------------------------

@click.command("verify")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@vkey_option
def verify_command(file: str, vkey: str | None) -> None:
    """Verify an audit bundle (a match's or a season's) offline: exit 0 with a report, or 1
    naming the first failure."""
    key = parse_verifier_key(vkey) if vkey else None
    with open(file, "rb") as stream, ExitStack() as stack:
        audit = judged(lambda: verify_any(stream, key, progress=progress_bar(stack)))
    click.echo("\n".join(audit.report()))


@click.group("receipt")
def receipt_group() -> None:
    """Receipts of submissions: prove what was sent, and that it is in the signed log."""


@receipt_group.command("verify")
@click.argument("receipt_file", metavar="RECEIPT", type=click.Path(exists=True, dir_okay=False))
@click.option("--bundle", "bundle_file", type=click.Path(exists=True, dir_okay=False),
              help="A bundle of the match (public is enough): the proof is made from it.")
@click.option("--proof", "proof_file", type=click.Path(exists=True, dir_okay=False),
              help="A saved c2sp.org/tlog-proof instead of a bundle (needs --key).")
@click.option("--checkpoint", "checkpoint_file", type=click.Path(exists=True, dir_okay=False),
              help="With --bundle: prove under this checkpoint as it was published (default: "
                   "the bundle's first checkpoint covering the entry).")
@click.option("--save-proof", type=click.Path(dir_okay=False), default=None,
              help="Write the tlog-proof to this file.")
@vkey_option
def receipt_verify(receipt_file: str, bundle_file: str | None, proof_file: str | None,
                   checkpoint_file: str | None, save_proof: str | None,
                   vkey: str | None) -> None:
    """Check a receipt (as `match submit --json` prints it): each sealed part opens to what was
    sent, and the entry is in a log the host signed. Exit 1 naming what fails."""
    if (bundle_file is None) == (proof_file is None):
        raise AuditError("invalid_input", "give one of --bundle FILE and --proof FILE")
    data = json.loads(Path(receipt_file).read_text(encoding="utf-8"))
    receipt = data["receipt"] if isinstance(data, dict) and "receipt" in data else data
    key = parse_verifier_key(vkey) if vkey else None
    if proof_file is not None:
        if key is None:
            raise AuditError("no_host_key", "a proof alone names no key: pass --key VKEY")
        text = Path(proof_file).read_text(encoding="utf-8")
        proven = judged(lambda: verify_proof(receipt, text, key))
    else:
        note = Path(checkpoint_file).read_text(encoding="utf-8") if checkpoint_file else None
        with open(bundle_file, "rb") as stream:
            proven = judged(lambda: prove(receipt, stream, key, note))
    if save_proof:
        Path(save_proof).write_text(proven.proof, encoding="utf-8")
    click.echo("\n".join(["receipt verified", *proven.report()]))


def judged(check: Callable[[], Any]) -> Any:
    """Run a verification: what it finds wrong is its answer (exit 1), not bad input (exit 2)."""
    try:
        return check()
    except AuditError as error:
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


# -- replay and disputes --------------------------------------------------------------------

def audit_of(ctx: click.Context, source: str, vkey: str | None) -> Audit:
    """A bundle file, verified; or else a match of the store, exported in full and verified."""
    if Path(source).is_file():
        key = parse_verifier_key(vkey) if vkey else None
        with open(source, "rb") as stream:
            return verify(stream, key, keep_log=True)
    match = Arbiter(ctx.obj["db"]).match(source)
    return verify((line.encode() for line in export(match, [], FULL, None)), keep_log=True)


@click.command("replay")
@click.argument("source", metavar="FILE|MATCH")
@click.option("--round", "round_", type=int, required=True, help="As of the end of round N.")
@viewer_option
@vkey_option
@json_option
@click.pass_context
def replay_command(ctx: click.Context, source: str, round_: int, viewer: str,
                   vkey: str | None, as_json: bool) -> None:
    """A match as one viewer saw it at the end of a round, from a bundle or the store."""
    data = replay(audit_of(ctx, source, vkey), round_, viewer)
    roots = f"log root {data['log_root'] or '-'}\nstate root {data['state_root'] or '-'}"
    render.emit(data, as_json, f"{render.view_text(data)}\n{roots}")


@click.command("diff")
@click.argument("source", metavar="FILE|MATCH")
@click.option("--from", "start", type=int, required=True, help="From the end of round N.")
@click.option("--to", "end", type=int, required=True, help="To the end of round M.")
@viewer_option
@vkey_option
@json_option
@click.pass_context
def diff_command(ctx: click.Context, source: str, start: int, end: int, viewer: str,
                 vkey: str | None, as_json: bool) -> None:
    """What one viewer learnt between the ends of two rounds."""
    data = diff(audit_of(ctx, source, vkey), start, end, viewer)
    lines = [f"match {data['match']} as seen by {data['viewer']}: end of round "
             f"{data['from']['round']} (seq {data['from']['seq']}) to end of round "
             f"{data['to']['round']} (seq {data['to']['seq']})",
             *(f"{key}: {render.compact(change['from'])} -> {render.compact(change['to'])}"
               for key, change in data["summary"].items()),
             f"{len(data['events'])} new events:",
             *(render.event_line(event) for event in data["events"])]
    render.emit(data, as_json, "\n".join(lines))


@click.command("bisect")
@click.argument("bundle_a", type=click.Path(exists=True, dir_okay=False))
@click.argument("bundle_b", type=click.Path(exists=True, dir_okay=False))
@vkey_option
@json_option
@click.pass_context
def bisect_command(ctx: click.Context, bundle_a: str, bundle_b: str, vkey: str | None,
                   as_json: bool) -> None:
    """Where two bundles of one match first disagree: the entry, the round of the log and the
    round of the replayed state (exit 0 when they agree, 1 when they do not)."""
    data = bisect(audit_of(ctx, bundle_a, vkey), audit_of(ctx, bundle_b, vkey))
    render.emit(data, as_json, bisect_text(data))
    if not data["agree"]:
        sys.exit(1)


def bisect_text(data: dict[str, Any]) -> str:
    if data["agree"]:
        return f"the bundles agree: {data['entries']['a']} entries, the same states every round"
    lines = [f"match {data['match']}: A has {data['entries']['a']} entries, B "
             f"{data['entries']['b']} (seen by {data['viewer']})"]
    if data["seq"] is not None:
        lines.append(f"first different entry: seq {data['seq']} (logs part in round "
                     f"{data['log_round']})")
        for side in ("a", "b"):
            entry = data["entry"][side]
            shown = "none" if entry is None else "sealed" if entry.get("sealed") \
                else render.event_line(entry).strip()
            lines.append(f"  {side.upper()}: {shown}")
    if data["state_round"] is not None:
        state = data["state"]
        lines.append(f"first round whose state differs: {data['state_round']} "
                     f"(A {state['a'][:16]}…, B {state['b'][:16]}…)")
        lines.extend(f"  {key}: A {render.compact(v['a'])}  B {render.compact(v['b'])}"
                     for key, v in state["summary"].items())
    else:
        lines.append("the replayed states agree at the end of every round both have")
    return "\n".join(lines)
