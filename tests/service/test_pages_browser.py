"""The pages in a real browser: the system's Chromium, headless, driven by Selenium through
the system's chromedriver (nothing is downloaded at run time). A reader steps through the
rounds of each game's seed match on a phone-sized screen; a player opens their personal link,
sends a vote for themselves (which the game's form does not offer) through the generic form
and sees the rules refuse it beside the vote form, votes; the public page updates by itself
when the host closes the round from the dashboard. Screenshots go to $ARBITER_SCREENSHOTS (else a
temporary folder); `docs/screenshots/<game>.png` are made this way."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pages_harness import FILES, last_round, play_seeds
from service_harness import Server, eventually
from test_pages_forms import MATCH, SEED, opened

from commands.cli.matchfile import load, play
from commands.service.tokens import Tokens
from domain.decider import PUBLIC
from projections import story
from projections.views import view

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
PHONE = (390, 844)  # CSS pixels; the pages must also fit 375
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars")

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import (  # noqa: E402
    NoSuchElementException,
    StaleElementReferenceException,
)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    if missing:
        if os.environ.get("CI"):  # CI installs them (.ci/run): a missing browser is a failure
            pytest.fail(f"no {', '.join(missing)}: apt-get install chromium chromium-driver")
        pytest.skip(f"no {', '.join(missing)} (apt-get install chromium chromium-driver)")
    profile = tempfile.mkdtemp(prefix="arbiter-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}", f"--window-size={PHONE[0]},{PHONE[1]}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = os.environ.get("ARBITER_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def screenshot(driver: Any, path: Path, tallest: int = 2600) -> None:
    """The page from its top, as tall as it is (up to `tallest` pixels), at the phone's width."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(PHONE[0], min(max(height, PHONE[1]), tallest))
    driver.save_screenshot(str(path))
    driver.set_window_size(*PHONE)
    assert path.stat().st_size > 10_000


def waiting(check: Callable[[], Any], timeout: float = 20) -> Any:
    """Like `eventually`, where an element gone stale or not there yet means the page is
    still loading."""

    def settled() -> Any:
        try:
            return check()
        except (StaleElementReferenceException, NoSuchElementException):
            return None

    return eventually(settled, timeout=timeout, every=0.1)


def fits(driver: Any) -> bool:
    """Nothing wider than a 375-pixel phone makes the whole page scroll sideways."""
    driver.set_window_size(375, PHONE[1])
    width = driver.execute_script("return document.documentElement.scrollWidth")
    driver.set_window_size(*PHONE)
    return width <= 375


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Server]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('browser')}/pages.db"
    app = play_seeds(url)
    with Server(url) as server:
        views = server.service.views
        wanted = {f.match: app.match(f.match).version for f in FILES}
        waiting(lambda: views.seqs(wanted) == wanted, timeout=60)
        yield app, server
    app.close()


def one_seed_per_game() -> list[Any]:
    return list({f.game: f for f in reversed(FILES)}.values())


@pytest.mark.parametrize("file", one_seed_per_game(), ids=lambda f: f.game)
def test_a_reader_steps_through_the_rounds_of_a_seed_match(browser, seeded, shots, file):
    app, server = seeded
    match = app.match(file.match)
    browser.get(f"{server.url}/m/{file.match}")
    assert browser.find_element(By.TAG_NAME, "h1").text.endswith(file.match)
    picture = browser.find_element(By.CSS_SELECTOR, "figure.picture svg")
    assert picture.get_attribute("role") == "img" and picture.size["width"] > 200
    assert fits(browser)
    screenshot(browser, shots / f"{file.game}.png")

    # The links: round 2, as it stood then.
    browser.find_element(By.CSS_SELECTOR, ".round-links a[href='?round=2']").click()
    waiting(lambda: browser.current_url.endswith("?round=2"))
    assert "as it stood at the end of round 2" in browser.find_element(By.CLASS_NAME,
                                                                        "status").text
    second = story.chapters(view(match, PUBLIC, 2))
    body = browser.find_element(By.TAG_NAME, "main").text
    assert all(c["title"] in body for c in second) and second[-1]["lines"][-1] in body
    assert "The match is over" not in body

    # The slider: to the start, one step right, then Show.
    slider = browser.find_element(By.ID, "round-slider")
    left = -slider.size["width"] // 2 + 1
    ActionChains(browser).move_to_element_with_offset(slider, left, 0).click().perform()
    assert browser.find_element(By.ID, "round-shown").text == "0"
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    assert browser.find_element(By.ID, "round-shown").text == "1"
    browser.find_element(By.CSS_SELECTOR, ".slider button").click()
    waiting(lambda: browser.current_url.endswith("round=1"))
    first = story.chapters(view(match, PUBLIC, 1))
    body = browser.find_element(By.TAG_NAME, "main").text
    assert all(c["title"] in body for c in first) and first[-1]["lines"][-1] in body
    shown = [h.text for h in browser.find_elements(By.CSS_SELECTOR, ".chapter h3")]
    assert shown == [c["title"] for c in first] != [c["title"] for c in second]

    browser.find_element(By.LINK_TEXT, "Now").click()
    waiting(lambda: "round=" not in browser.current_url)
    assert "The match is over" in browser.find_element(By.TAG_NAME, "main").text
    assert last_round(match) >= 2


