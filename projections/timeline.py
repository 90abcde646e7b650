"""The picture of a match whose game draws none of its own: its rounds on a line, the open one
marked, and who came first once it is over. Drawn only from what the viewer may see."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

WIDTH, HEIGHT, STEP = 360, 120, 44


def timeline(view: dict[str, Any], results: dict[str, Any] | None,
             open_round: int | None) -> str | None:
    """`open_round`: the round open now (None: the last one logged)."""
    last = max(view["as_of"]["round"] or 0, open_round or 0)
    rounds = list(range(1, last + 1))
    if not rounds:
        return None  # the opening: nothing to draw yet
    over = results is not None
    first = sorted(p for p, rank in (results or {}).get("ranks", {}).items() if rank == 1)
    said = (f"{len(rounds)} round{'' if len(rounds) == 1 else 's'} played"
            + (f"; first: {', '.join(first)}" if first else "") if over
            else f"round {last or 1} under way" if rounds else "the opening")
    shown = rounds[-7:]  # the latest rounds fit a phone's width
    dots = []
    for i, n in enumerate(shown):
        x = 30 + i * STEP
        done = over or n < last or (open_round is not None and n < open_round)
        dots.append(f'<circle cx="{x}" cy="50" r="14" class="{"done" if done else "open"}"/>'
                    f'<text x="{x}" y="55" text-anchor="middle">{n}</text>')
        if i:
            dots.append(f'<line x1="{x - STEP + 14}" y1="50" x2="{x - 14}" y2="50"/>')
    title = escape(f"{view['match']}: {said}")
    footer = escape(f"First: {', '.join(first)}" if first else
                    ("Over" if over else "Rounds so far"))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'role="img" class="picture timeline" aria-labelledby="tl-title tl-desc">'
            f'<title id="tl-title">{title}</title>'
            f'<desc id="tl-desc">The rounds of the match in order: {escape(said)}.</desc>'
            f'{"".join(dots)}<text x="10" y="105" class="caption">{footer}</text></svg>')
