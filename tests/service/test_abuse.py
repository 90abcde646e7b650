"""What a hostile player, page or stranger tries (issue 25): forcing a sign-in or a sign-out
from another site, a personal link's secret used as the API's token, a browser's cookie used
after its session ended or forged, links built from a forged Host header."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from service_harness import eventually

from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from commands.service.tokens import LIFE, HostToken, PlayerTokens, Tokens
from commands.web.app import create_app
from commands.web.worker import Settings
from tests.service.test_host_pages import text_of
from tests.service.test_pages_forms import MATCH, SEED, csrf_of, opened
from tests.support.host_key import SIGNER

PUBLIC = "https://arbiter.example"


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[Arbiter, TestClient]]:
    url = f"sqlite:///{tmp_path}/live.db"
    app = Arbiter(url, signer=SIGNER)
    play(app, opened(load(SEED), MATCH, "live"))
    with TestClient(create_app(Settings(url=url, signer=SIGNER, public_url=PUBLIC))) as client:
        views = client.app.state.service.views  # type: ignore[attr-defined]
        eventually(lambda: views.seqs([MATCH]) == {MATCH: app.match(MATCH).version})
        yield app, client
    app.close()


def test_another_sites_page_can_neither_sign_a_reader_in_nor_out(live):
    app, client = live
    bob = Tokens(app).issue_joins(MATCH, ["bob"])["bob"]
    for origin in ("https://evil.example", "null", "http://testserver.evil.example"):
        forced = client.post(f"/m/{MATCH}/session", data={"token": bob},
                             headers={"Origin": origin}, follow_redirects=False)
        assert forced.status_code == 403 and "wrong_origin" in forced.text
        assert "set-cookie" not in forced.headers
    # A browser that sends no Origin still says where the form came from.
    unmarked = client.post(f"/m/{MATCH}/session", data={"token": bob},
                           headers={"Sec-Fetch-Site": "cross-site"}, follow_redirects=False)
    assert unmarked.status_code == 403 and "set-cookie" not in unmarked.headers

    # From the service's own page (its public URL, or the address the browser asked for).
    for origin in (PUBLIC, "http://testserver"):
        client.cookies.clear()
        signed = client.post(f"/m/{MATCH}/session", data={"token": bob},
                             headers={"Origin": origin, "Sec-Fetch-Site": "same-origin"},
                             follow_redirects=False)
        assert signed.status_code == 303 and "arbiter_player=" in signed.headers["set-cookie"]

    out = client.post(f"/m/{MATCH}/logout", headers={"Origin": "https://evil.example"},
                      follow_redirects=False)
    assert out.status_code == 403 and "set-cookie" not in out.headers
    assert client.get(f"/m/{MATCH}/me").status_code == 200  # still signed in

    host = Tokens(app).set_host_join()
    forced = client.post("/host/session", data={"token": host},
                         headers={"Origin": "https://evil.example"}, follow_redirects=False)
    assert forced.status_code == 403 and "set-cookie" not in forced.headers
    out = client.post("/host/logout", headers={"Origin": "https://evil.example"},
                      follow_redirects=False)
    assert out.status_code == 403 and "set-cookie" not in out.headers


def test_a_join_code_opens_the_pages_only_and_a_new_link_revokes_it(live):
    app, client = live
    tokens = Tokens(app)
    token, code = tokens.issue(MATCH, "bob"), tokens.issue_joins(MATCH, ["bob"])["bob"]
    api = f"/matches/{MATCH}/players/bob/view"
    assert client.get(api, headers={"Authorization": f"Bearer {code}"}).status_code == 403
    assert client.get(api, headers={"Authorization": f"Bearer {token}"}).status_code == 200
    refused = client.post(f"/m/{MATCH}/session", data={"token": token})  # nor the reverse
    assert refused.status_code == 403 and "join code" in refused.text

    assert client.post(f"/m/{MATCH}/session", data={"token": code}).status_code == 200
    assert client.get(f"/m/{MATCH}/me").status_code == 200
    service = client.app.state.service  # type: ignore[attr-defined]
    service.tokens.issue_joins(MATCH, ["bob"])  # the host's page gives bob a new link
    gone = client.get(f"/m/{MATCH}/me")  # the process that saved it knows at once
    assert gone.status_code == 401 and "Sign in first" in gone.text
    again = client.post(f"/m/{MATCH}/session", data={"token": code})
    assert again.status_code == 403


def signs_in(browser: TestClient, path: str, code: str, cookie: str) -> str:
    """The session `browser` opens by posting `code` to `path` (a personal link opened):
    the secret of the cookie it is given, which lasts LIFE."""
    answer = browser.post(path, data={"token": code}, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    said = answer.headers["set-cookie"]
    assert LIFE - 5 <= int(re.search(r"Max-Age=(\d+)", said)[1]) <= LIFE  # as long as it lasts
    assert "HttpOnly" in said and "SameSite=strict" in said
    return browser.cookies[cookie]


def test_each_browser_opens_a_session_of_its_own_and_a_new_link_ends_them_all(live):
    """A phone and a laptop open bob's link: each gets a session of its own, neither the
    code; logging out on one leaves the other; a thief's copy of a cookie dies with it; a new
    link signs out every browser the old one did."""
    app, phone = live
    laptop = TestClient(phone.app)  # a second browser of the same service
    code = Tokens(app).issue_joins(MATCH, ["bob"])["bob"]
    said = text_of(phone.get(f"/m/{MATCH}/join").text)  # what the link's page tells bob
    assert "signs this browser in with a sign-in of its own, kept for 90 days" in said
    assert "(the cookie does not hold the code); log out to end it in this browser alone" in said
    assert "until the host gives you a new link, which signs out every browser" in said
    before = (app.match(MATCH).version, app.season("live").version)
    on_phone = signs_in(phone, f"/m/{MATCH}/session", code, "arbiter_player")
    on_laptop = signs_in(laptop, f"/m/{MATCH}/session", code, "arbiter_player")
    assert len({on_phone, on_laptop, code}) == 3 and re.fullmatch(r"[\w-]{43}", on_phone)
    assert signs_in(phone, f"/m/{MATCH}/session", code, "arbiter_player") == on_phone  # kept
    assert (app.match(MATCH).version, app.season("live").version) == before  # no log holds one
    me = phone.get(f"/m/{MATCH}/me")
    assert me.status_code == 200 and f"bob in {MATCH}" in me.text

    out = phone.post(f"/m/{MATCH}/logout", data={"csrf": csrf_of(me.text)},
                     follow_redirects=False)
    assert out.status_code == 303 and 'arbiter_player=""' in out.headers["set-cookie"]
    assert laptop.get(f"/m/{MATCH}/me").status_code == 200  # the laptop is still signed in
    thief = TestClient(phone.app, cookies={"arbiter_player": on_phone})  # a copy of the cookie
    ended = thief.get(f"/m/{MATCH}/me")
    assert ended.status_code == 401 and "session_ended" in ended.text

    on_phone = signs_in(phone, f"/m/{MATCH}/session", code, "arbiter_player")  # the code works
    service = phone.app.state.service  # type: ignore[attr-defined]
    service.tokens.issue_joins(MATCH, ["bob"])  # the host's page gives bob a new link
    for browser in (phone, laptop):
        refused = browser.get(f"/m/{MATCH}/me")
        said = text_of(refused.text)
        assert refused.status_code == 401 and "session_ended" in said
        assert "This browser's sign-in has ended (a new link replaced the one it opened, or " \
               "it expired): open the newest personal link the host sent you." in said
    assert phone.post(f"/m/{MATCH}/session", data={"token": code}).status_code == 403


def test_one_link_signs_in_twenty_browsers_at_most(live):
    """Each sign-in is an event in the match's tokens log: a player posting their code over
    and over is refused after 20 browsers, in words, and the log stops growing; a browser
    already signed in keeps its session; the host's new link signs in again."""
    app, phone = live
    code = Tokens(app).issue_joins(MATCH, ["bob"])["bob"]
    assert "(up to 20 browsers)" in text_of(phone.get(f"/m/{MATCH}/join").text)
    for _ in range(19):  # nineteen browsers that keep no cookie
        assert TestClient(phone.app).post(f"/m/{MATCH}/session", data={"token": code},
                                          follow_redirects=False).status_code == 303
    kept = signs_in(phone, f"/m/{MATCH}/session", code, "arbiter_player")  # the twentieth
    tokens = PlayerTokens.create_id(MATCH)
    grown = app.repository.get(tokens).version
    refused = TestClient(phone.app).post(f"/m/{MATCH}/session", data={"token": code})
    assert refused.status_code == 403 and "This personal link has already signed in 20 " \
        "browsers, the most one link may: ask the host for a new link." in text_of(refused.text)
    assert app.repository.get(tokens).version == grown  # nothing written
    assert signs_in(phone, f"/m/{MATCH}/session", code, "arbiter_player") == kept  # still in
    assert phone.get(f"/m/{MATCH}/me").status_code == 200

    fresh = phone.app.state.service.tokens.issue_joins(MATCH, ["bob"])["bob"]  # type: ignore[attr-defined]
    assert TestClient(phone.app).post(f"/m/{MATCH}/session", data={"token": fresh},
                                      follow_redirects=False).status_code == 303


