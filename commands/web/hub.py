"""Wakes the event streams of a match when its projected log grows by what they may see.

One thread per worker looks at the projected length of the matches someone is listening to
(one indexed query), so a stream hears about an entry whichever worker or process recorded
it: on PostgreSQL at each NOTIFY the projection sends as its write commits, from any host
(projections.notices), and every `stream_interval` seconds besides; on SQLite at that poll.

When a match's log grows, the hub reads what is new once for all the streams that would read
the same (the same viewer, after the same seq) and wakes only the streams that read found
something, handing them the entries: a sealed vote, which the public sees nothing of, wakes
no public stream, and a thousand viewers of a match cost one query per new entry, not a
thousand (bench/viewers.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from dataclasses import dataclass, field
from typing import Any

from starlette.concurrency import run_in_threadpool

from projections.notices import looked
from projections.tables import ArbiterViews

Entries = list[dict[str, Any]]


@dataclass(eq=False)
class Listener:
    """One open stream: the seq it has sent up to, and the entries handed to it since."""

    loop: asyncio.AbstractEventLoop
    viewer: str
    after: int
    event: asyncio.Event = field(default_factory=asyncio.Event)
    found: Entries = field(default_factory=list)

    def hand(self, entries: Entries) -> None:
        """Entries read after some seq up to now: the ones it has neither sent nor holds."""
        top = self.found[-1]["seq"] if self.found else self.after
        new = [entry for entry in entries if entry["seq"] > top]
        if new:
            self.found += new
            self.event.set()

    def take(self) -> Entries:
        """What it was handed and has not sent yet."""
        found, self.found = [e for e in self.found if e["seq"] > self.after], []
        return found

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

    def listen(self, match_id: str, viewer: str, after: int) -> Listener:
        """Called on the event loop of the stream."""
        listener = Listener(asyncio.get_running_loop(), viewer, after)
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

    async def since(self, match_id: str, viewer: str, after: int) -> Entries:
        """What a stream that opens now reads first."""
        return await run_in_threadpool(self.views.entries_since, match_id, viewer, after)

    def run(self, stop: threading.Event, interval: float) -> None:
        """Look every `interval` seconds (SQLite; PostgreSQL's NOTIFY: projections.notices)."""
        while not stop.wait(interval):
            looked(self.poll, interval)  # a failed look is said, and the next one tries again

    def poll(self) -> None:
        with self._lock:
            watched = list(self._listeners)
        for match_id, seq in self.views.seqs(watched).items():
            if self._seen.get(match_id) != seq:
                self._seen[match_id] = seq
                self._grown(match_id)

    def close(self) -> None:
        """The service is stopping: every stream ends."""
        self.closed = True
        with self._lock:
            listening = [listener for found in self._listeners.values() for listener in found]
        for listener in listening:
            listener.wake()

    def _grown(self, match_id: str) -> None:
        """A match's log grew: each event loop with streams of it reads what is new."""
        loops: dict[asyncio.AbstractEventLoop, list[Listener]] = {}
        with self._lock:
            for listener in self._listeners.get(match_id, ()):
                loops.setdefault(listener.loop, []).append(listener)
        for loop, listening in loops.items():
            with contextlib.suppress(RuntimeError):  # the loop has closed: its streams are gone
                loop.call_soon_threadsafe(self._read_for, loop, match_id, listening)

    def _read_for(self, loop: asyncio.AbstractEventLoop, match_id: str,
                  listening: list[Listener]) -> None:
        """On the streams' loop: one read per viewer and seq its streams have sent up to."""
        groups: dict[tuple[str, int], list[Listener]] = {}
        for listener in listening:
            groups.setdefault((listener.viewer, listener.after), []).append(listener)
        for (viewer, after), streams in groups.items():
            loop.create_task(self._hand(match_id, viewer, after, streams))

    async def _hand(self, match_id: str, viewer: str, after: int,
                    streams: list[Listener]) -> None:
        try:
            found = await self.since(match_id, viewer, after)
        except Exception:  # the views cannot be read now: each stream reads for itself
            for listener in streams:
                listener.event.set()
            return
        for listener in streams:
            listener.hand(found)
