"""The host's dashboard, behind the host token (a cookie scoped to `/host`): every match's
phase, deadline and who has not submitted, the close button, deadlines, corrections, the
host's own commands, players' personal links, and each season's standings with garnets."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from commands.web.auth import Svc
from commands.web.edge import Route
from commands.web.errors import ApiError
from commands.web.models import MatchId, iso_instant
from commands.web.pages import forms as posted
from commands.web.pages.public import told
from commands.web.pages.session import (
    HOST_COOKIE,
    HOST_PATH,
    csrf_of,
    csrf_ok,
    host_of,
    signed_in,
    signed_out,
)
from commands.web.pages.templating import page, path_part
from commands.web.reading import (
    read_dashboard,
    read_matches,
    read_seasons,
    read_standings,
    read_view,
)
from commands.web.routes.players import client_id
from commands.web.routes.public import MinSeq
from commands.web.worker import Service
from domain.decider import HOST
from domain.errors import RuleViolation
from domain.games import get_game
from projections import story
from projections.dashboard import close_commands

router = APIRouter(route_class=Route, prefix=HOST_PATH, include_in_schema=False)


@router.get("/join", response_class=HTMLResponse)
def join() -> HTMLResponse:
    return page("join.html", action=f"{HOST_PATH}/session", match=None, error=None)


@router.post("/session")
def session(request: Request, svc: Svc,
            token: Annotated[str, Form(max_length=200)] = "") -> Response:
    if not svc.tokens.is_host(token.strip()):
        return page("join.html", status=403, action=f"{HOST_PATH}/session", match=None,
                    error="This is not the host token (`arbiter tokens host` prints a new one).")
    return signed_in(request, HOST_PATH, HOST_COOKIE, token.strip(), HOST_PATH)


@router.post("/logout")
def logout(request: Request, svc: Svc, csrf: Annotated[str, Form()] = "") -> Response:
    token = host_of(svc, request)
    if token is not None and not csrf_ok(token, csrf):
        raise ApiError(403, "wrong_form", "this form is stale: reload the page")
    return signed_out(request, "/", HOST_COOKIE, HOST_PATH)


def signed_in_host(svc: Service, request: Request) -> str:
    token = host_of(svc, request)
    if token is None:
        raise ApiError(401, "missing_token", "open the host's link (`arbiter tokens host`)")
    return token


@router.get("", response_class=HTMLResponse)
def dashboard(request: Request, svc: Svc) -> HTMLResponse:
    token = signed_in_host(svc, request)
    matches = read_matches(svc)
    return page("host.html", csrf=csrf_of(token), matches=matches,
                dashboards={m["match"]: read_dashboard(svc, m["match"]) for m in matches},
                standings=[read_standings(svc, s, HOST) for s in read_seasons(svc)])


def match_page(svc: Service, match_id: str, token: str, *, min_seq: int = 0,
               done: str | None = None, refused: dict[str, Any] | None = None,
               link: dict[str, str] | None = None, status: int = 200) -> HTMLResponse:
    view = read_view(svc, match_id, HOST, None, min_seq)
    dashboard = read_dashboard(svc, match_id, min_seq)
    context = told(view, dashboard["round"])
    return page("host_match.html", status=status, **context, csrf=csrf_of(token),
                dashboard=dashboard,
                forms=[] if context["ended"] else story.forms(view, HOST),
                form_id=secrets.token_urlsafe(12), done=done, refused=refused, link=link)


@router.get("/m/{match_id}", response_class=HTMLResponse)
def host_match(match_id: MatchId, request: Request, svc: Svc, min_seq: MinSeq = 0,
               done: Annotated[str | None, Query(max_length=100)] = None) -> HTMLResponse:
    return match_page(svc, match_id, signed_in_host(svc, request), min_seq=min_seq, done=done)


@router.post("/m/{match_id}/{action}", response_model=None)
async def act(match_id: MatchId, action: str, request: Request, svc: Svc) -> Response:
    data = await request.form()
    return await run_in_threadpool(acting, svc, request, match_id, action, data)


def acting(svc: Service, request: Request, match_id: str, action: str,
           data: FormData) -> Response:
    """One of the dashboard's forms; a refusal comes back beside its form, nothing recorded."""
    token = signed_in_host(svc, request)
    if not csrf_ok(token, data.get("csrf")):
        raise ApiError(403, "wrong_form", "this form is stale: reload the page")
    if action not in ACTIONS:
        raise ApiError(404, "not_found", f"no action {action!r}")
    back = f"{HOST_PATH}/m/{path_part(match_id)}"
    try:
        if action == "link":
            player = str(data.get("player") or "")
            check_plays_in(svc, match_id, player)
            link = {"player": player, "path": f"/m/{path_part(match_id)}/join#"
                                              f"{svc.tokens.issue(match_id, player)}"}
            return match_page(svc, match_id, token, link=link)
        act = ACTIONS[action]
        assert act is not None  # a link is answered above
        names, args = act(svc, match_id, data)
        name, seqs = send(svc, match_id, names, args, data)
    except RuleViolation as error:
        refused = {"action": action, "command": str(data.get("command") or ""), "values": {},
                   "code": error.code, "message": error.message}
        return match_page(svc, match_id, token, refused=refused, status=422)
    return RedirectResponse(f"{back}?min_seq={seqs[-1]}&done={name}", status_code=303)


