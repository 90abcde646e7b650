"""Under a crowd of strangers an answer anyone may read is asked of the store once a second,
not once a request: `Builds.get(..., fresh_for)` answers what it found current less than that
long ago, and the web asks so only for a stranger who had to wait their turn."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from uuid import UUID, uuid4

from commands.service.built import Builds
from commands.web import edge

LOG = uuid4()


class Store:
    def __init__(self) -> None:
        self.version, self.asked = 1, 0

    def versions(self, ids: Sequence[UUID]) -> list[int]:
        self.asked += 1
        return [self.version for _ in ids]


def build_of(store: Store):
    return lambda: (f"page at {store.version}".encode(), False)


def test_without_freshness_every_request_asks_the_store_and_sees_a_vote_at_once():
    store = Store()
    builds = Builds(store.versions)
    assert builds.get("m", [LOG], build_of(store)).body == b"page at 1"
    store.version = 2  # a vote
    assert builds.get("m", [LOG], build_of(store)).body == b"page at 2"
    assert builds.get("m", [LOG], build_of(store)).body == b"page at 2"
    assert store.asked == 3


def test_a_crowded_request_takes_what_was_found_current_within_the_second():
    store = Store()
    builds = Builds(store.versions)
    builds.get("m", [LOG], build_of(store))
    store.version = 2  # a vote the crowd need not see for up to a second
    for _ in range(50):
        assert builds.get("m", [LOG], build_of(store), fresh_for=1.0).body == b"page at 1"
    assert store.asked == 1
    assert builds.kept("m", 1.0) is not None and builds.kept("m") is None
    # A player (no freshness allowed) sees the vote, and that check counts for the crowd too.
    assert builds.get("m", [LOG], build_of(store)).body == b"page at 2"
    assert builds.get("m", [LOG], build_of(store), fresh_for=1.0).body == b"page at 2"
    assert store.asked == 2


def test_past_the_freshness_the_store_is_asked_again():
    store = Store()
    builds = Builds(store.versions)
    builds.get("m", [LOG], build_of(store))
    store.version = 2
    time.sleep(0.06)
    assert builds.get("m", [LOG], build_of(store), fresh_for=0.05).body == b"page at 2"
    assert store.asked == 2


def test_nothing_kept_is_built_whatever_the_freshness():
    store = Store()
    assert Builds(store.versions).kept("m", 1.0) is None
    assert Builds(store.versions).get("m", [LOG], build_of(store), fresh_for=1.0).body \
        == b"page at 1"


class Seen:
    """A request's route as the edge sees it: what `fresh_for()` says inside the answer."""

    def __init__(self) -> None:
        self.fresh: list[float] = []

    async def handle(self, request: object) -> object:
        self.fresh.append(edge.fresh_for())
        await asyncio.sleep(0.01)
        return "answered"


class App:
    class state:  # Starlette's app.state
        pass


class Request:
    app = App()
    method = "GET"


def test_only_a_stranger_who_waits_their_turn_is_crowded():
    route = object.__new__(edge.Route)
    seen = Seen()

    async def asking(who: str | None) -> None:
        await route.in_turn(Request(), seen.handle, who)  # type: ignore[arg-type]

    async def main() -> None:
        App.state.turns = edge.Turns()
        await asking(None)  # alone: fresh
        await asyncio.gather(*(asking(None) for _ in range(edge.STRANGERS + 3)))
        await asyncio.gather(*(asking("bob") for _ in range(edge.STRANGERS + 3)))

    asyncio.run(main())
    alone, strangers, players = (seen.fresh[:1], seen.fresh[1:edge.STRANGERS + 4],
                                 seen.fresh[edge.STRANGERS + 4:])
    assert alone == [0.0]
    assert sorted(strangers) == [0.0] * edge.STRANGERS + [edge.CROWDED_FRESH] * 3
    assert players == [0.0] * (edge.STRANGERS + 3)


def test_a_stranger_waits_while_a_player_is_answered_but_never_for_long(monkeypatch):
    """A stranger's request waits for the player's being answered in its worker (the vote
    then races no new stranger for the GIL), at most PLAYERS_FIRST seconds."""
    route = object.__new__(edge.Route)
    order: list[str] = []

    def handled(name: str, hold: asyncio.Event | None = None):
        async def handle(request: object) -> str:
            order.append(f"{name} begins")
            if hold is not None:
                await hold.wait()
            order.append(f"{name} ends")
            return name
        return handle

    async def main() -> None:
        App.state.turns = edge.Turns()
        vote = asyncio.Event()
        player = asyncio.create_task(route.in_turn(Request(), handled("vote", vote), "bob"))
        await asyncio.sleep(0)
        stranger = asyncio.create_task(route.in_turn(Request(), handled("page"), None))
        await asyncio.sleep(0.05)
        assert order == ["vote begins"]  # the page waits its turn
        vote.set()
        await asyncio.gather(player, stranger)
        assert order == ["vote begins", "vote ends", "page begins", "page ends"]

        order.clear()
        held = asyncio.Event()  # a player's request that takes long does not shut strangers out
        monkeypatch.setattr(edge, "PLAYERS_FIRST", 0.1)
        player = asyncio.create_task(route.in_turn(Request(), handled("slow", held), "bob"))
        await asyncio.sleep(0)
        started = time.monotonic()
        await route.in_turn(Request(), handled("page"), None)
        assert 0.1 <= time.monotonic() - started < 1.0
        assert order == ["slow begins", "page begins", "page ends"]
        held.set()
        await player

    asyncio.run(main())
