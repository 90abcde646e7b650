"""Replay, diff and bisect: the cases mutation testing found untested, each worked out from
docs/audit.md ("Replay and disputes") on the story of tests/audit/test_bundle.py."""

from __future__ import annotations

import dataclasses

import pytest

from audit import replay as replay_module
from audit.bundle import ENTRY, FULL, HEADER, PUBLIC, kind_of, line
from audit.errors import AuditError
from audit.replay import bisect, diff, log_of, replay
from domain.envelope import entry_hash, seal_entry
from tests.audit.test_bundle import STORY, bundle_of, lines_of, memory_app, play, verified
from tests.audit.test_replay import OTHER_STORY, audits

# The story cut after ann's hint: the same first entries, the match still in round 1.
CUT = STORY.index(("ann", "hint", {})) + 1


@pytest.fixture(scope="module")
def ours():
    return audits(STORY)


@pytest.fixture(scope="module")
def theirs():
    return audits(OTHER_STORY)


@pytest.fixture(scope="module")
def cut():
    return audits(STORY[:CUT])


def code_of(call, *args) -> str:
    with pytest.raises(AuditError) as caught:
        call(*args)
    return caught.value.code


def test_rounds_from_zero_to_the_last_replay_and_no_others(ours):
    full = ours[FULL]
    assert replay(full, 0, "public")["as_of"]["round"] == 0
    assert replay(full, 2, "public")["as_of"]["seq"] == full.entries  # round 2 is the last
    assert code_of(replay, full, -1, "public") == "invalid_round"
    assert code_of(replay, full, 3, "public") == "round_not_reached"


def test_the_host_and_every_player_may_be_shown_a_full_bundle(ours):
    for viewer in ("host", "ann", "bob", "cy"):
        assert replay(ours[FULL], 1, viewer)["as_of"] == replay(ours[FULL], 1, "public")["as_of"]
    assert code_of(replay, ours[PUBLIC], 1, "host") == "needs_full_bundle"


def test_a_round_still_open_has_no_roots_yet(cut):
    # The cut story is in round 1, which has not closed: no mark, so no log or state root.
    shown = replay(cut[FULL], 1, "public")
    assert shown["log_root"] is None and shown["state_root"] is None
    closed = replay(cut[FULL], 0, "public")
    assert closed["log_root"] == cut[FULL].marks[0].log_root
    assert closed["state_root"] == cut[FULL].marks[0].state_root


def test_a_public_log_shows_sealed_entries_to_the_host_alone(ours):
    records = log_of(ours[PUBLIC]).records
    by_kind = {}
    for record in records:
        by_kind.setdefault(record["entry"]["kind"], record)
    sealed, command = by_kind[None], by_kind["CommandAccepted"]
    assert sealed["parts"] == [{"audience": "host", "kind": None, "actor": None, "at": None,
                                "data": None}]
    assert sealed["role"] == "fact" and command["role"] == "command" and command["parts"] == []
    assert all(r["postings"] == [] for r in records)
    assert log_of(ours[FULL]) is ours[FULL].match


def test_a_diff_of_a_round_with_itself_is_empty(ours):
    same = diff(ours[FULL], 1, 1, "public")
    assert same["events"] == [] and same["summary"] == {}
    assert same["from"] == same["to"]
    assert (same["match"], same["viewer"]) == ("m1", "public")


def test_a_diff_holds_exactly_the_events_after_the_first_round(ours):
    found = diff(ours[FULL], 1, 2, "public")
    before = replay(ours[FULL], 1, "public")
    after = replay(ours[FULL], 2, "public")
    assert found["from"] == {"round": 1, "seq": before["as_of"]["seq"],
                             "log_root": before["log_root"], "state_root": before["state_root"]}
    assert found["to"]["seq"] == after["as_of"]["seq"]
    assert found["events"] == after["events"][len(before["events"]):]
    assert all(key in before["summary"] or key in after["summary"] for key in found["summary"])


def test_bisect_of_a_log_and_its_beginning_names_the_first_entry_one_lacks(ours, cut):
    for kind in (FULL, PUBLIC):
        found = bisect(ours[kind], cut[kind])
        assert found["seq"] == cut[kind].entries + 1  # they agree on every entry the cut holds
        assert found["entries"] == {"a": ours[kind].entries, "b": cut[kind].entries}
        assert found["entry"]["b"] is None and not found["agree"]
        assert found["log_round"] is None  # round 0 closed alike; round 1 is open in the cut
        assert found["entry"]["a"]["seq"] == found["seq"]
    reverse = bisect(cut[FULL], ours[FULL])
    assert reverse["seq"] == cut[FULL].entries + 1 and reverse["entry"]["a"] is None


def test_bisect_reads_as_the_host_only_when_both_bundles_are_full(ours, theirs):
    assert bisect(ours[FULL], theirs[FULL])["viewer"] == "host"
    assert bisect(ours[FULL], theirs[PUBLIC])["viewer"] == "public"
    assert bisect(ours[PUBLIC], theirs[FULL])["viewer"] == "public"


