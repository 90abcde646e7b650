"""Replay, diff and bisect: the cases mutation testing found untested, each worked out from
docs/audit.md ("Replay and disputes") on the story of tests/audit/test_bundle.py."""

from __future__ import annotations

import pytest

from audit.bundle import FULL, PUBLIC
from audit.errors import AuditError
from audit.replay import bisect, diff, log_of, replay
from tests.audit.test_bundle import STORY, bundle_of, memory_app, play, verified
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
    assert code_of(replay, full, -1, "public") == "unknown_round"
    assert code_of(replay, full, 3, "public") == "unknown_round"


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
