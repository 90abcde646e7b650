"""`arbiter witness serve`: a c2sp.org/tlog-witness witness over HTTP, one endpoint,
`POST /add-checkpoint` (audit/cosign.py decides each answer). No pages, no tokens: the
checkpoint's signature by a log key the witness trusts is the only authentication the
protocol has."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from audit.cosign import MAX_BODY, Witness


def witness_app(witness: Witness) -> Starlette:
    async def add_checkpoint(request: Request) -> Response:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return Response("the request is too long\n", 413, media_type="text/plain")
        answer = witness.add_checkpoint(body)
        # the content type exactly as the spec names it (no charset added to text/x.tlog.size)
        return Response(answer.body.encode(), answer.status,
                        headers={"content-type": answer.content_type})

    return Starlette(routes=[Route("/add-checkpoint", add_checkpoint, methods=["POST"])])
