"""The audit commands: the host's key, checkpoints, receipts, bundles, verify, replay, disputes.

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
from commands.cli.console import app_of, db_of, json_option
from commands.cli.inputs import pasted_note, read_json
from commands.service.keys import DEFAULT_KEY, KEY_VARIABLE, check_signed_by, signer_from

if TYPE_CHECKING:
    from audit.keys import Signer
    from audit.notes import VerifierKey
    from audit.verify import Audit
    from domain.match import Reading

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
        raise AuditError("no_host_key", f"no key file at ./{DEFAULT_KEY}: run `arbiter init` "
                         "(or `arbiter keys generate`), or pass --key PATH")
    return signer


def vkey_of(vkey: str | None) -> VerifierKey | None:
    from audit.notes import parse_verifier_key

    return parse_verifier_key(vkey) if vkey else None


def register(cli: click.Group) -> None:
    for command in (keys_group, checkpoint_command, receipt_group, export_command,
                    verify_command, check_command, replay_command, diff_command,
                    bisect_command):
        cli.add_command(command)


# -- keys -----------------------------------------------------------------------------------

@click.group("keys", short_help="The host's signing key.")
def keys_group() -> None:
    """The host's Ed25519 signing key: every checkpoint is signed with it."""


@keys_group.command("generate", short_help="Make the host's key; print its verifier key.")
@key_file_option
@click.option("--name", default="arbiter-host", show_default=True,
              help="The key's name in every signature line (no spaces or '+'), for example "
                   "the host's domain.")
@json_option
def keys_generate(key_path: str | None, name: str, as_json: bool) -> None:
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
    from audit.signing import sign_round

    app = app_of(ctx, signing=False)
    match = app.match(match_id)
    last = last_closed_round(match)
    round_ = last if round_ is None else round_
    stored = {n["round"]: n["note"] for n in app.checkpoints(match_id).notes}
    if round_ in stored:
        note = stored[round_]
    elif not 0 <= round_ <= last:
        raise AuditError("round_not_closed", f"round {round_} of {match_id} has not closed"
                         + (f" (the last closed is {last})" if last >= 0 else ""))
    else:
        size = sum(1 for record in match.records if record["entry"]["round"] <= round_)
        note = sign_round(required_signer(key_path), app.match(match_id, version=size), round_)
    data = {"match": match_id, "round": round_, "note": note, "stored": round_ in stored}
    if as_json:
        render.show(data, True, list)
    else:
        click.echo(note, nl=False)


def last_closed_round(match: Reading) -> int:
    """Every round of an ended match is closed; otherwise those before the open one."""
    return match.records[-1]["entry"]["round"] if match.ended else match.round - 1


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
        notes = [n["note"] for n in checkpoints.notes]
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


# -- verifying ------------------------------------------------------------------------------

@click.command("verify", short_help="Verify an audit bundle offline.")
@click.argument("file", type=in_file)
@vkey_option
@json_option
def verify_command(file: str, vkey: str | None, as_json: bool) -> None:
    """Verify an audit bundle (a match's or a season's) offline, with no store and no network:
    exit 0 with a report, or 1 naming the first failure (docs/audit.md lists the codes).

    As a witness would, it remembers each origin it verified: the key that signed it (the
    first time, --key or the key the bundle names) and its largest checkpoint. A later bundle
    of that origin signed by another key, or rolled back to an older checkpoint, fails
    (the file: $ARBITER_KNOWN_KEYS, else ~/.config/arbiter/known_origins)."""
    from audit import witness
    from audit.season_verify import verify_any

    path = witness.known_origins_file()
    known = witness.load(path)
    origin, named = header_claims(file)
    seen = known.get(origin) if origin else None
    key = vkey_of(vkey)
    if key is not None:
        source, how = "key", "pinned with --key"
    elif seen is not None:
        source, how = "known", f"pinned: the key {origin} was first verified with ({path})"
    else:
        source, how = "first_use", ("trusted on first use: named by the header, remembered "
                                    f"for {origin} in {path}; pass --key to pin the key the "
                                    "host published")

    def check() -> Any:
        if key is not None:
            witness.check_key(seen, str(key), "--key", path)
        elif seen is not None:
            witness.check_key(seen, named, "the key the bundle's header names", path)
        pinned = key or (vkey_of(seen.key) if seen is not None else None)
        with open(file, "rb") as stream, ExitStack() as stack:
            return verify_any(stream, pinned, progress=progress_bar(stack), seen=seen)

    audit = judged(check, as_json)
    signed = signed_checkpoint(audit)
    if origin and signed is not None:
        witness.save(path, witness.remembered(known, origin, str(audit.signer), *signed))
        audit.key_source = how
    data = verified_data(audit)
    data["key_source"] = source if signed is not None else None
    render.show(data, as_json, lambda: [
        audit.title(), render.pairs(audit.findings()),
        *([render.rows_table(data["standings"], title="standings, recomputed")]
          if "standings" in data else []),
        "verified"])


