"""The hub reads what is new once for the streams that would read the same, and wakes only
the streams it found something for, handing them the entries."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from commands.web.hub import Hub


class Views:
    """What the hub asks of the views: each watched match's projected length, and the entries
    a viewer may read after a seq (here the public reads the even seqs alone), counted."""

    def __init__(self) -> None:
        self.length = {"m": 3}
        self.reads: list[tuple[str, int]] = []
        self.lock = threading.Lock()

    def seqs(self, matches: list[str]) -> dict[str, int]:
        return {m: self.length[m] for m in matches if m in self.length}

    def entries_since(self, match_id: str, viewer: str, after: int) -> list[dict[str, Any]]:
        with self.lock:
            self.reads.append((viewer, after))
        threading.Event().wait(0.02)
        return [{"seq": seq, "viewer": viewer}
                for seq in range(after + 1, self.length[match_id] + 1)
                if viewer != "public" or seq % 2 == 0]


async def settled() -> None:
    for _ in range(20):
        await asyncio.sleep(0.01)


def seqs(entries: list[dict[str, Any]]) -> list[int]:
    return [e["seq"] for e in entries]


def test_a_thousand_streams_cost_one_read_per_viewer_and_seq_and_wake_only_when_handed():
    views = Views()
    hub = Hub(views)  # type: ignore[arg-type]

    async def run() -> None:
        public = [hub.listen("m", "public", 3) for _ in range(1000)]
        bob = hub.listen("m", "bob", 3)
        late = hub.listen("m", "public", 1)  # it has sent less: a read of its own
        hub.poll()  # the first look: the length seen, every stream reads from where it is
        await settled()
        assert sorted(views.reads) == [("bob", 3), ("public", 1), ("public", 3)]
        assert seqs(late.take()) == [2] and not any(p.event.is_set() for p in public)
        late.after = 2
        views.reads.clear()
        views.length["m"] = 4  # an entry the public sees
        hub.poll()
        await settled()
        assert sorted(views.reads) == [("bob", 3), ("public", 2), ("public", 3)]
        assert all(p.event.is_set() and seqs(p.take()) == [4] for p in public)
        assert seqs(bob.take()) == [4] and seqs(late.take()) == [4]
        for p in [*public, bob, late]:  # each stream sent entry 4
            p.event.clear()
            p.after = 4
        views.reads.clear()
        views.length["m"] = 5  # sealed to the public: no public stream wakes
        hub.poll()
        await settled()
        assert sorted(views.reads) == [("bob", 4), ("public", 4)]
        assert not any(p.event.is_set() for p in public) and seqs(bob.take()) == [5]
        for listener in [*public, bob, late]:
            hub.leave("m", listener)

    asyncio.run(run())


def test_entries_handed_twice_are_sent_once():
    views = Views()
    hub = Hub(views)  # type: ignore[arg-type]

    async def run() -> None:
        listener = hub.listen("m", "bob", 0)
        listener.hand([{"seq": 1}, {"seq": 2}])
        listener.hand([{"seq": 1}, {"seq": 2}, {"seq": 3}])  # a later read from the same seq
        listener.after = 1  # it sent entry 1 meanwhile
        assert seqs(listener.take()) == [2, 3] and listener.take() == []
        hub.leave("m", listener)

    asyncio.run(run())


def test_a_look_that_fails_is_tried_again_at_the_next():
    """The views cannot be read for a moment (a database restart): the hub's loop goes on, and
    the stream hears the entry at the next look that reads."""
    views = Views()
    failures = [RuntimeError("the server closed the connection")] * 3
    lengths = views.seqs

    def flaky(matches: list[str]) -> dict[str, int]:
        if failures:
            raise failures.pop()
        return lengths(matches)

    views.seqs = flaky  # type: ignore[method-assign]
    hub = Hub(views)  # type: ignore[arg-type]
    stop = threading.Event()

    async def run() -> None:
        listener = hub.listen("m", "bob", 3)
        views.length["m"] = 4
        looking = threading.Thread(target=hub.run, args=(stop, 0.01))
        looking.start()
        try:
            await asyncio.wait_for(listener.event.wait(), timeout=10)
        finally:
            stop.set()
            looking.join()
        assert not failures and seqs(listener.take()) == [4]

    asyncio.run(run())
