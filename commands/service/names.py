"""Names nobody can mistake, and reasons that read as written: what the service accepts for a
new player, match or reason, beyond what the rules accept.

A service rule, not a game's: the offline verifier re-runs the rules over logs written before
these checks, which must still verify. So they run here, as the host names something new.

- A player or match name is one segment of a page's address: no `/` or `\\` (a browser reads
  both as a separator), `?`, `#` or `%`, and not `.` or `..` (`invalid_name`).
- A season refuses a player or match name confusable with one it holds (`confusable_name`):
  two names whose UTS #39 skeletons are equal, as written or case-folded ("bоb" with a
  Cyrillic о beside "bob"; "Bob" beside "bob"; "rn" beside "m"). The skeletons come from
  Unicode's confusables data, as the `confusable-homoglyphs` package ships it.
- A reason refuses the bidirectional controls (`invalid_text`), which names already refuse
  as unprintable: an RLO would show a reason's words in another order than the log holds.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any

from domain.edge import excerpt
from domain.errors import RuleViolation

ROUTE_BREAKING = frozenset("/\\?#%")
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")


def check_name_in_address(value: object, what: str) -> None:
    if isinstance(value, str) and (ROUTE_BREAKING & set(value) or value in (".", "..")):
        raise RuleViolation("invalid_name", f"{what} {excerpt(value)}: a name is part of a "
                            "page's address, so it holds no '/', '\\', '?', '#' or '%' and "
                            "is not '.' or '..'")


@cache
def look_alikes() -> dict[str, list[dict[str, str]]]:
    """Unicode's confusables data, loaded when a name is first checked: a command that names
    nothing new never reads it (its package also loads urllib)."""
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    return data


def prototype(char: str) -> str:
    """What `char` is confusable with, as UTS #39 maps it. The data lists, for a prototype,
    every character that looks like it, and for any other character its prototype alone; of
    a pair that only look like each other, the smaller stands for both."""
    alike = look_alikes().get(char)
    if not alike or len(alike) > 1:
        return char
    other = alike[0]["c"].strip("\u200e")  # the data marks right-to-left ones so
    if len(other) > 1 or len(look_alikes().get(other, ())) > 1:
        return other
    return min(char, other)


@lru_cache(maxsize=4096)
def skeleton(name: str) -> str:
    """UTS #39's skeleton: NFD, each character by its prototype, NFD again."""
    decomposed = unicodedata.normalize("NFD", name)
    return unicodedata.normalize("NFD", "".join(prototype(c) for c in decomposed))


def check_not_confusable(name: object, held: Iterable[str], what: str) -> None:
    """Refuse `name` when it looks like a name the season holds (itself aside)."""
    if not isinstance(name, str):
        return
    mine = {skeleton(name), skeleton(name.casefold())}
    for other in held:
        if other != name and mine & {skeleton(other), skeleton(other.casefold())}:
            raise RuleViolation("confusable_name", f"{what} {excerpt(name)} looks like "
                                f"{excerpt(other)}, already in the season: choose a name "
                                "nobody can mistake for another")


def check_reason(reason: object) -> None:
    if isinstance(reason, str) and BIDI_CONTROLS & set(reason):
        raise RuleViolation("invalid_text", f"reason {excerpt(reason)}: no bidirectional "
                            "controls (they show the words in another order than recorded)")


def check_reasons_in(args: Any) -> None:
    """Every `reason` among a command's arguments (a correction's, an early end's)."""
    if isinstance(args, dict):
        for key, value in args.items():
            if key == "reason":
                check_reason(value)
            check_reasons_in(value)
