"""Anyone, no token: every match and season log as c2sp.org/tlog-tiles under /logs/, the same
tree `arbiter publish` writes to a folder or a bucket (docs/audit.md, "Tiles").

A tile never changes once it exists, a full one or a partial one (its width is in its path),
so tiles and entry bundles are cached for a year (`immutable`); the checkpoint and log.json
change with each signed round, so they are cached for a few seconds. Every answer has an
ETag, and `If-None-Match` gets a 304. Entry bundles are gzipped for a client that takes it.

HEAD answers as a static host does: GET's status and headers (Content-Length included), the
server sending no body. Any page may read the tiles (`commands.web.headers`, CORS).
"""

from __future__ import annotations

import functools
import gzip
from collections.abc import Callable
from hashlib import sha256
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Response

from audit.tiles import CHECKPOINT
from audit.tiles_bundle import LOG_JSON
from commands.service.tiles import MATCH, SEASON, TiledView, cache_control, media_type
from commands.web.auth import Svc
from commands.web.edge import Route
from commands.web.errors import ApiError
from commands.web.models import MatchId, SeasonId

router = APIRouter(route_class=Route, tags=["anyone"])

ANSWERS: dict[int | str, dict[str, Any]] = {
    200: {"description": "The resource", "content": {
        "application/octet-stream": {}, "text/plain": {}, "application/json": {}}},
    304: {"description": "Not modified: the ETag sent in If-None-Match is still current"}}
HEAD_ANSWERS: dict[int | str, dict[str, Any]] = {
    200: {"description": "The headers a GET answers (Content-Length, ETag, Cache-Control), "
                         "no body"},
    304: ANSWERS[304]}
Resource = Annotated[str, Path(description="`checkpoint`, `tile/<L>/<N>[.p/<W>]`, "
                                           "`tile/entries/<N>[.p/<W>]` or `arbiter/log.json`")]
IfNoneMatch = Annotated[str | None, Header(description="An ETag from an earlier answer")]
AcceptEncoding = Annotated[str | None, Header(description="`gzip` for gzipped entry bundles")]
Endpoint = Callable[..., Response]


def tiles_route(path: str, log: str) -> Callable[[Endpoint], Endpoint]:
    """One endpoint for GET and HEAD: the same answer, whose body the server does not send to
    a HEAD (every ASGI server leaves it out, as Starlette's own HEAD relies on)."""
    def routed(endpoint: Endpoint) -> Endpoint:
        router.add_api_route(path, endpoint, methods=["GET"], responses=ANSWERS,
                             summary=f"A {log} log as c2sp.org/tlog-tiles: checkpoint, tiles, "
                                     "entry bundles")
        router.add_api_route(path, endpoint, methods=["HEAD"], responses=HEAD_ANSWERS,
                             summary=f"What GET answers of a {log} log's resource, headers only")
        return endpoint

    return routed


@tiles_route("/logs/match/{match_id}/{path:path}", "match")
def match_tiles(match_id: MatchId, path: Resource, svc: Svc,
                if_none_match: IfNoneMatch = None,
                accept_encoding: AcceptEncoding = None) -> Response:
    return served(svc.tiles.view(MATCH, match_id), path, if_none_match, accept_encoding)


@tiles_route("/logs/season/{season}/{path:path}", "season")
def season_tiles(season: SeasonId, path: Resource, svc: Svc,
                 if_none_match: IfNoneMatch = None,
                 accept_encoding: AcceptEncoding = None) -> Response:
    return served(svc.tiles.view(SEASON, season), path, if_none_match, accept_encoding)


def served(view: TiledView, path: str, if_none_match: str | None,
           accept_encoding: str | None) -> Response:
    data = view.resource(path)
    if data is None:
        raise ApiError(404, "not_found", missing(view, path))
    gzipped = path.startswith("tile/entries/") and "gzip" in (accept_encoding or "")
    tag = f'"{sha256(data).hexdigest()[:32]}{"-gz" if gzipped else ""}"'
    headers = {"ETag": tag, "Cache-Control": cache_control(path)}
    if path.startswith("tile/entries/"):
        headers["Vary"] = "Accept-Encoding"
    if if_none_match is not None and tag in (t.strip() for t in if_none_match.split(",")):
        return Response(status_code=304, headers=headers)
    if gzipped:
        data = compressed(data)
        headers["Content-Encoding"] = "gzip"
    return Response(data, media_type=media_type(path), headers=headers)


@functools.lru_cache(maxsize=128)  # entry bundles never change: each is compressed once
def compressed(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


def missing(view: TiledView, path: str) -> str:
    """Why there is nothing at `path`, in words."""
    log = f"{view.log} {view.name}"
    if path == CHECKPOINT:
        return f"{log} has no signed checkpoint yet, so no tiles: its entries are listed in " \
               f"{LOG_JSON}"
    if path.startswith("tile/"):
        return f"{log} has no {path}: its tiles cover the {view.size} entries its last " \
               "signed checkpoint signs (c2sp.org/tlog-tiles spells a tile " \
               "tile/<L>/<N>[.p/<W>], N in groups of three digits like x001/x234/067)"
    return f"{log} has nothing at {path}: its log is served as checkpoint, tile/..., " \
           f"tile/entries/... and {LOG_JSON}"
