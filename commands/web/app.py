"""The FastAPI application: one `Service` per worker process, built when the app starts.

    uvicorn --factory commands.web.app:from_environment     (what `arbiter serve` runs)
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.concurrency import run_in_threadpool

from commands.web import errors
from commands.web.headers import SecurityHeaders
from commands.web.limits import Limits
from commands.web.pages import errors as page_errors
from commands.web.pages import host as host_pages
from commands.web.pages import host_match as host_match_pages
from commands.web.pages import host_season as host_season_pages
from commands.web.pages import player as player_pages
from commands.web.pages import public as public_pages
from commands.web.pages import rules as rules_pages
from commands.web.pages import witnessing as witnessing_pages
from commands.web.pages.templating import STATIC
from commands.web.pages.updating import Serving
from commands.web.routes import discord, host, players, public, tiles
from commands.web.worker import Service, Settings, settings_from_environment

DESCRIPTION = """An event-sourced game ledger. Anyone reads public views, checkpoints and
public bundles; a player, with the token the host issued them for a match, submits and reads
their own view and receipts; the host token does everything else. Tokens go in
`Authorization: Bearer TOKEN`. Errors are `{"error": code, "message": text}`. The web pages
(`/`, `/m/{match}`, `/s/{season}`, `/host`) are rendered from the same views."""


def create_app(settings: Settings) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service = await run_in_threadpool(lambda: Service(settings).start())
        app.state.service = service
        try:
            yield
        finally:
            await run_in_threadpool(service.stop)

    # The interactive docs load Swagger UI from the package, never from a CDN.
    app = FastAPIOffline(title="Arbiter", version="1", description=DESCRIPTION,
                         lifespan=lifespan, redoc_url=None)
    errors.install(app)
    page_errors.install(app)
    # A player's command is the commonest request: its router is asked first (no path of the
    # others overlaps its prefix, so the order changes no answer, only the time to find it).
    for routes in (players, public, tiles, host, discord):
        app.include_router(routes.router)
    for page_routes in (public_pages, player_pages, host_pages, host_match_pages,
                        host_season_pages, rules_pages, witnessing_pages):
        app.include_router(page_routes.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(Serving)  # the pages say when the views are still catching up
    app.add_middleware(SecurityHeaders)  # nosniff on every answer, a policy on /docs
    if settings.cors_origins:  # none by default: only the service's own pages call it
        app.add_middleware(CORSMiddleware, allow_origins=list(settings.cors_origins),
                           allow_methods=["GET", "POST"],
                           allow_headers=["Authorization", "Content-Type"])
    # Asked by every route before its work (commands.web.edge); off with a rate of 0.
    app.state.limits = Limits(settings.rate, settings.burst, settings.failures,
                              settings.trusted_proxies) if settings.rate > 0 else None
    return app


def from_environment() -> FastAPI:
    """The app as `arbiter serve` configured it, through the environment its workers inherit."""
    return create_app(settings_from_environment())
