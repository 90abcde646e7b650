"""The browser's verifier (static/audit.js) against `arbiter verify`, in the system Chromium.

The differential test runs the tamper corpus of bench/tampers.py (every envelope field of
every entry changed, each entry dropped, doubled and swapped, the bundle cut after every line,
checkpoints dropped, re-keyed, rolled back, another history; the same on the seed season's
bundle) through audit/season_verify.py and through the page's script, and requires the same
code and seq for each public bundle. Where the CLI's first failure is one only a re-run of the
rules finds (the browser says it does not re-run them), the browser may pass the bundle or fail
it later, never earlier. One browser session; the bundles are sent as their original lines
plus the lines each variant changed.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from hashlib import sha256
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from service_harness import Server
from test_pages_browser import browser, waiting  # noqa: F401 (the fixture)

import bench.tampers as tampers
from audit import witness
from audit.any_bundle import verify_any
from audit.bundle import line
from audit.errors import AuditError
from audit.notes import checkpoint_body, parse_checkpoint, parse_note
from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from domain.envelope import entry_hash
from domain.match import Match
from tests.support import tamper
from tests.support.host_key import SIGNER

pytestmark = pytest.mark.browser

SEED = Path(__file__).resolve().parents[2] / "seeds" / "kings_court-king-win.json"
RULES = {"rerun_refused", "rerun_mismatch", "state_root_mismatch", "standings_mismatch",
         "citation_mismatch"}
BATCH = 150
FLIP_STRIDE = 89
STRIDES = {"bad_hash": 8, "bad_seq": 4, "truncated": 4}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('audit-browser')}/pages.db"
    app = Arbiter(url, signer=SIGNER)
    file = load(SEED)
    play(app, file)
    app.close()
    with Server(url) as server:
        yield server, file.match


@pytest.fixture(scope="module")
def page(browser, served) -> Any:  # noqa: F811 (the fixture imported above)
    server, match = served
    browser.get(f"{server.url}/m/{match}")
    waiting(lambda: browser.execute_script("return !!window.ArbiterAudit"))
    return browser


def cli(lines: list[bytes], key: Any, seen: witness.Seen | None) -> dict[str, Any]:
    """What `arbiter verify` says of a variant, as bench/tampers.py judges it."""
    try:
        if seen is not None:
            named = json.loads(lines[0]).get("header", {}).get("host_key")
            witness.check_key(seen, named, "the header's key", Path("known_origins"))
        verify_any(iter(lines), key, seen=seen)
    except AuditError as error:
        return {"code": error.code, "seq": error.seq, "line": error.line, "detail": error.detail}
    return {"code": "verified", "seq": None, "line": None, "detail": ""}


def corpus() -> list[tuple[list[bytes], Any, witness.Seen | None]]:
    """Every variant bench/tampers.py tries of a public bundle, match and season."""
    found: list[tuple[list[bytes], Any, witness.Seen | None]] = []

    def collect(result: Any, original: Any, lines: list[bytes], key: Any = tampers.VKEY,
                seen: witness.Seen | None = None) -> None:
        found.append((lines, key, seen))

    judged, tampers.judged = tampers.judged, collect
    try:
        for probe in (tampers.bundle_fields, tampers.bundle_lines, tampers.bundle_signatures,
                      tampers.season_bundle):
            probe("-", None)  # type: ignore[arg-type]
    finally:
        tampers.judged = judged
    public = tampers.match_bundles()["public"].lines
    data = b"".join(public)
    for position in range(0, len(data), FLIP_STRIDE):  # one bit of every 89th byte flipped
        flipped = data[:position] + bytes([data[position] ^ 0x01]) + data[position + 1:]
        found.append((flipped.splitlines(keepends=True), tampers.VKEY, None))
    found.append((rechained(public), tampers.VKEY, None))
    return [v for v in found if _public(v[0])]


def rechained(lines: list[bytes]) -> list[bytes]:
    """A host's forgery: a public fact's data changed, every hash and link after it
    recomputed; only the signed checkpoints can tell."""
    values = [json.loads(raw) for raw in lines]
    changed = next(i for i, v in enumerate(values)
                   if "hash" in v and v["kind"] is not None and v["seq"] > 2)
    values[changed]["public"] = {**values[changed]["public"], "forged": 1}
    prev = None
    for value in values[changed:]:
        if "hash" in value:
            value["prev"] = prev or value["prev"]
            value["hash"] = entry_hash(value)
            prev = value["hash"]
    return [*lines[:changed], *(line(v).encode() for v in values[changed:])]


def sampled(variants: list[Any], expected: list[dict[str, Any]]) -> list[int]:
    """Every variant but a share of the commonest codes (each class still tried many times)."""
    return [i for i, e in enumerate(expected) if i % STRIDES.get(e["code"], 1) == 0]


def _public(lines: list[bytes]) -> bool:
    try:
        return json.loads(lines[0])["header"]["kind"] == "public"
    except (ValueError, KeyError, TypeError, IndexError):
        return True  # a first line that is not a header: the browser must say so too


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def in_browser(page: Any, variants: list[tuple[list[bytes], Any, witness.Seen | None]]
               ) -> list[dict[str, Any]]:
    """The browser's verdict on each variant: the lines every variant shares are sent once."""
    counts: dict[bytes, int] = {}
    for lines, _, _ in variants:
        for raw in set(lines):
            counts[raw] = counts.get(raw, 0) + 1
    common = [raw for raw, n in counts.items() if n > 1]
    index = {raw: i for i, raw in enumerate(common)}
    page.execute_script("window.__lines = arguments[0].map((t) => Uint8Array.from(atob(t), "
                        "(c) => c.charCodeAt(0)))", [b64(raw) for raw in common])
    verdicts: list[dict[str, Any]] = []
    for start in range(0, len(variants), BATCH):
        batch = [{"lines": [index.get(raw, b64(raw)) for raw in lines],
                  "key": str(key) if key is not None else None,
                  "seen": None if seen is None else {
                      "origin": seen.origin, "key": seen.key, "size": seen.size,
                      "root": b64(seen.root)}}
                 for lines, key, seen in variants[start:start + BATCH]]
        verdicts += page.execute_async_script("""
            const [batch, done] = arguments;
            const bytes = (parts) => {
              const lines = parts.map((p) => typeof p === "number" ? window.__lines[p]
                : Uint8Array.from(atob(p), (c) => c.charCodeAt(0)));
              const out = new Uint8Array(lines.reduce((n, l) => n + l.length, 0));
              let at = 0;
              for (const l of lines) { out.set(l, at); at += l.length; }
              return out;
            };
            (async () => {
              const found = [];
              for (const v of batch) {
                const seen = v.seen && {...v.seen, root: ArbiterAudit.unb64(v.seen.root)};
                try {
                  const r = await ArbiterAudit.verifyBundle(bytes(v.lines), {key: v.key, seen});
                  found.push(r.ok ? {code: "verified", seq: null, line: null}
                    : {code: r.code, seq: r.seq, line: r.line, detail: r.detail});
                } catch (e) {
                  found.push({code: "crash " + e, seq: null, line: null});
                }
              }
              return found;
            })().then(done);
        """, batch)
    return verdicts


