"""Witnesses (audit/cosign.py, `arbiter witness`, `arbiter verify --witnesses --quorum`):
c2sp.org/tlog-witness add-checkpoint on the King's Court seed's checkpoints, every answer the
spec names, checked against a second implementation written here from the spec's text (the
request a log sends, the cosignature a client verifies), and the spec's own example request."""

from __future__ import annotations

import base64
import json
import socket
import threading
import time
from hashlib import sha256
from pathlib import Path
from typing import Any

import click
import httpx
import pytest
import uvicorn
from click.testing import CliRunner
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

import bench.tampers as tampers
from audit import cosign
from audit.bundle import CHECKPOINT, line
from audit.errors import AuditError
from audit.notes import checkpoint_body, parse_checkpoint, parse_note, parse_verifier_key
from commands.cli.main import cli
from commands.web.witness import witness_app

NOW = 1_790_000_000
HOST = parse_verifier_key(tampers.SIGNER.verifier_key())

# c2sp.org/tlog-witness, "add-checkpoint": the example request body, verbatim.
SPEC_REQUEST = """old 20852014
PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=
jrJZDmY8Y7SyJE0MWLpLozkIVMSMZcD5kvuKxPC3swk=
5+pKlUdi2LeF/BcMHBn+Ku6yhPGNCswZZD1X/6QgPd8=
/6WVhPs2CwSsb5rYBH5cjHV/wSmA79abXAwhXw3Kj/0=

example.com/behind-the-sofa
20852163
CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=

\u2014 example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/\
Zhcyv2q1gGz\
Gku9nTo+zyWE+xeMcTOAYQ8=
\u2014 example.com/behind-the-sofa opLqBQsREYCgu6xQkYQwJr9fo45a62DN9EdmHXnZdXNqlcVGlCum2Wks+49/\
V6267UEj\
w6QUXTS5Rovnzv++qbSzm9Q=
"""


# -- the second implementation, from the spec's words ---------------------------------------

def request(old: int, proof: list[str], note: str) -> bytes:
    """"an old size line, zero or more consistency proof lines, and an empty line, followed by
    a checkpoint", each line ending in a newline."""
    return "".join(f"{x}\n" for x in [f"old {old}", *proof]).encode() + b"\n" + note.encode()


def cosigned_by(line_: str, body: str, name: str, public: bytes) -> int:
    """The timestamp of a valid Ed25519 cosignature line of checkpoint body `body` by the
    witness (`name`, `public`), per c2sp.org/tlog-cosignature; AssertionError otherwise."""
    assert line_.startswith("\u2014 ") and line_.endswith("\n")
    got_name, encoded = line_[2:-1].split(" ")
    raw = base64.b64decode(encoded)
    assert got_name == name
    assert raw[:4] == sha256(name.encode() + b"\n" + b"\x04" + public).digest()[:4]
    timestamp = int.from_bytes(raw[4:12], "big")
    assert len(raw) == 4 + 8 + 64 and timestamp < 2**63
    message = b"cosignature/v1\ntime " + str(timestamp).encode() + b"\n" + body.encode()
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(raw[12:], message)
    except InvalidSignature:
        raise AssertionError("the cosignature does not verify") from None
    return timestamp


# -- fixtures ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def bundle() -> list[bytes]:
    return tampers.match_bundles()["public"].lines


@pytest.fixture(scope="module")
def checkpoints(bundle) -> list[dict[str, Any]]:
    """The bundle's checkpoint lines: each note with its consistency proof from the one before."""
    return [json.loads(raw)[CHECKPOINT] for raw in bundle if raw.startswith(b'{"checkpoint"')]


def make_witness(tmp_path: Path, name: str = "witness.example/w1") -> cosign.Witness:
    state = cosign.WitnessState(tmp_path / f"{name.replace('/', '_')}.state")
    return cosign.Witness(cosign.generate(name), [("arbiter", HOST)], state, lambda: NOW)


def size_of(note: str) -> int:
    return parse_checkpoint(parse_note(note).text).size


def test_the_specs_example_request_is_read_and_refused_for_a_log_not_followed(tmp_path):
    witness = make_witness(tmp_path)
    assert witness.add_checkpoint(SPEC_REQUEST.encode()).status == 404
    # A witness following that origin under another key: no signature it trusts.
    other = parse_verifier_key(tampers.MALLORY.verifier_key())
    strict = cosign.Witness(cosign.generate("w"), [("example.com", other)],
                            cosign.WitnessState(tmp_path / "s"), lambda: NOW)
    assert strict.add_checkpoint(SPEC_REQUEST.encode()).status == 403


