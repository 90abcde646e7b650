"""One read side (commands.service.reading): a view read through it is the reference fold of
the whole log (`projections.views.view`) for every viewer and every round, however far the
view tables have got: none of the match, part of it (behind by less or more than a store
snapshot keeps), or all of it; it says how many entries it read past the tables, and it never
reads a match the tables hold part of from its first entry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import Tracking

from commands.cli.matchfile import load, play
from commands.service import reading
from commands.service.arbiter import Arbiter
from commands.service.reading import ReadSide, Signed, read_side
from commands.store.postgres_reader import PostgresReader
from commands.store.settings import persistence_env
from domain.decider import HOST, PUBLIC
from domain.errors import RuleViolation
from domain.match import Match
from projections.projection import Ledger, bound
from projections.runner import notifications
from projections.tables import APPLICATION, open_views
from projections.views import view
from tests.support import tamper
from tests.support.host_key import SIGNER

SEEDS = Path(__file__).resolve().parents[2] / "seeds"


def project_until(url: str, seq: int | None, match_id: str) -> None:
    """Project the store's events in order until the match's entry `seq` (None: all of them;
    0: stop before the match's first)."""
    ledger = Ledger(env=persistence_env(url))
    views = open_views(ledger.recorder.datastore, ledger.mapper.cipher)
    projection = bound(ledger)(views)
    match_uuid = Match.create_id(match_id)
    for notification in notifications(ledger, views.max_tracking_id(APPLICATION) or 0):
        event = ledger.mapper.to_domain_event(notification)
        if seq is not None and event.originator_id == match_uuid and \
                event.originator_version > seq:
            break
        views.record(projection.changes(event), Tracking(APPLICATION, notification.id))
    ledger.close()


def reference(match: Any, viewer: str, round: int | None) -> dict[str, Any]:
    return json.loads(json.dumps(view(match, viewer, round)))  # as the tables hold JSON


def every_view_agrees(app: Arbiter, match_id: str, held_copy: bool = False) -> int:
    """Every viewer's view, now and as of every round, through a fresh service (no copy of the
    match in memory) and, with `held_copy`, through `app` (which holds one, as a web worker
    does): the entries read past the tables."""
    match = app.match(match_id)
    last = match.records[-1]["entry"]["round"]
    rounds = range(last + 1) if last <= 8 else (0, 1, last // 2, last - 1, last)
    fresh = Arbiter(app.url)
    behind = set()
    try:
        for service in (fresh, app) if held_copy else (fresh,):
            for viewer in (PUBLIC, HOST, *match.players):
                for round in (None, *rounds):
                    seen = service.view(match_id, viewer, round)
                    assert seen.view == reference(match, viewer, round), (viewer, round)
                    behind.add(seen.behind)
                    if round is None:
                        assert seen.held + seen.behind == match.version
    finally:
        fresh.close()
    return max(behind)


@pytest.mark.parametrize("seed", ["kings_court-king-win", "tile_joust-dm-ec-outscores"])
def test_a_view_is_the_reference_fold_however_far_the_tables_have_got(sqlite_url, seed):
    app = Arbiter(sqlite_url, signer=SIGNER)
    file = load(SEEDS / f"{seed}.json")
    play(app, file)
    size = app.match(file.match).version
    # Tile Joust's 1,135 entries: a store snapshot every 200 keeps only those since the last
    # host command, so a lag of 500 entries is read partly from the store's events.
    stops = [0, 1, size // 2, size - 2, size] if size < 500 else [0, 1, size - 500, size]
    assert every_view_agrees(app, file.match) == size  # no tables at all: said, all of it
    for stop in stops:
        project_until(sqlite_url, stop, file.match)
        assert every_view_agrees(app, file.match, held_copy=stop == stops[2]) == size - stop
    app.close()


def test_behind_tables_are_said_and_read_past_never_from_the_first_entry(db_url, monkeypatch):
    app = Arbiter(db_url, signer=SIGNER)
    file = load(SEEDS / "tile_joust-dm-ec-outscores.json")
    play(app, file)
    size = app.match(file.match).version
    held = size - 100
    project_until(db_url, held, file.match)
    reader = Arbiter(db_url)
    reads: list[dict[str, Any]] = []
    real = reader.repository.event_store.get
    monkeypatch.setattr(reader.repository.event_store, "get",
                        lambda *a, **k: reads.append(k) or real(*a, **k))
    player = file.players[0]
    seen = reader.view(file.match, player)
    assert (seen.held, seen.behind) == (held, 100)
    assert seen.note() == (f"the view tables hold {held} of the {size} entries of match "
                           f"{file.match}: the 100 after them were read from the log "
                           "(arbiter serve keeps them current, arbiter projections "
                           "rebuild fills them now)")
    match_uuid = Match.create_id(file.match)
    early = [k for k in reads if k["originator_id"] == match_uuid and (k["gt"] or 0) < held - 1]
    assert reads and early == [], early  # the store snapshot and the entries after it
    project_until(db_url, None, file.match)
    current = reader.view(file.match, player)
    assert (current.held, current.behind, current.note()) == (size, 0, None)
    assert current.view == seen.view
    reader.close()
    app.close()


def test_a_reader_is_refused_in_the_words_of_a_view(sqlite_url):
    app = Arbiter(sqlite_url, signer=SIGNER)
    file = load(SEEDS / "kings_court-king-win.json")
    play(app, file)
    for projected in (False, True):
        if projected:
            project_until(sqlite_url, None, file.match)
        read = ReadSide.of(app)
        with pytest.raises(RuleViolation) as unknown:
            read.view("no-such-match", PUBLIC)
        assert unknown.value.code == "unknown_match"
        with pytest.raises(RuleViolation) as stranger:
            read.view(file.match, "zed")
        assert stranger.value.code == "unknown_player"
        with pytest.raises(RuleViolation) as later:
            read.view(file.match, PUBLIC, 99)
        assert later.value.code == "round_not_reached"
    app.close()


@pytest.mark.parametrize("where", ["before the store snapshot's first", "after the snapshot"])
def test_an_entry_changed_past_the_tables_is_refused_not_shown(sqlite_url, where):
    """The entries a view reads past the tables are checked as a command's load checks them,
    those the store snapshot does not keep (read one by one) as much as those after it."""
    app = Arbiter(sqlite_url, signer=SIGNER)
    file = load(SEEDS / "tile_joust-dm-ec-outscores.json")
    play(app, file)
    size = app.match(file.match).version
    held = size - 500  # more than the last store snapshot keeps (test above)
    project_until(sqlite_url, held, file.match)
    # The last store snapshot keeps entries 774 on (those since the last host command).
    seq = held + 2 if where == "before the store snapshot's first" else size - 1
    match_uuid = Match.create_id(file.match)
    tamper.rewrite(app, match_uuid, seq,
                   lambda e: e.record["entry"].update(at="2020-01-01T00:00:00Z"))
    with pytest.raises(RuleViolation) as forged:
        Arbiter(sqlite_url).view(file.match, PUBLIC)
    assert forged.value.code == "forged_entry"
    assert forged.value.message.startswith(f"match {file.match}: entry {seq} does not hash")
    tamper.delete(app, match_uuid, seq)
    with pytest.raises(RuleViolation) as missing:
        Arbiter(sqlite_url).view(file.match, PUBLIC)
    assert missing.value.code == "missing_entry"
    assert f"entry {seq} is missing from the store" in missing.value.message
    app.close()


def test_what_the_tables_take_while_a_view_is_read_is_not_read_twice(sqlite_url):
    """A reader found the tables at entry 100 and read the log from 101; meanwhile the
    projection took the rest. The view is still the reference: no entry shown or folded
    twice."""
    app = Arbiter(sqlite_url, signer=SIGNER)
    file = load(SEEDS / "kings_court-king-win.json")
    play(app, file)
    match = app.match(file.match)
    project_until(sqlite_url, None, file.match)
    views = ReadSide.of(app).views
    later = list(match.records[100:])
    for viewer in (PUBLIC, HOST, file.players[0]):
        for round in (None, 3, match.records[-1]["entry"]["round"]):
            found = views.view_after(file.match, viewer, round, match.game_id, later)
            assert found == reference(match, viewer, round), (viewer, round)
    app.close()


def test_a_postgres_store_is_read_on_a_connection_of_its_own(pg_url, monkeypatch):
    """A command's read side on PostgreSQL (commands.service.reading.read_side): the view
    tables on a connection of its own, every view the reference fold, for every viewer and
    every round, the tables current or lagging; the logs opened only to read past them."""
    app = Arbiter(pg_url, signer=SIGNER)
    file = load(SEEDS / "kings_court-king-win.json")
    play(app, file)
    match = app.match(file.match)
    size, last = match.version, match.records[-1]["entry"]["round"]
    half = next(r["entry"]["seq"] for r in match.records if r["entry"]["round"] == 3) - 1
    notes = app.checkpoints(file.match).notes
    opened: list[str] = []
    real_logs = reading.logs
    monkeypatch.setattr(reading, "logs", lambda url: opened.append(url) or real_logs(url))
    for held in (half, size):  # the tables stop before round 3, then hold it all
        project_until(pg_url, held, file.match)
        side = read_side(pg_url)
        assert isinstance(side.views, PostgresReader)
        for viewer in (PUBLIC, HOST, *match.players):
            for round in (None, *range(last + 1)):
                seen = side.view(file.match, viewer, round)
                assert seen.view == reference(match, viewer, round), (held, viewer, round)
                # Held up to round 2: rounds 0 and 1, closed there, are read from them
                # alone, the rest past them.
                closed = round is not None and round < 2
                assert seen.behind == (0 if closed or held == size else size - held), \
                    (held, viewer, round)
        signed = side.signed(file.match)
        if held < size:
            assert signed is None and opened == [pg_url]  # the logs, opened once
            assert seen.note() == (f"the view tables hold {held} of the {size} entries of "
                                   f"match {file.match}: the {size - held} after them were "
                                   "read from the log (arbiter serve keeps them current, "
                                   "arbiter projections rebuild fills them now)")
            side.logs().close()
        else:
            assert opened == [pg_url]  # not again: the tables held every view
            assert signed == Signed(last, True, last, {n["round"]: n["note"] for n in notes})
            assert len(signed.notes) == last + 1  # a note for the setup and each round
        side.views.close()
    app.close()


def test_a_postgres_reader_refuses_as_the_service_does(pg_url, monkeypatch):
    app = Arbiter(pg_url, signer=SIGNER)
    file = load(SEEDS / "kings_court-king-win.json")
    play(app, file)
    last = app.match(file.match).records[-1]["entry"]["round"]
    app.close()
    project_until(pg_url, None, file.match)
    side = read_side(pg_url)
    assert isinstance(side.views, PostgresReader)
    for match_id, viewer, round, code in [
            ("no-such-match", PUBLIC, None, "unknown_match"),
            (file.match, "zed", None, "unknown_player"),
            (file.match, PUBLIC, -1, "invalid_round"),
            (file.match, PUBLIC, last + 1, "round_not_reached")]:
        with pytest.raises(RuleViolation) as refused:
            side.view(match_id, viewer, round)
        assert refused.value.code == code, (match_id, viewer, round)
    assert side.signed("no-such-match") is None  # the command then asks the logs, which say
    side.views.close()
    monkeypatch.delenv("ARBITER_STORE_KEY")
    monkeypatch.chdir(Path(__file__).parent)  # no ./arbiter-store.key here
    with pytest.raises(RuleViolation) as keyless:
        read_side(pg_url)
    assert keyless.value.code == "store_key_required"
    assert keyless.value.message.startswith(f"PostgreSQL database {pg_url.rsplit('/', 1)[1]} ")


def test_a_postgres_database_the_library_has_not_written_to_is_read_by_the_service(pg_url):
    side = read_side(pg_url)  # the service makes the store's tables, as it always has
    assert not isinstance(side.views, PostgresReader)
    with pytest.raises(RuleViolation) as unknown:
        side.view("no-such-match", PUBLIC)
    assert unknown.value.code == "unknown_match"
    side.logs().close()
