"""The audit commands end to end: a host with a key file plays a match through the CLI, exports
it, and a player and an auditor check it offline."""

from __future__ import annotations

import json
from hashlib import sha256
from pathlib import Path

import pytest
from click.testing import CliRunner

from audit.notes import parse_checkpoint, parse_note, parse_verifier_key, verify_note
from commands.cli import audit as audit_cli
from commands.cli.main import cli

PLAYERS = "ann,bob,cy"


def run(db: str, *args: str, key: Path | None = None):
    env = {"ARBITER_HOST_KEY": str(key) if key else ""}
    return CliRunner(env=env).invoke(cli, ["--db", db, *args])


def ok(result) -> str:
    assert result.exit_code == 0, result.output
    return result.stdout


def error_line(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


@pytest.fixture
def host(tmp_path, sqlite_url, monkeypatch):
    """A host key, and a match played through the CLI with it: round 1 closed, round 2 open."""
    monkeypatch.chdir(tmp_path)
    key = tmp_path / "host.key"
    vkey = ok(run(sqlite_url, "keys", "generate", "--key", str(key), "--name", "host.example"))
    for args in (["season", "create", "s"], ["season", "register", "s", "ann", "bob", "cy"],
                 ["season", "grant", "s", "ann", "5", "--reason", "start"],
                 ["match", "create", "m", "--season", "s", "--game", "sealed_bid", "--players",
                  PLAYERS, "--setup", '{"rounds": 2}'],
                 ["match", "host", "m", "open_match"]):
        ok(run(sqlite_url, *args, key=key))
    submitted = ok(run(sqlite_url, "match", "submit", "m", "bid", "amount=4", "--as", "bob",
                       "--json", key=key))
    (tmp_path / "receipt.json").write_text(submitted)
    ok(run(sqlite_url, "match", "close-round", "m", "--round", "1", key=key))
    return {"db": sqlite_url, "key": key, "vkey": vkey.strip(), "dir": tmp_path}


def test_keys_generate_show_and_never_replace(tmp_path, sqlite_url, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "no_host_key" in error_line(run(sqlite_url, "keys", "show"))
    vkey = ok(run(sqlite_url, "keys", "generate")).strip()  # ./arbiter-host.key
    made = parse_verifier_key(vkey)  # named after itself: no other host's key has its name
    assert made.name == f"arbiter-{sha256(made.public_key).hexdigest()[:12]}"
    assert (tmp_path / "arbiter-host.key").exists()
    assert ok(run(sqlite_url, "keys", "show")).strip() == vkey
    assert error_line(run(sqlite_url, "keys", "generate")).startswith("error: key_exists")
    other = tmp_path / "other.key"
    assert ok(run(sqlite_url, "keys", "generate", "--key", str(other))).strip() != vkey
    assert ok(run(sqlite_url, "keys", "show", key=other)).strip() != vkey  # the env setting
    assert "no_host_key" in error_line(run(sqlite_url, "keys", "show",
                                           key=tmp_path / "missing.key"))
    assert "malformed_key" in error_line(run(sqlite_url, "keys", "generate", "--key",
                                             str(tmp_path / "x.key"), "--name", "a b"))


def test_the_checkpoint_of_a_round_is_printed_ready_to_paste(host):
    note = ok(run(host["db"], "checkpoint", "m", key=host["key"]))
    key = parse_verifier_key(host["vkey"])
    assert verify_note(note, [key]) == [key]
    assert parse_checkpoint(parse_note(note).text).extensions[0] == "round 1"
    assert ok(run(host["db"], "checkpoint", "m", "--round", "0")) != note
    assert "round_not_closed" in error_line(run(host["db"], "checkpoint", "m", "--round", "2"))


def test_an_unsigned_round_is_signed_on_demand(tmp_path, sqlite_url, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args in (["season", "create", "s"], ["season", "register", "s", "ann", "bob", "cy"],
                 ["match", "create", "m", "--season", "s", "--game", "sealed_bid", "--players",
                  PLAYERS, "--unsigned"], ["match", "host", "m", "open_match"],
                 ["match", "close-round", "m", "--round", "1"]):
        ok(run(sqlite_url, *args))
    assert "no_host_key" in error_line(run(sqlite_url, "checkpoint", "m"))
    key = tmp_path / "late.key"
    vkey = parse_verifier_key(ok(run(sqlite_url, "keys", "generate", "--key", str(key))).strip())
    note = ok(run(sqlite_url, "checkpoint", "m", "--round", "0", key=key))
    assert verify_note(note, [vkey]) == [vkey]
    assert parse_checkpoint(parse_note(note).text).size == 6  # the log as round 0 ended


def test_export_and_verify(host, known_origins):
    public, full = host["dir"] / "public.jsonl", host["dir"] / "full.jsonl"
    ok(run(host["db"], "export", "m", "--public", "-o", str(public), key=host["key"]))
    ok(run(host["db"], "export", "m", "--full", "-o", str(full), key=host["key"]))
    assert "invalid_input" in error_line(run(host["db"], "export", "m", "-o", str(public)))
    for bundle in (public, full):
        report = ok(run(host["db"], "verify", str(bundle)))
        assert report.strip().endswith("verified") and "checkpoints  2," in report
    assert ok(run(host["db"], "verify", str(public), "--key", host["vkey"]))
    other = host["dir"] / "other.key"
    stranger = ok(run(host["db"], "keys", "generate", "--key", str(other))).strip()
    refused = run(host["db"], "verify", str(public), "--key", stranger)
    # This origin was verified here before, with the host's key: another is refused outright.
    assert refused.exit_code == 1 and refused.stdout.startswith("FAILED key_changed")
    known_origins.unlink()  # a verifier who never saw it: the checkpoints are not the key's
    refused = run(host["db"], "verify", str(public), "--key", stranger)
    assert refused.exit_code == 1 and refused.stdout.startswith("FAILED wrong_host_key")
    signer, expected = parse_verifier_key(host["vkey"]), parse_verifier_key(stranger)
    assert (f"signed by {signer.name}+{signer.key_id.hex()}, not by {expected.name}+"
            f"{expected.key_id.hex()}") in refused.stdout
    assert "wrong_host_key" in error_line(run(host["db"], "export", "m", "--public", "-o",
                                              str(public), key=other))
    lines = full.read_bytes().splitlines(keepends=True)
    lines[5] = lines[5].replace(b'"seq":', b'"seq": ')
    full.write_bytes(b"".join(lines))
    refused = run(host["db"], "verify", str(full))
    assert refused.exit_code == 1 and refused.stdout.startswith("FAILED not_canonical: line 6")


def test_verify_shows_progress_on_a_long_bundle(host, monkeypatch):
    public = host["dir"] / "public.jsonl"
    ok(run(host["db"], "export", "m", "--public", "-o", str(public), key=host["key"]))
    monkeypatch.setattr(audit_cli, "PROGRESS_ABOVE", 5)
    result = run(host["db"], "verify", str(public))
    assert result.exit_code == 0 and "verifying" in result.stderr


def test_a_receipt_verifies_against_the_bundle_and_then_its_saved_proof(host):
    public, receipt = host["dir"] / "public.jsonl", host["dir"] / "receipt.json"
    proof = host["dir"] / "bid.tlog-proof"
    ok(run(host["db"], "export", "m", "--public", "-o", str(public), key=host["key"]))
    checked = ok(run(host["db"], "receipt", "verify", str(receipt), "--bundle", str(public),
                     "--save-proof", str(proof)))
    assert "is in the log under the checkpoint of round 1." in checked.splitlines()[0]
    assert ok(run(host["db"], "receipt", "verify", str(receipt), "--proof", str(proof),
                  "--key", host["vkey"]))
    assert "no_host_key" in error_line(run(host["db"], "receipt", "verify", str(receipt),
                                           "--proof", str(proof)))
    assert "invalid_input" in error_line(run(host["db"], "receipt", "verify", str(receipt)))
    forged = json.loads(receipt.read_text())
    forged["receipt"]["parts"]["0"]["data"]["args"]["amount"] = 9
    receipt.write_text(json.dumps(forged))
    refused = run(host["db"], "receipt", "verify", str(receipt), "--bundle", str(public))
    assert refused.exit_code == 1 and refused.stdout.startswith("FAILED bad_opening")


def test_replay_diff_and_bisect_from_the_store_and_from_bundles(host):
    full = host["dir"] / "full.jsonl"
    ok(run(host["db"], "export", "m", "--full", "-o", str(full), key=host["key"]))
    from_store = json.loads(ok(run(host["db"], "replay", "m", "--round", "1", "--as", "bob",
                                   "--json")))
    from_bundle = json.loads(ok(run(host["db"], "replay", str(full), "--round", "1", "--as",
                                    "bob", "--json")))
    assert from_store == from_bundle
    assert any(e["kind"] == "BidPlaced" for e in from_bundle["events"])
    assert "state root" in ok(run(host["db"], "replay", str(full), "--round", "0"))
    assert "round_not_reached" in error_line(run(host["db"], "replay", "m", "--round", "7"))
    changes = ok(run(host["db"], "diff", "m", "--from", "0", "--to", "1"))
    assert "winners" in changes and "RoundClosed" not in changes
    # what happened meanwhile, told as `view` tells it: in sentences under the round's title
    assert "\nRound 1\n - Round closed: round 1, winner bob." in changes
    assert json.loads(ok(run(host["db"], "diff", "m", "--from", "0", "--to", "1", "--as", "bob",
                             "--json"))) == \
        json.loads(ok(run(host["db"], "diff", str(full), "--from", "0", "--to", "1", "--as",
                          "bob", "--json")))
    assert "agree" in ok(run(host["db"], "bisect", str(full), str(full)))
    ok(run(host["db"], "match", "submit", "m", "bid", "amount=2", "--as", "cy", key=host["key"]))
    longer = host["dir"] / "longer.jsonl"
    ok(run(host["db"], "export", "m", "--full", "-o", str(longer), key=host["key"]))
    parted = run(host["db"], "bisect", str(full), str(longer))
    assert parted.exit_code == 1 and "first different entry" in parted.stdout


def test_a_checkpoint_pasted_back_without_its_final_newline_still_proves(host):
    """A chat drops the note's last newline; the command puts that one back, and only that."""
    public, receipt = host["dir"] / "public.jsonl", host["dir"] / "receipt.json"
    ok(run(host["db"], "export", "m", "--public", "-o", str(public), key=host["key"]))
    note = ok(run(host["db"], "checkpoint", "m", "--round", "1"))
    pasted = host["dir"] / "pasted.txt"
    pasted.write_text(note.removesuffix("\n"))
    checked = ok(run(host["db"], "receipt", "verify", str(receipt), "--bundle", str(public),
                     "--checkpoint", str(pasted), "--save-proof", str(host["dir"] / "p")))
    assert "is in the log under the checkpoint of round 1." in checked.splitlines()[0]
    proof = host["dir"] / "p"
    proof.write_text(proof.read_text().removesuffix("\n"))
    assert ok(run(host["db"], "receipt", "verify", str(receipt), "--proof", str(proof),
                  "--key", host["vkey"]))
    pasted.write_text(note.removesuffix("\n").removesuffix("="))  # a cut signature still fails
    refused = run(host["db"], "receipt", "verify", str(receipt), "--bundle", str(public),
                  "--checkpoint", str(pasted))
    assert refused.exit_code == 1 and refused.stdout.startswith("FAILED ")


def test_a_public_bundle_replays_the_public_view_and_says_so(host):
    public, full = host["dir"] / "public.jsonl", host["dir"] / "full.jsonl"
    ok(run(host["db"], "export", "m", "--public", "-o", str(public), key=host["key"]))
    ok(run(host["db"], "export", "m", "--full", "-o", str(full), key=host["key"]))
    asked = run(host["db"], "replay", str(public), "--round", "1", "--as", "bob", "--json")
    assert asked.exit_code == 0 and "needs the full bundle" in asked.stderr
    shown = json.loads(asked.stdout)
    assert shown["viewer"] == "public" and "BidPlaced" not in asked.stdout
    bob = json.loads(ok(run(host["db"], "replay", str(full), "--round", "1", "--as", "bob",
                            "--json")))
    assert bob["viewer"] == "bob" and any(e["kind"] == "BidPlaced" for e in bob["events"])
    text = ok(run(host["db"], "replay", str(public), "--round", "1"))
    assert text.startswith("Sealed Bid, match m, as the public saw it at the end of round 1")
    assert "log root" in text and "state root" in text


def test_the_audit_commands_answer_in_json(host):
    public = host["dir"] / "public.jsonl"
    exported = json.loads(ok(run(host["db"], "export", "m", "--public", "-o", str(public),
                                 "--json", key=host["key"])))
    assert exported == {"match": "m", "kind": "public", "file": str(public), "entries":
                        exported["entries"], "checkpoints": 2, "unsigned": False}
    verified = json.loads(ok(run(host["db"], "verify", str(public), "--json")))
    assert verified["verified"] and verified["checkpoints"] == 2
    assert verified["entries"] == exported["entries"] and verified["signed_by"] == host["vkey"]
    lines = public.read_bytes().splitlines(keepends=True)
    public.write_bytes(b"".join(lines[:-2]))  # the last checkpoint and its entry cut off
    failed = run(host["db"], "verify", str(public), "--json")
    assert failed.exit_code == 1 and json.loads(failed.stdout)["verified"] is False
    checkpoint = json.loads(ok(run(host["db"], "checkpoint", "m", "--json")))
    assert checkpoint["round"] == 1 and checkpoint["stored"] is True
    shown = json.loads(ok(run(host["db"], "keys", "show", "--json", key=host["key"])))
    assert shown == {"key_file": str(host["key"]), "verifier_key": host["vkey"]}
