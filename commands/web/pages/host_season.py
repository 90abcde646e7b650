"""The host's page of a season: its standings with garnets, and every form a season needs:
players registered from a pasted list, grants and fines from pasted `player,amount,reason`
lines (previewed before they are saved), transfers, rulings and DMOs with their reasons, a new
match from a game picker (its players chosen from the season, its setup as a form drawn from
the game's declared setup), the Death Match of a Main Match's EC, the Final, who plays as whom
on Discord, the full season bundle.

Each form goes through the application service as the API does, in one save (all the lines,
or none); a refusal comes back beside its form with the values kept.
"""

from __future__ import annotations

import csv
import io
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from audit.season_bundle import FULL
from commands.service.discord.links import Links
from commands.service.outcomes import Grant
from commands.web.auth import Svc
from commands.web.bounds import loads, whole_number
from commands.web.edge import Route
from commands.web.errors import ApiError
from commands.web.models import SeasonId
from commands.web.pages.host import (
    JUST_SAVED,
    form_id_of,
    host_form,
    new_form_id,
    refusal,
    signed_in_host,
    text,
)
from commands.web.pages.session import HOST_PATH, csrf_of
from commands.web.pages.templating import page, path_part
from commands.web.reading import caught_up, read_matches, read_standings
from commands.web.worker import Service, now
from domain.decider import HOST
from domain.errors import RuleViolation
from domain.games import get_game
from projections.hosting import games, next_steps, setup_fields
from projections.story import game_name

router = APIRouter(route_class=Route, prefix=f"{HOST_PATH}/s/{{season}}",
                   include_in_schema=False)
MAX_LINES = 1000  # grants in one paste, as the API takes them


def season_path(season: str) -> str:
    return f"{HOST_PATH}/s/{path_part(season)}"


def season_page(svc: Service, season: str, token: str, *, done: str | None = None,
                refused: dict[str, Any] | None = None, preview: dict[str, Any] | None = None,
                status: int = 200) -> HTMLResponse:
    standings = read_standings(svc, season, HOST)
    still_in = [r["player"] for r in standings["players"] if r["status"] == "in"]
    ended_mains = [m["match"] for m in standings["matches"]
                   if m["kind"] == "main" and m["ended"] and not m["abandoned"]]
    return page("host_season.html", status=status, season=season, standings=standings,
                players=[r["player"] for r in standings["players"]], still_in=still_in,
                matches=read_matches(svc, season), mains=ended_mains,
                steps=next_steps(standings), csrf=csrf_of(token), form_id=new_form_id(),
                done=done, refused=refused, preview=preview, games=games(),
                discord=discord_links(svc, season))


def discord_links(svc: Service, season: str) -> list[dict[str, str]] | None:
    """Who plays as whom on Discord, where Discord is configured or a link was made."""
    links = Links(svc.arbiter).of(season)
    if svc.discord is None and not links:
        return None
    return [{"player": p, "user": u} for u, p in sorted(links.items(), key=lambda i: i[1])]


DONE = {"season": "The season is started: register its players next.",
        "players": "Registered.", "grants": "Granted.", "transfer": "Transferred.",
        "ruling": "The ruling is recorded.", "dmo": "The DMO is recorded.",
        "discord": "Linked: their slash commands now act as that player."}


@router.get("", response_class=HTMLResponse)
def season_home(season: SeasonId, request: Request, svc: Svc,
                done: Annotated[str | None, Query(max_length=20)] = None) -> HTMLResponse:
    token = signed_in_host(svc, request)
    caught_up(svc, JUST_SAVED)
    return season_page(svc, season, token, done=DONE.get(done or ""))


@router.get("/bundle")
def bundle(season: SeasonId, request: Request, svc: Svc) -> Response:
    """The full season bundle as a file (the auditor's: standings re-derived, every match
    entry it rests on, every signed checkpoint)."""
    signed_in_host(svc, request)
    signer = svc.arbiter.signer
    lines = "".join(svc.arbiter.season_bundle(season, FULL,
                                              signer.verifier_key() if signer else None))
    return Response(lines, media_type="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="season-{season}-full.jsonl"',
        "Cache-Control": "no-store"})


