"""Per-token rate limits: a token bucket per bearer token, in each worker process.

A token may send `rate` requests a second on average and `burst` at once; past that it is
answered 429 `rate_limited` with Retry-After, before any work. Requests without a token are
not limited here (the reverse proxy's job, docs/deploy.md). Buckets are keyed by a digest of
the token, never the token itself, and the least recently used are forgotten past `KEPT`.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import OrderedDict
from collections.abc import Callable

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

KEPT = 10_000  # buckets remembered per worker


class Buckets:
    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._held: OrderedDict[bytes, tuple[float, float]] = OrderedDict()

    def take(self, key: bytes) -> float:
        """0 when the request may go, else the seconds until the bucket holds one again."""
        now = self.clock()
        level, then = self._held.pop(key, (float(self.burst), now))
        level = min(float(self.burst), level + (now - then) * self.rate)
        wait = 0.0 if level >= 1 else (1 - level) / self.rate
        self._held[key] = (level - 1 if wait == 0 else level, now)
        if len(self._held) > KEPT:
            self._held.popitem(last=False)
        return wait


class RateLimit:
    """ASGI middleware (pure, so server-sent event streams pass through untouched)."""

    def __init__(self, app: ASGIApp, rate: float, burst: int) -> None:
        self.app, self.buckets = app, Buckets(rate, burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        token = bearer(scope) if scope["type"] == "http" else None
        if token is not None:
            wait = self.buckets.take(hashlib.sha256(token).digest())
            if wait > 0:
                response = JSONResponse(
                    {"error": "rate_limited", "message": f"more than {self.buckets.rate:g} "
                     f"requests a second with this token: wait {math.ceil(wait)} s"},
                    status_code=429, headers={"Retry-After": str(math.ceil(wait))})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def bearer(scope: Scope) -> bytes | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization" and value[:7].lower() == b"bearer ":
            return value[7:].strip() or None
    return None
