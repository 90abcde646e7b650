"""`arbiter publish`: every log as c2sp.org/tlog-tiles in a folder, for any static host (a web
server, an object store, a CDN), the same tree `arbiter serve` answers under /logs/."""

from __future__ import annotations

from pathlib import Path

import click

from audit.errors import AuditError
from commands.cli import render
from commands.cli.audit import key_file_option
from commands.cli.console import db_of, json_option


def register(cli: click.Group) -> None:
    cli.add_command(publish_command)


@click.command("publish", short_help="Write logs as static C2SP tiles to a folder.")
@click.argument("names", nargs=-1, metavar="[MATCH] DIR")
@click.option("--season", "season_name", default=None, metavar="SEASON",
              help="The season's log and each of its matches' instead of one match.")
@click.option("--all", "everything", is_flag=True, help="Every season and match in the store.")
@key_file_option
@json_option
@click.pass_context
def publish_command(ctx: click.Context, names: tuple[str, ...], season_name: str | None,
                    everything: bool, key_path: str | None, as_json: bool) -> None:
    """Write a match's log (or with --season, a season's and its matches'; with --all, every
    log) under DIR as c2sp.org/tlog-tiles: DIR/match/ID/ and DIR/season/ID/, each with its
    checkpoint, tile/<L>/<N>[.p/<W>], tile/entries/<N>[.p/<W>] and arbiter/log.json.

    Run it again after each round: a log the folder holds as it stands is left alone, only
    new tiles are written, a tile already there is never rewritten (and must hold the same
    bytes: `tile_conflict`), and the checkpoint is replaced last. docs/audit.md ("Tiles") has
    the layout."""
    from commands.service.arbiter import Arbiter
    from commands.service.keys import signer_from
    from commands.service.tiles import MATCH, SEASON, Tiles, every_log, publish, up_to_date

    if not 1 <= len(names) <= 2:
        raise AuditError("invalid_input", "give the folder DIR, after the MATCH if you name one")
    *named, folder = names
    match_id = named[0] if named else None
    if sum((match_id is not None, season_name is not None, everything)) != 1:
        raise AuditError("invalid_input", "name one of a MATCH, a season with --season, --all")
    if Path(folder).exists() and not Path(folder).is_dir():
        raise AuditError("invalid_input", f"{folder} is a file, not a folder")
    app = Arbiter(db_of(ctx), signer=signer_from(key_path))
    if everything:
        logs = every_log(app)
    elif season_name is not None:
        logs = [(SEASON, season_name),
                *((MATCH, m) for m in app.season(season_name).matches)]
    else:
        assert match_id is not None  # one of the three (above)
        logs = [(MATCH, match_id)]
    tiles = Tiles(app)
    done = [up_to_date(app, log, name, Path(folder)) or
            publish(tiles.view(log, name), Path(folder)) for log, name in logs]
    rows = [{"log": d.log, "id": d.name, "entries": d.entries, "signed": d.size,
             "written": d.written, "kept": d.kept} for d in done]
    render.show({"folder": folder, "logs": rows}, as_json, lambda: [
        *(f"{d.log} {d.name}: {d.size} of {d.entries} entries signed; {d.written} tiles "
          f"written, {d.kept} already there" + ("" if d.size else " (no signed checkpoint: "
                                                   "only arbiter/log.json)")
          for d in done),
        f"published under {folder}: serve it as it is (tiles never change: cache them for "
        "good; the checkpoint and arbiter/log.json change each round)"])
