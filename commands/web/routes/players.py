"""A player with their token for the match (or the host): submit, spend, read their own view,
inbox and receipts, follow their stream. A player token never acts or reads for another."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from sse_starlette.sse import EventSourceResponse
from starlette.concurrency import run_in_threadpool

from commands.web.auth import BEARER, PlayerOrHost, Svc, check_player_or_host, service
from commands.web.edge import PlayerRoute
from commands.web.models import CommandIn, MatchId, OutcomeOut, PlayerId
from commands.web.reading import check_viewer, read_inbox, read_standings, read_view
from commands.web.routes.public import MinSeq, Round
from commands.web.streams import After, LastEventId, stream
from commands.web.worker import Service
from domain.decider import HOST
from domain.errors import RuleViolation

router = APIRouter(route_class=PlayerRoute, prefix="/matches/{match_id}/players/{player}",
                   tags=["players"])


def client_id(actor: str, command_id: str | None) -> str | None:
    """Client ids live in a namespace of their sender, apart from the service's own
    (`deadline:...`), so nobody can answer for another's command."""
    return None if command_id is None else f"api:{actor}:{command_id}"


def member(svc: Service, match_id: str, player: str, who: str) -> None:
    """With the host token, `player` must play in the match (a player's token is only ever
    issued to a player of its match). Asked in the endpoint's own thread, after FastAPI
    validated the path: a dependency doing it cost every vote a second validation of the
    path and a dependency's round (docs/service.md, "Any client")."""
    if who == HOST:
        check_viewer(svc, match_id, player)


async def followed(match_id: MatchId, player: PlayerId, svc: Svc, who: PlayerOrHost) -> str:
    """`member` for a stream, whose endpoint runs on the event loop."""
    if who == HOST:
        await run_in_threadpool(check_viewer, svc, match_id, player)
    return who


Follower = Annotated[str, Depends(followed)]


def submit(svc: Service, match_id: str, player: str, body: CommandIn) -> OutcomeOut:
    return OutcomeOut.of(svc.submit(match_id, player, body.command, body.args,
                                    client_id(player, body.id)))


@router.post("/commands", summary="Submit a command as this player (vote, bid, ...)",
             openapi_extra=BEARER)
def player_command(match_id: MatchId, player: PlayerId, body: CommandIn,
                   request: Request) -> OutcomeOut:
    # The commonest request reads who is asking and the service from the request itself: as
    # dependencies (Svc, PlayerOrHost) they cost it three rounds of FastAPI's solving.
    svc = service(request)
    member(svc, match_id, player, check_player_or_host(request))
    return submit(svc, match_id, player, body)


@router.post("/spends", summary="Spend garnets on a command (refused if it costs none)")
def player_spend(match_id: MatchId, player: PlayerId, body: CommandIn, svc: Svc,
                 who: PlayerOrHost) -> OutcomeOut:
    member(svc, match_id, player, who)
    spends = getattr(svc.arbiter.match(match_id).game, "SPENDS", {})
    if body.command not in spends:
        raise RuleViolation("not_a_spend", f"{body.command} costs no garnets; spends: "
                                           f"{', '.join(spends) or 'none'}")
    return submit(svc, match_id, player, body)


@router.get("/view", summary="The match as this player sees it")
def player_view(match_id: MatchId, player: PlayerId, svc: Svc, who: PlayerOrHost,
                round: Round = None, min_seq: MinSeq = 0) -> dict[str, Any]:
    member(svc, match_id, player, who)
    return read_view(svc, match_id, player, round)


@router.get("/inbox", summary="What this player alone was told, and their receipts")
def player_inbox(match_id: MatchId, player: PlayerId, svc: Svc,
                 who: PlayerOrHost) -> dict[str, Any]:
    member(svc, match_id, player, who)
    return read_inbox(svc, match_id, player)


@router.get("/standings", summary="The match's season as this player sees it (their garnets)")
def player_standings(match_id: MatchId, player: PlayerId, svc: Svc,
                     who: PlayerOrHost) -> dict[str, Any]:
    member(svc, match_id, player, who)
    return read_standings(svc, svc.arbiter.match(match_id).season, player)


@router.get("/events", response_class=EventSourceResponse,
            summary="Server-sent events: each entry this player may read, as it is recorded")
async def player_events(match_id: MatchId, player: PlayerId, svc: Svc, _: Follower,
                        after: After = 0,
                        last_event_id: LastEventId = None) -> EventSourceResponse:
    return stream(svc, match_id, player, after, last_event_id)
