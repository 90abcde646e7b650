"""Wakes the event streams of a match when its projected log grows.

One thread per worker polls the projected length of the matches someone is listening to (one
indexed query), so a stream hears about an entry whichever worker or process recorded it.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from dataclasses import dataclass

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
