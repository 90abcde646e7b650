"""What every request meets before FastAPI reads its body: the rate limits and the token,
then the size and the encoding of the body.

A route class, so the order is the service's and not FastAPI's (which parses the body, then
validates path parameters, before any dependency runs): a request without a token is a 401
and one with a wrong token a 403, whatever its body or path; then a body over `MAX_BODY`
bytes is a 413 `too_large` (read no further than that), and one that is not UTF-8 JSON a 400
`invalid_json`. Only then are the path and body validated (422).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import inspect
from collections.abc import AsyncIterator, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastapi import Request, Response
from fastapi.responses import PlainTextResponse
from fastapi.routing import APIRoute

from commands.store.settings import POOL
from commands.web.auth import check_host, check_player_or_host, identity, presents
from commands.web.bounds import loads, whole_number
from commands.web.errors import ApiError, problem, responses
from commands.web.limits import Limits

MAX_BODY = 256 * 1024  # bytes: a thousand grants with their reasons fit


class Route(APIRoute):
    """A route with no token to check (public reads, the pages' own sessions). Its schema
    states every error it can answer."""

    TOKEN: frozenset[int] = frozenset()  # what the token check may answer
    BY_ADDRESS = True  # count a request with no identity against its client address
    QUEUED = True  # a request with no identity waits its turn among the strangers (STRANGERS)

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        methods = set(kwargs.get("methods") or ["GET"])
        statuses = {404, 422, 429, 503} | self.TOKEN  # 429 with a token, 503 store_busy
        if methods & {"POST", "PUT", "PATCH"}:
            statuses |= {400, 409, 413}
        elif path.endswith("/bundle"):
            statuses.add(409)  # the store's checkpoints are not the host key's
        answer = kwargs.get("response_class")
        media = getattr(getattr(answer, "value", answer), "media_type", None)
        kwargs["responses"] = {**(kwargs.get("responses") or {}),
                               **responses(statuses, json=media in (None, "application/json"))}
        if not inspect.iscoroutinefunction(endpoint):
            endpoint = in_thread(endpoint)
        super().__init__(path, endpoint, **kwargs)

    def authorize(self, request: Request) -> None:
        return None

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()

        async def edge(request: Request) -> Response:
            limits: Limits | None = getattr(request.app.state, "limits", None)
            if limits is None:
                self.authorize(request)
                return await self.in_turn(request, handle, identity(request))
            try:
                limits.before(request, presents(request))
                self.authorize(request)
                who = identity(request)
                if who is not None or self.BY_ADDRESS:
                    limits.take(request, who)
                answer = await self.in_turn(request, handle, who)
            except ApiError as error:
                if error.status in (401, 403):
                    limits.failed(request)
                raise
            if answer.status_code in (401, 403):  # a page's refused join code
                limits.failed(request)
            return answer

        return edge

    async def in_turn(self, request: Request,
                      handle: Callable[[Request], Coroutine[Any, Any, Response]],
                      who: str | None) -> Response:
        """Answer in the worker's turns (`Turns`): a player's, the host's or Discord's request
        at once, a stranger's in its turn."""
        state = request.app.state
        turns: Turns | None = getattr(state, "turns", None)
        if turns is None:  # made in the app's own event loop
            turns = state.turns = Turns()
        if who is not None or not self.QUEUED or self.TOKEN:
            async with turns.first():
                return await self.answer(request, handle)
        async with turns.stranger():
            return await self.answer(request, handle)

    async def answer(self, request: Request,
                     handle: Callable[[Request], Coroutine[Any, Any, Response]]) -> Response:
        self.authorize(request)  # a second time answers what the first found
        if request.method in ("POST", "PUT", "PATCH"):
            refused = await read_body(request)
            if refused is not None:
                return refused
        return await handle(request)


# Sync endpoints running at once in a worker: as many as the store's connection pool holds
# by default. More would only wait, for a connection or for a match's writer, and each thread
# more in the race for the GIL costs every request context switches (a vote over HTTP with
# Starlette's 40 threads: 90 a vote; with 8: 30).
ENDPOINT_THREADS = POOL
# Requests from strangers (no token, no page cookie) answered at once in a worker: a flood of
# them then slows one another, while a player's vote races at most these for the GIL. One: a
# vote under 16 strangers, PostgreSQL, p50 14-17 ms and p99 62-89 ms, against 21-23 and 102
# with two (docs/deploy.md).
STRANGERS = 1
# Seconds a stranger waits at most for the players' and the host's requests being answered
# in its worker: under their steady load strangers are slowed, never shut out.
PLAYERS_FIRST = 0.25
# Seconds a stranger who had to wait their turn may be answered what was built or checked
# against the store that long ago (a CDN's micro-cache): under a crowd, each answer anyone may
# read is asked of the store once a second, not once a request, and a vote redraws a page or
# a bundle at most once a second in each worker. A player or the host always reads it fresh.
CROWDED_FRESH = 1.0
CROWDED: contextvars.ContextVar[bool] = contextvars.ContextVar("crowded", default=False)


def fresh_for() -> float:
    """How old an answer anyone may read may be for this request (`Builds.get`)."""
    return CROWDED_FRESH if CROWDED.get() else 0.0


endpoints = ThreadPoolExecutor(ENDPOINT_THREADS, thread_name_prefix="endpoint")


class Turns:
    """Who one worker answers when. A player's, the host's or Discord's request: at once. A
    stranger's (no token, no page cookie): once fewer than STRANGERS others are being answered
    and no request of the first kind is, or has been for PLAYERS_FIRST seconds; meanwhile it
    waits in the event loop, which costs nothing, not in a thread racing a vote for the GIL.
    A stranger already being answered finishes."""

    def __init__(self) -> None:
        self.strangers = asyncio.Semaphore(STRANGERS)
        self.first_kind = 0  # requests of the first kind being answered
        self.no_first_kind = asyncio.Event()
        self.no_first_kind.set()

    @contextlib.asynccontextmanager
    async def first(self) -> AsyncIterator[None]:
        self.first_kind += 1
        self.no_first_kind.clear()
        try:
            yield
        finally:
            self.first_kind -= 1
            if not self.first_kind:
                self.no_first_kind.set()

    @contextlib.asynccontextmanager
    async def stranger(self) -> AsyncIterator[None]:
        if self.strangers.locked() or self.first_kind:  # it waits, and is crowded
            CROWDED.set(True)
        async with self.strangers:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.no_first_kind.wait(), PLAYERS_FIRST)
            yield


