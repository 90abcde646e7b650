"""Disputes: `arbiter replay` (a match as one viewer saw it at a round's end), `arbiter diff`
(what they learnt between two rounds) and `arbiter bisect` (where two bundles first disagree),
from a bundle file or a match of the store.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from commands.cli import render
from commands.cli.audit import in_file, viewer_option, vkey_of, vkey_option
from commands.cli.console import app_of, json_option, noted

if TYPE_CHECKING:
    from audit.verify import Audit

T = TypeVar("T")


def register(cli: click.Group) -> None:
    for command in (replay_command, diff_command, bisect_command):
        cli.add_command(command)


def audit_of(ctx: click.Context, source: str, vkey: str | None) -> Audit:
    """A bundle file, verified; or else a match of the store, exported in full and verified."""
    from audit.bundle import FULL, export
    from audit.verify import verify

    if Path(source).is_file():
        with open(source, "rb") as stream:
            return verify(stream, vkey_of(vkey), keep_log=True)
    match = stored(source, lambda: app_of(ctx, signing=False).match(source))
    return verify((line.encode() for line in export(match, [], FULL, None)), keep_log=True,
                  complete=False)  # the store's own log, read without its checkpoints


def stored_replay(ctx: click.Context, match_id: str, round_: int,
                  viewer: str) -> tuple[dict[str, Any], str | None]:
    """A match of the store as one viewer saw it at the end of a round, as `arbiter view`
    reads it (the view tables when current), with the log and state roots the host signed at
    that round's close (none for a round without a signed checkpoint): what
    `audit.replay.replay` gives of the match's full bundle. And the note on where it was read
    from, if any."""
    from audit.errors import AuditError
    from domain.errors import RuleViolation

    if round_ < 0:  # the codes every entry point gives a bad round (audit.replay.replay)
        raise AuditError("invalid_round", f"round {round_}: rounds count from 0 (the setup)")
    app = app_of(ctx, signing=False)
    try:
        seen = stored(match_id, lambda: app.view(match_id, viewer, round_))
    except RuleViolation as error:
        if error.code != "round_not_reached":
            raise
        seen = app.view(match_id, viewer)
    data = seen.view
    last = data["as_of"]["round"]
    if round_ > last:  # a round no entry of the log belongs to
        raise AuditError("round_not_reached", f"round {round_} is not in this log (rounds 0 "
                         f"to {last})")
    signed = next((n for n in app.checkpoints(match_id).notes if n["round"] == round_), None)
    return {**data, **roots_of(signed["note"] if signed else None)}, seen.note()


def roots_of(note: str | None) -> dict[str, str | None]:
    """The log root and state root a round's signed checkpoint states."""
    from audit.notes import parse_checkpoint, parse_note
    from audit.signing import parse_extensions

    if note is None:
        return {"log_root": None, "state_root": None}
    checkpoint = parse_checkpoint(parse_note(note).text)
    return {"log_root": checkpoint.root.hex(),
            "state_root": parse_extensions(checkpoint.extensions).state_root}


def stored(source: str, read: Callable[[], T]) -> T:
    """What `read` gives of a match of the store; a source that names neither a file nor a
    match, but looks like a file, is said to be a missing file."""
    from domain.errors import RuleViolation

    try:
        return read()
    except RuleViolation as error:
        if error.code == "unknown_match" and Path(source).suffix:
            raise RuleViolation("no_file", f"no file {source}, nor a match of that name in "
                                "the store") from None
        raise


def viewer_for(audit: Audit, source: str, viewer: str) -> str:
    """A public bundle shows the public view: asked for another, say so and show that."""
    if audit.match is None and viewer in ("host", *audit.header.players):
        click.echo(f"note: {source} is a public bundle, so it shows the public view; "
                   f"{viewer}'s view needs the full bundle (arbiter export MATCH --full)",
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

    if Path(source).is_file():
        audit = audit_of(ctx, source, vkey)
        data = replay(audit, round_, viewer_for(audit, source, viewer))
    else:
        data, note = stored_replay(ctx, source, round_, viewer)
        noted(note)
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
    from audit.replay import changes, check_order, diff

    if Path(source).is_file():
        audit = audit_of(ctx, source, vkey)
        data = diff(audit, start, end, viewer_for(audit, source, viewer))
    else:
        check_order(start, end)
        (before, _), (after, note) = (stored_replay(ctx, source, start, viewer),
                                      stored_replay(ctx, source, end, viewer))
        noted(note)
        data = changes(source, viewer, before, after)
    render.show(data, as_json, lambda: diff_text(data))


def diff_text(data: dict[str, Any]) -> list[Any]:
    """The summary's changes as a table, then what happened meanwhile in sentences, as `view`
    tells a match (the entries themselves: --json)."""
    from projections import words

    changes = render.new_table("what", f"end of round {data['from']['round']}",
                               f"end of round {data['to']['round']}", title="changed")
    for key, change in data["summary"].items():
        changes.add_row(key, render.block(change["from"]), render.block(change["to"]))
    lines: list[Any] = [
        f"match {data['match']} as {render.seen_by(data['viewer'])} saw it, from the end of "
        f"round {data['from']['round']} (entry {data['from']['seq']}) to the end of round "
        f"{data['to']['round']} (entry {data['to']['seq']})",
        changes if data["summary"] else "nothing in the summary changed"]
    for chapter in data["told"]:
        lines += [f"\n{chapter['title']}", render.Bullets(chapter["lines"])]
    if not data["told"]:
        lines.append("nothing new to tell" if not data["events"] else
                     f"{words.plural(len(data['events']), 'new entry', 'new entries')}, "
                     "none of them told in the story (--json lists them)")
    return lines


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
