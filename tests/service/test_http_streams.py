"""Server-sent events: a listener hears a round close without polling, and a private answer
reaches only the player it was for (on both stores)."""

from __future__ import annotations

import threading
import time
from typing import Any

from service_harness import Client, Server

PLAYERS = ["ann", "bob", "cy"]


def set_up(host: Client) -> dict[str, str]:
    host.ok(host.post("/seasons", {"name": "spring"}))
    for player in PLAYERS:
        host.ok(host.post("/seasons/spring/players", {"player": player}))
    host.ok(host.post("/seasons/spring/grants", {"player": "ann", "amount": 5, "reason": "x"}))
    host.ok(host.post("/matches", {"match": "m1", "season": "spring", "game": "sealed_bid",
                                   "players": PLAYERS, "setup": {"rounds": 2}}))
    host.ok(host.post("/matches/m1/commands", {"command": "open_match"}))
    return {p: host.ok(host.post(f"/matches/m1/players/{p}/token"))["token"] for p in PLAYERS}


def closed(entries: list[dict[str, Any]]) -> bool:
    return any(e["kind"] == "RoundClosed" for e in entries)


def listen(client: Client, path: str, heard: dict[str, list], name: str) -> threading.Thread:
    def run() -> None:
        heard[name] = client.events(path, until=closed)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_a_close_reaches_every_listener_and_a_private_answer_only_its_player(db_url):
    with Server(db_url, stream_interval=0.05) as server:
        host = server.client(server.host_token())
        tokens = set_up(host)
        heard: dict[str, list] = {}
        listeners = [
            listen(server.client(), "/matches/m1/events", heard, "public"),
            listen(server.client(tokens["ann"]), "/matches/m1/players/ann/events", heard, "ann"),
            listen(server.client(tokens["bob"]), "/matches/m1/players/bob/events", heard, "bob"),
        ]
        time.sleep(0.5)  # the listeners are waiting before anything happens
        ann, bob = server.client(tokens["ann"]), server.client(tokens["bob"])
        hint = ann.ok(ann.post("/matches/m1/players/ann/commands", {"command": "hint"}))
        bob.ok(bob.post("/matches/m1/players/bob/commands",
                        {"command": "bid", "args": {"amount": 4}}))
        started = time.monotonic()
        host.ok(host.post("/matches/m1/close", {"round": 1}))
        for listener in listeners:
            listener.join(timeout=20)
        assert time.monotonic() - started < 5

    # Everyone heard the host close the round, and the public result.
    for name in ("public", "ann", "bob"):
        kinds = [e["kind"] for e in heard[name]]
        assert "RoundClosed" in kinds
        assert any(e["kind"] == "CommandAccepted" and e["data"]["name"] == "close_round"
                   for e in heard[name])
    # The hint's answer (its secret) reached ann alone; bob heard his own bid.
    secret = [e for e in heard["ann"] if e["kind"] == "HintGiven"]
    assert [e["seq"] for e in secret] == hint["seqs"][1:]
    for name in ("public", "bob"):
        assert not {e["seq"] for e in heard[name]} & set(hint["seqs"])
    assert any(e["kind"] == "BidPlaced" for e in heard["bob"])
    assert not any(e["kind"] == "BidPlaced" for e in heard["public"] + heard["ann"])


def test_a_stream_resumes_after_the_last_event_id(db_url):
    with Server(db_url) as server:
        host = server.client(server.host_token())
        set_up(host)
        host.ok(host.post("/matches/m1/close", {"round": 1}))
        everything = server.client().events("/matches/m1/events", until=closed)
        resumed = server.client()
        resumed.http.headers["Last-Event-ID"] = str(everything[1]["seq"])
        rest = resumed.events("/matches/m1/events", until=closed)
    assert rest == everything[2:]