def agrees(ours: dict[str, Any], theirs: dict[str, Any]) -> bool:
    if ours["code"] in RULES or "the rules cannot read" in ours["detail"]:
        return theirs["code"] == "verified" or theirs["line"] >= ours["line"]
    return (ours["code"], ours["seq"]) == (theirs["code"], theirs["seq"])


def test_the_browser_names_every_tampered_public_bundle_as_the_cli_does(page):
    page.set_script_timeout(600)
    variants = corpus()
    assert len(variants) > 3000
    expected = [cli(*v) for v in variants]
    kept = sampled(variants, expected)
    variants, expected = [variants[i] for i in kept], [expected[i] for i in kept]
    found = in_browser(page, variants)
    disagreements = [(i, e, f) for i, (e, f) in enumerate(zip(expected, found, strict=True))
                     if not agrees(e, f)]
    assert not disagreements[:20], f"{len(disagreements)} disagree: {disagreements[:20]}"
    codes = {e["code"] for e in expected}
    assert {"bad_hash", "bad_seq", "truncated", "missing_checkpoint", "wrong_host_key",
            "bad_signature", "root_mismatch", "not_canonical", "malformed_line",
            "rolled_back", "key_changed", "inconsistent_checkpoints", "checkpoint_misplaced",
            "malformed_header", "header_mismatch", "unexpected_line"} <= codes, codes


# -- the page itself --------------------------------------------------------------------------

def checked(driver: Any, url: str) -> tuple[str, str]:
    """Open a page, press "Check this log in your browser", and wait for its verdict: the code
    it names (or "verified") and what it says."""
    driver.get(url)
    section = driver.find_element(By.CSS_SELECTOR, ".browser-check")
    section.find_element(By.CSS_SELECTOR, ".check-button").click()
    code = waiting(lambda: section.get_attribute("data-code"), timeout=60)
    return code, section.find_element(By.CSS_SELECTOR, ".check-result").text


