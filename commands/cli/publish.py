"""`arbiter publish`: every log as c2sp.org/tlog-tiles in a folder or an S3-compatible bucket,
for any static host (a web server, an object store, a CDN), the same tree `arbiter serve`
answers under /logs/."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from audit.errors import AuditError
from commands.cli import render
from commands.cli.audit import key_file_option
from commands.cli.console import db_of, json_option

if TYPE_CHECKING:
    from commands.store.shelves import Shelf


def register(cli: click.Group) -> None:
    cli.add_command(publish_command)


@click.command("publish", short_help="Write logs as static C2SP tiles to a folder or bucket.")
@click.argument("names", nargs=-1, metavar="[MATCH] DIR|s3://BUCKET[/PREFIX]")
@click.option("--season", "season_name", default=None, metavar="SEASON",
              help="The season's log and each of its matches' instead of one match.")
@click.option("--all", "everything", is_flag=True, help="Every season and match in the store.")
@click.option("--s3-endpoint", envvar="ARBITER_S3_ENDPOINT", default=None, metavar="URL",
              help="An S3-compatible store's address (MinIO, R2, Ceph...; also "
                   "ARBITER_S3_ENDPOINT); AWS S3 itself by default.")
@key_file_option
@json_option
@click.pass_context
def publish_command(ctx: click.Context, names: tuple[str, ...], season_name: str | None,
                    everything: bool, s3_endpoint: str | None, key_path: str | None,
                    as_json: bool) -> None:
    """Write a match's log (or with --season, a season's and its matches'; with --all, every
    log) under DIR as c2sp.org/tlog-tiles: DIR/match/ID/ and DIR/season/ID/, each with its
    checkpoint, tile/<L>/<N>[.p/<W>], tile/entries/<N>[.p/<W>] and arbiter/log.json.
    s3://BUCKET/PREFIX puts the same objects in an S3-compatible bucket, each with its
    Cache-Control and Content-Type; the credentials are found as the aws command finds them
    (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE).

    Run it again after each round: a log published as it stands is left alone; otherwise only
    the tiles past the last published checkpoint are worked out and written (a tile already
    there is never rewritten), checked against the right edge of what is there
    (`tile_conflict` for another history of the log, nothing written), and the checkpoint is
    replaced last. docs/audit.md ("Tiles") has the layout."""
    from commands.service.arbiter import Arbiter
    from commands.service.keys import signer_from
    from commands.service.publishing import publish
    from commands.service.tiles import MATCH, SEASON, every_log
    from commands.store.bucket import Bucket, is_bucket
    from commands.store.shelves import Folder

    if not 1 <= len(names) <= 2:
        raise AuditError("invalid_input", "give the folder DIR (or s3://BUCKET/PREFIX), after "
                         "the MATCH if you name one")
    *named, target = names
    match_id = named[0] if named else None
    if sum((match_id is not None, season_name is not None, everything)) != 1:
        raise AuditError("invalid_input", "name one of a MATCH, a season with --season, --all")
    if is_bucket(target):
        shelf: Shelf = Bucket(target, s3_endpoint)
    elif Path(target).exists() and not Path(target).is_dir():
        raise AuditError("invalid_input", f"{target} is a file, not a folder")
    else:
        shelf = Folder(Path(target))
    app = Arbiter(db_of(ctx), signer=signer_from(key_path))
    if everything:
        logs = every_log(app)
    elif season_name is not None:
        logs = [(SEASON, season_name),
                *((MATCH, m) for m in app.season(season_name).matches)]
    else:
        assert match_id is not None  # one of the three (above)
        logs = [(MATCH, match_id)]
    with shelf.holding():
        done = [publish(app, shelf, log, name) for log, name in logs]
    rows = [{"log": d.log, "id": d.name, "entries": d.entries, "signed": d.size,
             "written": d.written, "kept": d.kept} for d in done]
    render.show({"folder": target, "logs": rows}, as_json, lambda: [
        *(f"{d.log} {d.name}: {d.size} of {d.entries} entries signed; {d.written} tiles "
          f"written, {d.kept} already there" + ("" if d.size else " (no signed checkpoint: "
                                                   "only arbiter/log.json)")
          for d in done),
        f"published under {target}: serve it as it is (tiles never change: cache them for "
        "good; the checkpoint and arbiter/log.json change each round)"])
