"""A long match loads from its latest store snapshot and the entries after it: what it then
decides is what the match replayed from its first entry decides, byte for byte."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest

from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from domain.decider import Command
from domain.frozen import freeze, thaw
from domain.match import Match
from tests.support.host_key import SIGNER

SEEDS = sorted((Path(__file__).resolve().parents[1] / "seeds").glob("*.json"))


class Snapshotting(Arbiter):
    """A snapshot every 3 entries, and no cache: every command loads from a snapshot."""

    env: ClassVar[dict[str, str]] = {"AGGREGATE_CACHE_MAXSIZE": ""}
    snapshotting_intervals: ClassVar[dict[type, int]] = {Match: 3}


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.stem)
def test_every_seed_match_plays_the_same_from_snapshots(tmp_path, path):
    file = load(path)
    plain = Arbiter(f"sqlite:///{tmp_path}/plain.db", signer=SIGNER)
    snapshots = Snapshotting(f"sqlite:///{tmp_path}/snap.db", signer=SIGNER)
    first, mismatches = play(plain, file)
    second, more = play(snapshots, file)
    assert mismatches == more == [] and first == second
    assert [r["entry"]["hash"] for r in plain.match(file.match).records] == \
        [r["entry"]["hash"] for r in snapshots.match(file.match).records]
    restored = snapshots.repository.get(Match.create_id(file.match))
    assert restored.first_seq > 1, "the match was not loaded from a snapshot"
    assert restored.state == plain.repository.get(Match.create_id(file.match)).state


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.stem)
def test_a_game_state_reads_back_equal_at_every_entry(path, tmp_path):
    file = load(path)
    app = Arbiter(f"sqlite:///{tmp_path}/a.db", signer=SIGNER)
    play(app, file)
    replayed = None
    for domain_event in app.repository.event_store.get(Match.create_id(file.match)):
        replayed = domain_event.mutate(replayed)
        assert thaw(freeze(replayed.state)) == replayed.state
        restored = replayed.thawed(replayed.id, replayed.version, replayed.frozen())
        for name in ("state", "window_state", "setup", "handled", "voided", "turns", "sealed",
                     "moved", "shapes", "phase", "contributions", "unsigned"):
            assert getattr(restored, name) == getattr(replayed, name), name
        assert restored.log_root == replayed.log_root
        assert restored.records == replayed.records[restored.first_seq - 1:]


def test_a_void_after_a_snapshot_refolds_from_the_last_turn(tmp_path):
    from tests.test_match_ledger import PLAYERS, new_match

    plain = Arbiter(f"sqlite:///{tmp_path}/plain.db", signer=SIGNER)
    snapshots = Snapshotting(f"sqlite:///{tmp_path}/snap.db", signer=SIGNER)
    for app in (plain, snapshots):
        new_match(app, garnets=(9, 9, 9), rounds=3)
        app.submit("m1", "host", "open_match")
        app.submit("m1", "host", "close_round")
        bids = [app.submit("m1", p, "bid", {"amount": n}).seqs[0]
                for n, p in enumerate(PLAYERS * 3)]
        app.submit("m1", "host", "set_deadline", {"deadline": "2026-11-30T20:00:00Z"},
                   at="2026-11-21T20:00:00Z")
        app.submit("m1", "host", "correct", {"void": bids[-1], "reason": "typo"})
        app.submit("m1", "host", "correct", {"void": bids[-2], "reason": "typo"})
    assert snapshots.match("m1").state == plain.match("m1").state
    assert snapshots.match("m1").state.bids == {"ann": 6, "bob": 4, "cy": 5}
    for app in (plain, snapshots):
        app.submit("m1", "host", "close_round")
    assert [r["entry"]["hash"] for r in plain.match("m1").records] == \
        [r["entry"]["hash"] for r in snapshots.match("m1").records]
    live = snapshots.repository.get(Match.create_id("m1"))
    live.handle(Command("bid", "ann", {"amount": 1}))  # decides from a restored match
    assert live.first_seq > 1


def test_a_snapshot_taken_does_not_change_as_the_match_goes_on(tmp_path):
    """A match's snapshot is stored after its command has answered, while the match may take
    the next: what it holds is the match as of its own entry, whatever follows."""
    import json

    from commands.cli.matchfile import create, prepare_season

    file = load(next(p for p in SEEDS if p.stem == "kings_court-king-win"))
    app = Arbiter(f"sqlite:///{tmp_path}/a.db", signer=SIGNER)
    prepare_season(app, file)
    create(app, file)
    steps = file.steps
    half = len(steps) // 2
    for step in steps[:half]:
        if not step.expect_error:
            app.submit(file.match, step.actor, step.do, step.args, command_id=step.id)
    match = app.repository.get(Match.create_id(file.match))
    taken = Match.Snapshot.take(match)
    before = json.dumps(taken.state, sort_keys=True)
    garnets = app.season(file.season).garnets(file.players)
    for step in steps[half:]:  # the match in memory goes on, as the next command's would
        if not step.expect_error:
            match.handle(Command(step.do, step.actor, step.args, garnets),
                         command_id=step.id)
    assert match.version > taken.originator_version
    assert len(match.turns) > len(taken.state["turns"])
    assert json.dumps(taken.state, sort_keys=True) == before


def test_the_snapshots_taken_are_stored_before_the_service_closes(tmp_path, monkeypatch):
    """Each snapshot taken is stored by a thread of its own, however slow the store: closing
    the service waits for them."""
    import time

    file = load(next(p for p in SEEDS if p.stem == "kings_court-king-win"))
    app = Snapshotting(f"sqlite:///{tmp_path}/a.db", signer=SIGNER)
    assert app.snapshots is not None
    taken: list[int] = []
    put = app.snapshots.put

    def slowly(snapshots, **kwargs):
        time.sleep(0.02)
        taken.extend(s.originator_version for s in snapshots)
        return put(snapshots, **kwargs)

    monkeypatch.setattr(app.snapshots, "put", slowly)
    play(app, file)
    app.close()
    again = Arbiter(f"sqlite:///{tmp_path}/a.db", signer=SIGNER)
    assert again.snapshots is not None
    stored = [s.originator_version for s in again.snapshots.get(Match.create_id(file.match))]
    assert len(taken) > 10 and stored == sorted(taken)
    assert stored[-1] > again.match(file.match).version - 10


def test_a_long_rounds_snapshots_come_further_apart(tmp_path):
    """A snapshot holds every entry since the last turn: while one round grows, a snapshot is
    stored at every `every` entries until it would hold twice that many, then at every twice
    as many, and so on (commands.service.unit_of_work.snapshot_step)."""
    from commands.service.unit_of_work import SNAPSHOT_EVERY, snapshot_step

    class Held:
        def __init__(self, n: int) -> None:
            self.n = n

        def held(self) -> int:
            return self.n

    assert [snapshot_step(Held(n), 200) for n in (0, 399, 400, 799, 800, 1600)] == \
        [200, 200, 400, 400, 800, 1600]
    assert SNAPSHOT_EVERY == 200

    players = ["ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo", "kit"]
    app = Arbiter(f"sqlite:///{tmp_path}/long.db", signer=SIGNER)
    app.create_season("s")
    app.register_all("s", players)
    app.create_match(match_id="kc", season="s", game="kings_court",
                     setup={"players": players, "max_replacements": 10_000},
                     host_seed="ab" * 32, salt_key="cd" * 32)
    app.submit("kc", "host", "open_match")
    opened = app.match("kc").version  # under 200: the first snapshot comes in the votes
    for n in range(600):  # one round: two entries a vote
        app.submit("kc", "bob", "vote", {"candidate": ["cy", "dee"][n % 2]})
    app.close()
    again = Arbiter(f"sqlite:///{tmp_path}/long.db", signer=SIGNER)
    assert opened < 200 and again.match("kc").version == opened + 2 * 600
    assert again.snapshots is not None
    # A snapshot at entry 200 or 400 holds at most 200 or 400 entries (the round's); at 600
    # it would hold more than 400 (every 400 now: 800 is due), at 1,200 more than 800 (every
    # 800: 1,600 is next). Every 200 entries, as before, would have stored six. Each is
    # taken after the vote whose two entries hold the one due (200 and 201, ...).
    assert [s.originator_version for s in again.snapshots.get(Match.create_id("kc"))] == \
        [201, 401, 801]
    again.close()