def test_each_browser_of_the_host_has_its_own_session_and_a_new_link_ends_them(live):
    app, desk = live
    home = TestClient(desk.app)
    code = Tokens(app).set_host_join()
    at_desk = signs_in(desk, "/host/session", code, "arbiter_host")
    at_home = signs_in(home, "/host/session", code, "arbiter_host")
    assert len({at_desk, at_home, code}) == 3
    dashboard = desk.get("/host")
    out = desk.post("/host/logout", data={"csrf": csrf_of(dashboard.text)},
                    follow_redirects=False)
    assert out.status_code == 303 and "Path=/host" in out.headers["set-cookie"]
    assert home.get("/host").status_code == 200
    assert TestClient(desk.app, cookies={"arbiter_host": at_desk}).get("/host").status_code == 401
    desk.app.state.service.tokens.set_host_join()  # type: ignore[attr-defined]
    ended = home.get("/host")
    assert ended.status_code == 401 and "session_ended" in ended.text
    assert "open the host's newest link" in text_of(ended.text)


def test_a_forged_or_padded_cookie_is_refused_without_a_store_read(live, monkeypatch):
    app, client = live
    service = client.app.state.service  # type: ignore[attr-defined]
    code = Tokens(app).issue_joins(MATCH, ["bob"])["bob"]
    secret = signs_in(client, f"/m/{MATCH}/session", code, "arbiter_player")
    reads: list[object] = []
    repository = service.arbiter.repository
    real_get = repository.get
    kept = {PlayerTokens.create_id(MATCH), HostToken.create_id()}  # where sessions are
    monkeypatch.setattr(repository, "get", lambda aggregate_id, **k: (
        reads.append(aggregate_id) if aggregate_id in kept else None) or real_get(aggregate_id,
                                                                                    **k))
    for forged in (secret + "=", secret[:-1], secret + "%C2%A0", "x" * 43 + "!", code + "%20", ""):
        client.cookies.clear()
        refused = TestClient(client.app, cookies={"arbiter_player": forged,
                                                  "arbiter_host": forged})
        for path in (f"/m/{MATCH}/me", "/host"):
            answer = refused.get(path)
            assert answer.status_code == 401, (forged, path)
    assert reads == []  # none has a session's shape
    assert TestClient(client.app, cookies={"arbiter_player": secret}).get(
        f"/m/{MATCH}/me").status_code == 200
    assert reads == []  # opened by this process: known without a read