# -- the season's forms ----------------------------------------------------------------------

def acting(svc: Service, request: Request, season: str, action: str,
           data: FormData) -> Response:
    token = host_form(svc, request, data)
    if action not in ACTIONS:
        raise ApiError(404, "not_found", f"no action {action!r}")
    try:  # sent again: recorded once, answered with the first sending's page (the same)
        answer = ACTIONS[action](svc, season, data, form_id_of(data))
    except RuleViolation as error:
        return season_page(svc, season, token, refused=refusal(action, error, data),
                           status=422)
    if isinstance(answer, dict):  # a preview: nothing recorded yet
        return season_page(svc, season, token, preview=answer)
    svc.recorded()
    return RedirectResponse(answer, status_code=303)


def names_in(pasted: str) -> list[str]:
    """Player ids pasted one a line, or separated by commas or spaces."""
    return [n for n in pasted.replace(",", " ").split() if n]


def register(svc: Service, season: str, data: FormData, once: str | None) -> str:
    names = names_in(text(data, "players", 20_000))
    if not names:
        raise RuleViolation("invalid_input", "paste the players' ids: one a line, or "
                                             "separated by commas or spaces")
    svc.arbiter.register_all(season, names, at=now(), command_id=once)
    return f"{season_path(season)}?done=players"


def grant_lines(pasted: str, default_reason: str, players: set[str]) -> list[dict[str, Any]]:
    """`player,amount[,reason]` lines (a negative amount is a fine; `tol:1` grants another
    asset), each read or refused in words, for the preview; the season judges them again
    when they are saved."""
    lines = [line for line in pasted.splitlines() if line.strip()]
    if len(lines) > MAX_LINES:
        raise RuleViolation("too_large", f"{len(lines)} lines: at most {MAX_LINES} in one save")
    read = []
    for number, raw in enumerate(csv.reader(io.StringIO("\n".join(lines))), 1):
        cells = [c.strip() for c in raw]
        if number == 1 and [c.lower() for c in cells[:2]] == ["player", "amount"]:
            continue  # a header
        player = cells[0] if cells else ""
        amount_text = cells[1] if len(cells) > 1 else ""
        asset, _, amount_text = amount_text.rpartition(":") if ":" in amount_text else \
            ("garnets", "", amount_text)
        reason = ",".join(raw[2:]).strip() or default_reason  # a reason may hold commas
        problem = None
        amount = whole_number(amount_text)
        if amount is None:
            amount, problem = 0, f"{amount_text[:40]!r} is not a whole number of " \
                                 f"{asset or 'garnets'}"
        if not player:
            problem = "no player"
        elif player not in players:
            problem = f"{player} is not a player of this season"
        elif problem is None and not reason:
            problem = "no reason (give one on the line, or the reason for every line)"
        read.append({"line": number, "player": player, "amount": amount,
                     "asset": asset or "garnets", "reason": reason, "problem": problem})
    return read


def grants(svc: Service, season: str, data: FormData,
           once: str | None) -> str | dict[str, Any]:
    """First the preview (what each line grants or takes, or why it cannot be read); then,
    with `confirmed`, every line in one save."""
    pasted = text(data, "lines", 200_000)
    registered = {r["player"] for r in read_standings(svc, season, HOST)["players"]}
    lines = grant_lines(pasted, text(data, "reason"), registered)
    if not lines:
        raise RuleViolation("invalid_input", "paste one line a grant: player,amount,reason")
    unread = [line for line in lines if line["problem"]]
    if data.get("confirmed") != "yes" or unread:
        return {"lines": lines, "unread": len(unread), "pasted": pasted,
                "reason": text(data, "reason"),
                "total": sum(line["amount"] for line in lines if line["asset"] == "garnets")}
    svc.arbiter.grant_all(season, [Grant(g["player"], g["amount"], g["asset"], g["reason"])
                                   for g in lines], at=now(), command_id=once)
    return f"{season_path(season)}?done=grants"


