"""The host runs a season from the browser (the system's Chromium, headless, through Selenium):
starts a season, registers eleven players from a pasted list, grants garnets from pasted lines
(previewed, then saved), creates a King's Court match from the game's setup form, issues and
copies every player's link; a player votes through their link; the host closes the round
(asked first, with what it will do); later, the Death Match is created from a Main Match's
result. Screenshots of each page go to $ARBITER_SCREENSHOTS (docs/screenshots/host-*.png)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from service_harness import Server
from test_host_pages import tied
from test_pages_browser import (  # noqa: F401
    PHONE,
    browser,
    fits,
    screenshot,
    shots,
    waiting,
)

from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens
from domain.decider import HOST
from projections.views import view
from tests.support.host_key import SIGNER

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

pytestmark = pytest.mark.browser

ELEVEN = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
          "ken"]
SEEDS = Path(__file__).resolve().parents[2] / "seeds"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Arbiter, Server]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('host-browser')}/host.db"
    app = Arbiter(url, signer=SIGNER)
    with Server(url) as server:
        yield app, server
    app.close()


def text(driver: Any) -> str:
    """The page's main text; empty while the next page is loading."""
    try:
        return str(driver.find_element(By.TAG_NAME, "main").text)
    except WebDriverException:
        return ""


def post(driver: Any, field_id: str) -> None:
    """Send the form a field belongs to with its own button, as a reader would."""
    field = driver.find_element(By.ID, field_id)
    field.find_element(By.XPATH, "./ancestor::form").find_element(
        By.CSS_SELECTOR, "button[type=submit]").click()


