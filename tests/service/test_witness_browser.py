"""Every player's browser as a witness, in the system Chromium: each of the eleven players of
the King's Court seed opens their page, which checks the log, keeps their receipts, registers a
key made in the browser in the season's log and cosigns the newest checkpoint; the public page
then says "cosigned by 11 of 11 players" and `arbiter verify --witnesses --quorum 11` agrees.
A page shown another history than it checked before, or a log that lost a player's entry,
raises the alarm and cosigns nothing."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from hashlib import sha256
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from selenium.webdriver.common.by import By
from service_harness import Server
from test_pages_browser import browser, waiting  # noqa: F401 (the fixture)

from audit.cosign import cosigners
from audit.notes import checkpoint_body, parse_checkpoint, parse_note, parse_verifier_key
from commands.cli.main import cli
from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens
from domain.season import witness_name
from tests.support.host_key import SIGNER

pytestmark = pytest.mark.browser

SEED = Path(__file__).resolve().parents[2] / "seeds" / "kings_court-king-win.json"
FILE = load(SEED)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    url = f"sqlite:///{tmp_path_factory.mktemp('witness-browser')}/pages.db"
    app = Arbiter(url, signer=SIGNER)
    play(app, FILE)
    app.close()
    with Server(url) as server:
        yield server


def as_player(driver: Any, server: Server, player: str) -> Any:
    """The player's page through their personal link; the witness section once it is done."""
    token = Tokens(server.service.arbiter).issue_joins(FILE.match, [player])[player]
    driver.get(f"{server.url}/m/{FILE.match}/join#{token}")
    waiting(lambda: driver.current_url.endswith("/me"), timeout=30)
    section = driver.find_element(By.CSS_SELECTOR, ".browser-witness")
    waiting(lambda: section.get_attribute("data-state"), timeout=60)
    return section


def newest(server: Server) -> dict[str, Any]:
    return server.service.arbiter.cosigned_notes(FILE.match)[-1]


def test_every_players_browser_cosigns_an_honest_match(browser, served, tmp_path):  # noqa: F811 (the fixture)
    browser.get(served.url)
    browser.execute_script("localStorage.clear()")
    for player in FILE.players:
        section = as_player(browser, served, player)
        said = section.text
        assert section.get_attribute("data-state") == "cosigned", said
        assert "Your browser cosigned the newest round" in said
        assert "in the signed log as your receipts say" in said
    season = served.service.arbiter.season(FILE.season)
    assert sorted(season.witnesses) == sorted(FILE.players)
    assert all(key.startswith(witness_name(FILE.season, p) + "+")
               for p, key in season.witnesses.items())
    keys = [parse_verifier_key(k) for k in season.witnesses.values()]
    note = newest(served)
    cosigned = note["note"] + "".join(note["cosignatures"])
    assert len(cosigners(cosigned, keys)) == 11  # each line holds under its registered key

    browser.get(f"{served.url}/m/{FILE.match}")
    rounds = browser.find_element(By.CSS_SELECTOR, ".cosigned").text
    last = "The opening" if note["round"] == 0 else f"Round {note['round']}"
    assert f"{last} ({note['size']} entries): signed by the host, cosigned by 11 of 11 " \
        "players" in rounds
    first = served.service.arbiter.checkpoints(FILE.match).notes[0]
    assert f"The opening ({first['size']} entries): signed by the host, cosigned by 0 of 11 " \
        "players; 11 more vouched for it by cosigning a later round." in rounds

    # Offline: the bundle carries the cosignatures, the season's log the keys.
    bundle = tmp_path / "bundle.jsonl"
    bundle.write_bytes(served.client().get(f"/matches/{FILE.match}/bundle").content)
    listed = tmp_path / "witnesses"
    listed.write_text("".join(f"{k}\n" for k in season.witnesses.values()))
    verified = CliRunner(env={"ARBITER_KNOWN_KEYS": str(tmp_path / "known")}).invoke(
        cli, ["verify", str(bundle), "--key", SIGNER.verifier_key(), "--witnesses", str(listed),
              "--quorum", "11", "--json"])
    assert verified.exit_code == 0, verified.output
    assert len(json.loads(verified.stdout)["cosigned_by"]) == 11
    # The keys read from the season's own bundle, verified first, give the same answer.
    season_bundle = tmp_path / "season.jsonl"
    season_bundle.write_bytes(served.client().get(f"/seasons/{FILE.season}/bundle").content)
    from_season = CliRunner(env={"ARBITER_KNOWN_KEYS": str(tmp_path / "known2")}).invoke(
        cli, ["verify", str(bundle), "--key", SIGNER.verifier_key(), "--witnesses",
              str(season_bundle), "--quorum", "11", "--json"])
    assert from_season.exit_code == 0, from_season.output
    assert sorted(json.loads(from_season.stdout)["cosigned_by"]) == \
        sorted(witness_name(FILE.season, p) for p in FILE.players)

    # A second visit cosigns nothing twice; it cosigns the season's checkpoints since.
    again = as_player(browser, served, FILE.players[0])
    assert again.get_attribute("data-state") == "cosigned"
    assert len(newest(served)["cosignatures"]) == 11
    season_notes = served.service.arbiter.cosigned_season_notes(FILE.season)
    named = {line.split(" ")[1] for line in season_notes[-1]["cosignatures"]}
    # The newest season checkpoint is the last registration's: its player and alice, back.
    assert named == {witness_name(FILE.season, p) for p in (FILE.players[0], FILE.players[-1])}
    vouched = {line.split(" ")[1] for n in season_notes for line in n["cosignatures"]}
    assert vouched == {witness_name(FILE.season, p) for p in FILE.players}
    browser.get(f"{served.url}/s/{FILE.season}")
    listed_rounds = browser.find_element(By.CSS_SELECTOR, ".cosigned").text
    assert f"The checkpoint of {season_notes[-1]['size']} entries: signed by the host, " \
        f"cosigned by 2 of {len(season.players)} players ({FILE.players[0]}, " \
        f"{FILE.players[-1]})" in listed_rounds
    season_bundle = tmp_path / "season-now.jsonl"
    season_bundle.write_bytes(served.client().get(f"/seasons/{FILE.season}/bundle").content)
    both = CliRunner(env={"ARBITER_KNOWN_KEYS": str(tmp_path / "known3")}).invoke(
        cli, ["verify", str(season_bundle), "--key", SIGNER.verifier_key(), "--witnesses",
              str(season_bundle), "--quorum", "1", "--json"])
    assert both.exit_code == 0, both.output


