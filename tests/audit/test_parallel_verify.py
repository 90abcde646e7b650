"""`arbiter verify --jobs N`: worker processes take runs of entries and check notes, and the
verdict is the single process's, line for line: the same code, seq and line for every tamper,
wherever the blocks cut the file."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from audit.any_bundle import verify_any
from audit.bundle import PUBLIC
from audit.errors import AuditError
from audit.parallel_verify import _block, _start_worker, verify_file
from audit.verify import Run
from commands.cli.main import cli
from commands.cli.matchfile import load, prepare_season, run
from commands.service.arbiter import Arbiter
from tests.audit.test_bundle import SIGNER, bundle_of, played_story

SEED = Path(__file__).resolve().parents[2] / "seeds" / "tile_joust-dm-ec-outscores.json"
story_fixture = pytest.fixture(played_story, scope="module", name="story")


@pytest.fixture(scope="module")
def public(story) -> list[bytes]:
    return bundle_of(story, PUBLIC).splitlines(keepends=True)


@pytest.fixture(scope="module")
def seed(tmp_path_factory) -> Path:
    """A seed match's public bundle: 500-odd entries, a checkpoint every round, padding."""
    app = Arbiter("sqlite:///:memory:", signer=SIGNER)
    file = load(SEED)
    prepare_season(app, file)
    assert run(app, file)[1] == []
    path = tmp_path_factory.mktemp("seed") / "public.jsonl"
    path.write_text("".join(app.bundle(file.match, "public")))
    app.close()
    return path


def verdict(found) -> tuple:
    """What a verify said (in one process: audit.any_bundle, as `arbiter verify` runs it):
    the entries and checkpoints it verified, or where and why it failed."""
    try:
        audit = found()
    except AuditError as error:
        return ("failed", error.code, error.seq, error.line)
    return ("verified", audit.entries, [c.note for c in audit.checkpoints])


def both(data: bytes, path: Path, block: int) -> tuple[tuple, tuple]:
    path.write_bytes(data)
    return (verdict(lambda: verify_any(io.BytesIO(data))),
            verdict(lambda: verify_file(str(path), jobs=2, block=block)))


def tampers(lines: list[bytes]) -> dict[str, bytes]:
    """The tamper corpus: a byte changed at either end and in the middle of every line, each
    line dropped, each two neighbours swapped, each line twice, the bundle cut."""
    found = {}
    for i, raw in enumerate(lines):
        for at in (2, len(raw) // 2, len(raw) - 3):
            changed = raw[:at] + bytes([raw[at] ^ 0x01]) + raw[at + 1:]
            found[f"line {i} byte {at}"] = b"".join([*lines[:i], changed, *lines[i + 1:]])
        found[f"line {i} dropped"] = b"".join([*lines[:i], *lines[i + 1:]])
        found[f"line {i} twice"] = b"".join([*lines[:i + 1], *lines[i:]])
        if i:
            found[f"lines {i - 1} and {i} swapped"] = b"".join(
                [*lines[:i - 1], raw, lines[i - 1], *lines[i + 1:]])
    data = b"".join(lines)
    found["cut mid-line"] = data[:len(data) // 2]
    found["last newline cut"] = data[:-1]
    return found


def test_every_tamper_fails_with_the_same_code_seq_and_line_as_one_process(public, tmp_path):
    assert len(public) > 30  # a few rounds, each with its checkpoint
    for name, data in tampers(public).items():
        one, two = both(data, tmp_path / "bundle.jsonl", block=700)
        assert two == one, name


def test_a_seed_bundle_cut_into_blocks_of_any_size_verifies_as_one_process(seed, tmp_path):
    data = seed.read_bytes()
    expected = verdict(lambda: verify_any(io.BytesIO(data)))
    assert expected[0] == "verified" and expected[1] > 500
    for block in (333, 4096, 50_000):
        assert verdict(lambda b=block: verify_file(str(seed), jobs=2, block=b)) == expected
        assert verdict(lambda b=block: verify_file(str(seed), jobs=3, block=b)) == expected


def test_a_seed_bundle_with_a_tampered_entry_deep_inside_a_run(seed, tmp_path):
    lines = seed.read_bytes().splitlines(keepends=True)
    sealed = [i for i, raw in enumerate(lines) if raw.startswith(b'{"actor":null')]
    for i in (sealed[len(sealed) // 3], sealed[-5]):
        raw = lines[i]
        forged = raw.replace(b'"seals":["', b'"seals":["f', 1)[:-70] + raw[-69:]
        data = b"".join([*lines[:i], forged, *lines[i + 1:]])
        one, two = both(data, tmp_path / "bundle.jsonl", block=4096)
        assert one[0] == "failed" and two == one


def test_workers_take_nearly_every_entry_of_a_seed_bundle_as_runs(seed):
    """The split does the work: the runs the workers take hold the ordinary entries, each
    starting where its first line claims, and every checkpoint note comes back signed."""
    header = json.loads(seed.read_bytes().splitlines()[0])["header"]
    from audit.notes import parse_verifier_key

    _start_worker(str(seed), header["match"], header["entries"],
                  [parse_verifier_key(header["host_key"])], header["origin"])
    size = seed.stat().st_size
    start = len(seed.read_bytes().splitlines(keepends=True)[0])
    presigned, found = _block((start, size))
    runs = [piece for piece in found if isinstance(piece, Run)]
    assert len(presigned) == header["checkpoints"]
    assert sum(r.entries for r in runs) > 0.8 * header["entries"]
    lines = seed.read_bytes().splitlines(keepends=True)
    for r in runs:
        first = json.loads(r.read()[0])
        assert (first["seq"] - 1, first["prev"], first["round"]) == (r.size, r.prev, r.round)
        assert json.loads(r.read()[-1])["hash"] == r.last
        assert b"".join(r.read()) in b"".join(lines)


def test_the_command_line_takes_jobs_and_says_the_same(seed, tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_KNOWN_KEYS", str(tmp_path / "known"))
    runner = CliRunner()
    one = runner.invoke(cli, ["verify", str(seed), "--json"])
    monkeypatch.setenv("ARBITER_KNOWN_KEYS", str(tmp_path / "known-2"))
    two = runner.invoke(cli, ["verify", str(seed), "--json", "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0
    said = [json.loads(result.output) for result in (one, two)]
    for data in said:  # the known-origins file it names differs
        assert str(tmp_path) in data["findings"].pop("signed by")
    assert said[1] == said[0]
    refused = runner.invoke(cli, ["verify", str(seed), "--jobs", "0"])
    assert refused.exit_code == 2 and "--jobs" in refused.output


def test_a_process_with_other_threads_starts_its_workers_from_a_fork_server(seed):
    """A child forked while another thread holds a lock would wait for it forever: beside
    another thread, the workers come from a fork server, and verify the same."""
    import threading

    from audit.parallel_verify import start_method

    expected = verdict(lambda: verify_any(io.BytesIO(seed.read_bytes())))
    assert start_method() == ("fork" if threading.active_count() == 1 else "forkserver")
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    try:
        assert start_method() == "forkserver"
        assert verdict(lambda: verify_file(str(seed), jobs=2, block=4096)) == expected
    finally:
        stop.set()
        other.join()
