"""Players' witness keys and their cosignatures, refused in words when wrong, recording
nothing: the season's rules (one key per registered player, named for them), the service (a
cosignature key in its one spelling), and the page calls (the player's cookie and CSRF token,
a checkpoint that exists, a line that holds under the player's registered key)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from service_harness import eventually

from audit import cosign, keys
from audit.any_bundle import verify_any
from audit.notes import parse_note
from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens
from commands.web.app import create_app
from commands.web.pages.session import csrf_of
from commands.web.worker import Settings
from domain.season import witness_name
from tests.support.host_key import SIGNER
from tests.test_match_ledger import refused

FILE = load(Path(__file__).resolve().parents[2] / "seeds" / "kings_court-king-win.json")


def key_of(season: str, player: str) -> cosign.Cosigner:
    return cosign.generate(witness_name(season, player))


def test_the_season_records_one_witness_key_per_player(tmp_path):
    app = Arbiter(f"sqlite:///{tmp_path}/keys.db", signer=SIGNER)
    try:
        play(app, FILE)
        season = FILE.season
        version = app.season(season).version
        alice = key_of(season, "alice")
        refused("unknown_player", app.register_witness, season, "zed",
                str(key_of(season, "zed").verifier))
        refused("invalid_witness_key", app.register_witness, season, "alice", "nonsense")
        refused("invalid_witness_key", app.register_witness, season, "alice",
                SIGNER.verifier_key())  # a host key (type 0x01), not a cosignature key
        refused("invalid_witness_key", app.register_witness, season, "alice",
                str(key_of(season, "bob").verifier))  # named for another player
        assert app.season(season).version == version  # nothing recorded
        app.register_witness(season, "alice", str(alice.verifier))
        refused("witness_registered", app.register_witness, season, "alice",
                str(key_of(season, "alice").verifier))
        found = app.season(season)
        assert found.witnesses == {"alice": str(alice.verifier)}
        assert found.version == version + 1
        entry = found.records[-1]["entry"]
        assert (entry["kind"], entry["actor"], entry["public"]) == \
            ("WitnessKeyRegistered", "alice", {"player": "alice", "key": str(alice.verifier)})
        # The season's bundle still verifies: its re-run takes the new entry.
        bundle = "".join(app.season_bundle(season, "full", SIGNER.verifier_key())).encode()
        assert verify_any(io.BytesIO(bundle)).entries == found.version
    finally:
        app.close()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[tuple[TestClient, Arbiter]]:
    url = f"sqlite:///{tmp_path}/pages.db"
    app = Arbiter(url, signer=SIGNER)
    play(app, FILE)
    with TestClient(create_app(Settings(url=url, signer=SIGNER))) as test_client:
        views = test_client.app.state.service.views  # type: ignore[attr-defined]
        eventually(lambda: views.seqs([FILE.match]) == {FILE.match:
                                                        app.match(FILE.match).version})
        yield test_client, app
    app.close()


def signed_in(client: TestClient, app: Arbiter, player: str) -> str:
    token = Tokens(app).issue_joins(FILE.match, [player])[player]
    client.post(f"/m/{FILE.match}/session", data={"token": token}, follow_redirects=False)
    return csrf_of(client.cookies["arbiter_player"])  # the session's, as the page's forms carry


def test_the_page_calls_refuse_what_is_not_the_players_own(client):
    test_client, app = client
    base = f"/m/{FILE.match}/me"
    witness = key_of(FILE.season, "bob")
    note = app.checkpoints(FILE.match).notes[-1]
    line = witness.cosign(parse_note(note["note"]).text, 1_790_000_000)
    body: dict[str, Any] = {"size": note["size"], "line": line}

    assert test_client.post(f"{base}/witness", json={"csrf": "x", "key": "k"}).status_code == 401
    csrf = signed_in(test_client, app, "bob")
    stale = test_client.post(f"{base}/witness", json={"csrf": "stale", "key": "k"})
    assert (stale.status_code, stale.json()["error"]) == (403, "wrong_form")
    early = test_client.post(f"{base}/cosign", json={"csrf": csrf, **body})
    assert (early.status_code, early.json()["error"]) == (409, "no_witness_key")
    wrong = test_client.post(f"{base}/witness", json={"csrf": csrf, "key": "nonsense"})
    assert wrong.json()["error"] == "invalid_witness_key" and wrong.status_code < 500
    made = test_client.post(f"{base}/witness", json={"csrf": csrf, "key": str(witness.verifier)})
    assert made.status_code == 200, made.text
    assert app.season(FILE.season).witnesses["bob"] == str(witness.verifier)

    other = key_of(FILE.season, "bob").cosign(parse_note(note["note"]).text, 1_790_000_000)
    for bad, code, status in (
            ({**body, "size": 3}, "no_checkpoint", 404),
            ({**body, "log": "season"}, "no_checkpoint", 404),  # no season note of that size
            ({**body, "line": other}, "bad_cosignature", 422),  # another key's line
            ({**body, "line": line + line}, "bad_cosignature", 422),
            ({**body, "line": keys.generate("h").sign_note("x\n")}, "bad_cosignature", 422)):
        answer = test_client.post(f"{base}/cosign", json={"csrf": csrf, **bad})
        assert (answer.status_code, answer.json()["error"]) == (status, code), answer.text
    assert app.cosigned_notes(FILE.match)[-1]["cosignatures"] == []  # nothing kept
    good = test_client.post(f"{base}/cosign", json={"csrf": csrf, **body})
    assert good.status_code == 200, good.text
    assert app.cosigned_notes(FILE.match)[-1]["cosignatures"] == [line]
    again = test_client.post(f"{base}/cosign", json={"csrf": csrf, **body})
    assert again.status_code == 200 and \
        app.cosigned_notes(FILE.match)[-1]["cosignatures"] == [line]  # kept once
