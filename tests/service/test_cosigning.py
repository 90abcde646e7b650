"""`arbiter serve --witness URL VKEY`: the service brings each checkpoint to real witnesses
(`arbiter witness`'s endpoint on the loopback), keeps their cosignatures beside the notes and
serves them in the bundle, which `arbiter verify --witnesses --quorum` then accepts."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from click.testing import CliRunner
from service_harness import Server, eventually

from audit import cosign, keys
from audit.notes import parse_checkpoint, parse_note, parse_verifier_key
from commands.cli.main import cli
from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from commands.service.cosigning import WitnessEndpoint, cosigned_by
from commands.web.witness import witness_app
from commands.web.worker import witnesses_from
from domain.errors import RuleViolation
from tests.support.host_key import SIGNER

SEED = Path(__file__).resolve().parents[2] / "seeds" / "kings_court-king-win.json"
HOST = parse_verifier_key(SIGNER.verifier_key())


class RunningWitness:
    """A witness (audit.cosign) served over HTTP on the loopback."""

    def __init__(self, folder: Path, name: str, prefix: str, trusted: Any = HOST,
                 kind: type[cosign.Witness] = cosign.Witness) -> None:
        self.witness = kind(cosign.generate(name), [(prefix, trusted)],
                            cosign.WitnessState(folder / f"{name[-2:]}.state"),
                            lambda: int(time.time()))
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(witness_app(self.witness),
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)
        self.thread.start()
        eventually(lambda: self.server.started)

    @property
    def endpoint(self) -> WitnessEndpoint:
        return WitnessEndpoint(self.url, self.witness.cosigner.verifier)

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


@pytest.fixture
def played(tmp_path: Path) -> Iterator[tuple[str, str, list[dict[str, Any]]]]:
    url = f"sqlite:///{tmp_path}/cosigned.db"
    app = Arbiter(url, signer=SIGNER)
    file = load(SEED)
    play(app, file)
    notes = app.checkpoints(file.match).notes
    app.close()
    yield url, file.match, notes


def test_serve_brings_every_checkpoint_to_its_witnesses_and_serves_their_cosignatures(
        tmp_path, played):
    url, match, notes = played
    origin = parse_checkpoint(parse_note(notes[0]["note"]).text).origin
    prefix = origin.removesuffix(f"/match/{match}")
    fresh = RunningWitness(tmp_path, "witness.example/w1", prefix)
    ahead = RunningWitness(tmp_path, "witness.example/w2", prefix)
    refusing = RunningWitness(tmp_path, "witness.example/w3", prefix,
                              trusted=parse_verifier_key(keys.generate("other").verifier_key()))
    # w2 already cosigned the first three checkpoints, through another path.
    old = 0
    for note in notes[:3]:
        answer = ahead.witness.add_checkpoint(cosign.add_checkpoint_body(old, [], note["note"])
                                              if not old else _body(url, match, old, note))
        assert answer.status == 200
        old = note["size"]
    try:
        with Server(url, witnesses=(fresh.endpoint, ahead.endpoint, refusing.endpoint),
                    witness_interval=0.1) as server:
            def all_cosigned() -> bool:
                kept = server.service.arbiter.cosigned_notes(match)
                return all(cosigned_by(n, w.endpoint.key) for n in kept for w in (fresh,)) and \
                    all(cosigned_by(n, ahead.endpoint.key) for n in kept[3:])

            eventually(all_cosigned, timeout=30)
            season = load(SEED).season
            eventually(lambda: all(cosigned_by(n, fresh.endpoint.key) for n in
                                   server.service.arbiter.cosigned_season_notes(season)),
                       timeout=30)
            bundle = server.client().get(f"/matches/{match}/bundle").content
            season_bundle = server.client().get(f"/seasons/{season}/bundle").content
    finally:
        for w in (fresh, ahead, refusing):
            w.close()
    assert fresh.witness.state.latest[origin].size == notes[-1]["size"]
    assert ahead.witness.state.latest[origin].size == notes[-1]["size"]
    assert origin not in refusing.witness.state.latest  # 403 each time: nothing kept

    path = tmp_path / "bundle.jsonl"
    path.write_bytes(bundle)
    listed = tmp_path / "witnesses"
    listed.write_text("".join(f"{w.endpoint.key}\n" for w in (fresh, ahead, refusing)))
    runner = CliRunner(env={"ARBITER_KNOWN_KEYS": str(tmp_path / "known")})
    two = runner.invoke(cli, ["verify", str(path), "--key", str(HOST), "--witnesses",
                              str(listed), "--quorum", "2", "--json"])
    assert two.exit_code == 0, two.output
    assert json.loads(two.stdout)["cosigned_by"] == ["witness.example/w1", "witness.example/w2"]
    three = runner.invoke(cli, ["verify", str(path), "--key", str(HOST), "--witnesses",
                                str(listed), "--quorum", "3", "--json"])
    assert three.exit_code == 1 and json.loads(three.stdout)["code"] == "quorum_not_met"
    # The season's checkpoints too: its bundle carries w1's cosignatures.
    seasoned = tmp_path / "season.jsonl"
    seasoned.write_bytes(season_bundle)
    one = runner.invoke(cli, ["verify", str(seasoned), "--key", str(HOST), "--witnesses",
                              str(listed), "--quorum", "1", "--json"])
    assert one.exit_code == 0, one.output
    assert "witness.example/w1" in json.loads(one.stdout)["cosigned_by"]


def _body(url: str, match: str, old: int, note: dict[str, Any]) -> bytes:
    from audit.checkpoints import leaves
    from audit.merkle import consistency_proof

    app = Arbiter(url, signer=SIGNER)
    try:
        data = leaves(r["entry"] for r in app.match(match).records)
    finally:
        app.close()
    return cosign.add_checkpoint_body(old, consistency_proof(old, data[:note["size"]]),
                                      note["note"])


def test_a_witness_setting_that_is_not_a_witness_key_is_refused_in_words():
    assert witnesses_from("") == ()
    with pytest.raises(RuleViolation, match="cosignature key"):
        witnesses_from(f"http://127.0.0.1:1 {HOST}")
    with pytest.raises(RuleViolation, match="witness key"):
        witnesses_from("http://127.0.0.1:1 nonsense")