def test_links_and_verify_lines_come_from_the_public_url_never_the_host_header(live):
    _, client = live
    page = client.get(f"/m/{MATCH}", headers={"Host": "evil.example"})
    assert page.status_code == 200 and "evil.example" not in page.text
    assert f"{PUBLIC}/matches/{MATCH}/bundle" in page.text


def test_a_token_padded_with_unicode_space_is_another_token(live):
    app, client = live
    token = Tokens(app).issue(MATCH, "bob")
    api = f"/matches/{MATCH}/players/bob/view"
    for padded in (token + "\u00a0", token + "\u0085", token + "\u3000", "\u00a0" + token):
        sent = client.get(api, headers={"Authorization": f"Bearer {padded}".encode()})
        assert sent.status_code == 403 and sent.json()["error"] == "wrong_token"
    assert re.fullmatch(r"[\w-]{43}", token)
    assert client.get(api, headers={"Authorization": f"Bearer {token}"}).status_code == 200


DEEP = "[" * 1000 + "]" * 1000  # 2 KB
DIGITS = "7" * 5000
HOSTILE_FORM = {"command": "vote", "free.args": DEEP, "arg.candidate": DEEP, "arg.amount": DIGITS,
                "round": "²", "phase": "election", "void": DIGITS, "amount": DIGITS,
                "lines": f"bob,{DIGITS},r\nbob,²,r", "player": "bob", "reason": "r",
                "deadline": DIGITS, "setup.dummy": DEEP, "players": "alice bob",
                "confirmed": "yes"}