def check_plays_in(svc: Service, match_id: str, player: str) -> None:
    if player not in story.players_of(read_view(svc, match_id, HOST, None, 0)):
        raise RuleViolation("unknown_player", f"{player!r} does not play in {match_id}")


def send(svc: Service, match_id: str, name: str | list[str], args: dict[str, Any],
         data: FormData) -> tuple[str, list[int]]:
    """The command, or the first of the game's closes the rules accept (as `arbiter match
    close-round` and the deadlines do)."""
    form_id = str(data.get("id") or "")[:100] or None
    names = [name] if isinstance(name, str) else name
    refusals = []
    for each in names:
        try:
            return each, svc.submit(match_id, HOST, each, args, client_id(HOST, form_id)).seqs
        except RuleViolation as error:  # not this phase's close
            refusals.append(error)
    raise refusals[0] if refusals else RuleViolation("wrong_state", "this game has no closes")


def closing(svc: Service, match_id: str, data: FormData) -> tuple[Any, dict[str, Any]]:
    game = read_dashboard(svc, match_id)["game"]
    return close_commands(get_game(game)), {}


def deadline(svc: Service, match_id: str, data: FormData) -> tuple[Any, dict[str, Any]]:
    when = str(data.get("deadline") or "").strip()
    try:
        iso_instant(when)
    except ValueError as error:
        raise RuleViolation("invalid_deadline", str(error)) from None
    return "set_deadline", {"deadline": when}


def correction(svc: Service, match_id: str, data: FormData) -> tuple[Any, dict[str, Any]]:
    reason = str(data.get("reason") or "")
    void = str(data.get("void") or "").strip()
    if void:
        return "correct", {"void": posted.number_or_text(void), "reason": reason}
    args = posted.parsed("args", str(data.get("args") or "{}"), strict=True)
    return "correct", {"as": str(data.get("as") or ""), "command": str(data.get("command") or ""),
                       "args": args, "reason": reason}


def ending(svc: Service, match_id: str, data: FormData) -> tuple[Any, dict[str, Any]]:
    return "end", {"reason": str(data.get("reason") or "")}


def host_command(svc: Service, match_id: str, data: FormData) -> tuple[Any, dict[str, Any]]:
    name = str(data.get("command") or "").strip()
    if "free.args" in data:
        found = posted.parsed("arguments", str(data["free.args"]) or "{}", strict=True)
        return name, found if isinstance(found, dict) else {"": found}
    view = read_view(svc, match_id, HOST, None, 0)
    form = next((f for f in story.forms(view, HOST) if f["command"] == name), None)
    declared = story.declared(view["game"], name)
    return name, posted.args_of(data, posted.field_kinds(form) or declared,
                                {n: a.get("items") for n, a in declared.items()})


ACTIONS = {"close": closing, "deadline": deadline, "corrections": correction, "end": ending,
           "commands": host_command, "link": None}  # link: a player's personal link
