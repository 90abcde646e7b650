"""Tokens from the command line: the host's and a player's, stored as SHA-256 digests only;
a new one replaces the old."""

from __future__ import annotations

import hashlib
import time
from typing import cast

from click.testing import CliRunner

from commands.cli.main import cli
from commands.service.arbiter import Arbiter
from commands.service.tokens import Session, Tokens
from tests.support.host_key import SIGNER
from tests.test_match_ledger import new_match


def test_tokens_are_issued_once_and_stored_as_digests(sqlite_url):
    app = Arbiter(sqlite_url, signer=SIGNER)
    new_match(app)

    def arbiter(*args: str) -> str:
        result = CliRunner().invoke(cli, ["--db", sqlite_url, *args])
        assert result.exit_code == 0, result.output
        return result.output.strip()

    def token(*args: str) -> str:
        """The token (first line), after checking the link (second line) carries a join code
        in its fragment, and not the token."""
        printed, link = arbiter(*args).splitlines()
        code = link.partition("#")[2]
        assert len(code) == len(printed) == 43 and code != printed and "?" not in link
        return printed

    first, host = token("tokens", "host"), token("tokens", "host")
    assert arbiter("tokens", "issue", "m1", "ann", "--url", "https://arbiter.example/"
                   ).splitlines()[1].startswith("https://arbiter.example/m/m1/join#")
    ann = token("tokens", "issue", "m1", "ann")  # replaces the one above
    refused = CliRunner().invoke(cli, ["--db", sqlite_url, "tokens", "issue", "m1", "zed"])
    assert refused.exit_code == 2 and "unknown_player" in refused.output

    tokens = Tokens(app)
    assert tokens.is_host(host) and not tokens.is_host(first)
    assert tokens.holder("m1", ann) == "ann" and tokens.holder("m1", host) is None
    rows = app.recorder.select_notifications(1, 10_000)
    assert not any(token.encode() in n.state for n in rows for token in (first, host, ann))
    stored = b"".join(app.mapper.cipher.decrypt(n.state) for n in rows)  # what the key reads
    for token in (first, host, ann):
        assert token.encode() not in stored
        assert hashlib.sha256(token.encode()).hexdigest().encode() in stored


def test_a_replaced_token_stops_working_once_what_was_read_is_stale(sqlite_url, monkeypatch):
    from commands.service import tokens as module

    monkeypatch.setattr(module, "FRESH", 0.2)
    app = Arbiter(sqlite_url)
    checks, other = Tokens(app), Tokens(Arbiter(sqlite_url))  # two worker processes
    old = other.set_host()
    assert checks.is_host(old)
    new = other.set_host()
    assert checks.is_host(new)  # unknown to what was read: looked up at once
    deadline = time.monotonic() + 2
    while checks.is_host(old):
        assert time.monotonic() < deadline, "a replaced host token kept working"
        time.sleep(0.05)
    assert checks.is_host(new)


def test_made_up_tokens_cost_no_store_reads(sqlite_url, monkeypatch):
    """A token without a token's shape is never looked up; made-up tokens of the right shape
    cost one read of their match's tokens per UNKNOWN seconds, however many are sent."""
    from commands.service import tokens as module

    monkeypatch.setattr(module, "UNKNOWN", 60.0)
    app = Arbiter(sqlite_url, signer=SIGNER)
    new_match(app)
    tokens = Tokens(app)
    ann = tokens.issue("m1", "ann")
    reads: list[object] = []
    real_get = app.repository.get
    monkeypatch.setattr(app.repository, "get", lambda *a, **k: reads.append(a) or real_get(*a, **k))
    for made_up in (ann + "\u00a0", ann + "\x85", " " + ann, ann[:-1], ann + "=", "x" * 43 + "!"):
        assert tokens.holder("m1", made_up) is None and not tokens.is_host(made_up)
    assert reads == []  # none has a token's shape
    assert tokens.holder("m1", ann) == "ann"  # issued by this process: known without a read
    assert reads == []
    for _ in range(500):
        assert tokens.holder("m1", module.new_token()) is None
    assert len(reads) == 1  # the first unknown token read the match's tokens, once
    assert tokens.holder("m1", ann) == "ann" and len(reads) == 1