def test_a_host_runs_a_season_from_the_browser(browser, served, shots):  # noqa: F811
    app, server = served
    browser.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": server.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    browser.get(f"{server.url}/host/join#{Tokens(app).set_host_join()}")
    waiting(lambda: browser.current_url.rstrip("/").endswith("/host"))

    # A season, its players pasted, garnets granted from pasted lines.
    browser.find_element(By.ID, "season-name").send_keys("autumn")
    post(browser, "season-name")
    waiting(lambda: "/host/s/autumn" in browser.current_url)
    browser.find_element(By.ID, "players").send_keys("\n".join(ELEVEN))
    post(browser, "players")
    waiting(lambda: "Registered." in text(browser))
    lines = "\n".join(f"{p},5,season start" for p in ELEVEN[:10]) + "\nken,five,oops"
    browser.find_element(By.ID, "grant-lines").send_keys(lines)
    post(browser, "grant-lines")
    waiting(lambda: "cannot be read" in text(browser))
    assert "'five' is not a whole number of garnets" in text(browser)
    assert fits(browser)
    screenshot(browser, shots / "host-grants-preview.png")
    field = browser.find_element(By.ID, "grant-lines")
    field.clear()
    field.send_keys(lines.replace("ken,five,oops", "ken,5,season start"))
    post(browser, "grant-lines")
    waiting(lambda: "Save these 11 grants" in text(browser))
    assert "+55 garnets in all" in text(browser)
    assert app.season("autumn").balances["alice"]["garnets"] == 0  # previewed, not saved
    browser.find_element(By.XPATH, "//button[starts-with(., 'Save these 11 grants')]").click()
    waiting(lambda: "Granted." in text(browser))
    assert {p: app.season("autumn").balances[p]["garnets"] for p in ELEVEN} == \
        dict.fromkeys(ELEVEN, 5)
    screenshot(browser, shots / "host-season.png")
    # The season page's lower forms: transfers, rulings, the DMO, Discord, the bundle.
    browser.set_window_size(PHONE[0], 1600)
    browser.execute_script("document.getElementById('transfer-title').scrollIntoView()")
    browser.save_screenshot(str(shots / "host-season-rulings.png"))
    browser.set_window_size(*PHONE)

    # A King's Court match from the picker and the game's setup form.
    browser.find_element(By.LINK_TEXT, "Create a match…").click()
    browser.find_element(By.ID, "game-kings_court").click()
    browser.find_element(By.XPATH, "//button[starts-with(., 'Next')]").click()
    waiting(lambda: "King's Court" in text(browser))
    screenshot(browser, shots / "host-new-match.png")
    for box in browser.find_elements(By.CSS_SELECTOR, "input[name=players]"):
        box.click()
    Select(browser.find_element(By.ID, "setup-tiebreak_default")).select_by_value("seat_order")
    browser.find_element(By.XPATH, "//button[starts-with(., 'Create the match')]").click()
    waiting(lambda: browser.current_url.endswith("/host/m/kc-1"))
    assert app.match("kc-1").players == ELEVEN
    browser.find_element(By.CSS_SELECTOR, "details.command summary").click()
    browser.find_element(By.ID, "host-free-command").send_keys("open_match")
    post(browser, "host-free-command")
    waiting(lambda: "open_match: sent as the host" in text(browser))
    browser.find_element(By.CSS_SELECTOR, "#confirm button").click()
    waiting(lambda: "You opened the match" in text(browser))

    # Every player's link, copied.
    browser.find_element(By.XPATH, "//button[starts-with(., 'Issue every player')]").click()
    waiting(lambda: "11 new personal links" in text(browser))
    browser.find_element(By.CSS_SELECTOR, "#confirm button").click()
    waiting(lambda: "Personal links of kc-1" in text(browser))
    def clipboard() -> str:
        return str(browser.execute_async_script(
            "navigator.clipboard.readText().then(arguments[0], () => arguments[0](''))"))

    copied = []
    for button in browser.find_elements(By.CSS_SELECTOR, ".copy-button"):
        shown = browser.find_element(By.ID, button.get_attribute("data-copy"))
        button.click()
        copied.append(waiting(lambda f=shown: clipboard() == f.get_attribute("value")
                              and clipboard()))
    links = [re.search(r"(http://\S+/m/kc-1/join#[\w-]+)", c).group(1) for c in copied[:-1]]
    assert [c.split(",")[0] for c in copied[:-1]] == ELEVEN
    assert copied[-1] == "\n".join(f"{p}: {link}" for p, link in zip(ELEVEN, links,
                                                                     strict=True))
    assert fits(browser)
    screenshot(browser, shots / "host-links.png")

    # bob votes through his link, for someone who is not the King: the roles are drawn from
    # a fresh seed, and a King voted in early pays 2 garnets more (docs/games/kings_court.md).
    roles = view(app.match("kc-1"), HOST)["summary"]["roles"]["1"]
    candidate = next(p for p in ("carol", "alice") if roles[p] != "king")
    browser.get(links[1])
    waiting(lambda: browser.current_url.endswith("/m/kc-1/me"))
    form = browser.find_element(By.ID, "form-vote")
    Select(form.find_element(By.NAME, "arg.candidate")).select_by_value(candidate)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    waiting(lambda: "sent=" in browser.current_url)

    # The host closes the round: asked first, in the game's words.
    browser.get(f"{server.url}/host")
    card = next(c for c in browser.find_elements(By.CSS_SELECTOR, "article.card")
                if "kc-1" in c.text)
    assert "Round 1: the election; 11 players act." in card.text
    assert "Still to act (10): alice, carol, dave" in card.text
    screenshot(browser, shots / "host-dashboard.png")
    card.find_element(By.CSS_SELECTOR, "button").click()
    waiting(lambda: "Close the election of round 1?" in text(browser))
    assert "10 players have not voted: each loses 1 garnet" in text(browser)
    assert fits(browser)
    screenshot(browser, shots / "host-confirm.png")
    browser.find_element(By.CSS_SELECTOR, "#confirm button").click()
    waiting(lambda: "You closed the election of round 1" in text(browser))
    assert app.match("kc-1").round == 2
    balances = app.season("autumn").balances
    assert {p: balances[p]["garnets"] for p in ELEVEN} == {p: 5 if p == "bob" else 4
                                                            for p in ELEVEN}
    screenshot(browser, shots / "host-match.png")

    # Later: a Main Match of the season ends (the King's Court seed, played by the service),
    # its EC and DMO named; the host creates the Death Match from its result.
    main = load(SEEDS / "kings_court-king-win.json")
    main = main.model_copy(update={"match": "kc-main", "season": "autumn"})
    _, mismatches = play(app, main)
    assert not mismatches
    browser.get(f"{server.url}/host/s/autumn")
    ec, dmo = "erin", "ken"  # the seed's EC, and the DMO its last command names
    assert f"kc-main named {ec} against {dmo} (DMO)" in text(browser)
    browser.find_element(By.LINK_TEXT, "Create the Death Match…").click()
    waiting(lambda: "The Death Match of season autumn" in text(browser))
    screenshot(browser, shots / "host-death-match.png")
    assert browser.find_element(By.ID, "match-id").get_attribute("value") == "kc-main-dm"
    browser.find_element(By.XPATH, "//button[starts-with(., 'Create the match')]").click()
    waiting(lambda: browser.current_url.endswith("/host/m/kc-main-dm"))
    assert sorted(app.match("kc-main-dm").players) == sorted([ec, dmo])
    assert app.season("autumn").matches["kc-main-dm"]["kind"] == "death_match"