def whole(data: FormData, name: str) -> int:
    value = text(data, name, 20)
    found = whole_number(value)
    if found is None:
        raise RuleViolation("invalid_amount", f"{name}: {value!r} is not a whole number")
    return found


def transfer(svc: Service, season: str, data: FormData, once: str | None) -> str:
    svc.arbiter.transfer(season, text(data, "giver", 100), text(data, "receiver", 100),
                         whole(data, "amount"), text(data, "reason"), at=now(),
                         command_id=once)
    return f"{season_path(season)}?done=transfer"


def ruling(svc: Service, season: str, data: FormData, once: str | None) -> str:
    changes = {asset: whole(data, asset) for asset in ("tol", "opal", "moe")
               if text(data, asset, 20) not in ("", "0")}
    status = text(data, "status", 20) or None
    svc.arbiter.rule(season, text(data, "player", 100), text(data, "reason"), changes=changes,
                     status=status, at=now(), command_id=once)
    return f"{season_path(season)}?done=ruling"


def dmo(svc: Service, season: str, data: FormData, once: str | None) -> str:
    svc.arbiter.record_dmo(season, text(data, "match", 100), text(data, "dmo", 100),
                           text(data, "reason"), ec=text(data, "ec", 100) or None, at=now(),
                           command_id=once)
    return f"{season_path(season)}?done=dmo"


def discord(svc: Service, season: str, data: FormData, once: str | None) -> str:
    """A Discord user linked to a player of the season, or to its host (docs/discord.md);
    linked again, it is left as it is (`once` is not needed)."""
    player = text(data, "player", 100)
    if player != HOST:
        svc.arbiter.season(season).check_is_registered(player)
    else:
        svc.arbiter.season(season)
    Links(svc.arbiter).link(season, player, text(data, "user", 100), by="host")
    return f"{season_path(season)}?done=discord"


ACTIONS = {"players": register, "grants": grants, "transfer": transfer, "ruling": ruling,
           "dmo": dmo, "discord": discord}


# -- a new match ------------------------------------------------------------------------------

def new_match_page(svc: Service, season: str, token: str, game: str | None, *,
                   kind: str = "main", refused: dict[str, Any] | None = None,
                   status: int = 200, pairing: dict[str, Any] | None = None) -> HTMLResponse:
    standings = read_standings(svc, season, HOST)
    if game is not None:
        get_game(game)  # unknown_game, in words
    fields = setup_fields(game, LEFT_OUT.get(kind, ())) if game else []
    if kind == "final":  # who picks an item: one of the last two
        for field in fields:
            if field["name"] == "first_picker":
                field.update(kind="choice", choices=["", *standings["remaining"]])
    return page("host_new_match.html", status=status, season=season, game=game,
                game_title=game_name(game) if game else None, games=games(), kind=kind,
                fields=fields,
                still_in=[r["player"] for r in standings["players"] if r["status"] == "in"],
                pairing=pairing or {}, csrf=csrf_of(token), form_id=new_form_id(),
                suggested=suggested_id(svc, season, game, kind, pairing),
                refused=refused)


# What the season fills in for a Death Match (its pairing) and the Final (its variant); the
# Final's own fields are a Death Match's to leave out.
LEFT_OUT = {"death_match": ("variant", "dmo", "first_picker", "item_allocation"),
            "final": ("variant", "dmo")}


def suggested_id(svc: Service, season: str, game: str | None, kind: str,
                 pairing: dict[str, Any] | None) -> str:
    """A match id not taken yet: kc-1, kc-2, ...; a Death Match's from its Main Match."""
    if game is None:
        return ""
    taken = {m["match"] for m in read_matches(svc)}
    stem = {"death_match": f"{(pairing or {}).get('from', 'dm')}-dm", "final": "final"}.get(
        kind, "".join(w[0] for w in game.split("_")))
    for n in range(1, 1000):
        found = stem if kind != "main" and n == 1 else f"{stem}-{n}"
        if found not in taken:
            return found
    return f"{stem}-{secrets.token_hex(3)}"


