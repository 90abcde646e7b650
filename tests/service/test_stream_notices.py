"""Live streams on PostgreSQL wake at the NOTIFY the projection sends, from any service on the
database, not at their poll; a lost LISTEN connection is made again."""

from __future__ import annotations

import threading
import time
from typing import Any

import psycopg
import pytest
from service_harness import Client, Server, eventually
from test_http_streams import set_up

from projections.notices import APPLICATION_NAME

POLL = 60.0  # the streams' poll, far longer than any wait below: only a NOTIFY wakes them
SOON = 5.0  # a NOTIFY's wake-up, with room for a busy machine; still a twelfth of the poll


def bid_heard(client: Client, player: str, heard: list[float]) -> threading.Thread:
    """Reads a player's stream until their bid is in it, noting when."""
    def run() -> None:
        client.events(f"/matches/m1/players/{player}/events",
                      until=lambda entries: entries[-1]["kind"] == "BidPlaced", timeout=POLL)
        heard.append(time.monotonic())

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def vote_and_hear(through: Server, on: Server, tokens: dict[str, str], player: str) -> float:
    """Seconds from a bid sent through one service to its player's stream on the other."""
    heard: list[float] = []
    listener = bid_heard(on.client(tokens[player]), player, heard)
    time.sleep(1.0)  # the stream has read the log so far and waits
    voter = through.client(tokens[player])
    sent = time.monotonic()
    voter.ok(voter.post(f"/matches/m1/players/{player}/commands",
                        {"command": "bid", "args": {"amount": 4}}))
    listener.join(timeout=POLL)
    assert heard, f"{player}'s stream never heard the bid"
    return heard[0] - sent


def listening(url: str) -> list[int]:
    """The sessions LISTENing for the views' NOTIFY in the test's database."""
    with psycopg.connect(url, autocommit=True) as conn:
        rows: list[Any] = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s "
            "AND datname = current_database()", (APPLICATION_NAME,)).fetchall()
    return sorted(row[0] for row in rows)


@pytest.mark.postgres
def test_a_vote_through_one_service_wakes_a_stream_on_another_at_once(pg_url):
    with Server(pg_url, stream_interval=POLL) as one, Server(pg_url, stream_interval=POLL) as two:
        tokens = set_up(one.client(one.host_token()))
        assert vote_and_hear(one, two, tokens, "bob") < SOON


@pytest.mark.postgres
def test_a_dropped_listen_connection_is_made_again_and_wakes_streams(pg_url):
    with Server(pg_url, stream_interval=POLL) as one, Server(pg_url, stream_interval=POLL) as two:
        tokens = set_up(one.client(one.host_token()))
        before = eventually(lambda: len(listening(pg_url)) == 2 and listening(pg_url))
        with psycopg.connect(pg_url, autocommit=True) as conn:
            for pid in before:
                conn.execute("SELECT pg_terminate_backend(%s)", (pid,))
        # Both services listen again, on new sessions, long before their poll comes round.
        again = eventually(lambda: (len(found := listening(pg_url)) == 2
                                    and not set(found) & set(before) and found), timeout=SOON)
        assert again
        assert vote_and_hear(one, two, tokens, "cy") < SOON
