"""picture(view): the grid of twenty totems as the viewer knows it, drawn in SVG.

Each cell shows the totem's weight when the viewer knows it (the host always; a player their
starting totem; everyone once the setup is opened at the end), the series of the open round it
is in, and who took a copy of it at the last auction. Below: the chips (or, at the end, the
final ranking), and a player's last answer from the scale. Only the viewer's own summary is
read, so nothing the viewer may not see can appear.
"""

from __future__ import annotations

from collections.abc import Mapping
from textwrap import wrap
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from domain.games.totemic_might.grid import SEASONS, SIGILS
from domain.games.totemic_might.sentences import RESULT_WORDS, count, pieces

View = Mapping[str, Any]

WIDTH = 400
LEFT = 64  # the season labels' column
CELL_W, CELL_H = 64, 50
GRID_TOP = 78
LINE = 58  # characters of a line of size 11 that fit the width
ROW_H = 20
FONT = "font-family=\"sans-serif\""


def picture(view: View) -> str | None:
    if not view.get("chips"):
        return None
    weights = known_weights(view)
    viewer = view.get("viewer", "")
    own = set(view.get("spirit_totems", {}).get(viewer, [])) if viewer in view["chips"] else set()
    series = series_tags(view)
    takers = last_takers(view)
    parts = [header(view), *grid_labels()]
    for row, season in enumerate(SEASONS):
        for column, sigil in enumerate(SIGILS):
            totem = f"{season}-{sigil}"
            parts.append(cell(row, column, weights.get(totem), totem in own, series.get(totem),
                              takers.get(totem)))
    top = GRID_TOP + len(SEASONS) * CELL_H + 16
    panel, top = standings(view, top)
    parts += panel
    scale, top = last_weighing(view, viewer, top)
    parts += scale
    height = top + 8
    title = f"Totemic Might, round {view['round']}: the totems as {viewer} knows them"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="100%" '
        f'viewBox="0 0 {WIDTH} {height}" {FONT}>'
        f"<title>{escape(title)}</title><desc>{escape(describe(view, weights, series))}</desc>"
        + "".join(parts) + "</svg>"
    )


def known_weights(view: View) -> dict[str, int]:
    setup = view.get("setup")
    if setup and setup.get("weights"):
        return dict(setup["weights"])
    return {told["totem"]: told["weight"] for told in view.get("starting_totems", {}).values()
            if "weight" in told}


def series_tags(view: View) -> dict[str, str]:
    """`2A` / `2B` for the totems of the open round's series."""
    series = view.get("series") or {}
    return {totem: f"{view['round']}{name}" for name, totems in series.items()
            for totem in totems}


def last_takers(view: View) -> dict[str, str]:
    """Who took a copy of each totem at the latest auction (both series of one round)."""
    auctions = view.get("auctions", [])
    if not auctions:
        return {}
    latest = auctions[-1]["round"]
    return {item: player for series in auctions[-2:] if series["round"] == latest
            for player, item in series["allocation"].items() if item not in (None, "GARNET")}


def header(view: View) -> str:
    if view.get("phase") == "over":
        heading = "The final weights"
    else:
        heading = f"Round {view['round']}: {str(view.get('phase', '')).replace('_', ' ')}"
    return (text(4, 20, heading, size=15, weight="bold")
            + text(4, 38, "? = a weight secret to you; 2A = in this round's", size=11,
                   fill="#444444")
            + text(4, 52, "series; a name = who took a copy at the last auction", size=11,
                   fill="#444444"))


def grid_labels() -> list[str]:
    labels = [text(LEFT + column * CELL_W + CELL_W // 2, GRID_TOP - 6, sigil, size=11,
                   anchor="middle") for column, sigil in enumerate(SIGILS)]
    labels += [text(4, GRID_TOP + row * CELL_H + CELL_H // 2 + 4, season, size=12,
                    weight="bold") for row, season in enumerate(SEASONS)]
    return labels


