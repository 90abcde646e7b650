"""verify: a sound bundle passes with a report; any change to it, down to one byte, is caught."""

from __future__ import annotations

import contextlib
import io
import json
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit import keys
from audit.bundle import FORMAT, FULL, HEADER, PUBLIC, line
from audit.checkpoints import origin
from audit.errors import AuditError
from audit.notes import parse_verifier_key
from audit.verify import verify
from commands.cli.matchfile import load
from commands.cli.matchfile import play as play_file
from commands.service.arbiter import Arbiter
from domain.envelope import GENESIS_PREV, seal_entry
from domain.errors import RuleViolation
from domain.records import padded
from domain.rng import seed_commitment
from tests.audit.test_bundle import (
    PLAYERS,
    SIGNER,
    bundle_of,
    memory_app,
    play,
    played_story,
    start,
    verified,
)

story_fixture = pytest.fixture(played_story, scope="module", name="story")
KINGS_COURT = sorted((Path(__file__).resolve().parents[2] / "seeds").glob("kings_court-*.json"))


def test_both_kinds_of_bundle_verify_with_a_report(db_url):
    app = Arbiter(db_url, signer=SIGNER)
    play(app)
    match = app.match("m1")
    for kind in (PUBLIC, FULL):
        audit = verified(bundle_of(app, kind))
        assert audit.entries == match.version
        assert [c.round for c in audit.checkpoints] == [0, 1, 2]
        assert audit.ended and audit.seed_revealed
        assert audit.results["ranks"] == match.results()["ranks"]
        report = "\n".join(audit.report())
        assert report.endswith("verified") and "checkpoints  3," in report
        assert "signed by    host.example" in report
    assert [r["entry"]["hash"] for r in audit.match.records] == \
        [r["entry"]["hash"] for r in match.records]
    assert "re-ran every command" in report and "openings" in report
    app.close()


def test_a_pinned_key_must_be_the_one_that_signed(story):
    story_bundle = bundle_of(story, FULL)
    pinned = parse_verifier_key(SIGNER.verifier_key())
    assert verified(story_bundle, key=pinned).pinned
    stranger = parse_verifier_key(keys.generate("host.example").verifier_key())
    with pytest.raises(AuditError) as caught:
        verified(story_bundle, key=stranger)
    assert caught.value.code == "wrong_host_key"
    # Named: the key that did sign, beside the one expected (the same name, another key).
    assert f"signed by {SIGNER.name}+" in caught.value.message
    assert f"not by host.example+{stranger.key_id.hex()}" in caught.value.message


def test_an_unsigned_match_verifies_and_says_nothing_is_signed():
    app = memory_app(signer=None)
    play(app, unsigned=True)
    audit = verified(bundle_of(app, FULL, signer=None))
    assert audit.checkpoints == [] and audit.signer is None
    assert "nothing in this bundle is signed" in "\n".join(audit.report())
    assert sorted(audit.marks) == [0, 1, 2]  # the rounds' roots come from the re-run
    assert all(mark.state_root for mark in audit.marks.values())


def test_a_weak_seed_unsigned_match_verifies_and_its_header_repeats_both_flags(story):
    app = memory_app(signer=None)
    app.create_season("s")
    for player in PLAYERS:
        app.register("s", player)
    app.create_match(match_id="w", season="s", game="sealed_bid", setup={"players": PLAYERS},
                     host_seed="tiny", salt_key="cd" * 32, allow_weak_seed=True, unsigned=True)
    app.submit("w", "host", "open_match")
    app.submit("w", "ann", "bid", {"amount": 2})
    app.submit("w", "host", "close_round")
    for kind in (PUBLIC, FULL):
        data = bundle_of(app, kind, match_id="w", signer=None)
        header = json.loads(data.splitlines()[0])["header"]
        assert header["weak_seed"] is True and header["unsigned"] is True
        report = "\n".join(verified(data).report())
        assert "a weak seed" in report and "created this match unsigned" in report
        for flag in ("weak_seed", "unsigned"):
            stripped = {**header}
            del stripped[flag]
            with pytest.raises(AuditError) as caught:
                verified(line({"header": stripped}).encode() + data.split(b"\n", 1)[1])
            assert caught.value.code == "header_mismatch"
    signed = bundle_of(story, PUBLIC).splitlines(keepends=True)
    note = next(raw for raw in signed if raw.startswith(b'{"checkpoint"'))
    lines = bundle_of(app, PUBLIC, match_id="w", signer=None).splitlines(keepends=True)
    with pytest.raises(AuditError) as caught:
        verified(b"".join([*lines, note]))
    assert caught.value.code == "unexpected_line"


