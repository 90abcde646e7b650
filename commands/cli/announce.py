"""`arbiter announce MATCH [--round N]`: a round's public story as Discord-ready markdown.

The same sentences as the match's public page (`projections.story`), one per short line, the
round's signed checkpoint in a code block, split into messages under Discord's limit of 2,000
characters. Reads the public view only, so it can be pasted anywhere. The store and the games
are imported when the command runs (docs/cli.md).
"""

from __future__ import annotations

from contextlib import closing

import click

from commands.cli import render
from commands.cli.console import app_of, json_option, noted


def register(cli: click.Group) -> None:
    cli.add_command(announce)


@click.command("announce", short_help="A round's public story, to paste in Discord.")
@click.argument("match_id", metavar="MATCH")
@click.option("--round", "round_", type=int, default=None,
              help="The round to tell (default: the latest round with something public).")
@click.option("--url", envvar="ARBITER_PUBLIC_URL", default=None,
              help="Where `arbiter serve` is reached: adds a link to the page of the round.")
@json_option
@click.pass_context
def announce(ctx: click.Context, match_id: str, round_: int | None, url: str | None,
             as_json: bool) -> None:
    """Print a round's public story as Discord-ready markdown, with its signed checkpoint."""
    from projections.announcement import SEPARATOR, announcement, last_told

    with closing(app_of(ctx, signing=False)) as app:
        if round_ is None:
            round_ = last_told(app.view(match_id, "public").view)
        public = app.view(match_id, "public", round_)
        noted(public.note())
        messages = announcement(public.view, round_, app.checkpoints(match_id).notes, url)
    render.emit(messages, as_json, SEPARATOR.join(messages))
