"""Concurrent commands on one match lose nothing and duplicate nothing."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from commands.service.arbiter import Arbiter
from domain.envelope import entry_hash
from tests.test_match_ledger import PLAYERS, new_match

BIDS = 8


def test_concurrent_submissions_from_separate_services_keep_the_chain(app, db_url):
    new_match(app, garnets=(40, 40, 40))
    app.submit("m1", "host", "open_match")

    def player_session(player: str) -> None:
        service = Arbiter(db_url)  # as if another worker process
        try:
            for n in range(BIDS):
                service.submit("m1", player, "bid", {"amount": n}, command_id=f"{player}-{n}")
                service.submit("m1", player, "hint", command_id=f"{player}-hint-{n}")
        finally:
            service.close()

    with ThreadPoolExecutor(len(PLAYERS)) as pool:
        list(pool.map(player_session, PLAYERS))

    match = app.match("m1")
    # open (4 entries) + per player and n: a bid (2) and a hint (2).
    assert match.version == 2 + 4 + len(PLAYERS) * BIDS * 4
    assert match.state.bids == dict.fromkeys(PLAYERS, BIDS - 1)
    prev = None
    for record in match.records:
        assert prev is None or record["entry"]["prev"] == prev
        assert entry_hash(record["entry"]) == record["entry"]["hash"]
        prev = record["entry"]["hash"]
    # Every hint was paid for exactly once.
    assert app.season("spring").garnets(PLAYERS) == dict.fromkeys(PLAYERS, 40 - 2 * BIDS)


def test_readers_share_one_service_with_its_writers_and_never_see_a_change(app):
    """Readers get immutable snapshots: a reader holding one while writers go on in the same
    process sees it unchanged, and no read fails however the threads interleave."""
    new_match(app, garnets=(40, 40, 40))
    app.submit("m1", "host", "open_match")
    before = app.match("m1")
    frozen_hashes = [r["entry"]["hash"] for r in before.records]

    def write(player: str) -> None:
        for n in range(BIDS):
            app.submit("m1", player, "bid", {"amount": n})

    def read(_: int) -> int:
        seen = 0
        for _ in range(40):
            match = app.match("m1")
            assert [r["entry"]["seq"] for r in match.records] == \
                list(range(1, match.version + 1))
            seen = max(seen, match.version)
        return seen

    with ThreadPoolExecutor(6) as pool:
        writers = [pool.submit(write, p) for p in PLAYERS]
        readers = list(pool.map(read, range(3)))
        for done in writers:
            done.result()
    assert max(readers) <= app.match("m1").version == before.version + len(PLAYERS) * BIDS * 2
    assert [r["entry"]["hash"] for r in before.records] == frozen_hashes
    assert before.version == len(before.records) == len(frozen_hashes)