def test_a_witness_cosigns_each_checkpoint_that_extends_the_last(tmp_path, checkpoints):
    witness = make_witness(tmp_path)
    public = witness.cosigner.verifier.public_key
    old = 0
    for c in checkpoints:
        answer = witness.add_checkpoint(request(old, c["consistency"], c["note"]))
        assert answer.status == 200, answer.body
        assert cosigned_by(answer.body, parse_note(c["note"]).text, "witness.example/w1",
                           public) == NOW
        old = size_of(c["note"])
    # Persisted before answering: a witness started again from the file knows the last size.
    again = cosign.Witness(witness.cosigner, witness.logs,
                           cosign.WitnessState(witness.state.path), lambda: NOW)
    replay = again.add_checkpoint(request(0, [], checkpoints[0]["note"]))
    assert (replay.status, replay.content_type, replay.body) == \
        (409, "text/x.tlog.size", f"{old}\n")


def test_a_witness_refuses_what_the_spec_says_it_must(tmp_path, checkpoints):
    witness = make_witness(tmp_path)
    first, second, third = (c["note"] for c in checkpoints[:3])
    assert witness.add_checkpoint(request(0, [], first)).status == 200
    assert witness.add_checkpoint(request(0, [], second)).status == 409  # stale old size
    assert witness.add_checkpoint(request(size_of(first), [], second)).status == 422  # no proof
    wrong = [base64.b64encode(sha256(b"x").digest()).decode()] * len(checkpoints[1]["consistency"])
    assert witness.add_checkpoint(request(size_of(first), wrong, second)).status == 422
    # Rolled back: an older checkpoint than the one cosigned.
    assert witness.add_checkpoint(request(size_of(second) + 1, [], first)).status == 400
    # The same size with another root: two histories.
    origin = parse_checkpoint(parse_note(first).text).origin
    fork = tampers.SIGNER.sign_note(checkpoint_body(origin, size_of(first), sha256(b"f").digest(),
                                                    ("round 0", "state " + "0" * 64)))
    assert witness.add_checkpoint(request(size_of(first), [], fork)).status == 409
    # Signed by another key than the host's; a log it does not follow; not a request at all.
    forged = tampers.MALLORY.sign_note(parse_note(second).text)
    assert witness.add_checkpoint(request(size_of(first), checkpoints[1]["consistency"],
                                          forged)).status == 403
    elsewhere = tampers.SIGNER.sign_note(checkpoint_body("elsewhere/match/x", 1, bytes(32)))
    assert witness.add_checkpoint(request(0, [], elsewhere)).status == 404
    for junk in (b"", b"old 01\n\n" + first.encode(), b"old 1\nnot base64!\n\n" + first.encode(),
                 b"\xff\xfe", request(0, ["AAAA"] * 64, first)):
        assert witness.add_checkpoint(junk).status == 400
    # None of that moved the witness: the next checkpoint still extends the first.
    good = witness.add_checkpoint(request(size_of(first), checkpoints[1]["consistency"], second))
    assert good.status == 200
    assert witness.state.latest[origin].size == size_of(second)
    assert size_of(third) > size_of(second)


def test_the_endpoint_over_http(tmp_path, checkpoints):
    witness = make_witness(tmp_path)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(witness_app(witness), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.02)
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/add-checkpoint"
        note = checkpoints[0]["note"]
        answer = httpx.post(url, content=request(0, [], note))
        assert answer.status_code == 200
        cosigned_by(answer.text, parse_note(note).text, "witness.example/w1",
                    witness.cosigner.verifier.public_key)
        stale = httpx.post(url, content=request(0, [], note))
        assert (stale.status_code, stale.headers["content-type"], stale.text) == \
            (409, "text/x.tlog.size", f"{size_of(note)}\n")
        assert httpx.post(url, content=b"x" * (cosign.MAX_BODY + 1)).status_code == 413
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def cosigned_bundle(bundle: list[bytes], witnesses: list[cosign.Witness]) -> list[bytes]:
    """The bundle with each witness's cosignature appended to each checkpoint it cosigned."""
    out, old = [], {id(w): 0 for w in witnesses}
    for raw in bundle:
        if raw.startswith(b'{"checkpoint"'):
            c = json.loads(raw)[CHECKPOINT]
            note = c["note"]
            for w in witnesses:
                answer = w.add_checkpoint(request(old[id(w)], c["consistency"], c["note"]))
                assert answer.status == 200
                note += answer.body
                old[id(w)] = size_of(c["note"])
            raw = line({CHECKPOINT: {**c, "note": note}}).encode()
        out.append(raw)
    return out


