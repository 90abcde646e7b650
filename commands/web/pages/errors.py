"""A page that cannot be shown says why in a page of the site's layout, in a sentence, with the
code the API would answer as a small label; the API's paths keep their JSON answers. A browser
that asks for a path nobody serves gets the page too."""

from __future__ import annotations

import json
from inspect import isawaitable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from starlette.exceptions import HTTPException

from commands.web.errors import clip
from commands.web.pages.templating import page
from projections import words

PAGES = ("/m/", "/s/", "/host", "/rules")
HEADINGS = {400: "This request cannot be used", 401: "Sign in first", 403: "Not allowed",
            404: "Not found", 422: "This request cannot be used"}


def is_page(request: Request) -> bool:
    path = request.url.path
    return path == "/" or path.startswith(PAGES)


def wants_page(request: Request, status: int) -> bool:
    """A page path, or a browser asking for a path that does not exist."""
    return is_page(request) or (status == 404 and "text/html" in
                                request.headers.get("accept", ""))


def problem_page(status: int, code: str, message: str, join: str | None = None) -> HTMLResponse:
    return page("problem.html", status=status, http_status=status, code=code,
                heading=HEADINGS.get(status, "This page cannot be shown"),
                message=words.sentence(message), join=join)


def join_of(request: Request) -> str | None:
    """Where a reader without a (valid) cookie pastes their token."""
    parts = request.url.path.split("/")
    if parts[1] == "host":
        return "/host/join"
    return f"/m/{parts[2]}/join" if parts[1] == "m" and len(parts) > 2 else None


def invalid_words(error: RequestValidationError) -> str:
    """A query or form value that cannot be used, named as the reader typed it."""
    first: dict[str, Any] = error.errors()[0]
    field = str(first["loc"][-1]) if first["loc"] else "request"
    typed = first.get("input")
    if field == "round":
        return (f"there is no round {clip(str(typed))!s} to show: a round is a whole number, "
                "0 for the opening")
    shown = f" “{clip(str(typed))}”" if isinstance(typed, str | int) else ""
    return f"the {words.readable(field)}{shown} cannot be used: {first['msg'][:1].lower()}" \
           f"{first['msg'][1:]}"


def install(app: FastAPI) -> None:
    """After `commands.web.errors.install`: each failure it answers in JSON (a refusal, a bad
    query, an unknown path, a busy or unreachable store, an audit failure), as a page on the
    pages' paths, with the same status and code. A bug stays the API's 500."""
    as_json = {kind: handler for kind, handler in app.exception_handlers.items()
               if kind not in (Exception, 500)}

    async def refused(request: Request, error: Exception) -> Response:
        handler = next(as_json[kind] for kind in type(error).__mro__ if kind in as_json)
        answered = handler(request, error)
        answer = await answered if isawaitable(answered) else answered
        status = answer.status_code
        if not wants_page(request, status):
            return answer
        said = json.loads(bytes(answer.body))
        if isinstance(error, RequestValidationError):
            return problem_page(422, "invalid_input", invalid_words(error))
        join = join_of(request) if status == 401 else None
        told = str(said["message"])
        if isinstance(error, HTTPException) and status == 404:
            told = "nothing is served at this address"
        elif status == 401 and said["error"] == "missing_token":
            told = "open the host's link: arbiter tokens host prints it" \
                if join == "/host/join" else "ask the host for your link: it opens your page " \
                                            "and keeps you signed in"
        shown = problem_page(status, said["error"], told, join)
        # What the API's answer says beside its body (Retry-After on a limit or a busy store).
        shown.headers.update({k: v for k, v in answer.headers.items()
                              if not k.lower().startswith("content-")})
        return shown

    for kind in as_json:
        app.add_exception_handler(kind, refused)
