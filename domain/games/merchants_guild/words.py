"""How the story, the scoreboard and the picture write the guild's things: houses, resources,
bills, lists of players. Plain text, no markup."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.games.merchants_guild.guild import RESOURCES

GEMS = {"red": "Ruby", "green": "Emerald", "blue": "Sapphire", "black": "Onyx",
        "white": "Diamond"}
LINE = 190  # characters; every told line stays under 200


def house(name: str) -> str:
    return name.capitalize()


def houses(names: Iterable[str]) -> str:
    return ", ".join(house(name) for name in names)


def resources(entry: Mapping[str, Any]) -> str:
    """forges/ships/markets, e.g. 2/1/1"""
    return "/".join(str(entry[r]) for r in RESOURCES)


def total(entry: Mapping[str, Any]) -> int:
    return sum(entry[r] for r in RESOURCES)


def house_state(listing: Iterable[Mapping[str, Any]]) -> str:
    return ", ".join(f"{house(e['house'])} {resources(e)}" for e in listing)


def listed(items: Iterable[object]) -> str:
    """a, b and c"""
    texts = [str(item) for item in items]
    if not texts:
        return "none"
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + f" and {texts[-1]}"


def bills(numbers: Iterable[int]) -> str:
    return listed(numbers)


def names(players: Iterable[str]) -> str:
    return listed(players)


def ordinal(rank: int) -> str:
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def signed(amount: int) -> str:
    return f"+{amount}" if amount > 0 else str(amount)


def pairs(listing: Iterable[Iterable[int]]) -> list[str]:
    return [f"{low}-{high}" for low, high in listing]


def wrapped(head: str, items: Iterable[str], separator: str = ", ") -> list[str]:
    """`head` then the items, over as many lines as needed to keep each under 200 characters."""
    lines, line = [], head
    for item in items:
        joined = item if line == head else separator + item
        if len(line) + len(joined) > LINE and line != head:
            lines.append(line + separator.rstrip())
            line = "  " + item
        else:
            line += joined
    lines.append(line + ".")
    return lines

