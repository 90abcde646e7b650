"""Bundles cannot be cut or re-keyed quietly: the four tampers `arbiter verify` once let
through (issue 15), each with its failure code.

The story (tests.audit.test_bundle.STORY) is signed three times: the close of round 0 (the
open, entries 1-7), of round 1 (the first close_round) and the end. A bundle cut after the
last entry loses the end's checkpoint; rolled back, it ends at round 1's; re-keyed, every
checkpoint is signed again by another key, named in the header. A witness (audit.witness)
remembers the key and the largest checkpoint of each origin it verified.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from audit import keys
from audit.bundle import CHECKPOINT, FULL, HEADER, PUBLIC, line
from audit.notes import parse_checkpoint, parse_note, parse_verifier_key
from audit.witness import Seen
from commands.cli.main import cli
from tests.audit.test_bundle import SIGNER, bundle_of, memory_app, play, played_story, verified
from tests.audit.test_season_bundle import bundle as season_bundle
from tests.audit.test_season_bundle import played as played_season
from tests.audit.test_tamper import failure, values, where

story_fixture = pytest.fixture(played_story, scope="module", name="story")
MALLORY = keys.generate("host.example")  # the same name, another key


@pytest.fixture(scope="module", params=[PUBLIC, FULL])
def bundle(story, request) -> list[bytes]:
    return bundle_of(story, request.param).splitlines(keepends=True)


def header_of(lines: list[bytes]) -> dict:
    return json.loads(lines[0])[HEADER]


def with_header(lines: list[bytes], **changes) -> list[bytes]:
    return [line({HEADER: {**header_of(lines), **changes}}).encode(), *lines[1:]]


def size_of(value: dict) -> int:
    return parse_checkpoint(parse_note(value[CHECKPOINT]["note"]).text).size


def rekeyed(lines: list[bytes], signer) -> list[bytes]:
    """Every checkpoint signed again by `signer` over the same text, and its key in the
    header."""
    out = []
    for raw in lines:
        value = json.loads(raw)
        if CHECKPOINT in value:
            text = parse_note(value[CHECKPOINT]["note"]).text
            value = {CHECKPOINT: {**value[CHECKPOINT], "note": signer.sign_note(text)}}
        elif HEADER in value:
            value = {HEADER: {**value[HEADER], "host_key": signer.verifier_key()}}
        out.append(line(value).encode())
    return out


def rolled_back(lines: list[bytes], number: int) -> list[bytes]:
    """The bundle cut right after its checkpoint `number`, the header made to agree."""
    index = where(lines, CHECKPOINT)[number]
    size = size_of(values(lines)[index])
    return with_header(lines[:index + 1], entries=size, checkpoints=number + 1)


def test_the_story_is_signed_at_every_close(bundle):
    assert header_of(bundle)["checkpoints"] == 3
    assert len(where(bundle, CHECKPOINT)) == 3
    assert verified(b"".join(bundle)).checkpoints[-1].size == header_of(bundle)["entries"]


def test_the_trailing_checkpoint_dropped(bundle):
    last = where(bundle, CHECKPOINT)[-1]
    entries = header_of(bundle)["entries"]
    dropped = [*bundle[:last], *bundle[last + 1:]]
    assert failure(dropped) == ("missing_checkpoint", entries)
    # Even with the header made to agree: the match ended, and its end is signed.
    assert failure(with_header(dropped, checkpoints=2)) == ("missing_checkpoint", entries)


def test_the_lines_after_the_last_entry_cut(bundle):
    last_entry = max(i for i, v in enumerate(values(bundle)) if "hash" in v)
    cut = bundle[:last_entry + 1]
    assert len(cut) < len(bundle)
    assert failure(cut) == ("missing_checkpoint", header_of(bundle)["entries"])


def test_a_middle_checkpoint_dropped_with_its_round_closed(bundle):
    """Round 1 closed at its checkpoint's size; without it the next round's first entry
    names the close that has no signature."""
    index = where(bundle, CHECKPOINT)[1]
    size = size_of(values(bundle)[index])
    dropped = with_header([*bundle[:index], *bundle[index + 1:]], checkpoints=2)
    assert failure(dropped) == ("missing_checkpoint", size)


def test_a_mid_match_bundle_cut_after_a_close():
    """A match still running, its last command a close: the public header counts the
    checkpoints; the full bundle's re-run knows the round moved on."""
    app = memory_app()
    play(app, steps=[("host", "open_match", {}), ("ann", "bid", {"amount": 3}),
                     ("host", "close_round", {})], rounds=3)
    for kind in (PUBLIC, FULL):
        lines = bundle_of(app, kind).splitlines(keepends=True)
        entries = header_of(lines)["entries"]
        cut = lines[:where(lines, CHECKPOINT)[-1]]
        assert failure(cut) == ("missing_checkpoint", entries)
        fixed = with_header(cut, checkpoints=1)
        if kind == FULL:
            assert failure(fixed) == ("missing_checkpoint", entries)
        else:  # the public log alone cannot tell a close from a command: the witness can
            assert verified(b"".join(fixed)).checkpoints[-1].size < entries
    app.close()


def test_more_checkpoints_than_the_header_announces(bundle):
    assert failure(with_header(bundle, checkpoints=2)) == \
        ("unexpected_line", size_of(values(bundle)[where(bundle, CHECKPOINT)[-1]]))


def test_re_signed_with_another_key_named_in_the_header(bundle):
    forged = rekeyed(bundle, MALLORY)
    # Unpinned, the bundle's own claim is all there is: it verifies, as the key it names...
    assert str(verified(b"".join(forged)).signer) == MALLORY.verifier_key()
    # ...pinned, it does not.
    key = parse_verifier_key(SIGNER.verifier_key())
    assert failure(forged, key=key)[0] == "wrong_host_key"