def in_thread(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """A sync endpoint as an async one that runs it in a thread. FastAPI would run it in
    Starlette's thread pool, and then check its answer against the response model there as
    well: a second trip, which costs a busy worker more than the check itself. The trip goes
    through a plain executor, which does less per call than anyio's pool."""

    @functools.wraps(endpoint)  # FastAPI reads the endpoint's parameters through the wrapper
    async def endpoint_in_thread(*args: Any, **kwargs: Any) -> Any:
        call = functools.partial(contextvars.copy_context().run, endpoint, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(endpoints, call)

    return endpoint_in_thread


class Ndjson(PlainTextResponse):
    """JSON Lines (a bundle), so stated in the schema."""

    media_type = "application/x-ndjson"


class HostRoute(Route):
    TOKEN = frozenset({401, 403})

    def authorize(self, request: Request) -> None:
        check_host(request)


class PlayerRoute(Route):
    TOKEN = frozenset({401, 403})

    def authorize(self, request: Request) -> None:
        check_player_or_host(request)


async def read_body(request: Request) -> Response | None:
    """Read the body up to MAX_BODY bytes (FastAPI then finds it read); refuse a larger one
    and one that is not UTF-8 JSON."""
    declared = whole_number(request.headers.get("content-length", ""))
    if declared is not None and declared > MAX_BODY:
        return too_large()
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return too_large()
    request._body = bytes(body)  # what Request.body() returns from now on
    if body and is_json(request):
        try:
            # FastAPI then reads it from here (Request.json), not parsing it a second time.
            request._json = loads(body.decode("utf-8"))
        except UnicodeDecodeError:
            return problem(400, "invalid_json", "the body is not UTF-8 JSON")
        except ValueError as error:
            return problem(400, "invalid_json", f"the body is not JSON the service reads: "
                           f"{str(error)[:100]}")
    return None


def is_json(request: Request) -> bool:
    kind = request.headers.get("content-type", "application/json").split(";")[0].strip().lower()
    return kind == "application/json" or kind.endswith("+json")


def too_large() -> Response:
    return problem(413, "too_large", f"the body is over {MAX_BODY} bytes")
