"""Anyone, no token: public views, the audit view, checkpoints, public bundles (a match's and a
season's), the season as the public sees it.

Bundles and checkpoints are built once per change (commands.service.built) and answered with
their ETag: a client that sends it back (If-None-Match) gets a 304 and no body. Each may still
change (even a finished match's bundle: a witness may still cosign one of its checkpoints),
so caches must ask again (`no-cache`); only an answer built `final` would be `immutable`."""

from __future__ import annotations

import json
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Depends, Query, Request, Response
from sse_starlette.sse import EventSourceResponse

from audit.bundle import PUBLIC as PUBLIC_BUNDLE
from audit.bundle import export
from audit.notes import parse_verifier_key
from commands.service.built import Built
from commands.service.keys import check_signed_by
from commands.web.auth import Svc
from commands.web.edge import Ndjson, Route, fresh_for
from commands.web.models import MatchId, SeasonId
from commands.web.reading import check_viewer, read_audit, read_standings, read_view
from commands.web.streams import After, LastEventId, stream
from domain.checkpoints import (
    MatchCheckpoints,
    MatchCosignatures,
    SeasonCheckpoints,
    SeasonCosignatures,
    cosigned,
)
from domain.decider import PUBLIC
from domain.match import Match
from domain.season import Season

router = APIRouter(route_class=Route, tags=["anyone"])
Round = Annotated[int | None, Query(ge=0, le=10**6, description="As of the end of round N")]
MinSeq = Annotated[int, Query(ge=0, le=2**31,
                              description="Read the log itself if the views have not yet "
                                          "reached this seq")]


def followable(match_id: MatchId, svc: Svc) -> None:
    check_viewer(svc, match_id, PUBLIC)


@router.get("/matches/{match_id}", summary="The public view of a match",
            response_model=dict[str, Any])
def public_view(match_id: MatchId, request: Request, svc: Svc, round: Round = None,
                min_seq: MinSeq = 0) -> Response:
    # The view is the match's log folded (from the view tables as far as they go), so it
    # changes only with that log: built once per change for everyone who asks.
    found = svc.arbiter.builds.get(
        f"public-view/{match_id}?round={round}", [Match.create_id(match_id)],
        lambda: (as_json(read_view(svc, match_id, PUBLIC, round)), False), fresh_for())
    return answered(request, found, "application/json")


@router.get("/matches/{match_id}/audit", summary="Every entry's hash and commitments, and "
                                                 "the signed checkpoints")
def audit_view(match_id: MatchId, svc: Svc) -> dict[str, Any]:
    return read_audit(svc, match_id)


def answered(request: Request, found: Built, media_type: str) -> Response:
    """The built answer, or 304 when the client holds it already."""
    headers = {"ETag": found.etag, "Cache-Control": IMMUTABLE if found.final else "no-cache"}
    sent = request.headers.get("if-none-match", "")
    if found.etag in (tag.strip() for tag in sent.split(",")) or sent.strip() == "*":
        return Response(status_code=304, headers=headers)
    return Response(found.body, media_type=media_type, headers=headers)


IMMUTABLE = "public, max-age=31536000, immutable"


def match_logs(match_id: str) -> list[UUID]:
    """A match's logs: its entries, its signed checkpoints and their cosignatures."""
    return [Match.create_id(match_id), MatchCheckpoints.create_id(match_id),
            MatchCosignatures.create_id(match_id)]


def season_logs(season: str) -> list[UUID]:
    """A season's own logs: its standings, checkpoints and witnesses' cosignatures."""
    return [Season.create_id(season), SeasonCheckpoints.create_id(season),
            SeasonCosignatures.create_id(season)]


def as_json(value: Any) -> bytes:
    """As FastAPI's JSON answers write it."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


@router.get("/matches/{match_id}/checkpoints", summary="The signed checkpoints of a match",
            response_model=list[dict[str, Any]])
def checkpoints(match_id: MatchId, request: Request, svc: Svc) -> Response:
    found = svc.arbiter.builds.get(
        f"checkpoints/{match_id}", [MatchCheckpoints.create_id(match_id)],
        lambda: (as_json(svc.arbiter.checkpoints(match_id).notes), False), fresh_for())
    return answered(request, found, "application/json")


@router.get("/matches/{match_id}/bundle", response_class=Ndjson,
            summary="The public audit bundle (JSON Lines, docs/audit.md)")
def bundle(match_id: MatchId, request: Request, svc: Svc) -> Response:
    def build() -> tuple[bytes, bool]:
        match = svc.arbiter.match(match_id)
        notes = [cosigned(n) for n in svc.arbiter.cosigned_notes(match_id)]
        signer = svc.arbiter.signer
        key = signer.verifier_key() if signer else None
        if key is not None:
            check_signed_by(notes, parse_verifier_key(key))
        # Never final, even once the match has ended: a witness may still cosign one of its
        # checkpoints, and each note is served with its cosignature lines.
        return "".join(export(match, notes, PUBLIC_BUNDLE, key)).encode(), False

    found = svc.arbiter.builds.get(f"bundle/{match_id}", match_logs(match_id), build,
                                   fresh_for())
    return answered(request, found, Ndjson.media_type)


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
            summary="The season's signed checkpoints, each naming its matches' latest",
            response_model=list[dict[str, Any]])
def season_checkpoints(season: SeasonId, request: Request, svc: Svc) -> Response:
    found = svc.arbiter.builds.get(
        f"season-checkpoints/{season}", [SeasonCheckpoints.create_id(season)],
        lambda: (as_json(svc.arbiter.season_checkpoints(season).notes), False), fresh_for())
    return answered(request, found, "application/json")


@router.get("/seasons/{season}/bundle", response_class=Ndjson,
            summary="The public season bundle (JSON Lines, docs/audit.md)")
def season_bundle(season: SeasonId, request: Request, svc: Svc) -> Response:
    def build() -> tuple[bytes, bool]:
        signer = svc.arbiter.signer
        key = signer.verifier_key() if signer else None
        if key is not None:
            check_signed_by(svc.arbiter.signed_notes(season), parse_verifier_key(key))
        return "".join(svc.arbiter.season_bundle(season, PUBLIC_BUNDLE, key)).encode(), False

    # It rests on the season, its checkpoints and its matches' checkpoints: the match entries
    # it cites and proves are those its matches' signed checkpoints cover (audit.season_bundle),
    # so a vote after a match's last close changes nothing in it. A witness's cosignature
    # does: each note is served with its cosignature lines.
    def ids() -> list[UUID]:
        matches = svc.arbiter.season_matches(season)
        return [*season_logs(season), *(MatchCheckpoints.create_id(m) for m in matches),
                *(MatchCosignatures.create_id(m) for m in matches)]

    found = svc.arbiter.builds.get(f"season-bundle/{season}", ids, build, fresh_for())
    return answered(request, found, Ndjson.media_type)
