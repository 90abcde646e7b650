"""A player's page, behind the personal link the host sends them: what they may see now, their
sealed submissions and receipts, and a form for each command the game allows them now. A form
goes through the application service as the API does; a refusal is shown next to the form, in
the rules' own words, and nothing is recorded."""

from __future__ import annotations

import json
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from commands.service.tokens import OPENINGS, LinkUsedUp
from commands.web.auth import Svc
from commands.web.edge import Route
from commands.web.errors import ApiError
from commands.web.models import MatchId
from commands.web.pages import forms as posted
from commands.web.pages.browser_check import witness_context
from commands.web.pages.public import open_round_of, told
from commands.web.pages.session import (
    PLAYER_COOKIE,
    csrf_of,
    csrf_ok,
    join_page,
    match_path,
    not_signed_in,
    player_of,
    same_origin,
    signed_in,
    signed_out,
)
from commands.web.pages.templating import page
from commands.web.reading import read_inbox, read_standings, read_view
from commands.web.routes.players import client_id
from commands.web.routes.public import MinSeq, Round
from commands.web.worker import Service
from domain.errors import RuleViolation
from domain.games import get_game
from projections import story, words

router = APIRouter(route_class=Route, prefix="/m/{match_id}", include_in_schema=False)


@router.get("/join", response_class=HTMLResponse)
def join(match_id: MatchId) -> HTMLResponse:
    return join_page(f"{match_path(match_id)}/session", match_id)


@router.post("/session")
def session(match_id: MatchId, request: Request, svc: Svc,
            token: Annotated[str, Form(max_length=200)] = "") -> Response:
    """A player's join code opens a session of this browser's own for this match's pages."""
    same_origin(svc, request)
    code = token.strip(" \t\r\n")  # as pasted; any other character makes it another code
    try:
        opened = svc.tokens.open_session(match_id, code, request.cookies.get(PLAYER_COOKIE))
    except LinkUsedUp:
        return join_page(f"{match_path(match_id)}/session", match_id, status=403,
                         error=f"This personal link has already signed in {OPENINGS} browsers, "
                               "the most one link may: ask the host for a new link.")
    if opened is None:
        return join_page(f"{match_path(match_id)}/session", match_id, status=403,
                         error="This is not a join code for this match, or the host has "
                               "given you a new link since: ask the host for your link again.")
    return signed_in(request, f"{match_path(match_id)}/me", PLAYER_COOKIE, opened,
                     match_path(match_id))


@router.post("/logout")
def logout(match_id: MatchId, request: Request, svc: Svc,
           csrf: Annotated[str, Form()] = "") -> Response:
    """End this browser's session (the player's others stay open)."""
    same_origin(svc, request)
    me = player_of(svc, request, match_id)
    if me is not None:
        if not csrf_ok(me[1], csrf):
            raise ApiError(403, "wrong_form", "this form is stale: reload the page")
        svc.tokens.end_session(match_id, me[1])
    return signed_out(request, match_path(match_id), PLAYER_COOKIE, match_path(match_id))


def signed_in_player(svc: Service, request: Request, match_id: str) -> tuple[str, str]:
    """(player, session secret) of the reader, else the 401 that says why."""
    me = player_of(svc, request, match_id)
    if me is None:
        raise not_signed_in(request, PLAYER_COOKIE, "the newest personal link the host sent "
                            "you")
    return me


def player_page(svc: Service, match_id: str, player: str, token: str, *, round: int | None,
                min_seq: int = 0, sent: int | None = None,
                refused: dict[str, Any] | None = None, status: int = 200) -> HTMLResponse:
    view = read_view(svc, match_id, player, round)
    inbox = read_inbox(svc, match_id, player, min_seq)
    season = story.season_of(view)
    standings = read_standings(svc, season, player) if season else None
    mine = next((r for r in (standings or {}).get("players", []) if r["player"] == player),
                None)
    return page("player.html", status=status,
                **seen_by(view, inbox, player, round, open_round_of(svc, match_id, round)),
                garnets=mine.get("garnets") if mine else None, csrf=csrf_of(token),
                witness=witness_context(svc, match_id, player, csrf_of(token)),
                form_id=secrets.token_urlsafe(12), sent=sent, refused=refused)


def seen_by(view: dict[str, Any], inbox: dict[str, Any], player: str, round: int | None,
            open_round: int | None) -> dict[str, Any]:
    """What the player's page shows of their view and their inbox: the story, their part,
    what they may send and what they have sent, in words."""
    context = told(view, open_round)
    live = round is None and not context["ended"]
    forms = story.forms(view, player) if live else []
    receipts = [sent_of(view["game"], r) for r in inbox["receipts"]]
    return {**context, "player": player, "round": round, "forms": forms,
            "receipts": receipts, "role": words.role(view, player),
            "now": standing_now(view["game"], receipts, forms, open_round) if live else [],
            "private": story.told_alone(view, inbox["told"], context["chapters"])}


def sent_of(game: str, receipt: dict[str, Any]) -> dict[str, Any]:
    """A receipt as the page lists it: the command the player sent, in words, and where it
    is."""
    command: dict[str, Any] = next((p["data"] for p in receipt["parts"].values()
                    if p["kind"] == "CommandAccepted"), {})
    name, args = str(command.get("name", "")), command.get("args") or {}
    return {"seq": receipt["seq"], "hash": receipt["hash"], "round": receipt["entry"]["round"],
            "command": name, "said": words.command(game, name, args)}