def test_verify_requires_a_quorum_of_the_witnesses_listed(tmp_path, bundle, monkeypatch):
    monkeypatch.setenv("ARBITER_KNOWN_KEYS", str(tmp_path / "known"))
    w1, w2, w3 = (make_witness(tmp_path, f"witness.example/w{i}") for i in (1, 2, 3))
    cosigned = tmp_path / "cosigned.jsonl"
    cosigned.write_bytes(b"".join(cosigned_bundle(bundle, [w1, w2])))
    listed = tmp_path / "witnesses"
    listed.write_text("# the season's witnesses\n" + "".join(
        f"{w.cosigner.verifier}\n" for w in (w1, w2, w3)))

    def verify(*args: str) -> Any:
        return CliRunner().invoke(cli, ["verify", str(cosigned), "--key", str(HOST),
                                        "--witnesses", str(listed), *args, "--json"])

    met = verify("--quorum", "2")
    assert met.exit_code == 0, met.output
    assert json.loads(met.stdout)["cosigned_by"] == ["witness.example/w1", "witness.example/w2"]
    short = verify("--quorum", "3")
    assert short.exit_code == 1 and json.loads(short.stdout)["code"] == "quorum_not_met"
    assert verify().exit_code == 1  # by default every witness listed
    # A cosignature line that does not hold, by a listed witness: forged.
    lines = cosigned.read_bytes().splitlines(keepends=True)
    last = max(i for i, raw in enumerate(lines) if raw.startswith(b'{"checkpoint"'))
    c = json.loads(lines[last])[CHECKPOINT]
    text = parse_note(c["note"]).text
    c["note"] += w3.cosigner.cosign(text + "x", NOW)  # w3's name and key, another text
    lines[last] = line({CHECKPOINT: c}).encode()
    cosigned.write_bytes(b"".join(lines))
    bad = verify("--quorum", "2")
    assert bad.exit_code == 1 and json.loads(bad.stdout)["code"] == "bad_cosignature"
    # Bad input: a witnesses file naming a host key (type 0x01), or no key.
    listed.write_text(f"{HOST}\n")
    assert "invalid_input" in verify().output and verify().exit_code == 2
    assert CliRunner().invoke(cli, ["verify", str(cosigned), "--quorum", "1"]).exit_code == 2
    listed.write_bytes(cosigned.read_bytes())  # a match's bundle is no list of witnesses
    assert "invalid_input" in verify().output and verify().exit_code == 2


def test_keygen_writes_a_key_the_witness_serves_with_and_never_replaces_it(tmp_path):
    path = tmp_path / "witness.key"
    made = CliRunner().invoke(cli, ["witness", "keygen", "--key", str(path), "--name",
                                    "witness.example/w9", "--json"])
    assert made.exit_code == 0, made.output
    vkey = parse_verifier_key(json.loads(made.stdout)["verifier_key"])
    assert (vkey.name, vkey.sig_type) == ("witness.example/w9", 0x04)
    assert cosign.load(path).verifier == vkey
    assert path.stat().st_mode & 0o777 == 0o600
    again = CliRunner().invoke(cli, ["witness", "keygen", "--key", str(path), "--name", "x"])
    assert again.exit_code == 2 and cosign.load(path).verifier == vkey
    with pytest.raises(AuditError):
        cosign.check_quorum([], [vkey], 1)


def test_the_logs_a_witness_trusts_are_named_by_key_or_by_prefix_and_key():
    from commands.cli.witness import trusted_logs

    host = tampers.SIGNER.verifier_key()
    assert trusted_logs((host,)) == [(HOST.name, HOST)]
    assert trusted_logs((f"games.example.org/arbiter={host}",)) == \
        [("games.example.org/arbiter", HOST)]
    with pytest.raises(click.BadParameter, match="arbiter=nonsense: expected name"):
        trusted_logs(("arbiter=nonsense",))
