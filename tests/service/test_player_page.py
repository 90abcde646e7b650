"""A player's page answers "what now?": their part and its goal in the rulebook's words, the
rules a click away, what they sent this round and whether it may change, the deadline, a
question before what cannot be taken back, and "waiting for the others"."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from service_harness import eventually

from commands.cli.matchfile import create, load, prepare_season
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens
from commands.web.app import create_app
from commands.web.worker import Settings
from domain.decider import HOST
from projections.views import view
from tests.support.host_key import SIGNER
from tests.support.words_check import in_layout, offences, visible

SEEDS = Path(__file__).resolve().parents[2] / "seeds"
PLAYERS = ["ann", "bob", "cy", "di", "ed", "flo", "gus", "hal", "ivy", "jo", "kit"]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Arbiter, TestClient]]:
    """King's Court, round 1 open with a deadline; bob has voted for cy and holds 10
    garnets."""
    url = f"sqlite:///{tmp_path_factory.mktemp('player')}/player.db"
    app = Arbiter(url, signer=SIGNER)
    app.create_season("s")
    app.register_all("s", PLAYERS)
    app.grant("s", "bob", "garnets", 10, "season start")
    app.create_match(match_id="kc", season="s", game="kings_court",
                     setup={"players": PLAYERS}, host_seed="ab" * 32, salt_key="cd" * 32)
    app.submit("kc", HOST, "open_match")
    app.submit("kc", HOST, "set_deadline", {"deadline": "2099-11-30T20:00:00Z"})
    app.submit("kc", "bob", "vote", {"candidate": "cy"})
    with TestClient(create_app(Settings(url=url, signer=SIGNER))) as client:
        views = client.app.state.service.views  # type: ignore[attr-defined]
        wanted = {"kc": app.match("kc").version}
        eventually(lambda: views.seqs(wanted) == wanted, timeout=60)
        token = Tokens(app).issue_joins("kc", ["bob"])["bob"]
        client.post("/m/kc/session", data={"token": token}, follow_redirects=False)
        yield app, client
    app.close()


def text_of(html: str) -> str:
    main = html[html.index("<main"):html.index("</main>")]
    return " ".join(re.sub(r"<[^>]+>", " ", main).split())


def test_the_page_says_the_role_its_goal_and_where_the_rules_are(live):
    app, client = live
    page = client.get("/m/kc/me")
    assert page.status_code == 200
    said = text_of(page.text)
    role = view(app.match("kc"), HOST)["summary"]["roles"]["1"]["bob"]
    # docs/games/kings_court.md 1: what each role wants when the King is found.
    goal = {"king": "You win if, when you are voted into the court, it holds as many Dukes "
                    "as Nobles",
            "duke": "The Dukes win if, when the King is voted into the court, more Dukes than "
                    "Nobles are in it",
            "noble": "The Nobles win if, when the King is voted into the court, more Nobles "
                     "than Dukes are in it"}[role]
    named = {"king": "the King", "duke": "a Duke", "noble": "a Noble"}[role]
    assert f"In game 1 you are {named}. {goal}" in said
    assert 'href="/rules/kings_court"' in page.text
    rules = client.get("/rules/kings_court")
    assert rules.status_code == 200 and rules.headers["content-type"].startswith("text/html")
    assert "<h1>King’s Court — the rulebook</h1>" in rules.text or \
        "<h1>King's Court — the rulebook</h1>" in rules.text
    assert "<table>" in rules.text  # the rulebook's tables, rendered
    assert 'href="/rules/kings_court-decisions"' in rules.text  # its links stay on the site
    assert client.get("/rules/kings_court-decisions").status_code == 200
    missing = client.get("/rules/poker")
    assert missing.status_code == 404 and "No rulebook named poker." in text_of(missing.text)


def test_the_page_says_what_was_sent_the_deadline_and_who_is_waited_for(live):
    _, client = live
    said = text_of(client.get("/m/kc/me").text)
    # KC-R8: a vote may be replaced until the round closes.
    assert ("Your vote for cy stands for this round: you may change it until the round "
            "closes, by sending it again.") in said
    assert "Waiting for the others until the round closes." in said
    page = client.get("/m/kc/me").text
    assert 'data-until="2099-11-30T20:00:00Z"' in page  # the countdown, in local time by script
    assert "The round closes Mon 30 Nov 2099, 20:00 UTC" in said  # 30 Nov 2099 is a Monday
    assert '<script src="/static/times.js" defer>' in page
    # The private section names its rounds as the story does.
    told = said[said.index("Told to you alone"):said.index("Your submissions")]
    assert "Round 1: game 1, election round 1" in told and "after game 0" not in told
    # A live page, its forms and their labels included, is in words (test_words.py holds
    # the finished seeds).
    assert offences(visible(page), allowed=tuple(PLAYERS)) == [] and in_layout(page)


def test_a_spend_is_asked_first_in_words(live):
    _, client = live
    page = client.get("/m/kc/me").text
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page)[1]  # type: ignore[index]
    asked = client.post("/m/kc/me/commands", data={"csrf": csrf, "command": "peek",
                                                   "arg.target": "ann", "id": "p1"})
    said = text_of(asked.text)
    # docs/games/kings_court.md: a peek costs 8 garnets.
    assert "Spend 8 garnets on your question to the Judge about ann?" in said
    assert "a spend is not given back" in said
    assert "_" not in said.replace("kc", "")


def test_a_move_that_acts_at_once_is_asked_first(tmp_path):
    """Tile Joust's seed Death Match, opened: mira opens the first auction (the DMO starts,
    docs/games/tile_joust.md 2.1). A bid acts the moment it is sent and is never replaced
    (4.2), so her page asks first; once she confirms it is recorded."""
    file = load(SEEDS / "tile_joust-dm-ec-outscores.json")
    url = f"sqlite:///{tmp_path}/tj.db"
    app = Arbiter(url, signer=SIGNER)
    prepare_season(app, file)
    create(app, file)
    app.submit(file.match, HOST, "open_match")
    with TestClient(create_app(Settings(url=url, signer=SIGNER))) as client:
        views = client.app.state.service.views  # type: ignore[attr-defined]
        wanted = {file.match: app.match(file.match).version}
        eventually(lambda: views.seqs(wanted) == wanted, timeout=60)
        code = Tokens(app).issue_joins(file.match, ["mira"])["mira"]
        client.post(f"/m/{file.match}/session", data={"token": code})
        page = client.get(f"/m/{file.match}/me").text
        assert "You are the DMO: you start, and you win a tie on points." in text_of(page)
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page)[1]  # type: ignore[index]
        sent = {"csrf": csrf, "command": "bid", "arg.amount": "4", "id": "b1"}
        asked = client.post(f"/m/{file.match}/me/commands", data=sent)
        said = text_of(asked.text)
        assert asked.status_code == 200 and "Send your bid of 4 chips?" in said
        assert "it cannot be taken back or changed" in said
        assert len(app.match(file.match).records) == wanted[file.match]  # nothing yet
        done = client.post(f"/m/{file.match}/me/commands", data={**sent, "confirmed": "yes"},
                           follow_redirects=False)
        assert done.status_code == 303
        assert len(app.match(file.match).records) > wanted[file.match]
        # Now theo answers the bid (4.2: the players bid in turn): mira waits on him.
        wanted = {file.match: app.match(file.match).version}
        eventually(lambda: views.seqs(wanted) == wanted, timeout=60)
        waiting = text_of(client.get(f"/m/{file.match}/me").text)
        assert "Your bid of 4 chips is recorded for this round." in waiting
        assert "Waiting for the other player to act." in waiting
    app.close()