def test_a_tiebreak_and_the_check_as_the_host_reads_them(browser, served, shots):  # noqa: F811
    app, server = served
    match = tied(app)
    browser.get(f"{server.url}/host/join#{Tokens(app).set_host_join()}")
    waiting(lambda: browser.current_url.rstrip("/").endswith("/host"))
    browser.get(f"{server.url}/host/m/{match}")
    said = text(browser)
    assert "Round 3: the tie-break; only grace acts." in said
    assert "Still to act (1): grace." in said
    assert fits(browser)
    screenshot(browser, shots / "host-tiebreak.png")

    # A deadline typed in the host's own zone (Kathmandu, UTC+05:45): stored as the UTC
    # instant it means, shown back in that zone with a countdown.
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Kathmandu"})
    try:
        browser.get(f"{server.url}/host/m/{match}")
        form = browser.find_element(By.ID, "deadline-form")
        # The zone named as the browser's ICU names it (older data spell it Katmandu).
        assert form.find_element(By.CSS_SELECTOR, ".zone").text in ("Asia/Kathmandu",
                                                                    "Asia/Katmandu")
        browser.execute_script("arguments[0].value = '2099-11-21T21:00'",
                               form.find_element(By.ID, "deadline"))
        browser.find_element(By.XPATH, "//button[. = 'Set the deadline']").click()
        waiting(lambda: "Deadline set" in text(browser))
        set_ = app.match(match).records[-1]["entry"]["public"]
        assert set_ == {"round": 3, "deadline": "2099-11-21T15:15:00.000Z"}  # 21:00 - 5:45
        banner = browser.find_element(By.CSS_SELECTOR, ".banner.deadline")
        shown = banner.find_element(By.TAG_NAME, "time").text
        # 21:00 in the browser's language: 9 PM in en-US.
        assert re.search(r"\b(21:00|0?9:00\sPM)\b", shown) and "Nov 21, 2099" in shown, shown
        assert "GMT+5:45" in shown, shown
        assert re.search(r"\(in \d+ d \d+ h\)", banner.text), banner.text
        # What the host just did, in their time too (the chat's announcement keeps UTC).
        done = browser.find_element(By.CSS_SELECTOR, ".banner.ok").text
        assert done.startswith("Deadline set: round 3 closes ") and "GMT+5:45" in done, done
        assert "15:15" not in done
    finally:
        browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})
    browser.get(f"{server.url}/host/s/autumn/new")
    screenshot(browser, shots / "host-game-picker.png")
    browser.get(f"{server.url}/host/check")
    browser.find_element(By.XPATH, "//button[starts-with(., 'Check now')]").click()
    waiting(lambda: "Intact: the store holds." in text(browser), timeout=60)
    screenshot(browser, shots / "host-check.png")
