"""A page that cannot be shown says why in a page of the site's layout, in a sentence, with the
code the API would answer as a small label; the API's paths keep their JSON answers. A browser
that asks for a path nobody serves gets the page too."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from starlette.exceptions import HTTPException

from commands.web.errors import HTTP_CODES, ApiError, clip, status_of
from commands.web.pages.templating import page
from domain.errors import RuleViolation
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
    """After `commands.web.errors.install`: the same failures, as pages on the pages' paths."""
    as_json = dict(app.exception_handlers)

    async def refused(request: Request, error: Exception) -> Response:
        status = error.status if isinstance(error, ApiError) else \
            error.status_code if isinstance(error, HTTPException) else \
            422 if isinstance(error, RequestValidationError) else \
            status_of(error.code) if isinstance(error, RuleViolation) else 500
        if not wants_page(request, status):
            return as_json[type(error)](request, error)
        if isinstance(error, RuleViolation):
            return problem_page(status, error.code, error.message)
        if isinstance(error, RequestValidationError):
            return problem_page(422, "invalid_input", invalid_words(error))
        if isinstance(error, HTTPException):
            said = "nothing is served at this address" if status == 404 else str(error.detail)
            return problem_page(status, HTTP_CODES.get(status, "http_error"), said)
        assert isinstance(error, ApiError)
        join = join_of(request) if status == 401 else None
        said = error.message
        if status == 401:
            said = "open the host's link: arbiter tokens host prints it" \
                if join == "/host/join" else "ask the host for your link: it opens your page " \
                                            "and keeps you signed in"
        answer = problem_page(status, error.code, said, join)
        answer.headers.update(error.headers)
        return answer

    for kind in (RuleViolation, ApiError, RequestValidationError, HTTPException):
        app.add_exception_handler(kind, refused)