def remembered(driver: Any, origin: str, key: str, size: int, root: bytes, note: str) -> None:
    """What this browser remembers having checked of the log at `origin`."""
    driver.execute_script("localStorage.clear(); localStorage.setItem(arguments[0], "
                           "JSON.stringify(arguments[1]))", f"arbiter-seen:{origin}",
                           {"origin": origin, "key": key, "size": size, "root": b64(root),
                            "note": note})


def test_an_honest_match_and_its_season_check_out_in_the_page(page, served):
    server, match = served
    page.execute_script("localStorage.clear()")
    code, said = checked(page, f"{server.url}/m/{match}")
    entries = server.service.arbiter.match(match).version
    notes = server.service.arbiter.checkpoints(match).notes
    assert code == "verified", said
    assert "This log checks out in your browser." in said
    assert f"{entries} entries: every hash" in said
    assert f"{len(notes)} signed checkpoints" in said
    assert "Not checked here: the game's rules" in said
    assert SIGNER.verifier_key() in page.find_element(By.CSS_SELECTOR, ".vkey").text
    origin = json.loads(server.client().get(f"/matches/{match}/bundle").text.split("\n")[0])
    stored = page.execute_script("return localStorage.getItem(arguments[0])",
                                 f"arbiter-seen:{origin['header']['origin']}")
    assert json.loads(stored)["size"] == notes[-1]["size"]  # the newest checkpoint, remembered

    season = load(SEED).season
    code, said = checked(page, f"{server.url}/s/{season}")
    bundle = server.client().get(f"/seasons/{season}/bundle").content.splitlines(keepends=True)
    audit = verify_any(iter(bundle))
    assert code == "verified", said
    assert f"{audit.cited} match entries the season rests on" in said  # type: ignore[union-attr]


def test_a_host_who_showed_this_browser_another_history_is_caught(page, served):
    server, match = served
    lines = server.client().get(f"/matches/{match}/bundle").content.splitlines(keepends=True)
    origin = json.loads(lines[0])["header"]["origin"]
    first = parse_checkpoint(parse_note(server.service.arbiter.checkpoints(match)
                                        .notes[1]["note"]).text)
    other = sha256(b"another history").digest()
    fork = SIGNER.sign_note(checkpoint_body(origin, first.size, other, first.extensions))
    remembered(page, origin, SIGNER.verifier_key(), first.size, other, fork)
    code, said = checked(page, f"{server.url}/m/{match}")
    seen = witness.Seen(origin, SIGNER.verifier_key(), first.size, other)
    assert code == cli(lines, None, seen)["code"] == "inconsistent_checkpoints"
    assert "The host signed two different histories of this log." in said
    assert fork.strip() in said  # both signed notes, to take to the host and the players
    newest = server.service.arbiter.checkpoints(match).notes[-1]["note"]
    assert newest.strip() in said

    last = parse_checkpoint(parse_note(newest).text)
    later = SIGNER.sign_note(checkpoint_body(origin, last.size + 5, other, last.extensions))
    remembered(page, origin, SIGNER.verifier_key(), last.size + 5, other, later)
    code, said = checked(page, f"{server.url}/m/{match}")
    seen = witness.Seen(origin, SIGNER.verifier_key(), last.size + 5, other)
    assert code == cli(lines, None, seen)["code"] == "rolled_back"
    assert later.strip() in said
    page.execute_script("localStorage.clear()")


def test_a_forged_log_is_refused_in_the_page_with_the_clis_code(browser, tmp_path):  # noqa: F811
    url = f"sqlite:///{tmp_path}/forged.db"
    app = Arbiter(url, signer=SIGNER)
    file = load(SEED)
    play(app, file)
    match = app.match(file.match)

    def edit(event: Any) -> None:  # a public entry's time moved, its hash recomputed
        event.record["entry"]["at"] = "2031-01-01T00:00:00Z"
        event.record["entry"]["hash"] = entry_hash(event.record["entry"])

    seq = next(r["entry"]["seq"] for r in match.records[5:] if r["entry"]["kind"] is not None)
    tamper.rewrite(app, Match.create_id(file.match), seq, edit)
    tamper.rechain(app, Match.create_id(file.match), seq)
    app.close()
    with Server(url) as server:
        browser.execute_script("localStorage.clear()")
        code, said = checked(browser, f"{server.url}/m/{file.match}")
        lines = server.client().get(f"/matches/{file.match}/bundle").content \
            .splitlines(keepends=True)
    expected = cli(lines, None, None)
    assert code == expected["code"] == "root_mismatch"
    assert f"root_mismatch at entry {expected['seq']}" in said
    assert "A signed checkpoint does not cover the entries the log holds." in said
