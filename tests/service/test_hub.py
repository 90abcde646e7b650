"""The hub's shared reads: streams woken together that would read the same read once; a new
length of the log, another viewer or another starting seq reads again."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from commands.web.hub import Hub


class Lengths:
    """The one thing the hub asks of the views: each watched match's projected length."""

    def __init__(self) -> None:
        self.length = {"m": 3}

    def seqs(self, matches: list[str]) -> dict[str, int]:
        return {m: self.length[m] for m in matches if m in self.length}


class Reads:
    """A read of the views that takes a while, counted, and says which length it saw."""

    def __init__(self, lengths: Lengths) -> None:
        self.lengths, self.calls = lengths, 0
        self.lock = threading.Lock()

    def __call__(self, match_id: str, viewer: str, after: int) -> list[dict[str, Any]]:
        with self.lock:
            self.calls += 1
        threading.Event().wait(0.05)
        return [{"seq": seq, "viewer": viewer}
                for seq in range(after + 1, self.lengths.length[match_id] + 1)]


def test_a_thousand_streams_woken_together_read_once_per_viewer_and_length():
    lengths = Lengths()
    hub, read = Hub(lengths), Reads(lengths)  # type: ignore[arg-type]

    async def run() -> None:
        listeners = [hub.listen("m") for _ in range(1000)]
        first = await hub.since("m", "public", 0, read)  # before any poll: read alone
        assert read.calls == 1 and [e["seq"] for e in first] == [1, 2, 3]
        hub.poll()
        found = await asyncio.gather(*(hub.since("m", "public", 0, read) for _ in range(1000)))
        assert read.calls == 2 and all(f == first for f in found)
        assert await hub.since("m", "public", 0, read) == first  # later, the same length
        assert read.calls == 2
        await hub.since("m", "bob", 0, read)  # another viewer
        await hub.since("m", "public", 2, read)  # another starting seq
        assert read.calls == 4
        lengths.length["m"] = 5  # the log grew: the next poll starts new reads
        hub.poll()
        found = await asyncio.gather(*(hub.since("m", "public", 3, read) for _ in range(500)))
        assert read.calls == 5 and all([e["seq"] for e in f] == [4, 5] for f in found)
        for listener in listeners:
            hub.leave("m", listener)

    asyncio.run(run())


def test_a_stream_that_goes_away_leaves_the_shared_read_to_the_others():
    lengths = Lengths()
    hub, read = Hub(lengths), Reads(lengths)  # type: ignore[arg-type]

    async def run() -> None:
        listener = hub.listen("m")
        hub.poll()
        gone = asyncio.ensure_future(hub.since("m", "public", 0, read))
        staying = asyncio.ensure_future(hub.since("m", "public", 0, read))
        await asyncio.sleep(0.01)
        gone.cancel()
        assert [e["seq"] for e in await staying] == [1, 2, 3]
        assert read.calls == 1
        hub.leave("m", listener)

    asyncio.run(run())
