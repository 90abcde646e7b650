"""Who is asking: the host (the host token), a player (their token for this match), or
anyone. Tokens travel only in the Authorization header, so they never reach a log line."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPBearer

from commands.web.errors import ApiError
from commands.web.worker import Service
from domain.decider import HOST
from domain.edge import excerpt

PLAYER_COOKIE = "arbiter_player"  # a player's session secret, for their match's pages
HOST_COOKIE = "arbiter_host"  # a host's session secret, for /host


class Bearer(HTTPBearer):
    """The scheme the schema states for every route that takes a token. The route class
    (commands.web.edge) reads and checks the token itself, so this reads nothing: parsing
    the header again into credentials nobody used cost every request."""

    async def __call__(self, request: Request) -> None:  # type: ignore[override]
        return None


bearer = Bearer(auto_error=False, scheme_name="HTTPBearer",
                description="The host token, or a player's token for one match (issued by "
                            "the host)")
Credentials = Annotated[None, Depends(bearer)]
# What `Credentials` states in the schema, for a route that reads the route class's answer
# itself (commands.web.routes.players.player_command).
BEARER: dict[str, Any] = {"security": [{"HTTPBearer": []}]}


def service(request: Request) -> Service:
    return request.app.state.service


async def the_service(request: Request) -> Service:
    """`service` as a dependency. The dependencies here that read nothing are async, so
    FastAPI calls them on the event loop: a sync one costs a trip through its thread pool."""
    return service(request)


Svc = Annotated[Service, Depends(the_service)]


def bearer_token(request: Request) -> str:
    """The token of the Authorization header, exactly as sent: `Bearer`, one space, the token.
    Nothing is trimmed, so a token with a character more (a trailing no-break space) is
    another text, refused as a wrong token without a store read (tokens.could_be)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise ApiError(401, "missing_token", "send Authorization: Bearer TOKEN")
    return token


def check_host(request: Request) -> str:
    """HOST for the host token, else 401/403; asked once per request (edge.HostRoute asks
    before the body is read, the dependency then finds the answer)."""
    who = getattr(request.state, "who", None)
    if who is None:
        if not service(request).tokens.is_host(bearer_token(request)):
            raise ApiError(403, "wrong_token", "this needs the host token")
        who = request.state.who = HOST
    return who


def check_player_or_host(request: Request) -> str:
    """HOST for the host token; the path's player for their own token for the path's match;
    else 401/403. The path is read as sent: a token is checked before anything else."""
    who = getattr(request.state, "who", None)
    if who is None:
        token = bearer_token(request)
        match_id = request.path_params.get("match_id", "")
        player = request.path_params.get("player", "")
        svc = service(request)
        if svc.tokens.holder(match_id, token) == player:
            who = player
        elif svc.tokens.is_host(token):
            who = HOST
        else:
            raise ApiError(403, "wrong_token", f"this is not {excerpt(player)}'s token for "
                           f"{excerpt(match_id)}")
        request.state.who = who
    return who


async def host(request: Request, credentials: Credentials) -> str:
    """The route class (commands.web.edge) checked the token: this reads the answer."""
    return check_host(request)


async def player_or_host(request: Request, credentials: Credentials) -> str:
    """The route class (commands.web.edge) checked the token: this reads the answer."""
    return check_player_or_host(request)


Host = Annotated[str, Depends(host)]
PlayerOrHost = Annotated[str, Depends(player_or_host)]


def presents(request: Request) -> bool:
    """Whether the request offers a token or a join code (a header, a cookie, a sign-in)."""
    return ("authorization" in request.headers or PLAYER_COOKIE in request.cookies
            or HOST_COOKIE in request.cookies or request.url.path.endswith("/session"))


def identity(request: Request) -> str | None:
    """Who is asking, for the rate limits: the host, or one player of one match, by the
    token the route checked or the page cookie's session; None for anyone else."""
    who = getattr(request.state, "who", None)
    match_id = request.path_params.get("match_id", "")
    if who is not None:
        return HOST if who == HOST else f"{match_id}\x00{who}"
    svc, path = service(request), request.url.path
    if path.startswith("/host"):
        secret = request.cookies.get(HOST_COOKIE)
        return HOST if secret and svc.tokens.is_host_session(secret) else None
    secret = request.cookies.get(PLAYER_COOKIE)
    if path.startswith("/m/") and match_id and secret:
        player = svc.tokens.in_session(match_id, secret)
        return None if player is None else f"{match_id}\x00{player}"
    return None