def synthetic(size: int):
    """A valid public bundle of `size` entries, made one line at a time and never held."""
    key, host_seed = bytes(32), "h" * 40
    genesis = seal_entry(match="big", seq=1, round=0, prev=GENESIS_PREV, salt_key=key,
                         public={"kind": "MatchCreated", "actor": "host", "at": None, "data": {
                             "game": "synthetic", "rules_version": "synthetic/1",
                             "season": "s", "players": PLAYERS,
                             "seed_commitment": seed_commitment(host_seed)}}, parts=[])
    setup = seal_entry(match="big", seq=2, round=0, prev=genesis["hash"], salt_key=key,
                       public=None, parts=padded([{"audience": "host", "kind": "SetupCommitted",
                                                   "actor": "host", "at": None, "data": {}}]))
    yield line({HEADER: {
        "format": FORMAT, "kind": PUBLIC, "match": "big", "origin": origin("big"),
        "game": "synthetic", "rules_version": "synthetic/1", "season": "s", "players": PLAYERS,
        "seed_commitment": seed_commitment(host_seed), "setup_commitment": setup["seals"][0],
        "host_key": None, "entries": size}}).encode()
    entry = genesis
    for seq in range(1, size + 1):
        if seq > 1:
            entry = setup if seq == 2 else seal_entry(
                match="big", seq=seq, round=0, prev=entry["hash"], salt_key=key,
                public={"kind": "Tick", "actor": "system", "at": None, "data": {"n": seq}},
                parts=[])
        yield line(entry).encode()


def test_verify_streams_in_flat_memory():
    peaks = []
    for size in (2_000, 8_000):
        tracemalloc.start()
        audit = verify(synthetic(size))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert audit.entries == size and audit.marks == {}  # kept per round: none ended
    assert peaks[1] < peaks[0] * 1.5, peaks  # four times the entries, about the same memory


def test_progress_is_reported_per_chunk():
    seen = []
    verify(synthetic(3_000), progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (3_000, 3_000) and len(seen) >= 3


# -- every legal match verifies; every one-byte change of it does not --------------------------

steps = st.lists(st.one_of(
    st.tuples(st.sampled_from(PLAYERS), st.just("bid"),
              st.fixed_dictionaries({"amount": st.integers(0, 9)})),
    st.tuples(st.sampled_from(PLAYERS), st.just("hint"), st.just({})),
    st.tuples(st.just("host"), st.just("close_round"), st.just({})),
    st.tuples(st.just("host"), st.just("correct"),
              st.fixed_dictionaries({"void": st.integers(1, 40), "reason": st.just("typo")})),
), max_size=18)


def mutated(data: bytes, draw) -> bytes:
    position = draw(st.integers(0, len(data) - 1))
    byte = draw(st.integers(0, 255).filter(lambda b: b != data[position]))
    return data[:position] + bytes([byte]) + data[position + 1:]


def refused_everywhere(data: bytes, draw) -> None:
    changed = mutated(data, draw)
    with pytest.raises(AuditError):
        verified(changed)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds=st.integers(1, 3), garnets=st.tuples(*[st.integers(0, 4)] * 3),
       contributors=st.lists(st.sampled_from(PLAYERS), unique=True, max_size=2),
       script=steps, data=st.data())
def test_every_legal_sealed_bid_match_verifies_and_no_byte_of_it_can_change(
        rounds, garnets, contributors, script, data):
    app = memory_app()
    start(app, rounds=rounds, garnets=garnets)
    moves = [(p, "contribute", {"text": f"{p} luck"}) for p in contributors]
    for actor, name, args in [*moves, ("host", "open_match", {}), *script]:
        with contextlib.suppress(RuleViolation):  # an illegal move is refused, recorded nowhere
            app.submit("m1", actor, name, args)
    version = app.match("m1").version
    for kind in (PUBLIC, FULL):
        bundle = bundle_of(app, kind)
        assert verified(bundle).entries == version
        refused_everywhere(bundle, data.draw)
    app.close()


@pytest.mark.parametrize("path", KINGS_COURT, ids=lambda p: p.stem)
def test_every_kings_court_seed_match_verifies(path):
    app = memory_app()
    play_file(app, load(path))
    match_id = load(path).match
    for kind in (PUBLIC, FULL):
        bundle = bundle_of(app, kind, match_id=match_id)
        audit = verify(io.BytesIO(bundle))
        assert audit.entries == app.match(match_id).version
    assert audit.match.results() == app.match(match_id).results()
    app.close()


@pytest.mark.parametrize("path", KINGS_COURT[:1], ids=lambda p: p.stem)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_byte_of_a_kings_court_bundle_can_change(path, data):
    app = memory_app()
    play_file(app, load(path))
    refused_everywhere(bundle_of(app, FULL, match_id=load(path).match), data.draw)
    app.close()