def test_rolled_back_to_a_middle_checkpoint_with_a_fixed_header(bundle):
    rolled = rolled_back(bundle, 1)
    key = parse_verifier_key(SIGNER.verifier_key())
    assert verified(b"".join(rolled), key=key)  # alone, it is a shorter log, signed
    last = verified(b"".join(bundle), key=key).checkpoints[-1]
    seen = Seen("arbiter/match/m1", SIGNER.verifier_key(), last.size, last.root)
    size = header_of(rolled)["entries"]
    assert failure(rolled, key=key, seen=seen) == ("rolled_back", size)


def test_another_history_than_the_one_seen(bundle):
    first = verified(b"".join(bundle)).checkpoints[0]
    seen = Seen("arbiter/match/m1", SIGNER.verifier_key(), first.size, b"\0" * 32)
    assert failure(bundle, seen=seen) == ("inconsistent_checkpoints", first.size)


# -- the witness at the command line -------------------------------------------------------

def verify_file(tmp_path, lines: list[bytes], *args: str):
    path = tmp_path / "bundle.jsonl"
    path.write_bytes(b"".join(lines))
    return CliRunner().invoke(cli, ["verify", str(path), *args])


def test_the_first_verify_trusts_the_header_and_remembers(tmp_path, known_origins, bundle):
    result = verify_file(tmp_path, bundle, "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert (found["key_source"], found["pinned"]) == ("first_use", False)
    assert "trusted on first use" in found["findings"]["signed by"]
    last = verified(b"".join(bundle)).checkpoints[-1]
    origin, key, size, _ = known_origins.read_text().split()
    assert (origin, key, int(size)) == ("arbiter/match/m1", SIGNER.verifier_key(), last.size)
    assert oct(known_origins.stat().st_mode & 0o777) == "0o600"
    again = json.loads(verify_file(tmp_path, bundle, "--json").output)
    assert (again["key_source"], again["pinned"]) == ("known", True)


def test_a_re_keyed_bundle_of_a_known_origin_is_refused(tmp_path, bundle):
    assert verify_file(tmp_path, bundle).exit_code == 0
    result = verify_file(tmp_path, rekeyed(bundle, MALLORY))
    assert result.exit_code == 1
    assert result.output.startswith(f"FAILED key_changed: the key the bundle's header names is "
                                    f"{MALLORY.verifier_key()}, but arbiter/match/m1 was signed "
                                    f"by {SIGNER.verifier_key()}")
    pinned = verify_file(tmp_path, bundle, "--key", MALLORY.verifier_key())
    assert pinned.exit_code == 1 and pinned.output.startswith("FAILED key_changed: --key is")


def test_a_rolled_back_bundle_of_a_known_origin_is_refused(tmp_path, bundle):
    assert verify_file(tmp_path, bundle).exit_code == 0
    rolled = rolled_back(bundle, 1)
    result = verify_file(tmp_path, rolled, "--key", SIGNER.verifier_key())
    assert result.exit_code == 1
    entries = header_of(rolled)["entries"]
    last = verified(b"".join(bundle)).checkpoints[-1].size
    assert result.output == (f"FAILED rolled_back: seq {entries}, line {len(rolled)}: a signed "
                             f"checkpoint of {last} entries of arbiter/match/m1 was verified "
                             f"here before; this bundle's last covers {entries} (of its "
                             f"{entries} entries): it was rolled back to an older checkpoint\n")


def test_an_earlier_bundle_then_a_later_one_is_no_rollback(tmp_path, bundle, known_origins):
    assert verify_file(tmp_path, rolled_back(bundle, 0)).exit_code == 0
    assert verify_file(tmp_path, bundle).exit_code == 0
    size = int(known_origins.read_text().split()[2])
    assert size == verified(b"".join(bundle)).checkpoints[-1].size


# -- season bundles ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def season_story():
    app = played_season()
    yield app
    app.close()


@pytest.fixture(scope="module", params=[PUBLIC, FULL])
def season_lines(season_story, request) -> list[bytes]:
    return season_bundle(season_story, request.param)


def test_a_season_bundle_without_its_trailing_checkpoint(season_lines):
    last = where_season(season_lines)[-1]
    dropped = [*season_lines[:last], *season_lines[last + 1:]]
    entries = header_of(season_lines)["entries"]
    assert failure_season(dropped) == ("missing_checkpoint", entries)


def test_a_season_bundle_rolled_back_re_keyed_or_cut(tmp_path, season_lines):
    assert verify_file(tmp_path, season_lines).exit_code == 0
    index = where_season(season_lines)[-3]
    size = size_of(values(season_lines)[index])
    rolled = with_header(season_lines[:index + 1], entries=size,
                         checkpoints=len(where_season(season_lines)) - 2)
    result = verify_file(tmp_path, rolled)
    assert result.exit_code == 1 and result.output.startswith("FAILED rolled_back:")
    result = verify_file(tmp_path, rekeyed(season_lines, MALLORY))
    assert result.exit_code == 1 and result.output.startswith("FAILED key_changed:")


def where_season(lines: list[bytes]) -> list[int]:
    return [i for i, raw in enumerate(lines) if CHECKPOINT in json.loads(raw)]


def failure_season(lines: list[bytes]) -> tuple[str, int | None]:
    from audit.errors import AuditError
    from audit.season_verify import verify_season

    with pytest.raises(AuditError) as caught:
        verify_season(iter(lines))
    return caught.value.code, caught.value.seq
