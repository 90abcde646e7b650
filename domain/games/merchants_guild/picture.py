"""picture(view): the houses' forges, ships and markets now, their totals week by week, and once
settled every player's gold. One SVG built as a string from the viewer's summary; every text
escaped, no script, no outside reference, readable on a 375-pixel screen."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from domain.games.merchants_guild import words
from domain.games.merchants_guild.guild import HOUSES, RESOURCES, STARTING_RESOURCE

WIDTH = 360
FONT = 13
INK = "#222222"
# A house's colour, and its fill where white would vanish on the page.
COLOURS = {"red": "#c0392b", "green": "#1e8449", "blue": "#1f5fbf", "black": "#222222",
           "white": "#9a9a9a"}
SHADES = {"forges": 1.0, "ships": 0.65, "markets": 0.35}  # opacity of each resource's segment
LABEL = 64  # room for a name on the left of a bar
BAR = WIDTH - LABEL - 80  # room for the numbers after the longest bar


def picture(view: Mapping[str, Any]) -> str | None:
    if not view["houses"]:
        return None
    parts: list[str] = []
    y = resources_now(parts, view, 0)
    y = totals_by_week(parts, view, y + 16)
    if view["settlement"]:
        y = gold(parts, view["settlement"], y + 16)
    title = "The Merchants' Guild: the houses" + (" and the gold" if view["settlement"] else "")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {y + 8}" '
            f'width="100%" role="img" font-family="sans-serif" font-size="{FONT}">'
            f"<title>{escape(title)}</title><desc>{escape(description(view))}</desc>"
            f'<rect width="{WIDTH}" height="{y + 8}" fill="#ffffff"/>'
            + "".join(parts) + "</svg>")


def text(x: float, y: float, content: str, fill: str = INK, **attributes: Any) -> str:
    extra = "".join(f' {name.replace("_", "-")}="{escape(str(value))}"'
                    for name, value in attributes.items())
    return f'<text x="{x:.1f}" y="{y:.1f}" fill="{fill}"{extra}>{escape(content)}</text>'


def heading(parts: list[str], y: int, content: str) -> int:
    parts.append(text(0, y + FONT, content, font_weight="bold"))
    return y + FONT + 8


def resources_now(parts: list[str], view: Mapping[str, Any], y: int) -> int:
    """One stacked bar per house: forges, ships, markets, with the total at its end."""
    weeks = len(view["weeks"])
    y = heading(parts, y, f"Houses after week {weeks}" if weeks else "Houses at the opening")
    parts.append(text(0, y + FONT, "dark: forges, middle: ships, light: markets",
                      font_size=FONT - 2))
    y += FONT + 8
    listing = {entry["house"]: entry for entry in view["houses"]}
    most = max(max(words.total(entry) for entry in listing.values()), 1)
    for house in HOUSES:
        entry = listing[house]
        parts.append(text(0, y + 15, words.house(house)))
        x = float(LABEL)
        for resource in RESOURCES:
            width = BAR * entry[resource] / most
            if width:
                parts.append(f'<rect x="{x:.1f}" y="{y + 3}" width="{width:.1f}" height="16" '
                             f'fill="{COLOURS[house]}" fill-opacity="{SHADES[resource]}" '
                             f'stroke="{INK}" stroke-width="0.5"/>')
            x += width
        parts.append(text(x + 4, y + 15, f"{words.resources(entry)} = {words.total(entry)}",
                          font_size=FONT - 2))
        y += 24
    return y


def totals_by_week(parts: list[str], view: Mapping[str, Any], y: int) -> int:
    """A line per house: its total resources at the opening and after each week."""
    y = heading(parts, y, "Total resources, week by week")
    history = [{house: STARTING_RESOURCE * len(RESOURCES) for house in HOUSES}]
    history += [{e["house"]: words.total(e) for e in week["houses"]} for week in view["weeks"]]
    top = max(max(max(totals.values()) for totals in history), 1)
    left, width, height = 28, WIDTH - 28 - 70, 120
    base = y + height
    for value in sorted({0, top}):
        level = base - height * value / top
        parts.append(f'<line x1="{left}" y1="{level:.1f}" x2="{left + width}" y2="{level:.1f}" '
                     f'stroke="#cccccc"/>')
        parts.append(text(left - 4, level + 4, str(value), text_anchor="end",
                          font_size=FONT - 2))
    step = width / 8  # the opening and eight weeks
    for week in range(9):
        parts.append(text(left + step * week, base + FONT + 2, str(week), text_anchor="middle",
                          font_size=FONT - 2))
    ends: list[tuple[float, str]] = []
    for house in HOUSES:
        points = " ".join(f"{left + step * week:.1f},{base - height * t[house] / top:.1f}"
                          for week, t in enumerate(history))
        dash = ' stroke-dasharray="5 3"' if house == "white" else ""
        parts.append(f'<polyline points="{points}" fill="none" stroke="{COLOURS[house]}" '
                     f'stroke-width="2.5"{dash}/>')
        ends.append((base - height * history[-1][house] / top, house))
    for level, house in spread(sorted(ends)):
        parts.append(text(left + step * (len(history) - 1) + 6, level + 4,
                          f"{words.house(house)} {history[-1][house]}", fill=COLOURS[house],
                          font_size=FONT - 1))
    parts.append(text(left + width / 2, base + 2 * FONT + 6, "week", text_anchor="middle",
                      font_size=FONT - 2))
    return base + 2 * FONT + 8


def spread(ends: Sequence[tuple[float, str]]) -> list[tuple[float, str]]:
    """Labels at the lines' ends, pushed apart so that equal totals stay readable."""
    placed: list[tuple[float, str]] = []
    for level, house in ends:
        if placed and level < placed[-1][0] + FONT:
            level = placed[-1][0] + FONT
        placed.append((level, house))
    return placed


