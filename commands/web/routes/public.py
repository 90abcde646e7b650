"""Anyone, no token: public views, the audit view, checkpoints, public bundles (a match's and a
season's), the season as the public sees it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from sse_starlette.sse import EventSourceResponse

from audit.bundle import PUBLIC as PUBLIC_BUNDLE
from audit.bundle import export
from audit.notes import parse_verifier_key
from commands.service.keys import check_signed_by
from commands.web.auth import Svc
from commands.web.edge import Ndjson, Route
from commands.web.models import MatchId, SeasonId
from commands.web.reading import check_viewer, read_audit, read_standings, read_view
from commands.web.streams import After, LastEventId, stream
from domain.decider import PUBLIC

router = APIRouter(route_class=Route, tags=["anyone"])
Round = Annotated[int | None, Query(ge=0, le=10**6, description="As of the end of round N")]
MinSeq = Annotated[int, Query(ge=0, le=2**31,
                              description="Read the log itself if the views have not yet "
                                          "reached this seq")]


def followable(match_id: MatchId, svc: Svc) -> None:
    check_viewer(svc, match_id, PUBLIC)


@router.get("/matches/{match_id}", summary="The public view of a match")
def public_view(match_id: MatchId, svc: Svc, round: Round = None,
                min_seq: MinSeq = 0) -> dict[str, Any]:
    return read_view(svc, match_id, PUBLIC, round)


@router.get("/matches/{match_id}/audit", summary="Every entry's hash and commitments, and "
                                                 "the signed checkpoints")
def audit_view(match_id: MatchId, svc: Svc) -> dict[str, Any]:
    return read_audit(svc, match_id)


@router.get("/matches/{match_id}/checkpoints", summary="The signed checkpoints of a match")
def checkpoints(match_id: MatchId, svc: Svc) -> list[dict[str, Any]]:
    return svc.arbiter.checkpoints(match_id).notes


@router.get("/matches/{match_id}/bundle", response_class=Ndjson,
            summary="The public audit bundle (JSON Lines, docs/audit.md)")
def bundle(match_id: MatchId, svc: Svc) -> Ndjson:
    match = svc.arbiter.match(match_id)
    notes = [n["note"] for n in svc.arbiter.checkpoints(match_id).notes]
    signer = svc.arbiter.signer
    key = signer.verifier_key() if signer else None
    if key is not None:
        check_signed_by(notes, parse_verifier_key(key))
    return Ndjson("".join(export(match, notes, PUBLIC_BUNDLE, key)))


@router.get("/matches/{match_id}/events", response_class=EventSourceResponse,
            summary="Server-sent events: each public entry as it is recorded")
async def public_events(match_id: MatchId, svc: Svc,
                        _: Annotated[None, Depends(followable)], after: After = 0,
                        last_event_id: LastEventId = None) -> EventSourceResponse:
    return stream(svc, match_id, PUBLIC, after, last_event_id)


@router.get("/seasons/{season}", summary="The season as the public sees it: standings (no "
                                         "garnets), who is in, who left where, each match")
def season_standings(season: SeasonId, svc: Svc) -> dict[str, Any]:
    return read_standings(svc, season, PUBLIC)


@router.get("/seasons/{season}/checkpoints",
            summary="The season's signed checkpoints, each naming its matches' latest")
def season_checkpoints(season: SeasonId, svc: Svc) -> list[dict[str, Any]]:
    return svc.arbiter.season_checkpoints(season).notes


@router.get("/seasons/{season}/bundle", response_class=Ndjson,
            summary="The public season bundle (JSON Lines, docs/audit.md)")
def season_bundle(season: SeasonId, svc: Svc) -> Ndjson:
    signer = svc.arbiter.signer
    key = signer.verifier_key() if signer else None
    if key is not None:
        check_signed_by(svc.arbiter.signed_notes(season), parse_verifier_key(key))
    return Ndjson("".join(svc.arbiter.season_bundle(season, PUBLIC_BUNDLE, key)))
