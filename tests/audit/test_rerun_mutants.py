"""The re-run of a full bundle (audit/rerun.py), the cases mutation testing found untested:
the host's own forgeries of the sealed setup and of command entries, re-sealed and re-signed
with its real keys, and a log that stops before the rules do or goes on after them
(docs/audit.md, "`arbiter verify`": the re-run compares every entry, hash for hash)."""

from __future__ import annotations

import json

import pytest

from audit.bundle import ENTRY, FULL, HEADER, OPENING, kind_of, line
from audit.errors import AuditError
from domain.envelope import seal_entry
from tests.audit.test_bundle import bundle_of, played_story, verified
from tests.audit.test_tamper import reforged

story_fixture = pytest.fixture(played_story, scope="module", name="story")


def failure(data: bytes) -> tuple[str, int | None]:
    with pytest.raises(AuditError) as caught:
        verified(data)
    return caught.value.code, caught.value.seq


def setup_edited(story, edit) -> bytes:
    """The full bundle with the sealed setup's data (entry 2's first part) edited."""
    def change(records):
        edit(records[1]["parts"][0])
    return reforged(story, change)[FULL]


@pytest.mark.parametrize("edit", [
    lambda part: part.update(kind="SetupDrawn"),                  # not the SetupCommitted
    lambda part: part["data"].update(extra=1),                    # a field too many
    lambda part: part["data"].pop("garnets"),                     # a field too few
    lambda part: part["data"].update(setup=["ann", "bob", "cy"]),  # a setup that is no object
    lambda part: part["data"].update(garnets=[5, 1, 0]),          # garnets that are no object
])
def test_a_sealed_setup_of_the_wrong_shape_is_not_the_rules(story, edit):
    assert failure(setup_edited(story, edit)) == ("rerun_mismatch", 2)


def test_a_sealed_setup_with_another_host_seed_than_the_headers(story):
    other = setup_edited(story, lambda part: part["data"].update(host_seed="t" * 40))
    assert failure(other) == ("seed_mismatch", 2)


def test_a_setup_the_rules_refuse(story):
    # sealed_bid's setup has no field `board`: the rules refuse it before any command.
    refused = setup_edited(story, lambda part: part["data"]["setup"].update(board=3))
    assert failure(refused) == ("rerun_refused", 2)


def command_at(story, name: str, actor: str) -> int:
    return next(r["entry"]["seq"] for r in story.match("m1").records
                if r["parts"] and r["parts"][0]["kind"] == "CommandAccepted"
                and r["parts"][0]["actor"] == actor and r["parts"][0]["data"]["name"] == name)


@pytest.mark.parametrize("edit", [
    lambda parts: parts[0]["data"].pop("args"),                   # no args
    lambda parts: parts[0]["data"].update(extra=1),               # more than name and args
    lambda parts: parts[0]["data"].update(name=5),                # a name that is no text
    lambda parts: parts[0]["data"].update(args=[4]),              # args that are no object
    lambda parts: parts[-1]["data"].pop("garnets"),               # a context without garnets
    lambda parts: parts[-1]["data"].update(garnets=[5, 1, 0]),
])
def test_a_command_entry_of_the_wrong_shape_is_malformed(story, edit):
    seq = command_at(story, "bid", "bob")

    def change(records):
        edit(records[seq - 1]["parts"])

    assert failure(reforged(story, change)[FULL]) == ("malformed_entry", seq)


def test_a_log_cut_inside_a_command_names_what_the_rules_go_on_with(story):
    """Cut after bob's bid command entry (its opening included), the header made to agree: the
    rules append the bid's own sealed fact next, which the log does not hold."""
    lines = bundle_of(story, FULL).splitlines(keepends=True)
    seq = command_at(story, "bid", "bob")
    values = [json.loads(raw) for raw in lines]
    end = next(i for i, v in enumerate(values) if kind_of(v) == OPENING
               and v[OPENING]["seq"] == seq)
    header = values[0]
    checkpoints = sum(1 for v in values[:end] if kind_of(v) == "checkpoint")
    header[HEADER] |= {"entries": seq, "checkpoints": checkpoints}
    cut = [line(header).encode(), *lines[1:end + 1]]
    assert failure(b"".join(cut)) == ("rerun_mismatch", seq + 1)


def test_an_entry_after_the_rules_have_ended_is_not_theirs(story):
    """A public fact appended after the last entry, chained and hashed (entries after the last
    checkpoint are not signed): the rules appended nothing more, so the re-run refuses it."""
    lines = bundle_of(story, FULL).splitlines(keepends=True)
    values = [json.loads(raw) for raw in lines]
    last = [v for v in values if kind_of(v) == ENTRY][-1]
    extra = seal_entry(match="m1", seq=last["seq"] + 1, round=last["round"] + 1,
                       prev=last["hash"], salt_key=bytes(32), public={
                           "kind": "Tick", "actor": "system", "at": None, "data": {}},
                       parts=[])
    header = values[0]
    header[HEADER]["entries"] += 1
    data = b"".join([line(header).encode(), *lines[1:], line(extra).encode()])
    assert failure(data) == ("rerun_mismatch", last["seq"] + 1)


@pytest.mark.parametrize("field, value", [
    ("rules_version", "sealed_bid/0"),       # not the version the rules run
    ("players", ["bob", "ann", "cy"]),       # not the order the sealed setup seats them in
])
def test_a_genesis_the_rules_do_not_make_is_named_at_seq_1(story, field, value):
    """The host forges the genesis (header made to agree, every entry re-chained, every
    checkpoint re-signed): the re-run makes its own genesis from the header and the sealed
    setup, and the first entry that differs, hash for hash, is entry 1 itself."""
    def change(records):
        records[0]["entry"]["public"][field] = value

    assert failure(reforged(story, change)[FULL]) == ("rerun_mismatch", 1)
