"""Wakes the event streams of a match when its projected log grows.

One thread per worker polls the projected length of the matches someone is listening to (one
indexed query), so a stream hears about an entry whichever worker or process recorded it.

Woken streams that would read the same (a match's entries after the same seq, as the same
viewer sees them, while the log stands at the same length) share one read of the views: a
thousand viewers of a match cost one query per new entry, not a thousand.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool

from projections.tables import ArbiterViews


@dataclass(frozen=True, eq=False)
class Listener:
    loop: asyncio.AbstractEventLoop
    event: asyncio.Event

    def wake(self) -> None:
        with contextlib.suppress(RuntimeError):  # its loop has closed: the stream is gone
            self.loop.call_soon_threadsafe(self.event.set)


class Hub:
    def __init__(self, views: ArbiterViews) -> None:
        self.views = views
        self.closed = False
        self._lock = threading.Lock()
        self._listeners: dict[str, set[Listener]] = {}
        self._seen: dict[str, int] = {}
        # per event loop and match: the length polled, and the reads made at that length
        self._reads: dict[tuple[asyncio.AbstractEventLoop, str],
                          tuple[int, dict[tuple[str, int], asyncio.Future[Any]]]] = {}

    def listen(self, match_id: str) -> Listener:
        """Called on the event loop of the stream."""
        listener = Listener(asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._listeners.setdefault(match_id, set()).add(listener)
        return listener

    def leave(self, match_id: str, listener: Listener) -> None:
        with self._lock:
            listening = self._listeners.get(match_id, set())
            listening.discard(listener)
            if not listening:
                self._listeners.pop(match_id, None)
                self._seen.pop(match_id, None)
                for key in [key for key in self._reads if key[1] == match_id]:
                    del self._reads[key]

    async def since(self, match_id: str, viewer: str, after: int,
                    read: Callable[[str, str, int], list[dict[str, Any]]]
                    ) -> list[dict[str, Any]]:
        """`read(match_id, viewer, after)` in a thread, shared by the streams that ask the same
        while the match's log stands at the length last polled (a new length, a new read)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            length = self._seen.get(match_id)
            if length is None:  # not polled yet: nothing to share
                shared = None
            else:
                polled, reads = self._reads.get((loop, match_id), (None, {}))
                if polled != length:
                    reads = {}
                    self._reads[loop, match_id] = (length, reads)
                shared = reads.get((viewer, after))
                if shared is None:
                    shared = reads[viewer, after] = loop.create_task(
                        run_in_threadpool(read, match_id, viewer, after))
        if shared is None:
            return await run_in_threadpool(read, match_id, viewer, after)
        return await asyncio.shield(shared)

    def run(self, stop: threading.Event, interval: float) -> None:
        while not stop.wait(interval):
            self.poll()

    def poll(self) -> None:
        with self._lock:
            watched = list(self._listeners)
        for match_id, seq in self.views.seqs(watched).items():
            if self._seen.get(match_id) != seq:
                self._seen[match_id] = seq
                self._wake(match_id)

    def close(self) -> None:
        """The service is stopping: every stream ends."""
        self.closed = True
        with self._lock:
            watched = list(self._listeners)
        for match_id in watched:
            self._wake(match_id)

    def _wake(self, match_id: str) -> None:
        with self._lock:
            listening = list(self._listeners.get(match_id, ()))
        for listener in listening:
            listener.wake()