def header_claims(file: str) -> tuple[str | None, str | None]:
    """The origin and host key a bundle's header names (None where it names none: verify
    says what is wrong with it)."""
    with open(file, "rb") as stream:
        first = stream.readline()
    try:
        header = json.loads(first)["header"]
        origin, key = header.get("origin"), header.get("host_key")
    except (ValueError, KeyError, TypeError, AttributeError):
        return None, None
    return (origin if isinstance(origin, str) else None), (key if isinstance(key, str) else None)


def signed_checkpoint(audit: Any) -> tuple[int, bytes] | None:
    """The size and root of a verified bundle's last signed checkpoint, if it has one."""
    from audit.season_verify import SeasonAudit

    if isinstance(audit, SeasonAudit):
        root = audit.signed_root  # set with every checkpoint
        return (audit.checkpoints[-1], root) if audit.checkpoints and root is not None else None
    return (audit.checkpoints[-1].size, audit.checkpoints[-1].root) if audit.checkpoints \
        else None


def verified_data(audit: Any) -> dict[str, Any]:
    """What `verify --json` prints of a verified match bundle or season bundle."""
    from audit.season_verify import SeasonAudit

    h = audit.header
    found = {"verified": True, "kind": h.kind, "entries": audit.entries,
             "checkpoints": len(audit.checkpoints),
             "signed_by": str(audit.signer) if audit.checkpoints else None,
             "pinned": audit.pinned, "findings": dict(audit.findings())}
    if isinstance(audit, SeasonAudit):
        return {**found, "season": h.season, "origin": h.origin, "matches": h.matches,
                "match_checkpoints": audit.match_notes, "cited": audit.cited,
                "standings": audit.standings()}
    return {**found, "match": h.match, "game": h.game, "rules_version": h.rules_version,
            "season": h.season, "players": h.players, "unsigned": bool(h.unsigned),
            "weak_seed": bool(h.weak_seed), "ended": audit.ended, "results": audit.results}


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


@click.group("receipt", short_help="Check the receipt of a submission.")
def receipt_group() -> None:
    """Receipts of submissions: prove what was sent, and that it is in the signed log."""


@receipt_group.command("verify", short_help="Check a receipt against a bundle or a proof.")
@click.argument("receipt_file", metavar="RECEIPT", type=in_file)
@click.option("--bundle", "bundle_file", type=in_file,
              help="A bundle of the match (public is enough): the proof is made from it.")
@click.option("--proof", "proof_file", type=in_file,
              help="A saved c2sp.org/tlog-proof instead of a bundle (needs --key).")
@click.option("--checkpoint", "checkpoint_file", type=in_file,
              help="With --bundle: prove under this checkpoint as it was published (default: "
                   "the bundle's first checkpoint covering the entry).")
@click.option("--save-proof", type=click.Path(dir_okay=False), default=None,
              help="Write the tlog-proof to this file.")
@vkey_option
@json_option
def receipt_verify(receipt_file: str, bundle_file: str | None, proof_file: str | None,
                   checkpoint_file: str | None, save_proof: str | None,
                   vkey: str | None, as_json: bool) -> None:
    """Check a receipt (`match submit --receipt FILE` saves one; `--json` prints it): each
    sealed part opens to what was sent, and the entry is in a log the host signed. Exit 1
    naming what fails."""
    from audit.receipts import prove, verify_proof

    if (bundle_file is None) == (proof_file is None):
        raise AuditError("invalid_input", "give one of --bundle FILE and --proof FILE")
    data = read_json(receipt_file, "receipt")
    receipt = data["receipt"] if isinstance(data, dict) and "receipt" in data else data
    key = vkey_of(vkey)
    if proof_file is not None:
        if key is None:
            raise AuditError("no_host_key", "a proof alone names no key: pass --key VKEY")
        text = pasted_note(Path(proof_file).read_text(encoding="utf-8"))
        proven = judged(lambda: verify_proof(receipt, text, key), as_json)
    else:
        assert bundle_file is not None  # one of the two (above)
        note = pasted_note(Path(checkpoint_file).read_text(encoding="utf-8")) \
            if checkpoint_file else None
        with open(bundle_file, "rb") as stream:
            proven = judged(lambda: prove(receipt, stream, key, note), as_json)
    if save_proof:
        Path(save_proof).write_text(proven.proof, encoding="utf-8")
    result = {"verified": True, "match": proven.match, "seq": proven.seq, "hash": proven.hash,
              "size": proven.size, "round": proven.round, "signed_by": str(proven.signer),
              "opened": {str(i): part for i, part in proven.opened.items()},
              "proof": proven.proof}
    render.show(result, as_json, lambda: ["receipt verified", *proven.report()])


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


# -- replay and disputes --------------------------------------------------------------------

def audit_of(ctx: click.Context, source: str, vkey: str | None) -> Audit:
    """A bundle file, verified; or else a match of the store, exported in full and verified."""
    from audit.bundle import FULL, export
    from audit.verify import verify
    from domain.errors import RuleViolation

    if Path(source).is_file():
        with open(source, "rb") as stream:
            return verify(stream, vkey_of(vkey), keep_log=True)
    try:
        match = app_of(ctx, signing=False).match(source)
    except RuleViolation as error:
        if error.code == "unknown_match" and Path(source).suffix:
            raise RuleViolation("no_file", f"no file {source}, nor a match of that name in "
                                "the store") from None
        raise
    return verify((line.encode() for line in export(match, [], FULL, None)), keep_log=True,
                  complete=False)  # the store's own log, read without its checkpoints