def cell(row: int, column: int, weight: int | None, own: bool, tag: str | None,
         taker: str | None) -> str:
    x, y = LEFT + column * CELL_W, GRID_TOP + row * CELL_H
    fill = shade(weight) if weight is not None else "#eeeeee"
    stroke = 'stroke="#8b5a00" stroke-width="3"' if own else 'stroke="#999999" stroke-width="1"'
    ink = "#ffffff" if weight is not None and weight > 12 else "#222222"
    parts = [f'<rect x="{x + 1}" y="{y + 1}" width="{CELL_W - 2}" height="{CELL_H - 2}" '
             f'rx="4" fill="{fill}" {stroke}/>',
             text(x + CELL_W // 2, y + 32, "?" if weight is None else str(weight), size=20,
                  weight="bold", anchor="middle", fill=ink if weight is not None else "#999999")]
    if tag:
        parts.append(text(x + 5, y + 13, tag, size=11, fill=ink, weight="bold"))
    if taker:
        parts.append(text(x + CELL_W - 4, y + 45, short(taker), size=11, anchor="end",
                          fill=ink))
    return "".join(parts)


def shade(weight: int) -> str:
    """Heavier totems darker."""
    return f"hsl(32, 70%, {92 - (weight - 1) * 3}%)"


def standings(view: View, top: int) -> tuple[list[str], int]:
    results = view.get("results")
    if results:
        parts = [text(4, top + 12, "Final ranking (score)", size=13, weight="bold")]
        scores = {p: results["players"][p]["final_score"] for p in results["ranking"]}
        values = [(f"{results['players'][p]['rank']}. {p}", scores[p],
                   f"{scores[p]}, {count(results['players'][p]['failure_marks'], 'mark')}")
                  for p in results["ranking"]]
    else:
        parts = [text(4, top + 12, "Chips", size=13, weight="bold")]
        values = [(player, chips, str(chips)) for player, chips in view["chips"].items()]
    most = max([value for _, value, _ in values] + [1])
    y = top + 20
    for label, value, words in values:
        length = max(0, value) * 240 // most
        parts.append(text(4, y + 14, short(label, 9), size=12))
        parts.append(f'<rect x="{LEFT + 10}" y="{y + 3}" width="{length}" height="14" '
                     f'fill="#5b7fa6"/>')
        parts.append(text(LEFT + 14 + length, y + 14, words, size=11))
        y += ROW_H
    return parts, y


def last_weighing(view: View, viewer: str, top: int) -> tuple[list[str], int]:
    """A player's latest answer from the scale (only their own weighings reach them)."""
    mine = [w for w in view.get("weighings", []) if w.get("player") == viewer and "left" in w]
    if not mine:
        return [], top
    latest = mine[-1]
    answer = RESULT_WORDS.get(latest["result"], "answered at the deadline")
    words = f"Your last weighing: {pieces(latest['left'])} against {pieces(latest['right'])}"
    lines = [*wrap(words, LINE, max_lines=3, placeholder=" …"), f"({answer})"]
    parts = [text(4, top + 16 + index * 15, line, size=11) for index, line in enumerate(lines)]
    return parts, top + 22 + 15 * (len(lines) - 1)


def describe(view: View, weights: Mapping[str, int], series: Mapping[str, str]) -> str:
    known = ", ".join(f"{totem} {weight}" for totem, weight in weights.items())
    sentences = [
        "A grid of the twenty totems: rows Summer, Void, Spring, Winter; columns Secret, "
        "Creature, Future, Land, Sky.",
        f"Weights known: {known}." if known else "No weight is known yet.",
    ]
    if series:
        sentences.append("This round's series: " + ", ".join(
            f"{totem} ({tag})" for totem, tag in series.items()) + ".")
    results = view.get("results")
    if results:
        sentences.append("Final ranking: " + ", ".join(
            f"{p} {results['players'][p]['final_score']}" for p in results["ranking"]) + ".")
    else:
        sentences.append("Chips: " + ", ".join(
            f"{player} {chips}" for player, chips in view["chips"].items()) + ".")
    return " ".join(sentences)


def short(name: str, limit: int = 8) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def text(x: int, y: int, words: str, size: int, anchor: str = "start", weight: str = "normal",
         fill: str = "#222222") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill={quoteattr(fill)}>{escape(words)}</text>')
