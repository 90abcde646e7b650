"""Server-sent events: a match's entries as one viewer may read them, as they are recorded.

Each event is `event: entry`, `id: <seq>`, `data: <the entry as the viewer reads it>`. A
stream starts after `?after=SEQ` (default 0: the whole log so far) or after the
`Last-Event-ID` a reconnecting client sends, then waits for the projection to record more.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Header, Query
from sse_starlette.sse import EventSourceResponse
from starlette.concurrency import run_in_threadpool

from commands.web.bounds import whole_number
from commands.web.errors import ApiError
from commands.web.worker import Service

After = Annotated[int, Query(ge=0, le=2**31, description="Start after this seq")]
LastEventId = Annotated[str | None, Header(description="Resume after this seq")]
PING = 15  # seconds between keep-alive comments


def stream(svc: Service, match_id: str, viewer: str, after: int,
           last_event_id: str | None) -> EventSourceResponse:
    if last_event_id is not None:  # as the service sent it: a seq, or refused
        resumed = whole_number(last_event_id)
        if resumed is None or not 0 <= resumed <= 2**31:
            raise ApiError(422, "invalid_input", "Last-Event-ID: give the seq of an entry "
                           "this stream sent")
        after = resumed
    listener = svc.hub.listen(match_id)

    async def entries() -> AsyncIterator[dict[str, str]]:
        last = after
        try:
            while not svc.hub.closed:
                listener.event.clear()
                found = await run_in_threadpool(svc.views.entries_since, match_id, viewer, last)
                for entry in found:
                    yield {"event": "entry", "id": str(entry["seq"]), "data": json.dumps(entry)}
                    last = entry["seq"]
                await listener.event.wait()
        finally:
            svc.hub.leave(match_id, listener)

    return EventSourceResponse(entries(), ping=PING)
