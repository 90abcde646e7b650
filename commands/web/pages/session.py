"""Who is reading a page: a player or the host, by the session their browser opened with the
personal link the host gave them, kept in an HttpOnly, SameSite=Strict cookie (Secure over
https).

A personal link is `/m/MATCH/join#CODE` (the host's: `/host/join#CODE`): the fragment never
reaches the server or its logs; the page's script (or, without JavaScript, the reader) posts
the join code to `/session`, which opens a session of that browser's own and sets its secret
as the cookie: the cookie never holds the code, and each browser's is another. A join code
opens the pages and nothing else: it is not the API's bearer token. The code opens a session
in every browser it is posted from until the host gives a new link, which replaces the code
and ends every session it opened; logging out ends that browser's alone; a session ends by
itself after `LIFE` (commands.service.tokens). A player's cookie is scoped to their match's
pages, the host's to `/host`. Forms that change anything carry a CSRF token derived from the
session's secret, so another site can neither read nor forge it; signing in and out, which no
signed-in form precedes, are refused unless the browser says they come from this service's
own pages (`same_origin`).
"""

from __future__ import annotations

import hashlib
import hmac
from urllib.parse import urlsplit

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from commands.service.tokens import LIFE, OPENINGS, Session
from commands.web.auth import HOST_COOKIE, PLAYER_COOKIE
from commands.web.errors import ApiError
from commands.web.pages.templating import page, path_part
from commands.web.worker import Service

HOST_PATH = "/host"


def match_path(match_id: str) -> str:
    return f"/m/{path_part(match_id)}"


def join_page(action: str, match: str | None, error: str | None = None,
              status: int = 200) -> HTMLResponse:
    """The page a personal link opens, which posts its code to `action` (`match`: None for
    the host's), saying what opening it does."""
    return page("join.html", status=status, action=action, match=match, error=error,
                days=LIFE // (60 * 60 * 24), openings=OPENINGS)


def csrf_of(token: str) -> str:
    return hmac.new(token.encode(), b"arbiter/pages/csrf", hashlib.sha256).hexdigest()


def csrf_ok(token: str, sent: object) -> bool:
    return isinstance(sent, str) and hmac.compare_digest(csrf_of(token), sent)


def player_of(svc: Service, request: Request, match_id: str) -> tuple[str, str] | None:
    """(player, session secret) of the reader's cookie for this match, if it is open."""
    secret = request.cookies.get(PLAYER_COOKIE)
    if not secret:
        return None
    player = svc.tokens.in_session(match_id, secret)
    return None if player is None else (player, secret)


def host_of(svc: Service, request: Request) -> str | None:
    """The session secret of the reader's cookie, if it is one of the host's open ones."""
    secret = request.cookies.get(HOST_COOKIE)
    return secret if secret and svc.tokens.is_host_session(secret) else None


def not_signed_in(request: Request, name: str, link: str) -> ApiError:
    """The 401 for a page that needs a session: a cookie that holds none any more (a new link
    ended it, it expired, it was forged) is said so. The cookie stays: a session another
    worker opened a moment ago may be unknown here for a moment (Tokens.in_session)."""
    if name not in request.cookies:
        return ApiError(401, "missing_token", f"open {link}")
    return ApiError(401, "session_ended", f"this browser's sign-in has ended (a new link "
                    f"replaced the one it opened, or it expired): open {link}")


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


def signed_in(request: Request, to: str, name: str, session: Session, path: str) -> Response:
    """To `to`, the browser holding `session`'s secret as its cookie for as long as it lasts."""
    response = RedirectResponse(to, status_code=303)
    response.set_cookie(name, session.secret, max_age=session.left, path=path, httponly=True,
                        samesite="strict", secure=request.url.scheme == "https")
    return response


def signed_out(request: Request, to: str, name: str, path: str) -> Response:
    response = RedirectResponse(to, status_code=303)
    response.delete_cookie(name, path=path, httponly=True, samesite="strict",
                           secure=request.url.scheme == "https")
    return response