def gold(parts: list[str], settled: Mapping[str, Any], y: int) -> int:
    """Each player's gold left after the tax; the losers and winners named beside it."""
    y = heading(parts, y, "Gold after tax")
    rows = settled["gold"]
    most = max(max(row["gold_after_tax"] for row in rows), 1)
    for row in rows:
        player = row["player"]
        shown = player if len(player) <= 9 else player[:8] + "…"
        parts.append(text(0, y + 14, shown))
        width = BAR * row["gold_after_tax"] / most
        loser = player in settled["losers"]
        colour = "#b03a2e" if loser else "#c9a227"
        if width:
            parts.append(f'<rect x="{LABEL}" y="{y + 3}" width="{width:.1f}" height="14" '
                         f'fill="{colour}"/>')
        verdict = " loses" if loser else " wins" if player in settled["winners"] else ""
        parts.append(text(LABEL + width + 4, y + 14, f"{row['gold_after_tax']}{verdict}",
                          font_size=FONT - 2))
        y += 20
    return y


def description(view: Mapping[str, Any]) -> str:
    weeks = len(view["weeks"])
    when = f"After week {weeks}" if weeks else "At the opening"
    said = [f"{when}, the houses' forges/ships/markets: "
            + "; ".join(f"{words.house(e['house'])} {words.resources(e)}, total "
                        f"{words.total(e)}" for e in view["houses"]) + "."]
    if weeks:
        said.append("Totals after each week: " + "; ".join(
            f"{words.house(house)} " + ", ".join(
                str(words.total(e)) for week in view["weeks"] for e in week["houses"]
                if e["house"] == house) for house in HOUSES) + ".")
    settled = view["settlement"]
    if settled:
        said.append("Gold after tax: " + "; ".join(
            f"{row['player']} {row['gold_after_tax']}" for row in settled["gold"]) + ".")
        said.append(f"Losers: {words.names(settled['losers'])}. "
                    f"Winners: {words.names(settled['winners'])}.")
    return " ".join(said)
