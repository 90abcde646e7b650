"""Reading what a request sends without a 500: JSON nested no deeper than `MAX_DEPTH` (the
parser would recurse until Python's stack gave out), and whole numbers in ASCII digits only,
no longer than `DIGITS` (`str.isdigit()` takes '²' and '١', which `int()` refuses or reads,
and `int()` refuses over 4,300 digits)."""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 32  # arrays and objects nested in any JSON a request sends (a command needs 5)
DIGITS = 18  # a whole number's digits: any the service reads fits in 64 bits
WHOLE = re.compile(rf"-?[0-9]{{1,{DIGITS}}}")


def depth_of(value: Any) -> int:
    """How deep arrays and objects nest in `value` (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        inner = item.values() if isinstance(item, dict) else item if isinstance(
            item, list) else None
        if inner is not None:
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                break
            stack.extend((each, depth + 1) for each in inner)
    return deepest


def loads(text: str | bytes) -> Any:
    """JSON, or ValueError: not JSON, nested over MAX_DEPTH, or a number Python will not
    read (over 4,300 digits). The parser refuses deep nesting itself, with RecursionError,
    before it costs much."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} deep") from None
    if depth_of(value) > MAX_DEPTH:
        raise ValueError(f"nested more than {MAX_DEPTH} deep")
    return value


def whole_number(text: str) -> int | None:
    """`text` as a whole number, if it is one written in ASCII digits (at most DIGITS)."""
    return int(text) if WHOLE.fullmatch(text) else None
