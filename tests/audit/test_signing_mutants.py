"""What the host signs at a round close (audit/signing.py, docs/audit.md): the checkpoint of the
match log with the lines `round <n>` and `state <64 lower-case hex digits>`, nothing else."""

from __future__ import annotations

import pytest

from audit import keys
from audit.errors import AuditError
from audit.notes import (
    checkpoint_body,
    parse_checkpoint,
    parse_note,
    parse_verifier_key,
    verify_note,
)
from audit.signing import RoundClose, checkpoint_text, extensions, parse_extensions, sign_round
from audit.state_root import state_root
from domain.decider import Command
from domain.match import Match

STATE = "0123456789abcdef" * 4


def test_the_extension_lines_read_back() -> None:
    assert extensions(3, STATE) == ["round 3", f"state {STATE}"]
    assert parse_extensions(("round 3", f"state {STATE}")) == RoundClose(3, STATE)
    assert parse_extensions(("round 0", f"state {STATE}")) == (0, STATE)
    largest = "9" * 16
    assert parse_extensions((f"round {largest}", f"state {STATE}")).round == int(largest)


@pytest.mark.parametrize("lines", [
    (),
    ("round 3",),
    ("round 3", f"state {STATE}", "more"),
    (f"state {STATE}", "round 3"),
    ("round 03", f"state {STATE}"),
    ("round -1", f"state {STATE}"),
    ("round 1" + "0" * 16, f"state {STATE}"),  # 17 digits
    ("round 3", f"state {STATE.upper()}"),
    ("round 3", f"state {STATE[:-1]}"),
    ("round 3", f"state {STATE}0"),
    ("round 3 ", f"state {STATE}"),
])
def test_anything_else_is_a_malformed_checkpoint(lines) -> None:
    with pytest.raises(AuditError) as caught:
        parse_extensions(lines)
    assert caught.value.code == "malformed_checkpoint"


def a_match() -> Match:
    match = Match.configure(match_id="m1", season="s", game_id="sealed_bid",
                            setup={"players": ["ann", "bob"]}, host_seed="s" * 40,
                            salt_key="ab" * 32, garnets={})
    match.handle(Command("open_match", "host"))
    return match


def test_the_round_close_is_signed_over_the_log_as_it_stands() -> None:
    match = a_match()
    text = checkpoint_text(match, 0)
    assert text == checkpoint_body("arbiter/match/m1", 6, match.log_root,
                                   ["round 0", f"state {state_root(match)}"])
    assert parse_checkpoint(checkpoint_text(match, 1, "games.example/match/m1")).origin == \
        "games.example/match/m1"
    signer = keys.generate("host.example")
    note = sign_round(signer, match, 0)
    assert parse_note(note).text == text
    vkey = parse_verifier_key(signer.verifier_key())
    assert verify_note(note, [vkey]) == [vkey]
