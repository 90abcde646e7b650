"""A bundle of either kind, told apart by its header's format: a match's (audit.verify) or a
season's (audit.season_verify, whose rules are loaded only for a season bundle)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from itertools import chain
from typing import TYPE_CHECKING

from audit.headers import SEASON_FORMAT
from audit.verify import Audit, verify
from audit.witness import Seen

if TYPE_CHECKING:
    from audit.notes import VerifierKey
    from audit.season_verify import SeasonAudit


def verify_any(stream: Iterable[bytes], key: VerifierKey | None = None,
               progress: Callable[[int, int], None] | None = None,
               seen: Seen | None = None) -> Audit | SeasonAudit:
    """Verify the bundle whose lines `stream` yields, a match's or a season's."""
    lines = iter(stream)
    first = next(lines, b"")
    try:
        is_season = json.loads(first)["header"]["format"] == SEASON_FORMAT
    except (ValueError, KeyError, TypeError):
        is_season = False
    rest = chain([first], lines)
    if is_season:
        from audit.season_verify import verify_season

        return verify_season(rest, key, seen)
    return verify(rest, key, progress=progress, seen=seen)
