"""The host's pages, behind the host token (a cookie scoped to `/host`): signing in, the
dashboard (every match's phase in the game's words, who still has to act, its deadline and
close; the seasons; the checkpoint origin), starting a season, and `check`. A match's page is
`host_match`, a season's `host_season`.

Every form goes through the application service as the API does; a refusal comes back beside
its form with the rules' words, nothing recorded.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from audit.errors import AuditError
from commands.service.check import StoreFault, check_store
from commands.web.auth import Svc
from commands.web.edge import Route
from commands.web.errors import ApiError
from commands.web.pages.session import (
    HOST_COOKIE,
    HOST_PATH,
    csrf_of,
    csrf_ok,
    host_of,
    join_page,
    not_signed_in,
    same_origin,
    signed_in,
    signed_out,
)
from commands.web.pages.templating import page, path_part
from commands.web.reading import (
    caught_up,
    read_dashboard,
    read_matches,
    read_seasons,
    read_standings,
)
from commands.web.routes.players import client_id
from commands.web.worker import Service, now
from domain.decider import HOST
from domain.errors import RuleViolation
from domain.games import get_game
from domain.origins import DEFAULT_PREFIX
from projections.dashboard import close_commands, phase_line, phase_words, still_to_act

router = APIRouter(route_class=Route, prefix=HOST_PATH, include_in_schema=False)
JUST_SAVED = 1.0  # seconds a host's page waits for the views to read what was just saved


@router.get("/join", response_class=HTMLResponse)
def join() -> HTMLResponse:
    return join_page(f"{HOST_PATH}/session", None)


@router.post("/session")
def session(request: Request, svc: Svc,
            token: Annotated[str, Form(max_length=200)] = "") -> Response:
    """The host link's join code opens a session of this browser's own for `/host`."""
    same_origin(svc, request)
    code = token.strip(" \t\r\n")  # as pasted; any other character makes it another code
    opened = svc.tokens.open_host_session(code, request.cookies.get(HOST_COOKIE))
    if opened is None:
        return join_page(f"{HOST_PATH}/session", None, status=403,
                         error="This is not the join code of the host's link, or a new link "
                               "replaced it (`arbiter tokens host` prints a new one).")
    return signed_in(request, HOST_PATH, HOST_COOKIE, opened, HOST_PATH)


@router.post("/logout")
def logout(request: Request, svc: Svc, csrf: Annotated[str, Form()] = "") -> Response:
    """End this browser's session (the host's others stay open)."""
    same_origin(svc, request)
    secret = host_of(svc, request)
    if secret is not None:
        if not csrf_ok(secret, csrf):
            raise ApiError(403, "wrong_form", "this form is stale: reload the page")
        svc.tokens.end_host_session(secret)
    return signed_out(request, "/", HOST_COOKIE, HOST_PATH)


def signed_in_host(svc: Service, request: Request) -> str:
    """The reader's host session secret, else the 401 that says why."""
    secret = host_of(svc, request)
    if secret is None:
        raise not_signed_in(request, HOST_COOKIE, "the host's newest link (arbiter tokens "
                            "host --link-only prints one)")
    return secret


def host_form(svc: Service, request: Request, data: FormData) -> str:
    """The host's token, once the form's CSRF token is the session's."""
    token = signed_in_host(svc, request)
    if not csrf_ok(token, data.get("csrf")):
        raise ApiError(403, "wrong_form", "this form is stale: reload the page")
    return token


def form_id_of(data: FormData) -> str | None:
    """The form's one-time id as the command id of what it does: a form sent twice (a double
    tap, a reload), to this process or to another sharing the store, is carried out once. A
    match remembers its command ids in its log; a season command's id is spent in the same
    save as the season's change (commands.service.once), and a repeat is answered with the
    page the first sending led to."""
    form_id = text(data, "id", 100)
    return client_id(HOST, form_id) if form_id else None


def text(data: FormData, name: str, limit: int = 2000) -> str:
    value = data.get(name)
    return value.strip()[:limit] if isinstance(value, str) else ""


def new_form_id() -> str:
    return secrets.token_urlsafe(12)


# -- the dashboard ----------------------------------------------------------------------------

