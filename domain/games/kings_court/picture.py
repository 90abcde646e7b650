"""The court filling up, game by game, drawn from a viewer's summary as SVG.

Each game is a row of eleven seats filled in joining order; a seat's colour and tag say the
member's role as far as this viewer knows it (their own role, the King once found, everyone's
after a normal end; the host knows all). Plain string building; every name is escaped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

from domain.games.kings_court.narration import ordinal

View = Mapping[str, Any]

WIDTH = 400
SEATS_PER_ROW = 6
SEAT_W, SEAT_H, GAP = 60, 44, 4
MARGIN = 8
HEADER = 26
BLOCK_GAP = 14
LEGEND = 36
NAME_CHARS = 7
COLOURS = {
    "king": ("#e0b020", "#1a1a1a", "King"),
    "duke": ("#2f62a8", "#ffffff", "Duke"),
    "noble": ("#2e8b4f", "#ffffff", "Noble"),
    None: ("#d9d9d9", "#222222", "?"),
}
ROLE_WORDS = {"king": "the King", "duke": "a Duke", "noble": "a Noble", None: "role not known"}


def picture(view: View) -> str | None:
    games = sorted(int(game) for game in view["courts"])
    if not games:
        return None
    seats = len(view["players"]) or 11
    rows = -(-seats // SEATS_PER_ROW)
    block = HEADER + rows * (SEAT_H + GAP) + BLOCK_GAP
    height = MARGIN + block * len(games) + LEGEND
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="100%" role="img" aria-labelledby="kc-title kc-desc">',
        '<title id="kc-title">King\'s Court: the court, game by game</title>',
        f'<desc id="kc-desc">{escape(description(view, games))}</desc>',
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
    ]
    for index, game in enumerate(games):
        parts += game_block(view, game, MARGIN + index * block, seats)
    parts += legend(height - LEGEND + 8)
    parts.append("</svg>")
    return "\n".join(parts)


def known_role(view: View, game: int, player: str) -> str | None:
    role: str | None = view["roles"].get(str(game), {}).get(player)
    if role is None and any(k["game"] == game and k["king"] == player for k in view["kings"]):
        return "king"
    return role


def annoyed(view: View, game: int, player: str) -> bool:
    return player in view["annoyed"].get(str(game), {}).values()


def status(view: View, game: int) -> str:
    found = next((k for k in view["kings"] if k["game"] == game), None)
    if found is None:
        return "under way"
    if found["early"]:
        return f"{found['king']} found too early"
    winner = view["end"].get("winner")
    return {"king": "the King wins", "dukes": "the Dukes win", "nobles": "the Nobles win"}.get(
        winner, f"{found['king']} is the King"
    )


def short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def game_block(view: View, game: int, top: int, seats: int) -> list[str]:
    court = view["courts"][str(game)]
    parts = [
        f'<text x="{MARGIN}" y="{top + 18}" font-family="sans-serif" font-size="15" '
        f'font-weight="bold" fill="#222222">{escape(f"Game {game}: {status(view, game)}")}</text>'
    ]
    for seat in range(seats):
        x = MARGIN + (seat % SEATS_PER_ROW) * (SEAT_W + GAP)
        y = top + HEADER + (seat // SEATS_PER_ROW) * (SEAT_H + GAP)
        if seat >= len(court):
            parts.append(
                f'<rect x="{x}" y="{y}" width="{SEAT_W}" height="{SEAT_H}" rx="6" fill="none" '
                'stroke="#999999" stroke-dasharray="4 3"/>'
            )
            continue
        player = court[seat]
        role = known_role(view, game, player)
        fill, ink, tag = COLOURS[role]
        if annoyed(view, game, player):
            tag += "*"
        said = f"{ordinal(seat + 1)}: {player}, {ROLE_WORDS[role]}"
        parts += [
            f'<g><title>{escape(said)}</title>',
            f'<rect x="{x}" y="{y}" width="{SEAT_W}" height="{SEAT_H}" rx="6" fill="{fill}"/>',
            f'<text x="{x + SEAT_W // 2}" y="{y + 19}" text-anchor="middle" '
            f'font-family="sans-serif" font-size="14" fill="{ink}">{escape(short(player))}</text>',
            f'<text x="{x + SEAT_W // 2}" y="{y + 37}" text-anchor="middle" '
            f'font-family="sans-serif" font-size="12" fill="{ink}">{escape(tag)}</text>',
            "</g>",
        ]
    return parts


def legend(top: int) -> list[str]:
    parts = []
    for index, role in enumerate(("king", "duke", "noble", None)):
        fill, _, tag = COLOURS[role]
        x = MARGIN + index * 72
        word = {"?": "not known"}.get(tag, tag)
        parts += [
            f'<rect x="{x}" y="{top}" width="14" height="14" rx="3" fill="{fill}"/>',
            f'<text x="{x + 18}" y="{top + 12}" font-family="sans-serif" font-size="12" '
            f'fill="#222222">{escape(word)}</text>',
        ]
    parts.append(
        f'<text x="{MARGIN + 4 * 72 + 16}" y="{top + 12}" font-family="sans-serif" font-size="12" '
        f'fill="#222222">{escape("* annoyed")}</text>'
    )
    return parts


def description(view: View, games: list[int]) -> str:
    """The picture in words, one sentence per member, so that a reader without the image
    learns the same: who joined when, and the role this viewer knows."""
    sentences = ["Each game's court, seat by seat in joining order; colours show known roles"]
    for game in games:
        court = view["courts"][str(game)]
        sentences.append(f"Game {game}: {status(view, game)}, {len(court)} in the court")
        for seat, player in enumerate(court):
            role = known_role(view, game, player)
            mark = ", annoyed" if annoyed(view, game, player) else ""
            sentences.append(f"{ordinal(seat + 1)}: {player}, {ROLE_WORDS[role]}{mark}")
    return ". ".join(sentences) + "."