def every_route() -> list[Any]:
    from commands.web.pages import host as host_pages
    from commands.web.pages import host_match, host_season, player
    from commands.web.pages import public as public_pages
    from commands.web.routes import host, players, public

    return [route for module in (public, players, host, public_pages, player, host_pages,
                                 host_match, host_season) for route in module.router.routes]


def concrete(path: str) -> str:
    return re.sub(r"\{(\w+)(?::path)?\}", lambda m: {
        "match_id": MATCH, "player": "bob", "season": "live", "seq": "1", "action": "end"
    }.get(m[1], "x"), path)


def test_no_input_answers_500_on_any_route(live):
    """Each probe of issue 25 on every route: JSON nested 1,000 deep, a form whose fields
    nest 1,000 deep or hold 5,000 digits or '²', and such query values and Last-Event-IDs.
    The test client raises whatever the service does not answer itself (a 500)."""
    app, client = live
    tokens = Tokens(app)
    host, bob = tokens.set_host(), tokens.issue(MATCH, "bob")
    tried = 0
    for route in every_route():
        path = concrete(route.path)
        for method in route.methods:
            for token in (host, bob):
                auth = {"Authorization": f"Bearer {token}"}
                if method == "GET":
                    if route.path.endswith("/events"):
                        for last in ("²".encode(), DIGITS, "-1", "3a", "0x3"):
                            answer = client.get(path, headers={**auth, "Last-Event-ID": last})
                            assert answer.status_code in (403, 422), (path, last)
                            tried += 1
                        continue
                    for query in ({"round": DIGITS}, {"round": "²"}, {"min_seq": "²"},
                                  {"sent": DIGITS}, {"kind": DEEP}):
                        assert client.get(path, params=query, headers=auth).status_code < 500
                        tried += 1
                else:
                    answer = client.request(method, path, content=DEEP,
                                            headers={**auth, "Content-Type": "application/json"})
                    assert answer.status_code in (400, 401, 403, 404), (path, answer.text)
                    answer = client.request(method, path, content=f'{{"n": {DIGITS}}}',
                                            headers={**auth, "Content-Type": "application/json"})
                    assert answer.status_code in (400, 401, 403, 404), (path, answer.text)
                    long = "7" * 4000  # JSON reads it: the schema or the rules must refuse it
                    answer = client.request(method, path, headers={
                        **auth, "Content-Type": "application/json"}, content=(
                        f'{{"command": "vote", "args": {{"candidate": {long}}}, "amount": {long},'
                        f' "players": ["{long}"], "grants": [{{"player": "bob", "amount": {long},'
                        f' "reason": "r"}}], "round": {long}, "deadline": {long}}}'))
                    assert answer.status_code < 500, (path, answer.text)
                    tried += 3
    # The pages' forms, signed in as bob and as the host, with their CSRF tokens.
    bob_code = tokens.issue_joins(MATCH, ["bob"])["bob"]
    me = client.post(f"/m/{MATCH}/session", data={"token": bob_code})
    dashboard = client.post("/host/session", data={"token": tokens.set_host_join()})
    csrfs = [re.search(r'name="csrf" value="([^"]+)"', page.text)[1] for page in (me, dashboard)]
    for route in every_route():
        if "POST" in route.methods and not route.include_in_schema:
            for csrf in csrfs:
                answer = client.post(concrete(route.path), data={**HOSTILE_FORM, "csrf": csrf})
                assert answer.status_code < 500, (route.path, answer.text)
                tried += 1
    assert tried > 200


