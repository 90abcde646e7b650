"""The page's checks in a browser whose WebCrypto lacks what audit.js needs, in the system
Chromium made to lack it: no crypto.subtle at all (a page served over plain http from another
machine is not a secure context), or a WebCrypto without Ed25519 (browsers before it shipped).
The page then checks with its own copy of @noble/hashes and @noble/ed25519 (static/vendor/),
names every tampered bundle of a sample of the tamper corpus as `arbiter verify` does, and a
player's page still checks the log and the receipts but cosigns nothing (a witness key is
WebCrypto's, never extractable). Where even that copy cannot be fetched, the page says it
checked nothing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from test_audit_browser import agrees, checked, cli, corpus, in_browser
from test_pages_browser import browser, waiting  # noqa: F401 (the fixture)
from test_witness_browser import FILE, as_player, newest, served  # noqa: F401 (the fixture)

pytestmark = pytest.mark.browser

NO_SUBTLE = """Object.defineProperty(Crypto.prototype, "subtle",
  {get() { return undefined; }, configurable: true});"""
NO_ED25519 = """(() => {
  const named = (a) => (typeof a === "string" ? a : a && a.name || "").toLowerCase() === "ed25519";
  for (const [method, at] of [["importKey", 2], ["verify", 0], ["sign", 0], ["generateKey", 0]]) {
    const original = SubtleCrypto.prototype[method];
    SubtleCrypto.prototype[method] = function (...args) {
      if (named(args[at])) {
        return Promise.reject(new DOMException("Unrecognized algorithm name", "NotSupportedError"));
      }
      return original.apply(this, args);
    };
  }
})();"""
VENDORED = "the page's own copy of @noble/hashes 2.4.0 and @noble/ed25519 3.2.0"


@contextmanager
def lacking(driver: Any, script: str) -> Iterator[None]:
    """Every page opened meanwhile runs `script` before its own."""
    added = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                               {"identifier": added["identifier"]})


def every_code(expected: list[dict[str, Any]], share: int) -> list[int]:
    """One variant in `share` of each code the CLI gives, the first of each included."""
    counted: Counter[str] = Counter()
    kept = []
    for i, e in enumerate(expected):
        if counted[e["code"]] % share == 0:
            kept.append(i)
        counted[e["code"]] += 1
    return kept


def opened(driver: Any, url: str) -> Any:
    driver.get(url)
    waiting(lambda: driver.execute_script("return !!window.ArbiterAudit"))
    return driver


def test_without_webcrypto_the_vendored_library_names_each_tamper_as_the_cli_does(
        browser, served):  # noqa: F811 (the fixtures)
    with lacking(browser, NO_SUBTLE):
        page = opened(browser, f"{served.url}/m/{FILE.match}")
        assert page.execute_script("return window.isSecureContext && !crypto.subtle")
        page.set_script_timeout(600)
        variants = corpus()
        expected = [cli(*v) for v in variants]
        every = {e["code"] for e in expected}
        kept = every_code(expected, 10)
        variants, expected = [variants[i] for i in kept], [expected[i] for i in kept]
        found = in_browser(page, variants)
    disagreements = [(e, f) for e, f in zip(expected, found, strict=True) if not agrees(e, f)]
    assert not disagreements[:20], f"{len(disagreements)} disagree: {disagreements[:20]}"
    codes = {e["code"] for e in expected}
    assert codes == every  # each code the corpus gives is tried
    assert {"bad_hash", "bad_seq", "truncated", "bad_signature", "wrong_host_key",
            "root_mismatch", "inconsistent_checkpoints", "rolled_back"} <= codes, codes


@pytest.mark.parametrize(("script", "lacks"), [(NO_SUBTLE, "SHA-256 and Ed25519"),
                                               (NO_ED25519, "Ed25519")])
def test_the_public_page_checks_with_its_own_copy_and_says_so(browser, served, script, lacks):  # noqa: F811
    browser.get(served.url)
    browser.execute_script("localStorage.clear()")
    with lacking(browser, script):
        code, said = checked(browser, f"{served.url}/m/{FILE.match}")
    assert code == "verified", said
    assert "This log checks out in your browser." in said
    assert f"checked with {VENDORED} (this browser's WebCrypto has no {lacks} here)" in said
    code, said = checked(browser, f"{served.url}/m/{FILE.match}")  # WebCrypto back
    assert code == "verified" and "checked with this browser's WebCrypto." in said


def test_a_players_page_without_ed25519_checks_the_log_and_receipts_but_cosigns_nothing(
        browser, served):  # noqa: F811 (the fixtures)
    player = FILE.players[3]
    before = len(newest(served).get("cosignatures", []))
    browser.get(served.url)
    browser.execute_script("localStorage.clear()")
    with lacking(browser, NO_ED25519):
        section = as_player(browser, served, player)
        said = section.text
    assert section.get_attribute("data-state") == "checked", said
    assert "Your browser checked the log" in said
    assert "in the signed log as your receipts say" in said
    assert "cannot cosign for you here" in said and "has no Ed25519 in this browser" in said
    assert player not in served.service.arbiter.season(FILE.season).witnesses
    assert len(newest(served).get("cosignatures", [])) == before


def test_where_the_library_cannot_be_fetched_the_page_says_it_checked_nothing(browser, served):  # noqa: F811
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/static/fallback.js"]})
    try:
        with lacking(browser, NO_SUBTLE):
            code, said = checked(browser, f"{served.url}/m/{FILE.match}")
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    assert code == "no_webcrypto", said
    assert "nothing was found wrong with it, but nothing was checked either" in said
    assert "use arbiter verify" in said
    assert browser.find_element(By.CSS_SELECTOR, ".check-result .check-failed")
