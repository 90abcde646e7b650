"""The player's browser as a witness (static/witness.js, templates/browser_witness.html):
it registers its cosignature key once in the season's log, then cosigns each checkpoint of
the match it has checked (c2sp.org/tlog-cosignature). Both calls are the player's own, behind
their cookie and the page's CSRF token, like the page's forms. docs/audit.md, "Players'
browsers as witnesses"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from audit.cosign import cosigners
from audit.errors import AuditError
from audit.notes import NoteError, parse_verifier_key
from commands.web.auth import Svc
from commands.web.edge import Route
from commands.web.errors import ApiError, problem, status_of
from commands.web.models import MatchId
from commands.web.pages.player import signed_in_player
from commands.web.pages.session import csrf_ok
from commands.web.worker import Service, now
from domain.errors import RuleViolation

router = APIRouter(route_class=Route, prefix="/m/{match_id}/me", include_in_schema=False)


class Registration(BaseModel):
    csrf: Annotated[str, Field(max_length=100)]
    key: Annotated[str, Field(max_length=200)]


class Cosignature(BaseModel):
    csrf: Annotated[str, Field(max_length=100)]
    size: Annotated[int, Field(ge=1, le=2**53 - 1)]
    line: Annotated[str, Field(max_length=300)]
    log: Literal["match", "season"] = "match"  # the match's log, or its season's


def _player(svc: Service, request: Request, match_id: str, csrf: str) -> str:
    player, token = signed_in_player(svc, request, match_id)
    if not csrf_ok(token, csrf):
        raise ApiError(403, "wrong_form", "this page is stale: reload it")
    return player


def answered(call: Callable[[], dict[str, Any]]) -> dict[str, Any] | JSONResponse:
    """The script's calls answer in JSON, refusals too (not as the pages' problem page)."""
    try:
        return call()
    except RuleViolation as error:
        return problem(status_of(error.code), error.code, error.message)
    except ApiError as error:
        return problem(error.status, error.code, error.message)


@router.post("/witness", response_model=None)
def register(match_id: MatchId, body: Registration, request: Request,
             svc: Svc) -> dict[str, Any] | JSONResponse:
    """This browser's key, recorded once in the season's log as the player's witness key."""
    def call() -> dict[str, Any]:
        player = _player(svc, request, match_id, body.csrf)
        season = svc.arbiter.match(match_id).season
        svc.arbiter.register_witness(season, player, body.key, at=now())
        return {"season": season, "player": player, "key": body.key}

    return answered(call)


@router.post("/cosign", response_model=None)
def cosign(match_id: MatchId, body: Cosignature, request: Request,
           svc: Svc) -> dict[str, Any] | JSONResponse:
    """The player's browser's cosignature of the match's checkpoint of `size` entries: kept
    beside the note, and served with it, once it holds under the key the season recorded."""
    return answered(lambda: cosigned(svc, request, match_id, body))


def cosigned(svc: Service, request: Request, match_id: str, body: Cosignature) -> dict[str, Any]:
    player = _player(svc, request, match_id, body.csrf)
    season = svc.arbiter.match(match_id).season
    key = svc.arbiter.season(season).witnesses.get(player)
    if key is None:
        raise ApiError(409, "no_witness_key", "this player has no witness key in the season's "
                       "log yet: reload the page to register this browser")
    notes = svc.arbiter.cosigned_notes(match_id) if body.log == "match" else \
        svc.arbiter.cosigned_season_notes(season)
    note = next((n for n in notes if n["size"] == body.size), None)
    if note is None:
        raise ApiError(404, "no_checkpoint", f"no signed checkpoint of {body.size} entries")
    try:
        held = cosigners(note["note"] + body.line, [parse_verifier_key(key)]) \
            if body.line.endswith("\n") and body.line.count("\n") == 1 else []
    except (AuditError, NoteError):
        held = []
    if not held:
        raise ApiError(422, "bad_cosignature", "the line is not this player's witness key's "
                       "cosignature (cosignature/v1) of that checkpoint")
    if body.log == "match":
        svc.arbiter.record_cosignature(match_id, body.size, body.line)
    else:
        svc.arbiter.record_season_cosignature(season, body.size, body.line)
    return {"cosigned": body.size, "log": body.log, "player": player}
