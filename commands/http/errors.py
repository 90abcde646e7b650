"""Every failure as a JSON body {"error": code, "message": ...} with a 4xx status.

Rule violations keep the rules' own codes; FastAPI's validation errors and unknown routes
come out in the same shape. A command that lost every optimistic retry to other workers is a
503 `busy` (nothing recorded: send it again). Only a bug answers 500.
"""

from __future__ import annotations

import logging
from typing import Any

from eventsourcing.persistence import IntegrityError
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from audit.errors import AuditError
from domain.errors import RuleViolation

NOT_FOUND = {"unknown_match", "unknown_season"}
CONFLICT = {"match_exists", "season_exists", "player_exists"}
HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 406: "not_acceptable",
              415: "unsupported_media_type"}
log = logging.getLogger("arbiter.service")


class Problem(BaseModel):
    error: str
    message: str


ERRORS: dict[int | str, dict[str, Any]]  # what FastAPI's `responses` takes
ERRORS = {status: {"model": Problem, "description": text} for status, text in (
    (401, "No token"), (403, "A token, but not one that may do this"),
    (404, "Unknown match, season or player"), (409, "It exists already"),
    (422, "Refused by the rules, or bad input"),
    (503, "Busy: other workers kept writing to the match; nothing was recorded, send it again"))}


class ApiError(Exception):
    """A failure the service itself answers (tokens, paths)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def problem(status: int, code: str, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status,
                        headers=headers or None)


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
        return problem(error.status, error.code, error.message, **headers)

    @app.exception_handler(RequestValidationError)
    def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return problem(422, "invalid_input", f"{where}: {first['msg']}")

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
