"""What a command reads from the store: a cached match and season as long as the store's are
taken as they are (one query for both versions, no events read), and whatever another service
wrote in between is folded in before the command is decided, on both stores."""

from __future__ import annotations

import pytest

from commands.service.arbiter import Arbiter
from commands.store.stored import StoredVersions
from domain.match import Match
from domain.season import Season
from tests.support.host_key import SIGNER

PLAYERS = ["ann", "bob", "cy", "di", "ed", "flo", "gus", "hal", "ivy", "jo", "kit"]


def kings_court(app: Arbiter) -> None:
    app.create_season("s")
    app.register_all("s", PLAYERS)
    app.create_match(match_id="kc", season="s", game="kings_court",
                     setup={"players": PLAYERS}, host_seed="ab" * 32, salt_key="cd" * 32)
    app.submit("kc", "host", "open_match")


def context_garnets(app: Arbiter, seq: int) -> dict[str, int]:
    """The garnets the command of entry `seq` was decided with (its context part)."""
    record = app.match("kc").records[seq - 1]
    return next(p["data"]["garnets"] for p in record["parts"] if p["kind"] == "CommandContext")


@pytest.fixture
def two_services(db_url):
    first, second = Arbiter(db_url, signer=SIGNER), Arbiter(db_url, signer=SIGNER)
    kings_court(first)
    yield first, second
    first.close()
    second.close()


def test_a_vote_on_a_current_cache_reads_no_events(two_services, monkeypatch):
    app, _ = two_services
    app.submit("kc", "ann", "vote", {"candidate": "bob"})  # the match and season now cached
    reads = []
    real = app.repository.event_store.get
    monkeypatch.setattr(app.repository.event_store, "get",
                        lambda *a, **k: reads.append(a) or real(*a, **k))
    versions = []  # the versions queries asked (on PostgreSQL, with the writer's lock)
    real_versions = StoredVersions.statement
    monkeypatch.setattr(StoredVersions, "statement", lambda self, ids: versions.append(ids) or
                        real_versions(self, ids))
    apart = []  # asked in a round trip of their own
    real_call = StoredVersions.__call__
    monkeypatch.setattr(StoredVersions, "__call__", lambda self, ids: apart.append(ids) or
                        real_call(self, ids))
    before = app.match("kc").version
    outcome = app.submit("kc", "bob", "vote", {"candidate": "ann"})
    reads.clear()  # app.match above reads as a reader does; the vote itself is next
    app.submit("kc", "cy", "vote", {"candidate": "ann"})
    assert outcome.seqs[0] == before + 1
    assert reads == []
    assert len(versions) == 2 and len(versions[-1]) == 2  # the match and its season, at once
    # PostgreSQL asks them with the writer's lock, in the same round trip; SQLite apart.
    assert len(apart) == (0 if app.stored_versions.postgres else 2)


def test_what_another_service_wrote_is_folded_in_before_deciding(two_services, monkeypatch):
    first, second = two_services
    first.submit("kc", "ann", "vote", {"candidate": "bob"})
    second.submit("kc", "bob", "vote", {"candidate": "ann"})  # the match moved on elsewhere
    second.grant("s", "cy", "garnets", 7, "a gift")  # and so did the season
    retried = []
    # only a lost save sleeps
    monkeypatch.setattr("commands.service.unit_of_work.time.sleep", retried.append)
    stored = second.match("kc").version
    outcome = first.submit("kc", "cy", "vote", {"candidate": "ann"})
    assert retried == []
    assert outcome.seqs[0] == stored + 1
    assert context_garnets(first, outcome.seqs[0])["cy"] == 7
    cached = first.repository.cache.get(Match.create_id("kc"))
    assert [r["entry"]["hash"] for r in cached.records] == \
        [r["entry"]["hash"] for r in second.match("kc").records]


def test_the_stores_logs_are_what_reading_every_stored_event_finds(app):
    assert app.stored_versions.logs() == []  # a store with no event yet
    kings_court(app)
    app.create_season("t")  # a second season, begun after the first one's match
    app.submit("kc", "ann", "vote", {"candidate": "bob"})  # the match grows after it
    first: dict = {}  # each log's first event, reading them all
    for stored in app.recorder.select_notifications(start=1, limit=10_000):
        first.setdefault(stored.originator_id, stored.topic)
    logs = app.stored_versions.logs()
    assert logs == list(first.items())
    ids = [log for log, _ in logs]
    assert ids.index(Season.create_id("s")) < ids.index(Match.create_id("kc")) < \
        ids.index(Season.create_id("t"))
    assert dict(logs)[Season.create_id("t")] == "domain.season:Season.Created"
    assert ids != sorted(ids)  # in the order they began, not the index's
