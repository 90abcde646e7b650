"""The service's edge, on SQLite: the token before anything else, then the body's size and
encoding, then its shape; a client id reused for another command is a 409; every refusal
records nothing and quotes no more than a short excerpt of what was sent."""

from __future__ import annotations

import httpx
import pytest
from service_harness import Server

from commands.web.edge import MAX_BODY
from domain.errors import RuleViolation


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("edge")
    with Server(f"sqlite:///{folder}/arbiter.db") as server:
        host = server.client(server.host_token())
        host.ok(host.post("/seasons", {"name": "s"}))
        host.ok(host.post("/seasons/s/players", {"players": ["ann", "bob"]}))
        host.ok(host.post("/matches", {"match": "w", "season": "s", "game": "whispers",
                                       "players": ["ann", "bob"]}))
        host.ok(host.post("/matches/w/commands", {"command": "open_match"}))
        ann = server.client(host.ok(host.post("/matches/w/players/ann/token"))["token"])
        yield server, host, ann


def length(server) -> int:
    return len(server.service.arbiter.match("w").records)


def raw(server, path, content, token=None, kind="application/json"):
    headers = {"Content-Type": kind}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return httpx.post(f"{server.url}{path}", content=content, headers=headers, timeout=60)


def problem(response, status, code):
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["error"] == code, response.text
    assert len(response.text) < 400
    return response.json()


def test_the_token_comes_before_the_body_and_the_path(served):
    server = served[0]
    before = length(server)
    huge = b'{"command": "' + b"x" * (MAX_BODY + 10) + b'"}'
    for path in ("/matches/w/commands", "/matches/w/players/ann/commands",
                 "/matches/%20bad%20/commands", "/matches/w/players/%00/commands"):
        for body in (b"\xff\xfe not utf-8", b"{not json", b'{"unknown": 1}', huge):
            problem(raw(server, path, body), 401, "missing_token")
            problem(raw(server, path, body, token="not-a-token"), 403, "wrong_token")
    assert length(server) == before


def test_a_body_too_large_or_not_json_is_refused_unread(served):
    server, host, _ = served
    before = length(server)
    token = host.http.headers["Authorization"].split()[1]
    huge = b'{"command": "shout", "args": {"pad": "' + b"x" * MAX_BODY + b'"}}'
    problem(raw(server, "/matches/w/commands", huge, token), 413, "too_large")
    problem(raw(server, "/matches/w/commands", b"\xff\xfe", token), 400, "invalid_json")
    problem(raw(server, "/matches/w/commands", b"{not json", token), 400, "invalid_json")
    # A 30 MB value is not echoed back.
    problem(raw(server, "/seasons/s/grants", b'{"player": "' + b"a" * (MAX_BODY - 100) +
                b'", "amount": 1, "reason": "r"}', token), 422, "invalid_input")
    assert length(server) == before


def test_a_media_type_is_read_whatever_its_case(served):
    """`Application/JSON` is JSON (RFC 9110: media types are case-insensitive), so its body
    meets the same depth and size checks as `application/json`'s."""
    server, host, _ = served
    before = length(server)
    token = host.http.headers["Authorization"].split()[1]
    deep = ("[" * 1000 + "]" * 1000).encode()
    for kind in ("application/json", "Application/JSON", "APPLICATION/JSON; charset=utf-8"):
        answer = problem(raw(server, "/matches/w/commands", deep, token, kind), 400,
                         "invalid_json")
        assert "nested" in answer["message"] or "deep" in answer["message"], answer
    assert length(server) == before


def test_an_argument_the_command_does_not_take_is_refused(served):
    server, _, ann = served
    before = length(server)
    error = problem(ann.post("/matches/w/players/ann/commands",
                             {"command": "shout", "args": {"echo": True, "pad": "x" * 20_000}}),
                    422, "unknown_argument")
    assert "'pad'" in error["message"]
    problem(ann.post("/matches/w/players/ann/commands",
                     {"command": "shout", "args": {"echo": "x" * 101}}), 422, "too_large")
    problem(ann.post("/matches/w/players/ann/commands",
                     {"command": "shout", "args": {"echo": "a\u0000b"}}), 422, "invalid_text")
    assert length(server) == before


def test_a_client_id_reused_for_another_command_is_a_conflict(served):
    server, _, ann = served
    path = "/matches/w/players/ann/commands"
    first = ann.ok(ann.post(path, {"command": "shout", "args": {"echo": True}, "id": "X1"}))
    before = length(server)
    assert ann.ok(ann.post(path, {"command": "shout", "args": {"echo": True},
                                  "id": "X1"}))["seqs"] == first["seqs"]
    problem(ann.post(path, {"command": "listen", "id": "X1"}), 409, "id_reused")
    problem(ann.post(path, {"command": "shout", "args": {"echo": False}, "id": "X1"}), 409,
            "id_reused")
    assert length(server) == before


def test_grants_are_bounded(served):
    server, host, _ = served
    before = server.service.arbiter.season("s").version
    problem(host.post("/seasons/s/grants", {"player": "ann", "amount": 10**20, "reason": "x"}),
            422, "invalid_input")
    # The schema says not 0; the season's rule says it too, in its own words.
    problem(host.post("/seasons/s/grants", {"player": "ann", "amount": 0, "reason": "x"}),
            422, "invalid_amount")
    problem(host.post("/seasons/s/grants", {"player": "ann", "amount": 1, "reason": " "}),
            422, "invalid_input")
    assert server.service.arbiter.season("s").version == before


def test_a_key_the_body_does_not_take_is_not_echoed_whole(served):
    _, host, _ = served
    error = problem(host.post("/seasons", {"name": "t", "k" * 100_000: 1}), 422,
                    "invalid_input")
    assert error["message"].startswith("body.kkk") and "…" in error["message"]
    assert len(error["message"]) < 120


def test_a_setup_the_log_cannot_hold_is_the_games_invalid_setup(served):
    server, host, _ = served
    problem(host.post("/matches", {"match": "w2", "season": "s", "game": "whispers",
                                   "players": ["ann", "bob"], "setup": {"note": "a\u0000b"}}),
            422, "invalid_setup")
    with pytest.raises(RuleViolation, match="unknown_match"):
        server.service.arbiter.match("w2")