def send_vote(driver: Any, candidate: str) -> None:
    """Through the game's vote form where it offers `candidate`, else through the generic form
    (a game's form offers only what its rules accept: King's Court's leaves out the voter)."""
    forms = driver.find_elements(By.ID, "form-vote")
    field = forms[0].find_element(By.NAME, "arg.candidate") if forms else None
    if field is not None and field.tag_name == "select":
        offered = [o.get_attribute("value") for o in Select(field).options]
        field = field if candidate in offered else None
    if field is None:
        send_generic(driver, "vote", f'{{"candidate": "{candidate}"}}')
        return
    if field.tag_name == "select":
        Select(field).select_by_value(candidate)
    else:
        field.clear()
        field.send_keys(candidate)
    forms[0].find_element(By.CSS_SELECTOR, "button[type=submit]").click()


def send_generic(driver: Any, command: str, args_json: str) -> None:
    """A command and its arguments as JSON, through the form every player's page offers."""
    details = driver.find_element(By.CSS_SELECTOR, "details.command")
    if not details.get_attribute("open"):
        details.find_element(By.TAG_NAME, "summary").click()
    name = driver.find_element(By.ID, "me-free-command")
    name.clear()
    name.send_keys(command)
    args = driver.find_element(By.ID, "me-free-args")
    args.clear()
    args.send_keys(args_json)
    args.find_element(By.XPATH, "./ancestor::form").find_element(
        By.CSS_SELECTOR, "button").click()


