"""Pages anyone may read: the list of seasons and matches, a match told round by round (now or
as of any round), a season's standings."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import quote
from uuid import UUID

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from commands.web.auth import Svc
from commands.web.edge import Route, fresh_for
from commands.web.models import MatchId, SeasonId
from commands.web.pages.browser_check import browser_check
from commands.web.pages.session import player_of
from commands.web.pages.templating import HEADERS, page
from commands.web.reading import (
    read_checkpoints,
    read_match,
    read_matches,
    read_seasons,
    read_standings,
    read_view,
)
from commands.web.routes.public import Round, match_logs, season_logs
from commands.web.worker import Service
from domain.decider import PUBLIC
from projections import story
from projections.standings import by_rank

router = APIRouter(route_class=Route, include_in_schema=False)


def for_anyone(svc: Service, name: str, logs: Callable[[], Sequence[UUID]],
               draw: Callable[[], HTMLResponse]) -> HTMLResponse:
    """A page that is the same for every reader not signed in to it, drawn once per change of
    the `logs` it shows (none: of any log) or of the views, and then answered from that:
    strangers asking together cost one drawing, not one each (a player's vote must not wait
    behind them)."""
    found = svc.pages.get(name, logs, lambda: (bytes(draw().body), False), fresh_for())
    return HTMLResponse(found.body, headers=HEADERS)


@router.get("/", response_class=HTMLResponse)
def index(svc: Svc) -> HTMLResponse:
    return for_anyone(svc, "/", tuple, lambda: page("index.html", seasons=read_seasons(svc),
                                                  matches=read_matches(svc)))


def told(view: dict[str, Any], open_round: int | None = None) -> dict[str, Any]:
    """What every page of a match shows of one viewer's view (`open_round`: the round open
    then, where known)."""
    return {"view": view, "chapters": story.chapters(view), "open_round": open_round,
            "picture": story.picture(view, open_round),
            "scoreboard": story.scoreboard(view), "results": story.results_of(view),
            "abandoned": story.abandoned(view), "ended": story.ended(view),
            "deadline": story.deadline_of(view), "rounds": story.rounds_of(view),
            "players": story.players_of(view), "season": story.season_of(view)}


def open_round_of(svc: Service, match_id: str, round: int | None) -> int | None:
    """The round open at the moment a page shows: after round N as of its end, else now."""
    if round is not None:
        return round + 1
    found = read_match(svc, match_id)
    return found["round"] if found else None


def public_page(svc: Service, match_id: str, round: int | None) -> dict[str, Any]:
    view = read_view(svc, match_id, PUBLIC, round)
    context = told(view, open_round_of(svc, match_id, round))
    season = context["season"]
    standings = read_standings(svc, season, PUBLIC) if season else None
    players = set(context["players"])
    checkpoints = read_checkpoints(svc, match_id)
    if round is not None:
        checkpoints = [c for c in checkpoints if c["round"] <= round]
    signer = svc.arbiter.signer
    return {**context, "round": round, "checkpoints": checkpoints,
            "verifier_key": signer.verifier_key() if signer else None,
            "standings": [r for r in standings["players"] if r["player"] in players]
            if standings else []}


@router.get("/m/{match_id}", response_class=HTMLResponse)
def match_page(match_id: MatchId, request: Request, svc: Svc,
               round: Round = None) -> HTMLResponse:
    me = player_of(svc, request, match_id)

    def draw() -> HTMLResponse:
        return page("match.html", **public_page(svc, match_id, round),
                    me=me[0] if me else None, origin=svc.settings.public_url.rstrip("/"),
                    browser_check=browser_check(svc, f"/matches/{quote(match_id)}/bundle",
                                                match_id))

    if me:
        return draw()

    def logs() -> list[UUID]:
        season = svc.arbiter.season_of(match_id)
        return [*match_logs(match_id), *(season_logs(season) if season else [])]

    return for_anyone(svc, f"/m/{match_id}?round={round}", logs, draw)


@router.get("/s/{season}", response_class=HTMLResponse)
def season_page(season: SeasonId, svc: Svc) -> HTMLResponse:
    return for_anyone(svc, f"/s/{season}", lambda: [
        *season_logs(season),
        *(log for m in svc.arbiter.season_matches(season) for log in match_logs(m))],
        lambda: drawn_season(svc, season))


def drawn_season(svc: Service, season: str) -> HTMLResponse:
    standings = read_standings(svc, season, PUBLIC)
    history = standings["history"]
    left = rulings(standings["eliminated"], history)
    return page("season.html", season=season, standings=standings,
                ranked=by_rank(standings),
                matches=in_season_order(read_matches(svc, season), standings["matches"]),
                left=left,
                ecs=caused(history, "ec"), death_match=caused(history, "dm_entrant"),
                browser_check=browser_check(svc, f"/seasons/{quote(season)}/bundle",
                                            season=season))


def in_season_order(matches: list[dict[str, Any]],
                    order: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Matches in the order the season played them (the season's log), any other after."""
    place = {m["match"]: n for n, m in enumerate(order)}
    return sorted(matches, key=lambda m: (place.get(m["match"], len(place)), m["match"]))


def rulings(eliminated: list[dict[str, Any]],
            history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Who left the season, where, when and why: a host's ruling keeps its reason."""
    line = {(h["player"], h["seq"]): h for h in history}
    return [{**e, "why": (line.get((e["player"], e["seq"]), {}).get("cause") or {}).get("ruling"),
             "at": line.get((e["player"], e["seq"]), {}).get("at")} for e in eliminated]


def caused(history: list[dict[str, Any]], asset: str) -> list[dict[str, Any]]:
    """Who gained `asset`, and in which match (None: the host granted it). The history's other
    lines (a registration, a match joined, a ruling) move no asset."""
    return [{"player": h["player"], "match": h["cause"].get("match"),
             "why": h["cause"].get("reason") or next(iter(h["cause"].values()), "")}
            for h in history if h.get("asset") == asset and h["amount"] > 0]