def test_tokens_stored_before_the_rooms_still_load(sqlite_url):
    """Stores written before commands/ had its rooms name the token events by their old module
    (`commands.http.tokens:...`): a token issued then still opens the host's routes."""
    import sqlite3

    from commands.store.settings import persistence_env

    app = Arbiter(sqlite_url)
    host = Tokens(app).set_host()
    app.close()
    with sqlite3.connect(persistence_env(sqlite_url)["SQLITE_DBNAME"]) as db:
        moved = db.execute("UPDATE stored_events SET topic = replace(topic, "
                           "'commands.service.tokens:', 'commands.http.tokens:')").rowcount
    assert moved == 1
    assert Tokens(Arbiter(sqlite_url)).is_host(host)


def test_a_new_host_link_alone_keeps_the_api_token(sqlite_url):
    app = Arbiter(sqlite_url, signer=SIGNER)
    new_match(app)

    def arbiter(*args: str) -> str:
        result = CliRunner().invoke(cli, ["--db", sqlite_url, *args])
        assert result.exit_code == 0, result.output
        return result.output.strip()

    token, first = arbiter("tokens", "host").splitlines()
    second = arbiter("tokens", "host", "--link-only")
    assert second.startswith("http://127.0.0.1:8000/host/join#") and "\n" not in second
    tokens = Tokens(app)
    assert tokens.is_host(token)  # the API token stays
    assert tokens.is_host_join(second.partition("#")[2])
    assert not tokens.is_host_join(first.partition("#")[2])  # the old link is revoked


def test_sessions_are_digests_beside_their_code_and_end_with_it(sqlite_url, monkeypatch):
    """Each browser's session is a secret of its own, stored as its digest only and never in
    a match's or season's log; it ends at its logout, at a new link, after LIFE, or when its
    player opens more than SESSIONS; a second worker learns of an end within FRESH."""
    from commands.service import tokens as module

    monkeypatch.setattr(module, "FRESH", 0.2)
    app = Arbiter(sqlite_url, signer=SIGNER)
    new_match(app)
    tokens, other = Tokens(app), Tokens(Arbiter(sqlite_url))  # two worker processes
    code = tokens.issue_joins("m1", ["ann"])["ann"]
    logs = (app.match("m1").version, app.season("spring").version)
    phone, laptop = tokens.open_session("m1", code), other.open_session("m1", code)
    assert phone is not None and laptop is not None
    assert phone.who == laptop.who == "ann" and phone.left == laptop.left == module.LIFE
    assert len({phone.secret, laptop.secret, code}) == 3
    again = tokens.open_session("m1", code, held=phone.secret)  # the same browser again
    assert again is not None and again.secret == phone.secret and again.left <= phone.left
    assert tokens.open_session("m1", code, held=laptop.secret).secret == laptop.secret
    assert tokens.open_session("m1", "x" * 43) is None
    shared = tokens.open_session("m1", tokens.issue_joins("m1", ["bob"])["bob"], held=phone.secret)
    assert shared is not None and shared.who == "bob"  # bob's link on ann's phone: hers ends
    assert tokens.in_session("m1", phone.secret) is None
    phone = cast(Session, tokens.open_session("m1", code))
    assert tokens.in_session("m1", code) is None  # a code is no session, nor a session a code
    assert tokens.joiner("m1", phone.secret) is None
    assert (app.match("m1").version, app.season("spring").version) == logs

    rows = app.recorder.select_notifications(1, 10_000)
    stored = b"".join(app.mapper.cipher.decrypt(n.state) for n in rows)
    for secret in (phone.secret, laptop.secret):
        assert secret.encode() not in stored
        assert hashlib.sha256(secret.encode()).hexdigest().encode() in stored

    assert tokens.in_session("m1", laptop.secret) == "ann"
    other.end_session("m1", phone.secret)  # the phone logs out, on the other worker
    assert other.in_session("m1", phone.secret) is None
    deadline = time.monotonic() + 2
    while tokens.in_session("m1", phone.secret) is not None:
        assert time.monotonic() < deadline, "a session that logged out kept working"
        time.sleep(0.05)
    assert tokens.in_session("m1", laptop.secret) == "ann"

    many = [tokens.open_session("m1", code) for _ in range(module.SESSIONS)]
    assert all(tokens.in_session("m1", s.secret) == "ann" for s in many if s is not None)
    assert tokens.in_session("m1", laptop.secret) is None  # the oldest of eleven ended

    monkeypatch.setattr(module, "LIFE", 0.3)  # ended by time
    brief = tokens.open_session("m1", code)
    assert brief is not None and tokens.in_session("m1", brief.secret) == "ann"
    time.sleep(0.35)
    assert tokens.in_session("m1", brief.secret) is None
    monkeypatch.setattr(module, "LIFE", 60.0)

    host_code = tokens.set_host_join()
    desk = tokens.open_host_session(host_code)
    assert desk is not None and desk.who == "host" and tokens.is_host_session(desk.secret)
    assert not tokens.is_host_session(host_code) and tokens.in_session("m1", desk.secret) is None
    kept = tokens.open_session("m1", code)
    assert kept is not None
    tokens.issue_joins("m1", ["ann"])  # a new link: every session of the old code ends
    tokens.set_host_join()
    assert tokens.in_session("m1", kept.secret) is None and not tokens.is_host_session(desk.secret)
    assert tokens.open_session("m1", code) is None and tokens.open_host_session(host_code) is None


