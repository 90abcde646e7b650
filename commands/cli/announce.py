"""`arbiter announce MATCH [--round N]`: a round's public story as Discord-ready markdown.

The same sentences as the match's public page (`projections.story`), one per short line, the
round's signed checkpoint in a code block, split into messages under Discord's limit of 2,000
characters. Reads the public view only, so it can be pasted anywhere. The store and the games
are imported when the command runs (docs/cli.md).
"""

from __future__ import annotations

import re
from contextlib import closing
from typing import Any
from urllib.parse import quote

import click

from commands.cli import render
from commands.cli.console import app_of, json_option
from commands.service.rounds import check_round
from domain.errors import RuleViolation

LIMIT = 2000  # characters in one Discord message
SEPARATOR = "\n\n--- next message ---\n\n"


def plain(text: str) -> str:
    """Text as Discord shows it literally: markdown characters escaped, mentions defused."""
    return re.sub(r"([\\*_~|`>\[\]])", r"\\\1", text).replace("@", "@\u200b")


def announcement(public: dict[str, Any], round: int, checkpoints: list[dict[str, Any]],
                 url: str | None = None) -> list[str]:
    """Round `round` of a public view (as of the end of that round) as messages."""
    from projections import story

    chapter = next((c for c in story.chapters(public) if c["round"] == round), None)
    if chapter is None:
        raise RuleViolation("nothing_to_announce", f"round {round} has nothing public to tell")
    game = story.game_name(public["game"])
    head = f"**{plain(game)} · {plain(public['match'])} · {plain(chapter['title'])}**"
    blocks = [f"- {plain(line)}" for line in chapter["lines"]]
    note = next((c["note"] for c in reversed(checkpoints) if c["round"] == round), None)
    if note is not None:
        blocks.append(f"Signed checkpoint:\n```\n{note.rstrip()}\n```")
    if url:
        blocks.append(f"<{url.rstrip('/')}/m/{quote(public['match'], safe='')}?round={round}>")
    return packed(head, blocks)


def packed(head: str, blocks: list[str]) -> list[str]:
    """Blocks in order, as few messages as fit; a continued message repeats the heading."""
    messages: list[str] = []
    current = head
    for block in blocks:
        if len(current) + 1 + len(block) > LIMIT:
            messages.append(current)
            current = f"{head} (continued)"
        current += "\n" + block
    return [*messages, current]


def last_told(public: dict[str, Any]) -> int:
    from projections import story

    chapters = story.chapters(public)
    return chapters[-1]["round"] if chapters else 0


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
    from projections.views import view

    with closing(app_of(ctx, signing=False)) as app:
        match = app.match(match_id)
        check_round(round_, match.round, match.ended, match_id)
        round_ = last_told(view(match, "public")) if round_ is None else round_
        public = view(match, "public", round_)
        messages = announcement(public, round_, app.checkpoints(match_id).notes, url)
    render.emit(messages, as_json, SEPARATOR.join(messages))
