"""The view tables: what they hold is what `projections.views` computes from the log; a
rebuild from the events gives the same tables; and a projection process killed mid-stream
and restarted applies every event exactly once."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from eventsourcing.persistence import IntegrityError, Tracking
from service_harness import eventually

from commands.cli.main import cli
from commands.cli.matchfile import MatchFile, load, play
from commands.service.arbiter import Arbiter
from commands.store.settings import persistence_env
from domain.decider import HOST, PUBLIC
from projections.projection import Ledger, bound
from projections.runner import catch_up, notifications, rebuild, run
from projections.tables import APPLICATION, SEALED, TABLES, ArbiterViews, open_views
from projections.views import view
from tests.support.host_key import SIGNER

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "seeds").glob("kings_court-*.json"))


def copies(n: int) -> list[MatchFile]:
    """The King's Court seeds, n times over, each copy a match of its own season."""
    return [load(path).model_copy(update={"match": f"{path.stem}-{i}", "season": f"s{i}"})
            for i in range(n) for path in SEEDS]


def tables(views: ArbiterViews) -> dict[str, Any]:
    """Every row of every view table (what is sealed, opened: each sealing draws a new nonce),
    and the tracked position."""
    def opened(name: str, row: dict[str, Any]) -> dict[str, Any]:
        return {column: views.cipher.open_text(value)
                if column in SEALED.get(name, ()) and value is not None else value
                for column, value in row.items()}

    with views.reading() as curs:
        found = {name: sorted(json.dumps(opened(name, row), sort_keys=True)
                              for row in views.rows(curs, f"SELECT * FROM {{p}}{name}"))
                 for name in TABLES}
    return {**found, "position": views.max_tracking_id(APPLICATION)}


def last_projected(ledger: Ledger) -> int:
    return list(notifications(ledger, 0))[-1].id


def test_the_tables_hold_every_view_and_a_rebuild_gives_them_again(db_url):
    app = Arbiter(db_url, signer=SIGNER)
    files = copies(1)
    for file in files:
        play(app, file)
    ledger = Ledger(env=persistence_env(db_url))
    views = open_views(ledger.recorder.datastore, ledger.mapper.cipher)
    catch_up(ledger, views)
    for file in files:
        match = app.match(file.match)
        for viewer in (PUBLIC, HOST, *match.players):
            assert views.view(file.match, viewer) == json.loads(json.dumps(view(match, viewer)))
    live = tables(views)
    assert live["position"] == last_projected(ledger)

    result = CliRunner().invoke(cli, ["--db", db_url, "projections", "rebuild"])
    assert result.exit_code == 0, result.output
    assert "rebuilding" in result.output and "views rebuilt from" in result.output
    assert tables(views) == live


def test_a_catch_up_writes_the_events_since_the_last_look_in_one_transaction(db_url):
    """Every event recorded since the last look (fewer than a batch) goes in one transaction
    with the tracking row of the last, and a row that each event sets anew (a match's, its
    dashboard) is written once; the tables are those of a rebuild all the same."""
    app = Arbiter(db_url, signer=SIGNER)
    files = copies(1)[:1]
    for file in files:
        play(app, file)
    ledger = Ledger(env=persistence_env(db_url))
    views = open_views(ledger.recorder.datastore, ledger.mapper.cipher)
    written: list[tuple[list[str], int]] = []
    record, apply = views.record, views._apply
    views.record = lambda changes, tracking: (  # type: ignore[method-assign]
        written.append(([], tracking.notification_id)), record(changes, tracking))
    views._apply = lambda curs, changes: (  # type: ignore[method-assign]
        written[-1][0].extend(name for name, _ in changes), apply(curs, changes))
    catch_up(ledger, views)
    assert [position for _, position in written] == [last_projected(ledger)]
    statements = written[0][0]
    assert statements.count("match") == statements.count("dashboard") == len(files)
    assert statements.count("entry") == sum(app.match(f.match).version for f in files)
    live = tables(views)
    rebuild(ledger, views)
    assert tables(views) == live