def viewer_for(audit: Audit, source: str, viewer: str) -> str:
    """A public bundle shows the public view: asked for another, say so and show that."""
    if audit.match is None and viewer in ("host", *audit.header.players):
        click.echo(f"note: {source} is a public bundle, so it shows the public view; "
                   f"{viewer}'s view needs the full bundle (`arbiter export MATCH --full`)",
                   err=True)
        return "public"
    return viewer


@click.command("replay", short_help="A match as one viewer saw it at a round's end.")
@click.argument("source", metavar="FILE|MATCH")
@click.option("--round", "round_", type=int, required=True, help="As of the end of round N.")
@viewer_option
@vkey_option
@json_option
@click.pass_context
def replay_command(ctx: click.Context, source: str, round_: int, viewer: str,
                   vkey: str | None, as_json: bool) -> None:
    """A match as one viewer saw it at the end of a round, from a bundle (verified first) or
    from the store; a public bundle shows the public view only."""
    from audit.replay import replay

    audit = audit_of(ctx, source, vkey)
    data = replay(audit, round_, viewer_for(audit, source, viewer))
    roots = [("log root", data["log_root"]), ("state root", data["state_root"])]
    render.show(data, as_json, lambda: render.view(
        data, f"saw it at the end of round {round_} ({data['as_of']['seq']} entries)", roots))


@click.command("diff", short_help="What one viewer learnt between two rounds.")
@click.argument("source", metavar="FILE|MATCH")
@click.option("--from", "start", type=int, required=True, help="From the end of round N.")
@click.option("--to", "end", type=int, required=True, help="To the end of round M.")
@viewer_option
@vkey_option
@json_option
@click.pass_context
def diff_command(ctx: click.Context, source: str, start: int, end: int, viewer: str,
                 vkey: str | None, as_json: bool) -> None:
    """What one viewer learnt between the ends of two rounds: each summary entry that changed
    and the new events."""
    from audit.replay import diff

    audit = audit_of(ctx, source, vkey)
    data = diff(audit, start, end, viewer_for(audit, source, viewer))
    render.show(data, as_json, lambda: diff_text(data))


def diff_text(data: dict[str, Any]) -> list[Any]:
    changes = render.new_table("what", f"end of round {data['from']['round']}",
                               f"end of round {data['to']['round']}", title="changed")
    for key, change in data["summary"].items():
        changes.add_row(key, render.block(change["from"]), render.block(change["to"]))
    return [f"match {data['match']} as {render.seen_by(data['viewer'])} saw it, from the end "
            f"of round {data['from']['round']} (entry {data['from']['seq']}) to the end of "
            f"round {data['to']['round']} (entry {data['to']['seq']})",
            changes if data["summary"] else "nothing in the summary changed",
            render.events_table(data["events"], title=f"{len(data['events'])} new events")]


@click.command("bisect", short_help="Where two bundles of one match first disagree.")
@click.argument("bundle_a", type=in_file)
@click.argument("bundle_b", type=in_file)
@vkey_option
@json_option
@click.pass_context
def bisect_command(ctx: click.Context, bundle_a: str, bundle_b: str, vkey: str | None,
                   as_json: bool) -> None:
    """Where two bundles of one match first disagree: the entry, the round of the log and the
    round of the replayed state (exit 0 when they agree, 1 when they do not)."""
    from audit.replay import bisect

    data = bisect(audit_of(ctx, bundle_a, vkey), audit_of(ctx, bundle_b, vkey))
    render.show(data, as_json, lambda: [bisect_text(data)])
    if not data["agree"]:
        sys.exit(1)


def bisect_text(data: dict[str, Any]) -> str:
    if data["agree"]:
        return f"the bundles agree: {data['entries']['a']} entries, the same states every round"
    lines = [f"match {data['match']}: A has {data['entries']['a']} entries, B "
             f"{data['entries']['b']} (seen by {render.seen_by(data['viewer'])})"]
    if data["seq"] is not None:
        lines.append(f"first different entry: seq {data['seq']} (logs part in round "
                     f"{data['log_round']})")
        for side in ("a", "b"):
            entry = data["entry"][side]
            shown = "none" if entry is None else "sealed" if entry.get("sealed") \
                else render.event_line(entry)
            lines.append(f"  {side.upper()}: {shown}")
    if data["state_round"] is not None:
        state = data["state"]
        lines.append(f"first round whose state differs: {data['state_round']} "
                     f"(A {state['a'][:16]}…, B {state['b'][:16]}…)")
        lines.extend(f"  {key}: A {render.cell(v['a'])}; B {render.cell(v['b'])}"
                     for key, v in state["summary"].items())
    else:
        lines.append("the replayed states agree at the end of every round both have")
    return "\n".join(lines)
