"""What every request meets before FastAPI reads its body: the token, then the size and the
encoding of the body.

A route class, so the order is the service's and not FastAPI's (which parses the body, then
validates path parameters, before any dependency runs): a request without a token is a 401
and one with a wrong token a 403, whatever its body or path; then a body over `MAX_BODY`
bytes is a 413 `too_large` (read no further than that), and one that is not UTF-8 JSON a 400
`invalid_json`. Only then are the path and body validated (422).
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.responses import PlainTextResponse
from fastapi.routing import APIRoute
from starlette.concurrency import run_in_threadpool

from commands.http.auth import check_host, check_player_or_host
from commands.http.errors import problem, responses

MAX_BODY = 256 * 1024  # bytes: a thousand grants with their reasons fit


class Route(APIRoute):
    """A route with no token to check (public reads, the pages' own sessions). Its schema
    states every error it can answer."""

    TOKEN: frozenset[int] = frozenset()  # what the token check may answer

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
            self.authorize(request)
            if request.method in ("POST", "PUT", "PATCH"):
                refused = await read_body(request)
                if refused is not None:
                    return refused
            return await handle(request)

        return edge


def in_thread(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """A sync endpoint as an async one that runs it in the thread pool. FastAPI would run it
    there too, and then check its answer against the response model there as well: a second
    trip, which costs a busy worker more than the check itself."""

    @functools.wraps(endpoint)  # FastAPI reads the endpoint's parameters through the wrapper
    async def endpoint_in_thread(*args: Any, **kwargs: Any) -> Any:
        return await run_in_threadpool(endpoint, *args, **kwargs)

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
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        return too_large()
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return too_large()
    request._body = bytes(body)  # what Request.body() returns from now on
    if body and is_json(request):
        try:
            json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return problem(400, "invalid_json", "the body is not UTF-8 JSON")
    return None


def is_json(request: Request) -> bool:
    kind = request.headers.get("content-type", "application/json").split(";")[0].strip()
    return kind == "application/json" or kind.endswith("+json")


def too_large() -> Response:
    return problem(413, "too_large", f"the body is over {MAX_BODY} bytes")