def test_bisect_names_both_state_roots_and_only_what_differs(ours, theirs):
    found = bisect(ours[FULL], theirs[FULL])
    state = found["state"]
    assert (state["a"], state["b"]) == (ours[FULL].marks[2].state_root,
                                       theirs[FULL].marks[2].state_root)
    assert all(v["a"] != v["b"] for v in state["summary"].values())


def test_an_unsigned_public_bundle_has_no_state_root_to_part_on():
    # A public bundle of an unsigned match: log roots per round, but no state roots at all.
    bundles = {}
    for name, steps in (("ours", STORY), ("theirs", OTHER_STORY)):
        app = memory_app(signer=None)
        play(app, steps, unsigned=True)
        bundles[name] = verified(bundle_of(app, PUBLIC, signer=None), keep_log=True)
        app.close()
    found = bisect(bundles["ours"], bundles["theirs"])
    assert found["log_round"] == 2 and found["state_round"] is None
    assert not found["agree"] and "state" not in found


def test_a_diff_from_a_round_after_its_end_is_invalid_input(ours):
    assert code_of(diff, ours[FULL], 2, 1, "public") == "invalid_input"


def test_bisect_names_the_match_it_read(ours, theirs):
    assert bisect(ours[FULL], theirs[FULL])["match"] == "m1"
    assert bisect(ours[PUBLIC], ours[PUBLIC])["match"] == "m1"


def test_a_public_log_cannot_be_changed_once_read(ours):
    log = log_of(ours[PUBLIC])
    with pytest.raises(dataclasses.FrozenInstanceError):
        log.records = []  # type: ignore[misc]


def unsigned_public_cut() -> list[dict]:
    """The public bundle of the story cut after ann's hint, of a match created unsigned (no
    checkpoint, so the host may append or re-hash entries after the last one unnoticed by a
    public verify: every round still needs none)."""
    app = memory_app(signer=None)
    play(app, STORY[:CUT], unsigned=True)
    values = lines_of(bundle_of(app, PUBLIC, signer=None))
    app.close()
    return values


def encoded(values: list[dict]) -> bytes:
    return b"".join(line(v).encode() for v in values)


def test_two_versions_that_part_only_at_their_last_entry():
    """Bisect names the first entry where they differ even when it is the last one both hold
    (a sealed fact: each version shows the public only its seq and round)."""
    values = unsigned_public_cut()
    last = values[-1]
    assert kind_of(last) == ENTRY and last["kind"] is None  # ann's hint's sealed fact
    other = {**last, "seals": [*last["seals"][:-1], "0" * 64]}
    other["hash"] = entry_hash(other)
    a = verified(encoded(values), keep_log=True)
    b = verified(encoded([*values[:-1], other]), keep_log=True)
    found = bisect(a, b)
    seq = last["seq"]
    assert found["seq"] == seq == a.entries == b.entries and not found["agree"]
    assert found["entry"] == {"a": {"seq": seq, "round": last["round"], "sealed": True},
                              "b": {"seq": seq, "round": last["round"], "sealed": True}}


def test_the_last_round_replayed_is_the_round_of_the_last_entry():
    """A public log whose last entry opens a round of its own (a public fact appended after
    ann's hint, in round 2): round 2 is in the log and replays; round 3 is not."""
    values = unsigned_public_cut()
    last = values[-1]
    extra = seal_entry(match="m1", seq=last["seq"] + 1, round=last["round"] + 1,
                       prev=last["hash"], salt_key=bytes(32), public={
                           "kind": "Tick", "actor": "system", "at": None, "data": {}},
                       parts=[])
    values[0][HEADER]["entries"] += 1
    audit = verified(encoded([*values, extra]), keep_log=True)
    shown = replay(audit, last["round"] + 1, "public")
    assert (shown["as_of"]["round"], shown["as_of"]["seq"]) == (last["round"] + 1, extra["seq"])
    assert code_of(replay, audit, last["round"] + 2, "public") == "round_not_reached"


def test_a_summary_key_only_the_later_round_has_is_in_the_diff(ours, monkeypatch):
    """diff names each summary key that changed, a key the earlier view lacks included (from
    None); the sealed_bid views all have the same keys, so the two views are given here."""
    opened = {"seq": 20, "round": 2, "kind": "RoundOpened", "actor": "system",
              "audience": "public", "at": None, "data": {"round": 2}, "postings": []}
    views = {1: {"game": "sealed_bid", "viewer": "public", "as_of": {"round": 1, "seq": 19},
                 "log_root": "r1", "state_root": "s1", "events": [], "summary": {"events": 6}},
             2: {"game": "sealed_bid", "viewer": "public", "as_of": {"round": 2, "seq": 35},
                 "log_root": "r2", "state_root": "s2", "events": [opened],
                 "summary": {"events": 11, "champion": "ann"}}}
    monkeypatch.setattr(replay_module, "replay", lambda audit, round, viewer: views[round])
    found = diff(ours[FULL], 1, 2, "public")
    assert found["summary"] == {"events": {"from": 6, "to": 11},
                                "champion": {"from": None, "to": "ann"}}
    assert found["events"] == [opened]