def test_a_player_votes_and_the_public_page_follows_the_close_live(browser, seeded, shots):
    app, server = seeded
    play(app, opened(load(SEED), MATCH, "live"))
    opening = {MATCH: app.match(MATCH).version}  # the pages read the views: let them catch up
    waiting(lambda: server.service.views.seqs(opening) == opening, timeout=60)
    token = Tokens(app).issue_joins(MATCH, ["bob"])["bob"]

    # The personal link: its script posts the token, the cookie opens bob's page.
    browser.get(f"{server.url}/m/{MATCH}/join#{token}")
    waiting(lambda: browser.current_url.endswith(f"/m/{MATCH}/me"))
    assert token not in browser.current_url
    cookie = browser.get_cookie("arbiter_player")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert cookie["value"] != token  # the browser's own session, never the link's code
    assert server.service.tokens.in_session(MATCH, cookie["value"]) == "bob"
    assert browser.execute_script("return document.cookie") == ""  # no script reads it
    assert browser.find_element(By.TAG_NAME, "h1").text == f"bob in {MATCH}"
    assert "round 1 under way" in browser.find_element(By.CLASS_NAME, "status").text
    assert browser.find_elements(By.ID, "form-vote")  # the game's own form for the round

    send_vote(browser, "bob")  # a vote for oneself: the rules refuse it
    alert = waiting(lambda: browser.find_elements(By.CSS_SELECTOR, ".error[role=alert]"))[0]
    assert "self_vote" in alert.text
    assert fits(browser)
    screenshot(browser, shots / "player-refused.png")
    before = app.match(MATCH).version

    send_vote(browser, "alice")
    waiting(lambda: "sent=" in browser.current_url)
    assert "Recorded as entry" in browser.find_element(By.ID, "sent").text
    assert app.match(MATCH).version > before
    screenshot(browser, shots / "player-voted.png")

    # The public page in one tab, the host's dashboard in another.
    browser.get(f"{server.url}/m/{MATCH}")
    public_tab = browser.current_window_handle
    waiting(lambda: browser.find_element(By.CLASS_NAME, "live").is_displayed())
    old_story = browser.find_element(By.ID, "story-title")
    host = Tokens(app).set_host_join()
    browser.switch_to.new_window("tab")
    browser.get(f"{server.url}/host/join#{host}")
    waiting(lambda: browser.current_url.rstrip("/").endswith("/host"))
    card = next(c for c in browser.find_elements(By.CSS_SELECTOR, "article.card")
                if MATCH in c.text)
    assert "carol" in card.text  # has not voted
    card.find_element(By.CSS_SELECTOR, "button").click()
    waiting(lambda: browser.find_elements(By.CSS_SELECTOR, "#confirm button"))  # asked first
    browser.find_element(By.CSS_SELECTOR, "#confirm button").click()
    waiting(lambda: "You closed" in browser.find_element(By.TAG_NAME, "main").text)

    browser.switch_to.window(public_tab)

    def reloaded() -> bool:
        try:
            old_story.is_displayed()
            return False
        except StaleElementReferenceException:
            return True

    waiting(reloaded, timeout=30)
    time.sleep(0.5)
    told = story.chapters(view(app.match(MATCH), PUBLIC))[-1]
    main = waiting(lambda: browser.find_element(By.TAG_NAME, "main").text)
    assert told["lines"][0] in main
    screenshot(browser, shots / "public-live.png")
    browser.get("about:blank")  # closes the page's stream before the server stops


def test_the_api_docs_render_under_their_policy(browser, seeded):
    """/docs's policy names its one inline script by hash (test_abuse checks the header):
    Swagger UI still draws every operation."""
    _, server = seeded
    browser.get(f"{server.url}/docs")
    title = waiting(lambda: browser.find_elements(By.CSS_SELECTOR, ".swagger-ui .info .title"))
    assert "Arbiter" in title[0].text
    assert waiting(lambda: len(browser.find_elements(By.CSS_SELECTOR, ".opblock")) > 20)


def test_the_players_deadline_reads_in_their_own_time_with_a_countdown(browser, seeded):
    """Issue 24: the deadline in the player's local time, counting down. The host set round 1
    to close at 20:00 UTC on Monday 30 November 2099; a browser in Tokyo (UTC+9, no summer
    time) reads it as 05:00 on Tuesday 1 December, and the countdown as days and hours."""
    app, server = seeded
    play(app, opened(load(SEED), "kc-clock", "clock"))
    app.submit("kc-clock", "host", "set_deadline", {"deadline": "2099-11-30T20:00:00Z"})
    wanted = {"kc-clock": app.match("kc-clock").version}
    waiting(lambda: server.service.views.seqs(wanted) == wanted, timeout=60)
    token = Tokens(app).issue_joins("kc-clock", ["bob"])["bob"]
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Tokyo"})
    try:
        browser.get(f"{server.url}/m/kc-clock/join#{token}")
        waiting(lambda: browser.current_url.endswith("/m/kc-clock/me"))
        banner = waiting(lambda: browser.find_element(By.CSS_SELECTOR, ".banner.deadline"))
        shown = banner.find_element(By.TAG_NAME, "time")
        assert shown.get_attribute("datetime") == "2099-11-30T20:00:00Z"
        said = waiting(lambda: banner.text if "(in " in banner.text else None)
        assert said.startswith("The round closes ") and "UTC" not in said, said
        assert "Tue" in shown.text and "Dec 1, 2099" in shown.text and "05:00" in shown.text \
            and "GMT+9" in shown.text, shown.text
        assert re.search(r"\(in \d+ d \d+ h\)\.$", said), said  # decades ahead: days
    finally:
        browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})
        browser.get("about:blank")
