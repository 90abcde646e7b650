"""Pages anyone may read are drawn once per change of the log or the views and answered from
that to every reader who is not signed in (issue 25: strangers asking together cost one
drawing); a signed-in player's page is drawn for them alone."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from service_harness import eventually

from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens
from commands.web.app import create_app
from commands.web.pages import public
from commands.web.worker import Settings
from projections.runner import catch_up
from tests.service.test_pages_forms import MATCH, SEED, opened
from tests.support.host_key import SIGNER


def caught_up(client: TestClient, app: Arbiter, *matches: str) -> None:
    views = client.app.state.service.views  # type: ignore[attr-defined]
    wanted = matches or (MATCH,)
    eventually(lambda: views.seqs(list(wanted)) == {m: app.match(m).version for m in wanted})


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Arbiter, str, TestClient]]:
    url = f"sqlite:///{tmp_path}/shared.db"
    app = Arbiter(url, signer=SIGNER)
    play(app, opened(load(SEED), MATCH, "live"))
    with TestClient(create_app(Settings(url=url, signer=SIGNER))) as client:
        caught_up(client, app)
        yield app, url, client
    app.close()


def fresh(url: str, path: str) -> str:
    """The page as a new server, which has drawn nothing yet, draws it."""
    with TestClient(create_app(Settings(url=url, signer=SIGNER))) as client:
        return client.get(path).text


def test_a_public_page_is_drawn_once_per_change_and_never_goes_stale(served, monkeypatch):
    app, url, client = served
    drawn: list[str] = []
    real = public.page

    def counted(template: str, **context: Any) -> Any:
        drawn.append(template)
        return real(template, **context)

    monkeypatch.setattr(public, "page", counted)
    paths = [f"/m/{MATCH}", "/s/live", "/", f"/m/{MATCH}?round=0"]
    first = {path: client.get(path).text for path in paths}
    for _ in range(4):
        assert {path: client.get(path).text for path in paths} == first
    assert sorted(drawn) == ["index.html", "match.html", "match.html", "season.html"]

    # The host closes round 1: once the views have read it, every page is drawn again, and
    # each is the page a server that never drew it would draw now.
    app.submit(MATCH, "host", "close_round", {})
    caught_up(client, app)
    now = {path: client.get(path).text for path in paths}
    assert len(drawn) == 8
    assert now[f"/m/{MATCH}"] != first[f"/m/{MATCH}"]
    assert now[f"/m/{MATCH}?round=0"] == first[f"/m/{MATCH}?round=0"]  # the past is the past
    for path in paths:
        assert now[path] == fresh(url, path), path


def test_a_signed_in_players_page_is_theirs_alone(served):
    app, _, client = served
    code = Tokens(app).issue_joins(MATCH, ["bob"])["bob"]
    stranger = client.get(f"/m/{MATCH}").text  # drawn and kept for anyone
    assert "your page" not in stranger
    signed = client.post(f"/m/{MATCH}/session", data={"token": code},
                         headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},
                         follow_redirects=False)
    assert signed.status_code == 303
    assert "your page (bob)" in client.get(f"/m/{MATCH}").text
    client.cookies.clear()
    assert client.get(f"/m/{MATCH}").text == stranger


def test_a_page_of_another_match_is_not_drawn_again_for_a_vote(served, monkeypatch):
    app, _, client = served
    play(app, opened(load(SEED), "kc-other", "live"))
    caught_up(client, app, MATCH, "kc-other")
    drawn: list[str] = []
    real = public.page
    monkeypatch.setattr(public, "page", lambda t, **c: drawn.append(t) or real(t, **c))
    other = client.get("/m/kc-other").text
    token = Tokens(app).issue(MATCH, "bob")
    assert client.post(f"/matches/{MATCH}/players/bob/commands", headers={
        "Authorization": f"Bearer {token}"}, json={"command": "vote",
                                                  "args": {"candidate": "carol"}}).is_success
    caught_up(client, app)
    assert client.get("/m/kc-other").text == other and drawn == ["match.html"]
    client.get(f"/m/{MATCH}")
    client.get("/s/live")  # the season's page shows every match of it
    assert drawn == ["match.html", "match.html", "season.html"]


def test_an_unknown_match_or_season_is_a_page_in_words(served):
    _, _, client = served
    for path in ("/m/nope", "/s/nope"):
        answer = client.get(path)
        assert answer.status_code == 404 and "nope" in answer.text, path
        assert "<html" in answer.text.lower() and "Traceback" not in answer.text


def test_the_public_view_is_built_once_per_change_of_its_match(served, monkeypatch):
    from commands.web.routes import public as routes

    app, url, client = served
    read: list[str] = []
    real = routes.read_view
    monkeypatch.setattr(routes, "read_view", lambda svc, m, *a: read.append(m) or real(svc, m, *a))
    first = client.get(f"/matches/{MATCH}")
    assert [client.get(f"/matches/{MATCH}").json() for _ in range(3)] == [first.json()] * 3
    assert read == [MATCH] and first.headers["etag"]
    assert client.get(f"/matches/{MATCH}", headers={
        "If-None-Match": first.headers["etag"]}).status_code == 304
    app.submit(MATCH, "host", "close_round", {})
    now = client.get(f"/matches/{MATCH}").json()
    assert read == [MATCH, MATCH] and now != first.json()
    with TestClient(create_app(Settings(url=url, signer=SIGNER))) as other:
        assert other.get(f"/matches/{MATCH}").json() == now


def test_views_behind_on_one_match_leave_the_others_pages_alone(db_url, monkeypatch):
    """The tables read a vote a moment after it is recorded: meanwhile that match's page says
    "updating", and every other page anyone may read is neither drawn again nor says so."""
    url = db_url
    app = Arbiter(url, signer=SIGNER)
    play(app, opened(load(SEED), MATCH, "live"))
    play(app, opened(load(SEED), "kc-other", "live"))
    with TestClient(create_app(Settings(url=url, signer=SIGNER, projections=False))) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        catch_up(service.arbiter, service.views)
        drawn: list[str] = []
        real = public.page
        monkeypatch.setattr(public, "page", lambda t, **c: drawn.append(t) or real(t, **c))
        other = client.get("/m/kc-other").text
        assert "Updating" not in other and drawn == ["match.html"]

        app.submit(MATCH, "bob", "vote", {"candidate": "carol"})  # two entries, not yet read
        assert client.get("/m/kc-other").text == other and drawn == ["match.html"]
        behind = client.get(f"/m/{MATCH}").text
        assert "Updating: 2 entries to read." in " ".join(behind.split())
        assert "Updating" in client.get("/").text  # the list shows every match

        catch_up(service.arbiter, service.views)
        assert "Updating" not in client.get(f"/m/{MATCH}").text
        assert drawn == ["match.html", "match.html", "index.html", "match.html"]
    app.close()


def test_workers_sharing_a_built_folder_draw_a_page_once(served, tmp_path, monkeypatch):
    """Two workers of one serve (two apps here) with the folder serve gives them: the page
    one drew is read by the other, not drawn again; a change draws it once more."""
    app, url, _ = served
    monkeypatch.setenv("ARBITER_BUILT_DIR", str(tmp_path / "built"))
    drawn: list[str] = []
    real = public.page
    monkeypatch.setattr(public, "page", lambda t, **c: drawn.append(t) or real(t, **c))
    with TestClient(create_app(Settings(url=url, signer=SIGNER))) as one, \
            TestClient(create_app(Settings(url=url, signer=SIGNER))) as other:
        caught_up(one, app)
        first = one.get(f"/m/{MATCH}").text
        assert other.get(f"/m/{MATCH}").text == first and drawn == ["match.html"]
        app.submit(MATCH, "host", "close_round", {})
        caught_up(one, app)
        now = one.get(f"/m/{MATCH}").text
        assert now != first and other.get(f"/m/{MATCH}").text == now
        assert drawn == ["match.html", "match.html"]


def test_serve_gives_its_workers_one_built_folder(tmp_path, monkeypatch):
    from commands.cli.serve import built_by_all

    monkeypatch.delenv("ARBITER_BUILT_DIR", raising=False)
    with built_by_all(1):
        assert "ARBITER_BUILT_DIR" not in os.environ  # one worker keeps its answers in memory
    with built_by_all(2):
        folder = Path(os.environ["ARBITER_BUILT_DIR"])
        assert folder.is_dir() and folder.stat().st_mode & 0o777 == 0o700
    assert not folder.exists() and "ARBITER_BUILT_DIR" not in os.environ
    monkeypatch.setenv("ARBITER_BUILT_DIR", str(tmp_path))  # the host's own folder wins
    with built_by_all(4):
        assert os.environ["ARBITER_BUILT_DIR"] == str(tmp_path)
