"""A page that cannot be shown says why in a page, with the code the API would answer; the
API's paths keep their JSON answers."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from commands.web.errors import ApiError, status_of
from commands.web.pages.templating import page
from domain.errors import RuleViolation

PAGES = ("/m/", "/s/", "/host")


def is_page(request: Request) -> bool:
    path = request.url.path
    return path == "/" or path.startswith(PAGES)


def problem_page(status: int, code: str, message: str, join: str | None = None) -> HTMLResponse:
    return page("problem.html", status=status, http_status=status, code=code, message=message,
                join=join)


def join_of(request: Request) -> str | None:
    """Where a reader without a (valid) cookie pastes their token."""
    parts = request.url.path.split("/")
    if parts[1] == "host":
        return "/host/join"
    return f"/m/{parts[2]}/join" if parts[1] == "m" and len(parts) > 2 else None


def install(app: FastAPI) -> None:
    """After `commands.web.errors.install`: the same failures, as pages on the pages' paths."""
    as_json = dict(app.exception_handlers)

    async def refused(request: Request, error: Exception) -> Response:
        if not is_page(request):
            return as_json[type(error)](request, error)
        if isinstance(error, RuleViolation):
            return problem_page(status_of(error.code), error.code, error.message)
        assert isinstance(error, ApiError)
        join = join_of(request) if error.status == 401 else None
        answer = problem_page(error.status, error.code, error.message, join)
        answer.headers.update(error.headers)
        return answer

    for kind in (RuleViolation, ApiError):
        app.add_exception_handler(kind, refused)