def test_a_players_browser_catches_a_forked_log_and_cosigns_nothing(browser, served):  # noqa: F811 (the fixture)
    note = newest(served)
    checkpoint = parse_checkpoint(parse_note(note["note"]).text)
    other = sha256(b"the history shown to the auditors").digest()
    fork = SIGNER.sign_note(checkpoint_body(checkpoint.origin, checkpoint.size, other,
                                            checkpoint.extensions))
    browser.get(served.url)
    browser.execute_script(
        "localStorage.clear(); localStorage.setItem(arguments[0], JSON.stringify(arguments[1]))",
        f"arbiter-seen:{checkpoint.origin}",
        {"origin": checkpoint.origin, "key": SIGNER.verifier_key(), "size": checkpoint.size,
         "root": base64.b64encode(other).decode(), "note": fork})
    before = len(newest(served).get("cosignatures", []))
    section = as_player(browser, served, FILE.players[1])
    said = section.text
    assert section.get_attribute("data-state") == "alarm"
    assert section.get_attribute("data-code") == "inconsistent_checkpoints"
    assert "another history" in said and fork.strip() in said and note["note"].strip() in said
    assert len(newest(served).get("cosignatures", [])) == before


def test_a_receipt_the_log_no_longer_holds_is_an_alarm_with_the_proof(browser, served, tmp_path):  # noqa: F811 (the fixture)
    player = FILE.players[2]
    browser.get(served.url)
    browser.execute_script("localStorage.clear()")
    as_player(browser, served, player)  # the page keeps the player's receipts
    memory = f"arbiter-receipts:{FILE.match}\n{player}"
    kept = browser.execute_script("return JSON.parse(localStorage.getItem(arguments[0]))",
                                  memory)
    seq = min(int(s) for s in kept)
    forged = "0" * 64  # what the receipt said, where the log now holds another entry
    kept[str(seq)]["hash"] = forged
    browser.execute_script("localStorage.setItem(arguments[0], JSON.stringify(arguments[1]))",
                           memory, kept)
    section = as_player(browser, served, player)
    said = section.text
    assert section.get_attribute("data-state") == "alarm"
    assert f"Your submission #{seq}" in said and forged in said
    assert newest(served)["note"].strip() in said
    # The proof shown is a c2sp.org/tlog-proof of what the log holds at that entry: the
    # player's real receipt (which the log does hold here) verifies against it offline.
    proof = next(p.text for p in section.find_elements(By.TAG_NAME, "pre")
                 if p.text.startswith("c2sp.org/tlog-proof@v1"))
    (tmp_path / "proof.txt").write_text(proof + "\n")
    token = Tokens(served.service.arbiter).issue_joins(FILE.match, [player])[player]
    with httpx.Client(base_url=served.url) as reader:
        reader.post(f"/m/{FILE.match}/session", data={"token": token})
        receipt = reader.get(f"/m/{FILE.match}/me/receipts/{seq}")
    assert receipt.status_code == 200, receipt.text
    (tmp_path / "receipt.json").write_bytes(receipt.content)
    checked = CliRunner().invoke(cli, ["receipt", "verify", str(tmp_path / "receipt.json"),
                                       "--proof", str(tmp_path / "proof.txt"),
                                       "--key", SIGNER.verifier_key()])
    assert checked.exit_code == 0, checked.output
