"""A round's public story as chat-ready markdown (Discord's): `arbiter announce` prints it,
the host's page of a match offers it with a copy button.

The same sentences as the match's public page (`projections.story`), one per short line, the
round's signed checkpoint in a code block, split into messages under Discord's limit of 2,000
characters. It reads the public view only, so it can be pasted anywhere.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from domain.errors import RuleViolation
from projections import story

LIMIT = 2000  # characters in one Discord message
SEPARATOR = "\n\n--- next message ---\n\n"


def plain(text: str) -> str:
    """Text as Discord shows it literally: markdown characters escaped, mentions defused."""
    return re.sub(r"([\\*_~|`>\[\]])", r"\\\1", text).replace("@", "@\u200b")


def announcement(public: dict[str, Any], round: int, checkpoints: list[dict[str, Any]],
                 url: str | None = None) -> list[str]:
    """Round `round` of a public view (as of the end of that round) as messages."""
    chapter = next((c for c in story.chapters(public) if c["round"] == round), None)
    if chapter is None:
        raise RuleViolation("nothing_to_announce", f"round {round} has nothing public to tell")
    game = story.game_name(public["game"])
    head = f"**{plain(game)} · {plain(public['match'])} · {plain(chapter['title'])}**"
    # One bullet a sentence: a list carried over to another line stays in it, indented.
    blocks = ["- " + "\n  ".join(plain(part) for part in item)
              for item in story.bullets(chapter["lines"])]
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
    chapters = story.chapters(public)
    return chapters[-1]["round"] if chapters else 0
