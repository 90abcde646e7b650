"""picture(view): the points race as an SVG, drawn from a viewer's summary.

Once the match is scored: each player's match points as one bar split into the four games,
the most points on top, winners and the EC named. During the rounds: every player's balance
after each round, the money race. Pure string building, readable at 375 px wide: a 360-unit
view box drawn at full width, text of 12 units or more, long names shortened (the description
names everyone in full).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from domain.games.amalgamation.scoring import (
    CHIP_THIEF,
    INVESTMENT,
    KONG,
    MINUS_AUCTION,
    PLACE_POINTS,
    SUBGAMES,
)
from domain.games.amalgamation.setup import ROUNDS
from domain.games.amalgamation.story import GAME_NAMES, by_points

WIDTH = 360
NAME = 9  # characters of a name drawn beside a bar or a line
GAME_COLOURS = ("#4477aa", "#ee6677", "#228833", "#ccbb44")
PLAYER_COLOURS = ("#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377")
SHORT_NAMES = {
    KONG: "Kong",
    MINUS_AUCTION: "Minus Auction",
    INVESTMENT: "Inv. & Don.",
    CHIP_THIEF: "Chip Thief",
}


def picture(view: Mapping[str, Any]) -> str | None:
    if view["end"].get("match_points"):
        return points_race(view)
    if view["rounds"] and "balances" in view["rounds"][0]:
        return money_race(view)
    return None


def short(name: str) -> str:
    return name if len(name) <= NAME else name[: NAME - 1] + "…"


def text(x: float, y: float, words: str, size: int = 13, **attrs: str) -> str:
    extra = "".join(f" {key.replace('_', '-')}={quoteattr(value)}" for key, value in attrs.items())
    return f'<text x="{x:g}" y="{y:g}" font-size="{size}"{extra}>{escape(words)}</text>'


def svg(height: int, title: str, desc: str, body: Sequence[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%" '
        f'role="img" font-family="sans-serif">'
        f"<title>{escape(title)}</title><desc>{escape(desc)}</desc>"
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>'
        f"{''.join(body)}</svg>"
    )


def points_race(view: Mapping[str, Any]) -> str:
    """Stacked bars: a player's four places' points, the games in the rulebook's order."""
    end = view["end"]
    points = end["match_points"]
    players = by_points(points, view["gamewide_tiebreak"])
    earned = {
        game: {p: PLACE_POINTS[i] for i, p in enumerate(end["rankings"][game]["ranking"])}
        for game in SUBGAMES
    }
    left, top, bar, gap = 78, 72, 22, 14  # the bars start below the title and the legend
    scale = (WIDTH - left - 60) / 80  # 80: the most match points a player can have
    body = [text(8, 20, "The points race: match points", 15, font_weight="bold")]
    for index, game in enumerate(SUBGAMES):
        x, y = 8 + (index % 2) * 176, 38 + (index // 2) * 17
        body.append(
            f'<rect x="{x}" y="{y - 10}" width="12" height="12" fill="{GAME_COLOURS[index]}"/>'
        )
        body.append(text(x + 17, y, SHORT_NAMES[game], 12))
    for row, player in enumerate(players):
        y = top + row * (bar + gap)
        body.append(text(4, y + 16, short(player)))
        run = float(left)  # where the next part of the bar starts
        for index, game in enumerate(SUBGAMES):
            width = earned[game][player] * scale
            body.append(
                f'<rect x="{run:g}" y="{y}" width="{width:g}" height="{bar}" '
                f'fill="{GAME_COLOURS[index]}"/>'
            )
            if width >= 20:  # room for the figure inside its part of the bar
                figure = str(earned[game][player])
                body.append(text(run + width / 2, y + 16, figure, 12, text_anchor="middle"))
            run += width
        body.append(text(run + 4, y + 16, str(points[player]), 13, font_weight="bold"))
        mark = outcome_mark(end, player)
        if mark:
            body.append(text(left, y + bar + 11, mark, 11))
    height = top + len(players) * (bar + gap) + 6
    return svg(height, "The points race", points_desc(view, players, earned), body)


def outcome_mark(end: Mapping[str, Any], player: str) -> str:
    if player in end["winners"]:
        return "winner"
    if end.get("ec") == player:
        return "Elimination Candidate"
    return ""


def points_desc(
    view: Mapping[str, Any], players: Sequence[str], earned: Mapping[str, Mapping[str, int]]
) -> str:
    end = view["end"]
    parts = [
        f"{p} {end['match_points'][p]} ("
        + ", ".join(f"{GAME_NAMES[game]} {earned[game][p]}" for game in SUBGAMES)
        + ")"
        for p in players
    ]
    said = "Match points of each player, split into the four games: " + "; ".join(parts) + "."
    if end["winners"]:
        said += f" Winners: {', '.join(end['winners'])}."
    if end.get("ec"):
        said += f" Elimination Candidate: {end['ec']}."
    return said


def money_race(view: Mapping[str, Any]) -> str:
    """One line per player: his balance at the start and after each resolved round."""
    players = view["players"]
    resolved = [entry for entry in view["rounds"] if "balances" in entry]
    start = view["variants"]["starting_money"]
    series = {p: [start, *(entry["balances"][p] for entry in resolved)] for p in players}
    amounts = [amount for values in series.values() for amount in values]
    # The axis spans the balances, rounded out to tens: close races stay visible.
    low = max(0, (min(amounts) - 1) // 10 * 10)
    high = -(-(max(amounts) + 1) // 10) * 10
    left, right, top, plot = 44, WIDTH - 12, 30, 170
    step = (right - left) / ROUNDS

    def at(round_number: int, amount: int) -> tuple[float, float]:
        return left + round_number * step, top + plot - (amount - low) / (high - low) * plot

    body = [
        text(8, 20, "Money left after each round", 15, font_weight="bold"),
        f'<line x1="{left}" y1="{top + plot}" x2="{right}" y2="{top + plot}" stroke="#555"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot}" stroke="#555"/>',
    ]
    for amount in sorted({min(amounts), max(amounts)}):  # the extremes, as the players saw them
        body.append(text(left - 4, at(0, amount)[1] + 4, f"${amount}", 11, text_anchor="end"))
    for round_number in range(ROUNDS + 1):
        x, _ = at(round_number, low)
        body.append(text(x, top + plot + 16, str(round_number), 12, text_anchor="middle"))
    body.append(text(right - 40, top + plot + 30, "round", 12))
    for index, player in enumerate(players):
        colour = PLAYER_COLOURS[index % len(PLAYER_COLOURS)]
        points = " ".join(
            "{:g},{:g}".format(*at(number, amount)) for number, amount in enumerate(series[player])
        )
        body.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5"/>'
        )
        x, y = 8 + (index % 3) * 118, top + plot + 52 + (index // 3) * 18
        body.append(f'<rect x="{x}" y="{y - 10}" width="12" height="4" fill="{colour}"/>')
        body.append(text(x + 16, y, short(player), 12))
    desc = (
        "Each player's balance at the start and after each resolved round: "
        + "; ".join(f"{p} " + ", ".join(f"${amount}" for amount in series[p]) for p in players)
        + "."
    )
    height = top + plot + 52 + 2 * 18
    return svg(height, "The money race", desc, body)