@router.get("/new", response_class=HTMLResponse)
def new_match(season: SeasonId, request: Request, svc: Svc,
              game: Annotated[str | None, Query(max_length=40)] = None,
              kind: Annotated[str, Query(pattern="^(main|death_match|final)$")] = "main",
              from_: Annotated[str | None, Query(alias="from", max_length=100)] = None,
              ec: Annotated[str | None, Query(max_length=100)] = None) -> HTMLResponse:
    token = signed_in_host(svc, request)
    if kind != "main":
        game = "tile_joust"
    pairing = {"from": from_, "ec": ec} if kind == "death_match" else None
    return new_match_page(svc, season, token, game, kind=kind, pairing=pairing)


@router.post("/new", response_model=None)
async def create(season: SeasonId, request: Request, svc: Svc) -> Response:
    data = await request.form()
    return await run_in_threadpool(creating, svc, request, season, data)


def creating(svc: Service, request: Request, season: str, data: FormData) -> Response:
    """A match of the season, as `arbiter match create` makes it: the setup from the form's
    fields (a field left at its default is left out), the players chosen, or for a Death
    Match and the Final, from the season."""
    token = host_form(svc, request, data)
    game = text(data, "game", 40)
    kind = text(data, "kind", 20) or "main"
    pairing = {"from": text(data, "from", 100) or None, "ec": text(data, "ec", 100) or None}
    match_id = text(data, "match", 100)
    try:
        setup = setup_of(game, data, LEFT_OUT.get(kind, ()))
        if kind == "main":
            seats = text(data, "seats", 5000)
            setup["players"] = (names_in(seats) if seats else
                                [p for p in data.getlist("players") if isinstance(p, str)])
        svc.arbiter.create_match(
            match_id=match_id, season=season, game=game, setup=setup,
            host_seed=secrets.token_hex(32), salt_key=secrets.token_hex(32), at=now(),
            from_match=pairing["from"] if kind == "death_match" else None,
            ec=pairing["ec"] if kind == "death_match" else None, final=kind == "final",
            command_id=form_id_of(data))  # sent again: the match the first one created
    except RuleViolation as error:
        refused = refusal("create", error, data)
        refused["values"]["players"] = data.getlist("players")
        return new_match_page(svc, season, token, game or None, kind=kind, refused=refused,
                              status=422, pairing=pairing)
    svc.recorded()
    return RedirectResponse(f"{HOST_PATH}/m/{path_part(match_id)}", status_code=303)


def setup_of(game: str, data: FormData, leave_out: tuple[str, ...]) -> dict[str, Any]:
    """The setup fields the form sent that differ from the game's defaults, read by their
    kind: a number as a number (else as typed, for the rules to answer), yes/no, JSON."""
    setup: dict[str, Any] = {}
    for field in setup_fields(game, leave_out):
        name, kind = field["name"], field["kind"]
        key = f"setup.{name}"
        if key not in data:
            continue  # not on the form: the game's default
        if kind == "bool":  # a hidden "false", then the checkbox's "true" when ticked
            value: Any = data.getlist(key)[-1] == "true"
            if value != field["default"]:
                setup[name] = value
            continue
        given = text(data, key, 200_000)
        if given == ("" if field["default"] is None else str(field["default"])):
            continue
        if kind == "json":
            try:
                setup[name] = loads(given)
            except ValueError:
                raise RuleViolation("invalid_setup", f"{name}: write it as JSON") from None
        elif kind == "int":  # not a number: the rules refuse it with their own words
            number = whole_number(given)
            setup[name] = given if number is None else number
        elif given:
            setup[name] = given
    return setup


# After /new, so that /new is not taken for an action.
@router.post("/{action}", response_model=None)
async def act(season: SeasonId, action: str, request: Request, svc: Svc) -> Response:
    data = await request.form()
    return await run_in_threadpool(acting, svc, request, season, action, data)
