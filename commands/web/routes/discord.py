"""Discord's interactions endpoint (docs/discord.md): Discord signs each request with the
application's key; one that does not verify, or whose timestamp is stale, is a 401 and
nothing else happens. The answers are commands.service.discord.interactions'."""

from __future__ import annotations

import json
import time

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from commands.service.discord.signature import Unsigned, check_signature
from commands.web.auth import Svc
from commands.web.edge import Route
from commands.web.errors import ApiError


class Signed(Route):
    """Every request comes from Discord's few addresses, signed: counted per address, a whole
    season's players would share one budget. A refused signature still spends the sender's
    budget of failures; Discord limits each user's commands, the replacement bound the log."""

    BY_ADDRESS = False
    QUEUED = False  # Discord waits 3 s for an answer, not behind the strangers


router = APIRouter(route_class=Signed, tags=["discord"])


@router.post("/discord/interactions", summary="Discord's interactions (signed by Discord)",
             responses={401: {"description": "Not signed by the application's key"}})
async def interactions(request: Request, svc: Svc) -> Response:
    discord = svc.discord
    if discord is None:
        raise ApiError(404, "discord_off", "Discord is not configured on this service "
                       "(ARBITER_DISCORD_PUBLIC_KEY, docs/discord.md)")
    body = await request.body()
    try:
        check_signature(discord.settings.public_key, request.headers.get("x-signature-ed25519"),
                        request.headers.get("x-signature-timestamp"), body, time.time())
    except Unsigned as error:
        raise ApiError(401, "bad_signature", str(error)) from None
    try:
        interaction = json.loads(body)
    except ValueError:
        raise ApiError(400, "invalid_json", "the body is not JSON") from None
    if not isinstance(interaction, dict):
        raise ApiError(400, "invalid_json", "the body is not a JSON object")
    answer = await run_in_threadpool(discord.answer, interaction)
    return JSONResponse(answer)
