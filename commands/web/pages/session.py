"""Who is reading a page: a player or the host, by the token the host gave them, kept in an
HttpOnly, SameSite=Strict cookie (Secure over https).

A personal link is `/m/MATCH/join#TOKEN` (the host's: `/host/join#TOKEN`): the fragment never
reaches the server or its logs; the page's script (or, without JavaScript, the reader) posts it
to `/session`, which sets the cookie. A player's cookie is scoped to their match's pages, the
host's to `/host`. Forms that change anything carry a CSRF token derived from the cookie's
token, so another site can neither read nor forge it.
"""

from __future__ import annotations

import hashlib
import hmac

from fastapi import Request
from fastapi.responses import RedirectResponse, Response

from commands.web.pages.templating import path_part
from commands.web.worker import Service

PLAYER_COOKIE = "arbiter_player"
HOST_COOKIE = "arbiter_host"
HOST_PATH = "/host"
MAX_AGE = 60 * 60 * 24 * 90  # a season: the host replaces a token by issuing another


def match_path(match_id: str) -> str:
    return f"/m/{path_part(match_id)}"


def csrf_of(token: str) -> str:
    return hmac.new(token.encode(), b"arbiter/pages/csrf", hashlib.sha256).hexdigest()


def csrf_ok(token: str, sent: object) -> bool:
    return isinstance(sent, str) and hmac.compare_digest(csrf_of(token), sent)


def player_of(svc: Service, request: Request, match_id: str) -> tuple[str, str] | None:
    """(player, token) of the reader's cookie for this match, if it is still valid."""
    token = request.cookies.get(PLAYER_COOKIE)
    if not token:
        return None
    player = svc.tokens.holder(match_id, token)
    return None if player is None else (player, token)


def host_of(svc: Service, request: Request) -> str | None:
    """The host's token from the reader's cookie, if it is (still) the host token."""
    token = request.cookies.get(HOST_COOKIE)
    return token if token and svc.tokens.is_host(token) else None


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
