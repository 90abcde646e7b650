"""Every failure as a JSON body {"error": code, "message": ...} with a 4xx status.

Rule violations keep the rules' own codes; FastAPI's validation errors and unknown routes
come out in the same shape. A command that waited its bounded time for the match's writer
lock, or lost every optimistic retry, is a 503 `busy`; a store that gives no connection (too
many clients) a 503 `store_busy` (nothing recorded: send it again). Only a bug answers 500.
"""

from __future__ import annotations

import logging
from typing import Any

from eventsourcing.persistence import IntegrityError, InterfaceError, OperationalError
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from audit.errors import AuditError
from commands.service.writers import Busy
from domain.edge import EXCERPT
from domain.errors import RuleViolation

NOT_FOUND = {"unknown_match", "unknown_season"}
CONFLICT = {"match_exists", "season_exists", "player_exists", "id_reused"}
HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 406: "not_acceptable",
              415: "unsupported_media_type"}
log = logging.getLogger("arbiter.service")


class Problem(BaseModel):
    error: str
    message: str


WHEN = {
    400: "The body is not UTF-8 JSON (`invalid_json`)",
    401: "No token (`missing_token`)",
    403: "A token, but not one that may do this (`wrong_token`)",
    404: "Unknown match, season or player",
    409: "It exists already, or it was used for something else (`id_reused`); a bundle "
         "another key signed (`wrong_host_key`)",
    413: "The body is over 256 KiB (`too_large`)",
    422: "Refused by the rules or the season (their code), or input the schema refuses "
         "(`invalid_input`)",
    429: "Too many requests from this player, host or address, or too many refused tokens "
         "from this address (`rate_limited`): wait Retry-After seconds",
    503: "Busy: other writers held the match through the bounded wait (`busy`), or the store "
         "gave no connection (`store_busy`); nothing was recorded, send it again",
}
PROBLEM = {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}


def responses(statuses: set[int], json: bool) -> dict[int | str, dict[str, Any]]:
    """The error answers of an operation: a JSON Problem, whatever its success is (FastAPI
    would state a model in the success's media type, so others get the content itself)."""
    if json:
        return {status: {"model": Problem, "description": WHEN[status]} for status in statuses}
    return {status: {"description": WHEN[status], "content": PROBLEM} for status in statuses}


class ApiError(Exception):
    """A failure the service itself answers (tokens, paths)."""

    def __init__(self, status: int, code: str, message: str,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.headers = headers or {}


def problem(status: int, code: str, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status,
                        headers=headers or None)


def clip(text: str, limit: int = EXCERPT) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def status_of(code: str) -> int:
    return 404 if code in NOT_FOUND else 409 if code in CONFLICT else 422


def install(app: FastAPI) -> None:
    @app.exception_handler(RuleViolation)
    def refused(request: Request, error: RuleViolation) -> JSONResponse:
        return problem(status_of(error.code), error.code, error.message)

    @app.exception_handler(AuditError)
    def unverifiable(request: Request, error: AuditError) -> JSONResponse:
        return problem(409, error.code, error.message)  # e.g. the host key was replaced

    @app.exception_handler(ApiError)
    def answered(request: Request, error: ApiError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if error.status == 401 else {}
        return problem(error.status, error.code, error.message, **headers, **error.headers)

    @app.exception_handler(RequestValidationError)
    def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])  # may hold a key as sent
        return problem(422, "invalid_input", f"{clip(where)}: {clip(first['msg'], 300)}")

    @app.exception_handler(Busy)
    def waited(request: Request, error: Busy) -> JSONResponse:
        """Other writers held the match for the whole bounded wait, or PostgreSQL gave no
        connection (`store_busy`): nothing was recorded."""
        return problem(503, error.code, error.message, **{"Retry-After": "1"})

    @app.exception_handler(OperationalError)
    @app.exception_handler(InterfaceError)
    def unreachable(request: Request, error: Exception) -> JSONResponse:
        log.warning("no store connection on %s %s: %s", request.method, request.url.path,
                    " ".join(str(error).split())[:200])
        return problem(503, "store_busy", "the store gave no connection in time: send it "
                       "again shortly", **{"Retry-After": "2"})

    @app.exception_handler(IntegrityError)
    def busy(request: Request, error: IntegrityError) -> JSONResponse:
        """Other workers kept writing to the same match for all of the application's retries:
        nothing was recorded, so the client may send the command again (with its id)."""
        return problem(503, "busy", "the match is busy: send the command again",
                       **{"Retry-After": "1"})

    @app.exception_handler(HTTPException)
    def http(request: Request, error: HTTPException) -> JSONResponse:
        return problem(error.status_code, HTTP_CODES.get(error.status_code, "http_error"),
                       str(error.detail), **(error.headers or {}))

    @app.exception_handler(Exception)
    def bug(request: Request, error: Exception) -> JSONResponse:
        log.error("internal error on %s %s", request.method, request.url.path, exc_info=error)
        return problem(500, "internal", "internal error")