def test_docs_and_every_answer_carry_security_headers(live):
    _, client = live
    docs = client.get("/docs")
    policy = docs.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "'sha256-" in policy
    assert "unsafe-inline" not in policy
    for path in ("/docs", "/openapi.json", f"/matches/{MATCH}", f"/matches/{MATCH}/bundle",
                 f"/m/{MATCH}", "/static/arbiter.css", "/nowhere"):
        answer = client.get(path)
        assert answer.headers["x-content-type-options"] == "nosniff", path
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"], path


def test_bundles_and_checkpoints_are_built_once_per_change(live, monkeypatch):
    """A stranger's bundle is built once per change of the logs it rests on, then answered
    from that, with its ETag (304 for a client that holds it); a finished match's too, never
    `immutable`: a witness may still cosign its checkpoints."""
    from commands.web.routes import public

    app, client = live
    built: list[str] = []
    real = public.export
    monkeypatch.setattr(public, "export", lambda *a, **k: built.append("x") or real(*a, **k))
    path = f"/matches/{MATCH}/bundle"
    first = client.get(path)
    assert first.status_code == 200 and first.headers["cache-control"] == "no-cache"
    tag = first.headers["etag"]
    assert [client.get(path).content for _ in range(5)] == [first.content] * 5
    assert len(built) == 1  # six answers, one build
    held = client.get(path, headers={"If-None-Match": tag})
    assert held.status_code == 304 and held.content == b"" and held.headers["etag"] == tag

    token = Tokens(app).issue(MATCH, "bob")
    vote = client.post(f"/matches/{MATCH}/players/bob/commands",
                       json={"command": "vote", "args": {"candidate": "carol"}},
                       headers={"Authorization": f"Bearer {token}"})
    assert vote.status_code == 200
    changed = client.get(path, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["etag"] != tag and len(built) == 2
    assert changed.content.count(b"\n") == first.content.count(b"\n") + 2  # its two entries

    checkpoints = client.get(f"/matches/{MATCH}/checkpoints")
    assert checkpoints.json() == app.checkpoints(MATCH).notes
    again = client.get(f"/matches/{MATCH}/checkpoints",
                       headers={"If-None-Match": checkpoints.headers["etag"]})
    assert again.status_code == 304

    app.submit(MATCH, "host", "end", {"reason": "the players agreed to stop"})
    ended = client.get(path)
    assert ended.headers["cache-control"] == "no-cache"
    assert len(built) == 3
    client.get(path)
    assert len(built) == 3


def test_a_season_bundle_is_rebuilt_when_one_of_its_matches_changes(live, monkeypatch):
    from audit.bundle import PUBLIC as PUBLIC_BUNDLE

    app, client = live
    path = "/seasons/live/bundle"
    first = client.get(path)
    assert first.status_code == 200 and client.get(path).headers["etag"] == first.headers["etag"]
    bob = Tokens(app).issue(MATCH, "bob")
    assert client.post(f"/matches/{MATCH}/players/bob/commands", headers={
        "Authorization": f"Bearer {bob}"}, json={"command": "vote",
                                                  "args": {"candidate": "carol"}}).is_success
    kept = client.get(path)  # a vote after the last close: the season bundle is the same
    built = "".join(app.season_bundle("live", PUBLIC_BUNDLE, SIGNER.verifier_key())).encode()
    assert kept.headers["etag"] == first.headers["etag"] and kept.content == built
    app.submit(MATCH, "host", "end", {"reason": "the players agreed to stop"})
    after = client.get(path, headers={"If-None-Match": first.headers["etag"]})
    assert after.status_code == 200 and after.content != first.content
    assert client.get("/seasons/nope/bundle").status_code == 404
