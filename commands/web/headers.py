"""Security headers on every answer, not only the pages' (which set their own in
`pages.templating`): `nosniff`, so no browser reads a JSON answer or a bundle as a script or a
page; and a policy that lets nothing load or frame an answer that is no page. `/docs` (Swagger
UI) gets a policy of its own: its files from this server, its one inline script by its hash,
and no other site may frame it.

The tiles under /logs/match/ and /logs/season/ are public static data that any tiles client
reads, a monitor's or a witness's page on another site too: every answer there, errors and
304s included, says any origin may read it (`Access-Control-Allow-Origin: *`, ETag exposed).
A tiles client sends simple requests (GET or HEAD, no header of its own), so no preflight is
answered. No other answer gets a CORS header: the API and the pages stay same-origin, unless
the host lists origins (ARBITER_CORS_ORIGINS, commands.web.app).
"""

from __future__ import annotations

import base64
import hashlib
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

NOT_A_PAGE = b"default-src 'none'; frame-ancestors 'none'; base-uri 'none'"
DOCS = ("/docs", "/docs/oauth2-redirect")
INLINE = re.compile(rb"<script>(.*?)</script>", re.S)
TILES = ("/logs/match/", "/logs/season/")
ANY_PAGE = [(b"access-control-allow-origin", b"*"), (b"access-control-expose-headers", b"ETag")]


def docs_policy(html: bytes) -> bytes:
    """Swagger UI's page: everything from this server, its inline scripts by their hashes."""
    hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(s).digest()).decode()}'"
                      for s in INLINE.findall(html))
    return (f"default-src 'self'; script-src 'self' {hashes}; img-src 'self' data:; "
            "object-src 'none'; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'").encode()


class SecurityHeaders:
    """Pure ASGI middleware (streams pass through untouched)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        docs = scope["path"] in DOCS
        tiles = scope["path"].startswith(TILES)
        start: Message | None = None
        body = bytearray()

        async def headed(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                if b"x-content-type-options" not in names:
                    headers.append((b"x-content-type-options", b"nosniff"))
                if b"content-security-policy" not in names and not docs:
                    headers.append((b"content-security-policy", NOT_A_PAGE))
                if tiles:
                    headers += ANY_PAGE
                message = {**message, "headers": headers}
                if docs:  # its policy names its script: wait for the body (a few hundred bytes)
                    start = message
                    return
            elif docs and message["type"] == "http.response.body" and start is not None:
                body.extend(message.get("body", b""))
                if message.get("more_body", False):
                    return
                start["headers"] = [*start["headers"],
                                    (b"content-security-policy", docs_policy(bytes(body))),
                                    (b"referrer-policy", b"no-referrer")]
                await send(start)
                message = {**message, "body": bytes(body)}
            await send(message)

        await self.app(scope, receive, headed)
