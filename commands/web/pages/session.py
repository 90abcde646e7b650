"""Who is reading a page: a player or the host, by the join code of the personal link the
host gave them, kept in an HttpOnly, SameSite=Strict cookie (Secure over https).

A personal link is `/m/MATCH/join#CODE` (the host's: `/host/join#CODE`): the fragment never
reaches the server or its logs; the page's script (or, without JavaScript, the reader) posts it
to `/session`, which sets the cookie. A join code opens the pages and nothing else: it is not
the API's bearer token. A new link for the player replaces the code, which signs out every
browser that used the old one. A player's cookie is scoped to their match's pages, the host's
to `/host`. Forms that change anything carry a CSRF token derived from the cookie's code, so
another site can neither read nor forge it; signing in and out, which no signed-in form
precedes, are refused unless the browser says they come from this service's own pages
(`same_origin`).
"""

from __future__ import annotations

import hashlib
import hmac
from urllib.parse import urlsplit

from fastapi import Request
from fastapi.responses import RedirectResponse, Response

from commands.web.auth import HOST_COOKIE, PLAYER_COOKIE
from commands.web.errors import ApiError
from commands.web.pages.templating import path_part
from commands.web.worker import Service

HOST_PATH = "/host"
MAX_AGE = 60 * 60 * 24 * 90  # a season: the host replaces a token by issuing another


def match_path(match_id: str) -> str:
    return f"/m/{path_part(match_id)}"


def csrf_of(token: str) -> str:
    return hmac.new(token.encode(), b"arbiter/pages/csrf", hashlib.sha256).hexdigest()


def csrf_ok(token: str, sent: object) -> bool:
    return isinstance(sent, str) and hmac.compare_digest(csrf_of(token), sent)


def player_of(svc: Service, request: Request, match_id: str) -> tuple[str, str] | None:
    """(player, join code) of the reader's cookie for this match, if it is still valid."""
    code = request.cookies.get(PLAYER_COOKIE)
    if not code:
        return None
    player = svc.tokens.joiner(match_id, code)
    return None if player is None else (player, code)


def host_of(svc: Service, request: Request) -> str | None:
    """The join code of the reader's cookie, if it is (still) the host's."""
    code = request.cookies.get(HOST_COOKIE)
    return code if code and svc.tokens.is_host_join(code) else None


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def same_origin(svc: Service, request: Request) -> None:
    """Refuse a sign-in or sign-out another site's page sent (a forced sign-in as someone
    else, a forced sign-out): the browser's Origin must be this service's (its public URL,
    else the address the browser itself asked for); a browser that sends none, or `null`,
    must say the request is its own site's (`Sec-Fetch-Site`). A client that is no browser
    sends neither, and forges nothing for anyone."""
    sent = request.headers.get("origin")
    fetched = request.headers.get("sec-fetch-site")
    if sent == "null" and fetched is None:
        raise ApiError(403, "wrong_origin", "this form came from a page that hides its origin: "
                       "open your link again")
    if sent is not None and sent != "null":
        ours = {origin_of(str(request.base_url))}
        if svc.settings.public_url:
            ours.add(origin_of(svc.settings.public_url))
        if sent.lower() not in ours:
            raise ApiError(403, "wrong_origin", "this form was sent from another site's page: "
                           "open your link again")
    elif (fetched or "same-origin") not in ("same-origin", "none"):
        raise ApiError(403, "wrong_origin", "this form was sent from another site's page: "
                       "open your link again")


def signed_in(request: Request, to: str, name: str, token: str, path: str) -> Response:
    response = RedirectResponse(to, status_code=303)
    response.set_cookie(name, token, max_age=MAX_AGE, path=path, httponly=True,
                        samesite="strict", secure=request.url.scheme == "https")
    return response


def signed_out(request: Request, to: str, name: str, path: str) -> Response:
    response = RedirectResponse(to, status_code=303)
    response.delete_cookie(name, path=path, httponly=True, samesite="strict",
                           secure=request.url.scheme == "https")
    return response
