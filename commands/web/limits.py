"""Rate limits on who is asking, not on what they typed (the `limits` library, in each worker
process's memory).

Every route (the API's and the pages') asks `Limits` before its work (commands.web.edge):

- A request whose token or page cookie was checked counts against its identity: the host, or
  one player of one match. The API and the pages' forms share it, so a player gets `burst`
  requests at once and `rate` a second on average, however they send them.
- Anything else (no token, a public route, a token or cookie refused) counts against its
  client address, with the same rate. The address is the connection's, or, when it is one of
  the `trusted_proxies`, the nearest address in X-Forwarded-For that is not a trusted proxy
  (with '*', any connection is a proxy's, and the address it appended counts).
- A refused token, cookie or join code (a 401 or 403) also spends the address's budget of
  `failures` a minute; past it, the address is answered 429 on anything that presents a token
  or a code, before the token is looked at.

Past a limit the answer is 429 `rate_limited` with Retry-After, and nothing else is done.
"""

from __future__ import annotations

import hashlib
import math
import time
from ipaddress import ip_address

from fastapi import Request
from limits import RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from commands.web.errors import ApiError


class Limits:
    def __init__(self, rate: float, burst: int, failures: int,
                 trusted_proxies: tuple[str, ...] = ()) -> None:
        self.rate, self.burst, self.failures = rate, burst, failures
        # `burst` at once, and no more than that in the seconds `rate` takes to send it.
        self.each = RateLimitItemPerSecond(burst, max(1, math.ceil(burst / rate)))
        self.refused = RateLimitItemPerMinute(max(1, failures))
        self.trusted = frozenset(trusted_proxies)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def address(self, request: Request) -> str:
        """The client's address: the connection's, or the proxy's word for it when the
        connection comes from a trusted proxy."""
        peer = request.client.host if request.client else "-"
        if not self.trusts(peer):
            return peer
        hops = [a.strip() for a in request.headers.get("x-forwarded-for", "").split(",")]
        hops = [hop for hop in hops if is_address(hop)]
        # The nearest hop no trusted proxy stands for; with '*', the one the proxy appended.
        return next((hop for hop in reversed(hops) if not self.trusts(hop)),
                    hops[-1] if hops else peer)

    def trusts(self, address: str) -> bool:
        """Whether `address` is a trusted proxy ('*': any, where only the proxy can connect)."""
        return "*" in self.trusted or address in self.trusted

    def before(self, request: Request, presents: bool) -> None:
        """429 for an address past its budget of refused tokens, if this request presents a
        token or a code."""
        if presents and not self.limiter.test(self.refused, "refused", self.address(request)):
            raise limited(self.wait(self.refused, "refused", self.address(request)),
                          f"more than {self.failures} refused tokens or codes a minute from "
                          "this address")

    def take(self, request: Request, identity: str | None) -> None:
        """Count this request against its identity (else its address), or refuse it."""
        key = ("who", digest(identity)) if identity else ("address", self.address(request))
        if not self.limiter.hit(self.each, *key):
            whose = "from you" if identity else "from this address"
            raise limited(self.wait(self.each, *key), f"more than {self.burst} requests "
                          f"{whose} in {self.each.multiples} s")

    def failed(self, request: Request) -> None:
        """A token, cookie or code was refused: it spends the address's budget."""
        self.limiter.hit(self.refused, "refused", self.address(request))

    def wait(self, item: RateLimitItemPerSecond | RateLimitItemPerMinute, *key: str) -> int:
        reset = self.limiter.get_window_stats(item, *key).reset_time
        return max(1, math.ceil(reset - time.time()))


def digest(identity: str) -> str:
    return hashlib.sha256(identity.encode("utf-8", "surrogatepass")).hexdigest()


def is_address(text: str) -> bool:
    try:
        ip_address(text)
    except ValueError:
        return False
    return True


def limited(wait: int, what: str) -> ApiError:
    return ApiError(429, "rate_limited", f"{what}: wait {wait} s", {"Retry-After": str(wait)})
