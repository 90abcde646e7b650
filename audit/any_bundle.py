"""A bundle of either kind, told apart by its header's format: a match's (audit.verify) or a
season's (audit.season_verify, whose rules are loaded only for a season bundle)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from itertools import chain
from typing import TYPE_CHECKING

from audit.errors import AuditError
from audit.headers import SEASON_FORMAT
from audit.verify import Audit, verify
from audit.witness import Seen

if TYPE_CHECKING:
    from audit.notes import VerifierKey
    from audit.season_verify import SeasonAudit


def verify_any(stream: Iterable[bytes], key: VerifierKey | None = None,
               progress: Callable[[int, int], None] | None = None,
               seen: Seen | None = None) -> Audit | SeasonAudit:
    """Verify the bundle whose lines `stream` yields, a match's or a season's. A file that
    opens with no bundle header at all (an empty file, a receipt, garbage) is `not_a_bundle`,
    not a bundle that was tampered with."""
    lines = iter(stream)
    first = next(lines, b"")
    try:
        header = json.loads(first)
    except ValueError:
        header = None
    if not isinstance(header, dict) or not isinstance(header.get("header"), dict):
        said = "the file is empty" if not first.strip() else \
            "its first line is not a bundle's header"
        raise AuditError("not_a_bundle", f"this is not an audit bundle: {said} (arbiter "
                         "export writes one)")
    is_season = header["header"].get("format") == SEASON_FORMAT
    rest = chain([first], lines)
    if is_season:
        from audit.season_verify import verify_season

        return verify_season(rest, key, seen)
    return verify(rest, key, progress=progress, seen=seen)