def standing_now(game: str, receipts: list[dict[str, Any]], forms: list[dict[str, Any]],
                 open_round: int | None) -> list[str]:
    """What the player has sent this round and whether it may still change, then what the
    round waits on: "what now?" in sentences."""
    if open_round is None:
        return []
    mine = [r for r in receipts if r["round"] == open_round]
    offered = {f["command"] for f in forms}
    kept = getattr(get_game(game), "SPENDS", {})
    lines = []
    for r in mine:
        if r["command"] in kept:
            lines.append(f"Your {r['said']} this round is spent: it cannot be taken back.")
        elif r["command"] in offered and r["command"] not in words.FINAL.get(game, ()):
            lines.append(f"Your {r['said']} stands for this round: you may change it until "
                         "the round closes, by sending it again.")
        else:
            lines.append(f"Your {r['said']} is recorded for this round.")
    if game in words.FINAL:  # moves that act at once: the match waits on one player at a time
        if not forms:
            lines.append("Waiting for the other player to act.")
        return lines
    if mine and not forms:
        lines.append("You have acted: waiting for the others until the round closes.")
    elif mine:
        lines.append("Waiting for the others until the round closes.")
    elif not forms:
        lines.append("Nothing for you to do in this phase: waiting for the others.")
    return lines


@router.get("/me", response_class=HTMLResponse)
def me(match_id: MatchId, request: Request, svc: Svc, round: Round = None,
       sent: Annotated[int | None, Query(ge=1, le=2**31)] = None,
       min_seq: MinSeq = 0) -> HTMLResponse:
    player, token = signed_in_player(svc, request, match_id)
    return player_page(svc, match_id, player, token, round=round,
                       min_seq=max(min_seq, sent or 0), sent=sent)


@router.post("/me/commands", response_model=None)
async def command(match_id: MatchId, request: Request, svc: Svc) -> Response:
    data = await request.form()
    return await run_in_threadpool(send, svc, request, match_id, data)


def send(svc: Service, request: Request, match_id: str, data: FormData) -> Response:
    """One form, sent as this player; a refusal comes back on the page, beside its form."""
    player, token = signed_in_player(svc, request, match_id)
    if not csrf_ok(token, data.get("csrf")):
        raise ApiError(403, "wrong_form", "this form is stale: reload the page")
    name = str(data.get("command") or "").strip()
    form_id = str(data.get("id") or "")[:100] or None
    try:
        args = args_for(svc, match_id, player, name, data)
        asked = spend_asked(svc, match_id, player, token, name, args, data)
        if asked is not None:
            return asked
        outcome = svc.submit(match_id, player, name, args, client_id(player, form_id))
    except RuleViolation as error:
        refused = {"command": name, "code": error.code, "message": error.message,
                   "values": {k: data.getlist(k) for k in data
                              if k.startswith("arg.") or k == "free.args"}}
        return player_page(svc, match_id, player, token, round=None, refused=refused,
                           status=422)
    seq = outcome.receipt.seq if outcome.receipt else outcome.seqs[0]
    return RedirectResponse(f"{match_path(match_id)}/me?sent={seq}#sent", status_code=303)


def spend_asked(svc: Service, match_id: str, player: str, token: str, name: str,
                args: dict[str, Any], data: FormData) -> HTMLResponse | None:
    """A spend, or a move that acts at once, cannot be undone: the page says so and asks first
    (None once the player has confirmed, or for a command that may still change)."""
    game = read_view(svc, match_id, player, None)["game"]
    price = getattr(get_game(game), "SPENDS", {}).get(name)
    final = name in words.FINAL.get(game, ())
    if (price is None and not final) or data.get("confirmed") == "yes":
        return None
    what = words.command(game, name, args)
    kept = [(k, v) for k, v in data.multi_items() if isinstance(v, str)
            and k not in ("csrf", "confirmed")]
    if price is None:
        title, said = f"Send your {what}", (f"Your {what} acts at once: it cannot be taken "
                                              "back or changed.")
    else:
        title, said = f"Spend {price} garnets on your {what}", (
            f"Your {what} costs {price} garnets, taken from your season balance at once: a "
            "spend is not given back.")
    return page("confirm.html", match=match_id, title=title, said=[said],
                action=f"{match_path(match_id)}/me/commands", kept=kept, csrf=csrf_of(token),
                back=f"{match_path(match_id)}/me", aimed=False)


def args_for(svc: Service, match_id: str, player: str, name: str,
             data: FormData) -> dict[str, Any]:
    if "free.args" in data:  # the generic form: a command's arguments as one JSON object
        found = posted.parsed("arguments", str(data["free.args"]) or "{}", strict=True)
        if not isinstance(found, dict):
            raise RuleViolation("invalid_input", "arguments: write them as a JSON object")
        return found
    view = read_view(svc, match_id, player, None)
    form = next((f for f in story.forms(view, player) if f["command"] == name), None)
    declared = story.declared(view["game"], name)
    fields = posted.field_kinds(form) or declared
    return posted.args_of(data, fields, {n: a.get("items") for n, a in declared.items()})


@router.get("/me/receipts/{seq}")
def receipt(match_id: MatchId, seq: int, request: Request, svc: Svc) -> Response:
    """One receipt as a file to keep (`arbiter receipt verify` reads it)."""
    player, _ = signed_in_player(svc, request, match_id)
    found = next((r for r in read_inbox(svc, match_id, player, seq)["receipts"] if r["seq"] == seq),
                 None)
    if found is None:
        raise ApiError(404, "not_found", f"no receipt of yours at entry {seq}")
    return Response(json.dumps(found, indent=2, sort_keys=True) + "\n",
                    media_type="application/json", headers={
                        "Content-Disposition": f'attachment; filename="receipt-{seq}.json"',
                        "Cache-Control": "no-store"})
