"""The games' rulebooks as pages: `/rules/GAME` (and the decisions and randomness pages they
link to), rendered from docs/games with markdown-it-py on the server, so a player reads the
rules they play by without leaving the site or loading anything from elsewhere.

`commands/web/rules` links to docs/games, so the rulebooks ship with the package
(pyproject.toml's package data) and the pages never drift from the docs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from markupsafe import Markup

from commands.web.edge import Route
from commands.web.errors import ApiError
from commands.web.pages.templating import HERE, page, path_part
from projections.words import game_name

RULES = HERE / "rules"
PAGE = re.compile(r"[a-z_]+(-decisions)?|randomness")

router = APIRouter(route_class=Route, include_in_schema=False)


def markdown() -> MarkdownIt:
    """CommonMark with tables; raw HTML in a rulebook is shown as text, never as markup."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.add_render_rule("link_open", link_open)
    return md


def link_open(self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict,
              env: EnvType) -> str:
    """A link to a sibling page (`randomness.md`) opens its page here; a link outside
    docs/games keeps its text only (the attribute is dropped)."""
    token = tokens[idx]
    href = str(token.attrGet("href") or "")
    found = re.fullmatch(r"([a-z_-]+)\.md(#[\w-]*)?", href)
    if found:
        token.attrSet("href", f"/rules/{found[1]}{found[2] or ''}")
    elif not href.startswith(("http://", "https://", "#")):
        token.attrs.pop("href", None)
    return str(self.renderToken(tokens, idx, options, env))


@cache
def title_of(name: str) -> str:
    """A page's first heading, as plain words ("Totemic Might", not its code in backticks)."""
    text = (RULES / f"{name}.md").read_text(encoding="utf-8")
    heading = next((line.lstrip("# ").strip() for line in text.splitlines()
                    if line.startswith("# ")), name)
    return re.sub(r"\s*\(`[^`]*`\)", "", heading).replace("`", "")


@cache
def rendered(name: str) -> tuple[str, Markup]:
    """A rulebook page's title and body; a link that names a sibling file by its file name
    reads as that page's title."""
    md = markdown()
    tokens = md.parse((RULES / f"{name}.md").read_text(encoding="utf-8"))
    for block in tokens:
        for link, text in zip(block.children or [], (block.children or [])[1:], strict=False):
            found = re.fullmatch(r"([a-z_-]+)\.md", str(link.attrGet("href") or ""))
            if link.type == "link_open" and found and text.type == "text" and \
                    text.content == link.attrGet("href") and PAGE.fullmatch(found[1]) and \
                    (RULES / text.content).is_file():
                text.content = title_of(found[1])
    return title_of(name), Markup(md.renderer.render(tokens, md.options, {}))


@router.get("/rules", response_class=HTMLResponse)
def rules_index() -> HTMLResponse:
    games = sorted(p.stem for p in RULES.glob("*.md") if PAGE.fullmatch(p.stem)
                   and "-" not in p.stem and p.stem != "randomness")
    return page("rules.html", title="The games' rules", body=None,
                games=[(g, game_name(g), f"/rules/{path_part(g)}") for g in games])


@router.get("/rules/{name}", response_class=HTMLResponse)
def rules(name: str) -> HTMLResponse:
    if not PAGE.fullmatch(name) or not (RULES / f"{name}.md").is_file():
        raise ApiError(404, "unknown_game", f"no rulebook named {name[:60]}")
    title, body = rendered(name)
    return page("rules.html", title=title, body=body, games=[])
