"""Who is asking: the host (the host token), a player (their token for this match), or
anyone. Tokens travel only in the Authorization header, so they never reach a log line."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from commands.http.errors import ApiError
from commands.http.models import MatchId, PlayerId
from commands.http.service import Service
from domain.decider import HOST

bearer = HTTPBearer(auto_error=False, description="The host token, or a player's token for "
                                                  "one match (issued by the host)")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def service(request: Request) -> Service:
    return request.app.state.service


Svc = Annotated[Service, Depends(service)]


def token_of(credentials: HTTPAuthorizationCredentials | None) -> str:
    if credentials is None:
        raise ApiError(401, "missing_token", "send Authorization: Bearer TOKEN")
    return credentials.credentials


def host(credentials: Credentials, svc: Svc) -> str:
    if not svc.tokens.is_host(token_of(credentials)):
        raise ApiError(403, "wrong_token", "this needs the host token")
    return HOST


def player_or_host(match_id: MatchId, player: PlayerId, credentials: Credentials,
                   svc: Svc) -> str:
    """HOST for the host token; `player` for their own token for this match; else 403."""
    token = token_of(credentials)
    if svc.tokens.holder(match_id, token) == player:
        return player
    if svc.tokens.is_host(token):
        return HOST
    raise ApiError(403, "wrong_token", f"this is not {player}'s token for {match_id}")


Host = Annotated[str, Depends(host)]
PlayerOrHost = Annotated[str, Depends(player_or_host)]