def test_a_projection_behind_another_folds_only_the_entries_the_other_wrote(sqlite_url,
                                                                            monkeypatch):
    """Two processes projecting one SQLite file race for each batch. The one that lost keeps
    its match a few entries behind: it folds those entries from the store into it (the match
    is never loaded again from its snapshot), and the tables are those of a rebuild."""
    app = Arbiter(sqlite_url, signer=SIGNER)
    file = load(ROOT / "seeds" / "kings_court-king-win.json")
    app.create_season("s")
    app.register_all("s", file.players)
    app.create_match(match_id="kc", season="s", game=file.game,
                     setup={"players": file.players, **file.setup},
                     host_seed=file.host_seed, salt_key=file.salt_key)
    app.submit("kc", HOST, "open_match")
    ledger = Ledger(env=persistence_env(sqlite_url))
    views = open_views(ledger.recorder.datastore, ledger.mapper.cipher)
    lost, won = bound(ledger)(views), bound(ledger)(views)

    def votes(voters: list[str]) -> None:
        for voter in voters:
            app.submit("kc", voter, "vote", {"candidate": file.players[0]})

    votes(file.players[1:3])
    catch_up(ledger, views, lost)
    behind = app.match("kc").version
    votes(file.players[3:5])  # the dashboard counts them among those who voted
    catch_up(ledger, views, won)  # these entries are written by the other process
    votes(file.players[1:2])

    def loaded(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the match was loaded again from the store")

    monkeypatch.setattr(ledger.repository, "get", loaded)
    catch_up(ledger, views, lost)
    assert app.match("kc").version > behind + 1  # it was behind by more than one entry
    assert views.view("kc", HOST) == json.loads(json.dumps(view(app.match("kc"), HOST)))
    live = tables(views)
    monkeypatch.undo()
    rebuild(ledger, views)
    assert tables(views) == live


def test_the_processes_on_one_sqlite_file_take_turns_at_catching_up(sqlite_url, monkeypatch):
    """Two projection loops on one file (each worker runs one) never catch up at once: the
    second waits for the first, then reads what is left; each entry is written once."""
    from projections import runner

    app = Arbiter(sqlite_url, signer=SIGNER)
    play(app, copies(1)[0])
    inside, most, turns, lock = [0], [0], [0], threading.Lock()

    def counted(*args: Any) -> None:
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        try:
            threading.Event().wait(0.05)  # long enough for the other to come in, if it may
            catch_up(*args)
        finally:
            with lock:
                inside[0] -= 1
                turns[0] += 1

    monkeypatch.setattr(runner, "catch_up", counted)
    stop, wakes = threading.Event(), [threading.Event(), threading.Event()]
    loops = [threading.Thread(target=runner.poll, args=(persistence_env(sqlite_url), stop,
                                                         wake, 0.01)) for wake in wakes]
    for loop in loops:
        loop.start()
    eventually(lambda: turns[0] >= 10, timeout=10)
    stop.set()
    for loop in loops:
        loop.join(10)
    assert most[0] == 1
    ledger = Ledger(env=persistence_env(sqlite_url))
    views = open_views(ledger.recorder.datastore, ledger.mapper.cipher)
    live = tables(views)
    assert live["position"] == last_projected(ledger)
    rebuild(ledger, views)
    assert tables(views) == live


ALL_SEEDS = sorted((ROOT / "seeds").glob("*.json"))


def test_the_tables_give_every_viewer_every_round_of_every_seed_match(sqlite_url):
    """The round summaries kept in the tables, with the facts since folded in, are exactly
    the reference fold of the log, as of every round and for every viewer."""
    app = Arbiter(sqlite_url, signer=SIGNER)
    files = [load(path) for path in ALL_SEEDS]
    for file in files:
        play(app, file)
    ledger = Ledger(env=persistence_env(sqlite_url))
    views = open_views(ledger.recorder.datastore, ledger.mapper.cipher)
    catch_up(ledger, views)
    for file in files:
        match = app.match(file.match)
        last = match.records[-1]["entry"]["round"]
        for viewer in (PUBLIC, HOST, *match.players):
            for round in range(last):
                assert views.view(file.match, viewer, round) == \
                    json.loads(json.dumps(view(match, viewer, round))), (file.match, round)
            assert views.view(file.match, viewer, last) is None  # not a round that ended
        assert views.view(file.match, "nobody") is None


def projected_seed(url: str) -> tuple[Any, ArbiterViews, Ledger]:
    """The first King's Court seed played and projected: the match, its view tables and the
    ledger whose connections they use."""
    app = Arbiter(url, signer=SIGNER)
    file = load(SEEDS[0])
    play(app, file)
    ledger = Ledger(env=persistence_env(url))
    views = open_views(ledger.recorder.datastore, ledger.mapper.cipher)
    catch_up(ledger, views)
    return app.match(file.match), views, ledger


def test_a_view_as_of_a_round_reads_one_row_a_round_and_no_entry(sqlite_url, monkeypatch):
    """What costs a view as of a round is the rounds it shows, not their entries one by one:
    every entry it shows comes from the rows kept at each round's end."""
    match, views, _ledger = projected_seed(sqlite_url)
    statements: list[str] = []
    execute = views.execute

    def spied(curs: Any, query: str, params: dict[str, Any]) -> None:
        statements.append(query)
        execute(curs, query, params)

    monkeypatch.setattr(views, "execute", spied)
    last = match.records[-1]["entry"]["round"]
    assert last > 2
    for viewer in (PUBLIC, HOST, *match.players):
        for round in range(last):
            statements.clear()
            assert views.view(match.match_id, viewer, round)["events"]
            assert any("rounds" in query for query in statements)
            assert not [query for query in statements
                        if "readers" in query or re.search(r"\b(shown|fact)\b.*entries", query)]


def test_rounds_without_their_row_are_read_from_the_entries(sqlite_url):
    """Tables projected before the rows kept a round (or missing some) give the same views."""
    match, views, _ledger = projected_seed(sqlite_url)
    last = match.records[-1]["entry"]["round"]
    with views.datastore.transaction(commit=True) as curs:
        curs.execute("DELETE FROM arbiter_views_rounds WHERE round < 2 OR round = :middle",
                     {"middle": last // 2 + 1})
    for viewer in (PUBLIC, HOST, *match.players):
        for round in (*range(last), None):
            assert views.view(match.match_id, viewer, round) == \
                json.loads(json.dumps(view(match, viewer, round))), (viewer, round)


def test_a_ten_thousand_entry_match_projects_live_as_a_rebuild_does(sqlite_url):
    from tests.test_match_ledger import PLAYERS, new_match

    app = Arbiter(sqlite_url, signer=SIGNER)
    new_match(app, garnets=(400, 400, 400), rounds=40, max_replacements=50)  # ~38 bids each
    app.submit("m1", "host", "open_match")
    ledger = Ledger(env=persistence_env(sqlite_url))
    views = open_views(ledger.recorder.datastore, ledger.mapper.cipher)
    projection = bound(ledger)(views)
    for round in range(40):
        for n in range(125):
            player = PLAYERS[n % 3]
            if n % 14 == 13:
                app.submit("m1", player, "hint")
            else:
                app.submit("m1", player, "bid", {"amount": (n + round) % 10})
        catch_up(ledger, views, projection)  # live, as serve does, a round at a time
        app.submit("m1", "host", "close_round")
    catch_up(ledger, views, projection)
    match = app.match("m1")
    assert match.version > 10_000 and match.ended
    live = tables(views)
    rebuild(ledger, views)
    assert tables(views) == live
    for viewer in (PUBLIC, HOST, "ann"):
        for round in (0, 17, 39):
            assert views.view("m1", viewer, round) == \
                json.loads(json.dumps(view(match, viewer, round)))
        assert views.view("m1", viewer) == json.loads(json.dumps(view(match, viewer)))


def test_a_rebuild_while_the_projection_runs_leaves_it_current(pg_url):
    app = Arbiter(pg_url, signer=SIGNER)
    first, *rest = copies(1)
    env = persistence_env(pg_url)
    ledger = Ledger(env=env)
    views = open_views(ledger.recorder.datastore, ledger.mapper.cipher)
    stop = threading.Event()
    projecting = threading.Thread(target=run, args=(env, stop), kwargs={"interval": 0.1})
    projecting.start()
    try:
        play(app, first)
        rebuild(ledger, views)  # the runner is live, perhaps behind: it restarts from here
        for file in rest:
            play(app, file)
        eventually(lambda: views.max_tracking_id(APPLICATION) == last_projected(ledger))
    finally:
        stop.set()
        projecting.join()
    live = tables(views)
    rebuild(ledger, views)
    assert tables(views) == live


def test_a_killed_projection_process_resumes_and_applies_each_event_once(pg_url):
    app = Arbiter(pg_url, signer=SIGNER)
    for file in copies(4):
        play(app, file)
    ledger = Ledger(env=persistence_env(pg_url))
    views = open_views(ledger.recorder.datastore, ledger.mapper.cipher)
    total = last_projected(ledger)

    def projecting() -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-c", "from commands.cli.main import main; main()", "--db", pg_url,
             "projections", "run", "--interval", "0.1"], cwd=ROOT, env=os.environ.copy())

    process = projecting()
    eventually(lambda: (views.max_tracking_id(APPLICATION) or 0) > total // 4, every=0.01)
    process.send_signal(signal.SIGKILL)
    process.wait()
    killed_at = views.max_tracking_id(APPLICATION)
    assert killed_at < total, "the projection finished before it could be killed"

    process = projecting()
    eventually(lambda: views.max_tracking_id(APPLICATION) == total, timeout=60)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0

    live = tables(views)
    entries = {json.loads(row)["match_id"] for row in live["entries"]}
    for match_id in entries:
        assert sum(json.loads(row)["match_id"] == match_id for row in live["entries"]) == \
            app.match(match_id).version
    rebuild(ledger, views)
    assert tables(views) == live
    # An event delivered again is refused by its tracking row, and changes nothing.
    first = next(notifications(ledger, 0))
    with pytest.raises(IntegrityError):
        bound(ledger)(views).process_event(ledger.mapper.to_domain_event(first),
                                           Tracking(APPLICATION, first.id))
    assert tables(views) == live


def test_only_a_race_on_the_catalog_is_tried_again(pg_url):
    """Processes creating the tables together may deadlock on PostgreSQL's catalog: that is
    tried again. A server that cannot be reached is not a race: it is said at once."""
    import psycopg
    from eventsourcing.persistence import OperationalError

    from projections.tables import lost_create_race

    def as_the_library_raises(cause: Exception) -> OperationalError:
        try:
            raise OperationalError(str(cause)) from cause
        except OperationalError as error:
            return error

    with psycopg.connect(pg_url, autocommit=True) as setup:
        setup.execute("CREATE TABLE pair (id int PRIMARY KEY); INSERT INTO pair VALUES (1), (2)")
    first, second = psycopg.connect(pg_url), psycopg.connect(pg_url)
    first.execute("UPDATE pair SET id = id WHERE id = 1")
    second.execute("UPDATE pair SET id = id WHERE id = 2")
    found: list[Exception] = []

    def cross(conn: psycopg.Connection, row: int) -> None:
        try:
            conn.execute("UPDATE pair SET id = id WHERE id = %s", (row,))
            conn.commit()
        except psycopg.Error as error:
            found.append(error)
            conn.rollback()

    crossing = threading.Thread(target=cross, args=(first, 2))
    crossing.start()
    cross(second, 1)
    crossing.join(timeout=30)
    first.close()
    second.close()
    assert [type(e).__name__ for e in found] == ["DeadlockDetected"]
    assert lost_create_race(as_the_library_raises(found[0]))

    with pytest.raises(psycopg.OperationalError) as refused:
        psycopg.connect("postgresql://postgres@127.0.0.1:1/none", connect_timeout=2)
    assert not lost_create_race(as_the_library_raises(refused.value))
