"""Whether the view tables are still catching up with the log (the first `serve` after the
demo reads thousands of entries): every page says so, "updating: 312 entries to read", instead
of showing a stale or empty list as if it were the match.

The service of the request is handed to the page's rendering through a context variable that
`Serving` (an ASGI middleware) sets for every request, so no route has to pass it along.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from commands.web.reading import entries_to_read
from commands.web.worker import SHOWN_HELD, Service

serving: ContextVar[Service | None] = ContextVar("serving", default=None)


class Serving:
    """Sets `serving` to the app's service for the request (and the tasks it starts)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        service: Any = getattr(getattr(scope.get("app"), "state", None), "service", None)
        if scope["type"] != "http" or service is None:
            await self.app(scope, receive, send)
            return
        token = serving.set(service)
        try:
            await self.app(scope, receive, send)
        finally:
            serving.reset(token)


def updating() -> int:
    """How many stored entries the views have still to read (0: up to date, or holding every
    log of the page anyone may read being drawn)."""
    service = serving.get()
    return 0 if service is None or SHOWN_HELD.get() else entries_to_read(service)