def test_made_up_sessions_cost_no_store_reads(sqlite_url, monkeypatch):
    from commands.service import tokens as module

    monkeypatch.setattr(module, "UNKNOWN", 60.0)
    app = Arbiter(sqlite_url, signer=SIGNER)
    new_match(app)
    tokens = Tokens(app)
    opened = tokens.open_session("m1", tokens.issue_joins("m1", ["ann"])["ann"])
    assert opened is not None
    reads: list[object] = []
    real_get = app.repository.get
    monkeypatch.setattr(app.repository, "get", lambda *a, **k: reads.append(a) or real_get(*a, **k))
    secret = opened.secret
    for made_up in (secret + "\u00a0", " " + secret, secret[:-1], secret + "=", "x" * 43 + "!"):
        assert tokens.in_session("m1", made_up) is None and not tokens.is_host_session(made_up)
        tokens.end_session("m1", made_up)
        tokens.end_host_session(made_up)
    assert reads == []  # none has a session's shape
    assert tokens.in_session("m1", secret) == "ann" and reads == []
    for _ in range(500):
        assert tokens.in_session("m1", module.new_token()) is None
    assert len(reads) == 1


def test_many_sign_ins_load_from_a_snapshot(sqlite_url):
    """Each sign-in adds an event to the match's tokens: a new process loads them from the
    latest snapshot and the events after it, and finds the same open sessions."""
    from commands.service.tokens import OPENINGS, SESSIONS, TOKENS_SNAPSHOT_EVERY, PlayerTokens

    app = Arbiter(sqlite_url, signer=SIGNER)
    new_match(app)
    tokens = Tokens(app)
    aggregate = PlayerTokens.create_id("m1")
    batches = []  # a new link each time one is used up (which ends the old one's sessions)
    while (app.repository.get(aggregate).version if batches else 0) < TOKENS_SNAPSHOT_EVERY + 5:
        code = tokens.issue_joins("m1", ["ann"])["ann"]
        batches.append([tokens.open_session("m1", code) for _ in range(OPENINGS)])
    stored = app.repository.get(aggregate).version
    snapshots = list(app.snapshots.get(aggregate, desc=True, limit=1))
    assert snapshots and snapshots[0].originator_version == \
        stored // TOKENS_SNAPSHOT_EVERY * TOKENS_SNAPSHOT_EVERY

    fresh = Tokens(Arbiter(sqlite_url))  # another process: from the snapshot, then the rest
    kept = batches[-1][-SESSIONS:]
    ended = [s for batch in batches[:-1] for s in batch] + batches[-1][:-SESSIONS]
    assert all(s is not None for s in kept + ended)
    assert all(fresh.in_session("m1", s.secret) == "ann" for s in kept)
    assert all(fresh.in_session("m1", s.secret) is None for s in ended)
    assert fresh.joiner("m1", code) == "ann"
