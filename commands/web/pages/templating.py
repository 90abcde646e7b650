"""Jinja2, autoescaped: every name, reason and sentence reaches the page as text. Only the
games' SVG pictures go in as markup (they escape their own names: docs/writing-a-game.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from commands.web.pages.updating import updating
from projections import story, words
from projections.standings import by_rank

HERE = Path(__file__).resolve().parent.parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
def path_part(value: Any) -> str:
    """A match, season or player id as one segment of a path."""
    return quote(str(value), safe="")


def svg(markup: str | None) -> Markup:
    return Markup(markup or "")


environment = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True,
                          undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
environment.filters.update(game=words.game_name, q=path_part, svg=svg, sentence=words.sentence,
                           outcome=words.outcome, ended=words.ended, phase=words.phase,
                           round_name=words.round_name, instant=words.instant,
                           standing=words.standing, bullets=story.bullets,
                           by_rank=by_rank)


def render(template: str, **context: Any) -> str:
    return environment.get_template(template).render(**context)


# Everything a page loads comes from this server; no other site may frame a page.
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    # No address leaves for another site; the service's own forms still carry their Origin
    # (under no-referrer a browser sends `Origin: null`, and sign-in could not tell its own).
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


def page(template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """The template rendered, with how far the views are behind the log (every page says
    when they are still catching up)."""
    context.setdefault("updating", updating())
    return HTMLResponse(render(template, **context), status_code=status, headers=HEADERS)
