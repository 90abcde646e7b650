"""A player and the host acting through the pages: the personal link's cookie, forms that go
through the application service (a refusal shown beside its form with nothing recorded), the
CSRF defence, logging out; the host's dashboard closing a round, corrections and links."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from service_harness import eventually

from commands.cli.matchfile import MatchFile, load, play
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens
from commands.web.app import create_app
from commands.web.worker import Settings
from tests.support.host_key import SIGNER

SEED = Path(__file__).resolve().parents[2] / "seeds" / "kings_court-king-win.json"
MATCH = "kc-live"


def opened(seed: MatchFile, match: str, season: str) -> MatchFile:
    """The seed match under another name, played up to its opening: round 1 is open."""
    first_close = next(i for i, s in enumerate(seed.commands) if s.do == "open_match")
    return seed.model_copy(update={"match": match, "season": season, "expect": None,
                                   "commands": seed.commands[:first_close + 1]})


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[Arbiter, TestClient]]:
    url = f"sqlite:///{tmp_path}/live.db"
    app = Arbiter(url, signer=SIGNER)
    play(app, opened(load(SEED), MATCH, "live"))
    with TestClient(create_app(Settings(url=url, signer=SIGNER))) as client:
        views = client.app.state.service.views  # type: ignore[attr-defined]
        eventually(lambda: views.seqs([MATCH]) == {MATCH: app.match(MATCH).version})
        yield app, client
    app.close()


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def join(client: TestClient, app: Arbiter, player: str) -> str:
    """The personal link's page, then its token posted as the page's script posts it."""
    token = Tokens(app).issue_joins(MATCH, [player])[player]
    assert 'id="join"' in client.get(f"/m/{MATCH}/join").text
    me = client.post(f"/m/{MATCH}/session", data={"token": token})
    assert me.status_code == 200 and f"{player} in {MATCH}" in me.text
    return csrf_of(me.text)


def test_a_player_votes_through_the_form_and_a_refusal_is_shown_beside_it(live):
    app, client = live
    csrf = join(client, app, "bob")
    before = app.match(MATCH).version

    refused = client.post(f"/m/{MATCH}/me/commands", data={
        "csrf": csrf, "id": "f1", "command": "vote", "arg.candidate": "bob"})
    assert refused.status_code == 422
    assert "self_vote" in refused.text and 'role="alert"' in refused.text
    assert app.match(MATCH).version == before  # nothing recorded

    forged = client.post(f"/m/{MATCH}/me/commands", data={
        "command": "vote", "arg.candidate": "alice"})
    assert forged.status_code == 403 and "wrong_form" in forged.text
    stale = client.post(f"/m/{MATCH}/me/commands", data={
        "csrf": "0" * 64, "command": "vote", "arg.candidate": "alice"})
    assert stale.status_code == 403 and app.match(MATCH).version == before

    sent = client.post(f"/m/{MATCH}/me/commands", follow_redirects=False, data={
        "csrf": csrf, "id": "f2", "command": "vote", "arg.candidate": "alice"})
    assert sent.status_code == 303
    seq = int(re.search(r"sent=(\d+)", sent.headers["location"]).group(1))
    match = app.match(MATCH)
    assert match.version > before and match.records[seq - 1]["entry"]["kind"] is None  # sealed
    assert match.records[seq - 1]["parts"][0]["data"] == {"name": "vote",
                                                          "args": {"candidate": "alice"}}
    page = client.get(sent.headers["location"]).text
    assert f"Recorded as entry #{seq}" in page and f"/me/receipts/{seq}" in page

    again = client.post(f"/m/{MATCH}/me/commands", follow_redirects=False, data={
        "csrf": csrf, "id": "f2", "command": "vote", "arg.candidate": "alice"})
    assert again.headers["location"] == sent.headers["location"]  # a resent form: once
    assert app.match(MATCH).version == match.version

    # The public page knows an entry exists, never whom bob voted for, nor his salt.
    public = client.get(f"/m/{MATCH}").text
    receipt = client.get(f"/m/{MATCH}/me/receipts/{seq}").json()
    assert "data-live" in public and receipt["salts"]["0"] not in public
    assert "candidate alice" not in public and "alice." not in public

    out = client.post(f"/m/{MATCH}/logout", data={"csrf": csrf}, follow_redirects=False)
    assert out.status_code == 303 and 'arbiter_player=""' in out.headers["set-cookie"]
    client.cookies.clear()  # as the browser does on that Set-Cookie
    assert client.get(f"/m/{MATCH}/me").status_code == 401


def test_a_players_cookie_is_for_their_own_match_only(live):
    app, client = live
    join(client, app, "bob")
    code = Tokens(app).issue_joins("x", ["bob"])["bob"]  # another match's
    other = client.post(f"/m/{MATCH}/session", data={"token": code})
    assert other.status_code == 403
    api = client.get(f"/matches/{MATCH}/players/bob/view")
    assert api.status_code == 401  # the API wants its bearer token, never the cookie


def test_the_host_closes_the_round_from_the_dashboard(live):
    app, client = live
    token = Tokens(app).set_host_join()
    assert client.get("/host").status_code == 401
    dashboard = client.post("/host/session", data={"token": token})
    assert dashboard.status_code == 200 and MATCH in dashboard.text
    assert "Still to act (11): alice, bob, carol" in dashboard.text
    csrf = csrf_of(dashboard.text)

    bad = client.post(f"/host/m/{MATCH}/deadline", data={"csrf": csrf, "deadline": "tomorrow"})
    assert bad.status_code == 422 and "invalid_deadline" in bad.text
    void = {"csrf": csrf, "void": "9999", "reason": "typo"}
    asked = client.post(f"/host/m/{MATCH}/corrections", data=void)
    assert asked.status_code == 200 and "Void entry #9999?" in asked.text  # asked first
    void_it = client.post(f"/host/m/{MATCH}/corrections", data={**void, "confirmed": "yes"})
    assert void_it.status_code == 422 and "unknown_seq" in void_it.text
    version = app.match(MATCH).version

    aimed = {"csrf": csrf, "round": "1", "phase": "election", "id": "close-1"}
    asked = client.post(f"/host/m/{MATCH}/close", data=aimed)
    assert "11 players have not voted: each loses 1 garnet" in asked.text
    assert app.match(MATCH).version == version  # nothing yet
    closed = client.post(f"/host/m/{MATCH}/close", data={**aimed, "confirmed": "yes"},
                         follow_redirects=False)
    assert closed.status_code == 303
    close = app.match(MATCH).records[version]["entry"]  # nobody voted: all tie at 0
    assert (close["kind"], close["public"]["name"]) == ("CommandAccepted", "close_round")
    assert "You closed the election of round 1" in client.get(closed.headers["location"]).text

    link = client.post(f"/host/m/{MATCH}/link", data={"csrf": csrf, "player": "carol"})
    url = re.search(r"(http://127\.0\.0\.1:8000/m/kc-live/join#[\w-]+)", link.text).group(1)
    assert Tokens(app).joiner(MATCH, url.split("#")[1]) == "carol"

    out = client.post("/host/logout", data={"csrf": csrf}, follow_redirects=False)
    assert out.status_code == 303 and "Path=/host" in out.headers["set-cookie"]
