"""Concurrent commands on one match lose nothing and duplicate nothing."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from commands.app import Arbiter
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
