"""What a public page needs for "Check this log in your browser" (static/audit.js and
static/check.js, templates/check_in_browser.html): the public bundle to fetch, the host's
verifier key the page pins, and where the host says it published that key.

The key shown is only as trustworthy as the page that shows it: a reader compares it with the
one the host published elsewhere (the game's chat, its website), which
$ARBITER_KEY_PUBLISHED_AT names in words or as a link. docs/audit.md, "Checking in the browser".
"""

from __future__ import annotations

import os
from typing import Any

from commands.web.worker import Service

PUBLISHED_VARIABLE = "ARBITER_KEY_PUBLISHED_AT"


def browser_check(svc: Service, bundle: str) -> dict[str, Any]:
    """The context of the check: `bundle` is the public bundle's path on this server."""
    signer = svc.arbiter.signer
    published = os.environ.get(PUBLISHED_VARIABLE, "").strip()
    return {"bundle": bundle, "key": signer.verifier_key() if signer else None,
            "published": published or None,
            "published_link": published.startswith(("https://", "http://"))}
