"""picture(view): the match drawn from a viewer's summary, as one SVG: the points of each player
by set (and the final joust, and the tiles left), the chips left, and every joust with its
winner and gain. Pure string building; every name is escaped; sized for a 375 px screen."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

from domain.games.tile_joust.tiles import FINAL, REMAINING

Data = Mapping[str, Any]

WIDTH = 360
LEFT, RIGHT = 10, 350
COLOURS = ("#1f5fa8", "#c2410c")  # seat 1, seat 2
NEUTRAL, INK, FAINT = "#8a8a8a", "#1a1a1a", "#d9d9d9"
CELL, GAP, CELLS_PER_ROW = 36, 4, 7
STAGE_NAMES = {FINAL: "Final", REMAINING: "Tiles left"}


def picture(view: Data) -> str | None:
    if not view["players"]:
        return None
    drawing = Drawing()
    colours = dict(zip(view["players"], COLOURS, strict=True))
    header(drawing, view, colours)
    points_chart(drawing, view, colours)
    chips_bars(drawing, view, colours)
    joust_cells(drawing, view, colours)
    return drawing.svg(title(view), description(view))


class Drawing:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.y = 0  # the bottom of what is drawn so far

    def text(self, x: float, y: float, words: str, size: int = 12, anchor: str = "start",
             weight: str = "normal", fill: str = INK) -> None:
        self.parts.append(
            f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}">{escape(words)}</text>')

    def rect(self, x: float, y: float, width: float, height: float, fill: str,
             stroke: str = "none", dashed: bool = False) -> None:
        dash = ' stroke-dasharray="3 2"' if dashed else ""
        self.parts.append(
            f'<rect x="{x:g}" y="{y:g}" width="{max(width, 0):g}" height="{max(height, 0):g}" '
            f'fill="{fill}" stroke="{stroke}"{dash}/>')

    def svg(self, title: str, desc: str) -> str:
        height = self.y + 10
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
            f'width="100%" role="img" aria-labelledby="tj-title tj-desc" '
            f'font-family="sans-serif">'
            f'<title id="tj-title">{escape(title)}</title>'
            f'<desc id="tj-desc">{escape(desc)}</desc>'
            + "".join(self.parts) + "</svg>")


def short(name: str, most: int) -> str:
    """A name that fits its place: long ids are cut, with an ellipsis."""
    return name if len(name) <= most else name[: most - 1] + "\u2026"


def stages(view: Data) -> list[str]:
    return list(next(iter(view["points_by_stage"].values())))


def stage_name(stage: str) -> str:
    return STAGE_NAMES.get(stage, f"Set {stage}")


def header(drawing: Drawing, view: Data, colours: Mapping[str, str]) -> None:
    variant = "Death Match" if view["variant"] == "death_match" else "Final Match"
    drawing.text(LEFT, 20, f"Tile Joust, {variant}", size=16, weight="bold")
    x: float = LEFT
    for player in view["players"]:
        drawing.rect(x, 30, 12, 12, colours[player])
        label = f"{short(player, 12)}: {view['points'][player]} points"
        drawing.text(x + 16, 41, label, size=13)
        x += (RIGHT - LEFT) / 2
    drawing.y = 50


def points_chart(drawing: Drawing, view: Data, colours: Mapping[str, str]) -> None:
    """Two bars per stage, one per player, each with its points written above it."""
    top = drawing.y + 20
    drawing.text(LEFT, top, "Points by set", size=13, weight="bold")
    names, players = stages(view), view["players"]
    points = view["points_by_stage"]
    most = max([1, *(points[p][s] for p in players for s in names)])
    base, height = top + 110, 80
    slot = (RIGHT - LEFT) / len(names)
    bar = min(24.0, slot / 2 - 4)
    for index, stage in enumerate(names):
        middle = LEFT + slot * index + slot / 2
        for seat, player in enumerate(players):
            value = points[player][stage]
            tall = height * value / most
            x = middle - bar - 1 if seat == 0 else middle + 1
            drawing.rect(x, base - tall, bar, tall, colours[player])
            drawing.text(x + bar / 2, base - tall - 3, str(value), size=11, anchor="middle")
        drawing.rect(LEFT + slot * index + 2, base, slot - 4, 1, INK)
        drawing.text(middle, base + 14, stage_name(stage), size=11, anchor="middle")
    drawing.y = base + 18


def chips_bars(drawing: Drawing, view: Data, colours: Mapping[str, str]) -> None:
    top = drawing.y + 20
    start = view["config"]["starting_chips"]
    drawing.text(LEFT, top, f"Chips left (of {start})", size=13, weight="bold")
    y = top + 8
    bar_left, full = LEFT + 74, RIGHT - LEFT - 74 - 34
    for player in view["players"]:
        chips = view["chips"][player]
        drawing.text(LEFT, y + 12, short(player, 10), size=12)
        drawing.rect(bar_left, y, full, 14, FAINT)
        drawing.rect(bar_left, y, full * chips / start if start else 0, 14, colours[player])
        drawing.text(RIGHT, y + 12, str(chips), size=12, anchor="end")
        y += 20
    drawing.y = y


def joust_cells(drawing: Drawing, view: Data, colours: Mapping[str, str]) -> None:
    """One cell per joust, in the winner's colour with their gain; grey for equal sums (both
    gains), white for a joust nobody put a tile into, dashed while it runs."""
    top = drawing.y + 20
    drawing.text(LEFT, top, "Jousts (winner's colour, points gained)", size=13, weight="bold")
    y = top + 8
    rows = joust_rows(view)
    if not rows:
        drawing.text(LEFT, y + 14, "No joust yet.", size=12, fill=NEUTRAL)
        drawing.y = y + 20
        return
    for stage, jousts in rows:
        for start in range(0, len(jousts), CELLS_PER_ROW):
            if start == 0:
                drawing.text(LEFT, y + 16, stage_name(str(stage)), size=12)
            x = LEFT + 62
            for joust in jousts[start : start + CELLS_PER_ROW]:
                cell(drawing, x, y, joust, view["players"], colours)
                x += CELL + GAP
            y += 26
    drawing.y = y


def joust_rows(view: Data) -> list[tuple[int | str, list[Data]]]:
    rows: list[tuple[int | str, list[Data]]] = []
    for joust in view["jousts"]:
        if not rows or rows[-1][0] != joust["set"]:
            rows.append((joust["set"], []))
        rows[-1][1].append(joust)
    return rows


def cell(drawing: Drawing, x: float, y: float, joust: Data, players: list[str],
         colours: Mapping[str, str]) -> None:
    resolution = joust["resolution"]
    if resolution is None:
        empty = ran_empty(joust)
        drawing.rect(x, y, CELL, 22, "#ffffff", stroke=NEUTRAL, dashed=not empty)
        drawing.text(x + CELL / 2, y + 15, "empty" if empty else "...", size=10,
                     anchor="middle", fill=NEUTRAL)
        return
    winner, gains = resolution["winner"], resolution["gains"]
    if winner == "tie":
        drawing.rect(x, y, CELL, 22, NEUTRAL)
        words = "=".join(str(gains[player]) for player in players)
    else:
        drawing.rect(x, y, CELL, 22, colours[winner])
        words = f"+{gains[winner]}"
    drawing.text(x + CELL / 2, y + 15, words, size=11, anchor="middle", fill="#ffffff")


def ran_empty(joust: Data) -> bool:
    """A joust that ended after a step in which nobody put a tile, with none before it."""
    steps = joust["steps"]
    return bool(steps) and not any(
        play["committed"] for step in steps for play in step["plays"].values())


def title(view: Data) -> str:
    return "Tile Joust: points by set, chips left and the jousts"


def description(view: Data) -> str:
    players = view["players"]
    names = stages(view)
    points = "; ".join(
        f"{player} {view['points'][player]} points ("
        + ", ".join(f"{stage_name(s).lower()} {view['points_by_stage'][player][s]}"
                    for s in names) + ")"
        for player in players)
    chips = ", ".join(f"{player} {view['chips'][player]}" for player in players)
    jousts = []
    for stage, row in joust_rows(view):
        told = [joust_words(joust) for joust in row]
        jousts.append(f"{stage_name(str(stage)).lower()}: {', '.join(told)}")
    joust_text = "; ".join(jousts) if jousts else "none yet"
    return (f"Points: {points}. Chips left of {view['config']['starting_chips']}: {chips}. "
            f"Jousts: {joust_text}.")


def joust_words(joust: Data) -> str:
    resolution = joust["resolution"]
    if resolution is None:
        return "empty" if ran_empty(joust) else "running"
    if resolution["winner"] == "tie":
        return "equal sums (" + ", ".join(
            f"{p} +{g}" for p, g in resolution["gains"].items()) + ")"
    return f"{resolution['winner']} +{resolution['gains'][resolution['winner']]}"
