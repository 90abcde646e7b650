"""The FastAPI application: one `Service` per worker process, built when the app starts.

    uvicorn --factory commands.http.app:from_environment     (what `arbiter serve` runs)
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from commands.http import errors
from commands.http.routes import host, players, public
from commands.http.service import Service, Settings, settings_from_environment

DESCRIPTION = """An event-sourced game ledger. Anyone reads public views, checkpoints and
public bundles; a player, with the token the host issued them for a match, submits and reads
their own view and receipts; the host token does everything else. Tokens go in
`Authorization: Bearer TOKEN`. Errors are `{"error": code, "message": text}`."""


def create_app(settings: Settings) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service = await run_in_threadpool(lambda: Service(settings).start())
        app.state.service = service
        try:
            yield
        finally:
            await run_in_threadpool(service.stop)

    app = FastAPI(title="Arbiter", version="1", description=DESCRIPTION, lifespan=lifespan)
    errors.install(app)
    for routes in (public, players, host):
        app.include_router(routes.router)
    return app


def from_environment() -> FastAPI:
    """The app as `arbiter serve` configured it, through the environment its workers inherit."""
    return create_app(settings_from_environment())