def board_of(svc: Service, match_id: str) -> dict[str, Any]:
    """A match's dashboard with the host's words for it."""
    board = read_dashboard(svc, match_id)
    live = board["phase"] not in ("configured", "ended", "over")
    return {**board, "line": phase_line(board), "to_act": still_to_act(board),
            "words": phase_words(board["game"], board["phase"]),
            "can_close": live and bool(close_commands(get_game(board["game"])))}


def dashboard_page(svc: Service, token: str, *, done: str | None = None,
                   refused: dict[str, Any] | None = None, status: int = 200) -> HTMLResponse:
    matches = read_matches(svc)
    seasons = read_seasons(svc)
    prefix, chosen = svc.arbiter.origin()
    return page("host.html", status=status, csrf=csrf_of(token), matches=matches,
                shared=prefix == DEFAULT_PREFIX,
                boards={m["match"]: board_of(svc, m["match"]) for m in matches},
                seasons=seasons, standings=[read_standings(svc, s, HOST) for s in seasons],
                prefix=prefix, chosen=chosen, form_id=new_form_id(), done=done,
                refused=refused)


DONE = {"origin": "The checkpoint origin is set: seasons started from now on are signed "
                  "under it.",
        "season": "The season is started."}


@router.get("", response_class=HTMLResponse)
def dashboard(request: Request, svc: Svc,
              done: Annotated[str | None, Query(max_length=20)] = None) -> HTMLResponse:
    token = signed_in_host(svc, request)
    caught_up(svc, JUST_SAVED)
    return dashboard_page(svc, token, done=DONE.get(done or ""))


@router.post("/origin", response_model=None)
async def set_origin(request: Request, svc: Svc) -> Response:
    data = await request.form()
    return await run_in_threadpool(origin_form, svc, request, data)


def origin_form(svc: Service, request: Request, data: FormData) -> Response:
    token = host_form(svc, request, data)
    try:
        svc.arbiter.set_origin_prefix(text(data, "prefix", 200))
    except RuleViolation as error:
        return dashboard_page(svc, token, refused=refusal("origin", error, data), status=422)
    return RedirectResponse(f"{HOST_PATH}?done=origin", status_code=303)


@router.post("/seasons", response_model=None)
async def new_season(request: Request, svc: Svc) -> Response:
    data = await request.form()
    return await run_in_threadpool(season_form, svc, request, data)


def season_form(svc: Service, request: Request, data: FormData) -> Response:
    token = host_form(svc, request, data)
    name = text(data, "name", 100)
    try:  # sent again: the first sending's page (the season it started)
        svc.arbiter.create_season(name, at=now(), command_id=form_id_of(data))
    except RuleViolation as error:
        return dashboard_page(svc, token, refused=refusal("season", error, data), status=422)
    svc.recorded()
    return RedirectResponse(f"{HOST_PATH}/s/{path_part(name)}?done=season", status_code=303)


def refusal(action: str, error: RuleViolation, data: FormData) -> dict[str, Any]:
    """A refused form, to show beside it with the values that were sent."""
    return {"action": action, "code": error.code, "message": error.message,
            "values": {k: v for k, v in data.items() if k not in ("csrf", "id")
                       and isinstance(v, str)}}


# -- check ------------------------------------------------------------------------------------

@router.get("/check", response_class=HTMLResponse)
def check(request: Request, svc: Svc) -> HTMLResponse:
    token = signed_in_host(svc, request)
    return page("host_check.html", csrf=csrf_of(token), report=None)


@router.post("/check", response_model=None)
async def run_check(request: Request, svc: Svc) -> Response:
    data = await request.form()
    return await run_in_threadpool(checking, svc, request, data)


def checking(svc: Service, request: Request, data: FormData) -> Response:
    """`arbiter check` on this service's store, with its key: the same findings, or the first
    forged or missing entry named."""
    token = host_form(svc, request, data)
    signer = svc.arbiter.signer
    key = None
    if signer is not None:
        from audit.notes import parse_verifier_key

        key = parse_verifier_key(signer.verifier_key())
    try:
        found = check_store(svc.arbiter, key)
    except (StoreFault, AuditError) as fault:
        report = {"intact": False, "code": fault.code, "message": fault.message}
    else:
        report = {"intact": True, "findings": found.findings()}
    return page("host_check.html", csrf=csrf_of(token), report=report)
