"""The host, with the host token: the origin prefix, seasons, players, garnets, DMOs, rulings,
matches (Death Matches and the Final too), player tokens, host commands, closes, deadlines,
corrections, the end; the host view and dashboard."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from sse_starlette.sse import EventSourceResponse

from commands.service.outcomes import Grant
from commands.service.tokens import join_link
from commands.web.auth import Svc, host
from commands.web.edge import HostRoute
from commands.web.models import (
    CloseIn,
    CommandIn,
    CorrectionIn,
    DeadlineIn,
    DmoIn,
    EndIn,
    GrantIn,
    MatchId,
    MatchIn,
    OriginIn,
    OutcomeOut,
    PlayerId,
    PlayerIn,
    RulingIn,
    SeasonId,
    SeasonIn,
    TokenOut,
    TokensIn,
    TransferIn,
    plain_json,
)
from commands.web.reading import check_plays, read_dashboard, read_standings, read_view
from commands.web.routes.players import client_id
from commands.web.routes.public import MinSeq, Round, followable
from commands.web.streams import After, LastEventId, stream
from commands.web.worker import Service, now
from domain.decider import HOST
from domain.errors import RuleViolation

router = APIRouter(route_class=HostRoute, tags=["host"],
                   dependencies=[Depends(host)])


def command(svc: Service, match_id: str, name: str, args: dict[str, Any],
            command_id: str | None = None, expect_round: int | None = None) -> OutcomeOut:
    return OutcomeOut.of(svc.submit(match_id, HOST, name, args, client_id(HOST, command_id),
                                    expect_round=expect_round))


# -- seasons --------------------------------------------------------------------------------

@router.post("/origin", summary="Set (once) the prefix of every checkpoint origin signed")
def set_origin(body: OriginIn, svc: Svc) -> dict[str, str]:
    svc.arbiter.set_origin_prefix(body.prefix)
    return {"origin_prefix": svc.arbiter.origin_prefix()}


@router.post("/seasons", status_code=201, summary="Start a season")
def create_season(body: SeasonIn, svc: Svc) -> dict[str, str]:
    svc.arbiter.create_season(body.name, at=now(), command_id=client_id(HOST, body.id))
    svc.recorded()
    return {"season": body.name, "origin": svc.arbiter.season(body.name).origin}


@router.post("/seasons/{season}/players", status_code=201,
             summary="Register a player, or a list of players in one save (all or none)")
def register_player(season: SeasonId, body: PlayerIn, svc: Svc) -> dict[str, Any]:
    svc.arbiter.register_all(season, body.names, at=now(),
                             command_id=client_id(HOST, body.id))
    svc.recorded()
    if body.player is not None:
        return {"season": season, "player": body.player}
    return {"season": season, "players": body.names}


@router.post("/seasons/{season}/grants",
             summary="Grant (or take) an asset with a reason; or a list of grants in one save")
def grant(season: SeasonId, body: GrantIn, svc: Svc) -> dict[str, Any]:
    lines = body.lines
    svc.arbiter.grant_all(season, [Grant(g.player, g.amount, g.asset, g.reason) for g in lines],
                          at=now(), command_id=client_id(HOST, body.id))
    svc.recorded()
    if body.grants is None:
        return {"season": season, **lines[0].model_dump()}
    return {"season": season, "grants": [g.model_dump() for g in lines]}


@router.post("/seasons/{season}/transfers", summary="Trade garnets between two players")
def transfer(season: SeasonId, body: TransferIn, svc: Svc) -> dict[str, Any]:
    svc.arbiter.transfer(season, body.giver, body.receiver, body.amount, body.reason, at=now(),
                         command_id=client_id(HOST, body.id))
    svc.recorded()
    return {"season": season, **body.model_dump(exclude={"id"})}


@router.post("/seasons/{season}/dmos",
             summary="Record the DMO of a Main Match's EC, where its rules leave it to the host")
def record_dmo(season: SeasonId, body: DmoIn, svc: Svc) -> dict[str, Any]:
    svc.arbiter.record_dmo(season, body.match, body.dmo, body.reason, ec=body.ec, at=now(),
                           command_id=client_id(HOST, body.id))
    svc.recorded()
    ec = svc.arbiter.season(season).ec_of(body.match, body.ec)
    return {"season": season, **body.model_dump(exclude={"id"}), "ec": ec}


@router.post("/seasons/{season}/rulings",
             summary="A host ruling with its reason (a Token of Life spent to stay, ...)")
def rule(season: SeasonId, body: RulingIn, svc: Svc) -> dict[str, Any]:
    svc.arbiter.rule(season, body.player, body.reason, changes=dict(body.changes.items()),
                     status=body.status, at=now(), command_id=client_id(HOST, body.id))
    svc.recorded()
    return {"season": season, **body.model_dump(exclude={"id"})}


@router.get("/seasons/{season}/host", summary="Season standings with everyone's garnets")
def host_standings(season: SeasonId, svc: Svc) -> dict[str, Any]:
    return read_standings(svc, season, HOST)


# -- matches --------------------------------------------------------------------------------

@router.post("/matches", status_code=201,
             summary="Create a match: commits the seed and the hidden setup")
def create_match(body: MatchIn, svc: Svc) -> dict[str, str]:
    try:
        plain_json(body.setup)
    except ValueError as error:
        raise RuleViolation("invalid_setup", str(error)) from None
    setup = body.setup if body.players is None else {**body.setup, "players": body.players}
    if body.players is None and body.from_ is None and not body.final:
        raise RuleViolation("invalid_input", "players: required but for from and final")
    outcome = svc.arbiter.create_match(
        match_id=body.match, season=body.season, game=body.game, setup=setup,
        host_seed=body.host_seed or secrets.token_hex(32),
        salt_key=body.salt_key or secrets.token_hex(32), at=now(),
        allow_weak_seed=body.allow_weak_seed, unsigned=body.unsigned, from_match=body.from_,
        ec=body.ec, final=body.final, command_id=client_id(HOST, body.id))
    svc.recorded()
    return {"match": body.match,
            "seed_commitment": outcome.told[0]["data"]["seed_commitment"]}


@router.post("/matches/{match_id}/players/{player}/token", status_code=201,
             summary="Issue a player's token for this match (replacing any earlier one)")
def issue_token(match_id: MatchId, player: PlayerId, svc: Svc) -> TokenOut:
    check_plays(svc.arbiter.match(match_id), player, also=())  # the host's token is its own
    return TokenOut(match=match_id, player=player, token=svc.tokens.issue(match_id, player))


@router.post("/matches/{match_id}/tokens", status_code=201,
             summary="Issue every player's token for this match at once (replacing earlier ones)")
def issue_tokens(match_id: MatchId, body: TokensIn, svc: Svc) -> list[TokenOut]:
    players = svc.arbiter.match(match_id).players
    issued = svc.tokens.issue_all(match_id, players)
    codes = svc.tokens.issue_joins(match_id, players) if body.base_url else {}
    return [TokenOut(match=match_id, player=player, token=token,
                     link=join_link(body.base_url, match_id, codes[player])
                     if body.base_url else None)
            for player, token in issued.items()]


@router.post("/matches/{match_id}/commands",
             summary="A host command, e.g. open_match or record_dmo")
def host_command(match_id: MatchId, body: CommandIn, svc: Svc) -> OutcomeOut:
    return command(svc, match_id, body.command, body.args, body.id, body.round)


@router.post("/matches/{match_id}/close",
             summary="Close the open round (or phase): defaults fill gaps, results revealed")
def close(match_id: MatchId, body: CloseIn, svc: Svc) -> OutcomeOut:
    return command(svc, match_id, f"close_{body.phase}", {}, expect_round=body.round)


@router.post("/matches/{match_id}/deadline",
             summary="Set the open round's deadline (or `now`): the service closes the round then")
def deadline(match_id: MatchId, body: DeadlineIn, svc: Svc) -> OutcomeOut:
    return command(svc, match_id, "set_deadline", {"deadline": body.deadline})


@router.post("/matches/{match_id}/corrections",
             summary="Void a player's submission, or enter one for them, with a reason")
def correct(match_id: MatchId, body: CorrectionIn, svc: Svc) -> OutcomeOut:
    if body.void is not None:
        args: dict[str, Any] = {"void": body.void, "reason": body.reason}
    elif body.as_ is not None and body.command is not None:
        args = {"as": body.as_, "command": body.command, "args": body.args,
                "reason": body.reason}
    else:
        raise RuleViolation("invalid_correction", "give void, or as and command")
    return command(svc, match_id, "correct", args)


@router.post("/matches/{match_id}/end", summary="End a match before its rules finish it")
def end(match_id: MatchId, body: EndIn, svc: Svc) -> OutcomeOut:
    return command(svc, match_id, "end", {"reason": body.reason})


@router.get("/matches/{match_id}/host", summary="The match as the host sees it: everything")
def host_view(match_id: MatchId, svc: Svc, round: Round = None,
              min_seq: MinSeq = 0) -> dict[str, Any]:
    return read_view(svc, match_id, HOST, round)


@router.get("/matches/{match_id}/dashboard",
            summary="Deadlines, the close pending at the deadline, who has not submitted")
def dashboard(match_id: MatchId, svc: Svc) -> dict[str, Any]:
    return read_dashboard(svc, match_id)


@router.get("/matches/{match_id}/host/events", response_class=EventSourceResponse,
            summary="Server-sent events: every entry, as it is recorded")
async def host_events(match_id: MatchId, svc: Svc, _: Annotated[None, Depends(followable)],
                      after: After = 0,
                      last_event_id: LastEventId = None) -> EventSourceResponse:
    return stream(svc, match_id, HOST, after, last_event_id)
