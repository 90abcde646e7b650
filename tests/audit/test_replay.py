"""Replay, diff and bisect over bundles: what a viewer knew at the end of a round, what
changed, and where two versions of one match first part."""

from __future__ import annotations

import pytest

from audit.bundle import FULL, PUBLIC
from audit.errors import AuditError
from audit.replay import bisect, diff, replay
from tests.audit.test_bundle import STORY, bundle_of, memory_app, play, verified

# The same match in another store, where ann bids 1 instead of 7 in round 2: cy wins it.
ANN_ROUND_2 = STORY.index(("ann", "bid", {"amount": 7}))
OTHER_STORY = [*STORY[:ANN_ROUND_2], ("ann", "bid", {"amount": 1}), *STORY[ANN_ROUND_2 + 1:]]


def audits(steps):
    app = memory_app()
    play(app, steps)
    found = {kind: verified(bundle_of(app, kind), keep_log=True) for kind in (PUBLIC, FULL)}
    app.close()
    return found


@pytest.fixture(scope="module")
def ours():
    return audits(STORY)


@pytest.fixture(scope="module")
def theirs():
    return audits(OTHER_STORY)


def test_replay_shows_each_viewer_their_share_as_of_a_round(ours):
    full = ours[FULL]
    bob = replay(full, 1, "bob")
    assert [e["data"]["amount"] for e in bob["events"] if e["kind"] == "BidPlaced"] == [5]
    public = replay(full, 1, "public")
    assert "BidPlaced" not in str(public["events"]) and public["summary"]["winners"] == ["bob"]
    assert public == replay(ours[PUBLIC], 1, "public") | {"state_root": public["state_root"]}
    host = replay(full, 1, "host")
    assert any(e["kind"] == "SecretDrawn" for e in host["events"])
    assert host["as_of"]["seq"] == full.marks[1].size
    assert host["state_root"] == full.checkpoints[1].state_root == full.marks[1].state_root


def test_a_public_bundle_replays_only_for_the_public(ours):
    with pytest.raises(AuditError) as caught:
        replay(ours[PUBLIC], 1, "bob")
    assert caught.value.code == "needs_full_bundle"
    for round, viewer, code in [(9, "public", "round_not_reached"), (1, "zed", "unknown_player")]:
        with pytest.raises(AuditError) as caught:
            replay(ours[FULL], round, viewer)
        assert caught.value.code == code


def test_diff_shows_what_a_viewer_learnt_between_two_rounds(ours):
    public = diff(ours[FULL], 1, 2, "public")
    assert public["summary"]["winners"] == {"from": ["bob"], "to": ["bob", "ann"]}
    assert {e["round"] for e in public["events"]} == {2}
    assert [e["kind"] for e in public["events"]][-2:] == ["MatchEnded", "SeedRevealed"]
    ann = diff(ours[FULL], 1, 2, "ann")
    assert [e["data"]["amount"] for e in ann["events"] if e["kind"] == "BidPlaced"] == [7]
    assert ann["from"]["state_root"] == ours[FULL].marks[1].state_root
    with pytest.raises(AuditError):
        diff(ours[FULL], 2, 1, "public")


def test_bisect_finds_the_first_entry_and_round_where_two_versions_part(ours, theirs):
    for kind in (FULL, PUBLIC):
        found = bisect(ours[kind], theirs[kind])
        ann_bid = found["seq"]
        assert not found["agree"]
        assert found["log_round"] == found["state_round"] == 2
        assert ours[kind].log[ann_bid - 1]["round"] == 2
        assert ours[kind].log[ann_bid - 2] == theirs[kind].log[ann_bid - 2]  # agree before
    assert found["entry"]["a"] == {"seq": ann_bid, "round": 2, "sealed": True}  # public view
    found = bisect(ours[FULL], theirs[FULL])
    assert found["entry"]["a"]["data"] == {"name": "bid", "args": {"amount": 7}}
    assert found["entry"]["b"]["data"] == {"name": "bid", "args": {"amount": 1}}
    assert found["state"]["summary"]["winners"] == {"a": ["bob", "ann"], "b": ["bob", "cy"]}


def test_bisect_of_a_bundle_with_itself_agrees(ours):
    found = bisect(ours[FULL], ours[PUBLIC])
    assert found["agree"] and found["seq"] is None and found["state_round"] is None


def test_bisect_refuses_two_different_matches(ours):
    app = memory_app()
    play(app, STORY[:3], match_id="m2")
    other = verified(bundle_of(app, PUBLIC, match_id="m2"), keep_log=True)
    with pytest.raises(AuditError) as caught:
        bisect(ours[PUBLIC], other)
    assert caught.value.code == "different_matches"
    app.close()
