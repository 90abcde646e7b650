"""Checkpoint origins: `<prefix>/match/<id>` and `<prefix>/season/<name>`, the prefix being the
host's (c2sp.org/tlog-checkpoint asks for unique origins). Apart from the season's rules so
that the offline verifier reads an origin without loading them."""

from __future__ import annotations

import re

# A schema-less URL (c2sp.org/tlog-checkpoint): no spaces, no '+'.
ORIGIN_PREFIX = re.compile(r"[A-Za-z0-9][A-Za-z0-9._~-]*(/[A-Za-z0-9._~-]+)*")
DEFAULT_PREFIX = "arbiter"


def season_origin(prefix: str, name: str) -> str:
    return f"{prefix}/season/{name}"


def match_origin(prefix: str, match_id: str) -> str:
    return f"{prefix}/match/{match_id}"
