"""The pages of every seed match, at every round, for the public and each player: they tell
the story the game tells, and no page holds what its reader may not know (the salt key, the
seed before its reveal, any salt of a sealed part that is not theirs; and, with every sealed
plaintext they may not read replaced by a canary, no canary)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pages_harness import FILES, canaries, last_round, play_seeds, shows
from service_harness import eventually

from commands.cli.seasonfile import load_season, play_season
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens
from commands.web.app import create_app
from commands.web.pages import templating
from commands.web.pages.player import seen_by
from commands.web.pages.public import told
from commands.web.worker import DEFAULT_PUBLIC_URL, Settings
from domain.decider import HOST, PUBLIC
from domain.match import Match
from projections import story
from projections.inbox import inbox
from projections.views import view
from tests.support.host_key import SIGNER

SPRING = Path(__file__).resolve().parents[2] / "seeds" / "seasons" / "spring.json"

CANARY, NUMBER = "CANARY", 987_654_321


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Arbiter, TestClient]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('pages')}/pages.db"
    app = play_seeds(url)
    with TestClient(create_app(Settings(url=url, signer=SIGNER))) as client:
        views = client.app.state.service.views  # type: ignore[attr-defined]
        wanted = {f.match: app.match(f.match).version for f in FILES}
        eventually(lambda: views.seqs(wanted) == wanted, timeout=60)
        yield app, client
    app.close()


def sign_in(client: TestClient, app: Arbiter, match_id: str, player: str) -> None:
    token = Tokens(app).issue_joins(match_id, [player])[player]
    answer = client.post(f"/m/{match_id}/session", data={"token": token},
                         follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == f"/m/{match_id}/me"
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and f"Path=/m/{match_id}" in cookie


@pytest.mark.parametrize("file", FILES, ids=[f.match for f in FILES])
def test_the_public_page_tells_each_round_and_holds_no_secret(seeded, file):
    app, client = seeded
    match = app.match(file.match)
    for round in [*range(last_round(match) + 1), None]:
        page = client.get(f"/m/{file.match}", params={} if round is None else {"round": round})
        assert page.status_code == 200, page.text
        public = view(match, PUBLIC, round)
        for chapter in story.chapters(public):  # the story in the game's own words
            assert shows(page.text, chapter["title"])
            missing = [line for line in chapter["lines"] if not shows(page.text, line)]
            assert not missing, (round, missing)
        assert "<svg" in page.text and 'role="img"' in page.text and "<title" in page.text
        for secret in canaries(file, match, PUBLIC, round):
            assert secret not in page.text, (round, secret)
        season = page.text.split('id="standings-title"')[1].split("</section>")[0]
        assert "<table" in season and "Garnets" not in season  # balances are not public
    ended = page.text
    assert f"/matches/{file.match}/bundle" in ended and "arbiter verify" in ended
    assert f'href="/logs/match/{file.match}/checkpoint"' in ended
    assert f"arbiter verify {DEFAULT_PUBLIC_URL}/logs/match/{file.match}" in ended  # never Host
    notes = app.checkpoints(file.match).notes
    assert client.get(f"/logs/match/{file.match}/checkpoint").text == notes[-1]["note"]
    assert notes and all(templating.environment.filters["e"](n["note"]) in ended for n in notes)
    assert "Results" in ended and "data-live" not in ended  # over: nothing left to follow


@pytest.mark.parametrize("file", FILES, ids=[f.match for f in FILES])
def test_each_player_page_shows_their_own_and_nothing_else(seeded, file):
    app, client = seeded
    match = app.match(file.match)
    for player in file.players:
        client.cookies.clear()
        sign_in(client, app, file.match, player)
        for round in (1, last_round(match) // 2, None):
            page = client.get(f"/m/{file.match}/me",
                              params={} if round is None else {"round": round})
            assert page.status_code == 200, page.text
            for chapter in story.chapters(view(match, player, round)):
                missing = [line for line in chapter["lines"] if not shows(page.text, line)]
                assert not missing, (player, round, missing)
            for secret in canaries(file, match, player, round):
                assert secret not in page.text, (player, round, secret)
        for receipt in inbox(match, player)["receipts"]:  # each one, and a download of it
            assert f"/m/{file.match}/me/receipts/{receipt['seq']}" in page.text
        if inbox(match, player)["receipts"]:
            first = inbox(match, player)["receipts"][0]
            download = client.get(f"/m/{file.match}/me/receipts/{first['seq']}")
            assert download.json() == first
            assert "attachment" in download.headers["content-disposition"]


def tampered(match: Match, viewer: str) -> Match:
    """The match with every sealed part `viewer` may not read rewritten: its kind, actor and
    every text and number of its data become canaries."""
    other = copy.deepcopy(match)
    for record in other.records:
        for part in record["parts"]:
            if not (isinstance(part["audience"], list) and viewer in part["audience"]):
                part.update(kind="CanaryKind", actor="CANARY-actor", data=canaried(part["data"]))
    return other


def canaried(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: canaried(v) for k, v in value.items()}
    if isinstance(value, list):
        return [canaried(v) for v in value]
    if isinstance(value, str):
        return f"{CANARY}-{value}"
    return NUMBER if isinstance(value, int) and not isinstance(value, bool) else value


def number_in(page: str) -> bool:
    """The canary number, not as part of a longer number or hex string."""
    return re.search(rf"(?<![0-9a-fA-F]){NUMBER}(?![0-9a-fA-F])", page) is not None


def public_html(seen: dict[str, Any], round: int | None) -> str:
    return templating.render("match.html", **told(seen), round=round, checkpoints=[],
                             verifier_key=None, standings=[], me=None, origin="http://x")


def player_html(seen: dict[str, Any], match: Match, player: str) -> str:
    mine = inbox(match, player)
    return templating.render(
        "player.html", **seen_by(seen, mine, player, None, seen["as_of"]["round"]),
        garnets=None, csrf="c", form_id="f", sent=None, refused=None, updating=0)


@pytest.mark.parametrize("file", FILES, ids=[f.match for f in FILES])
def test_no_sealed_plaintext_reaches_a_page_its_reader_may_not_read(seeded, file):
    app, _ = seeded
    match = app.match(file.match)
    rounds = sorted({1, last_round(match) // 2, last_round(match)})
    for viewer in (PUBLIC, *file.players):
        other = tampered(match, viewer)
        for round in rounds:
            seen = view(other, viewer, round)
            assert seen == view(match, viewer, round)  # the filter: nothing changed for them
            page = (public_html(seen, round) if viewer == PUBLIC
                    else player_html(seen, other, viewer))
            assert CANARY not in page and not number_in(page), (viewer, round)
    # The canaries do reach the host's view: only the viewer filter keeps them off the pages.
    assert CANARY in json.dumps(view(tampered(match, PUBLIC), HOST, None)["events"])


def test_the_index_and_season_pages_list_matches_and_winners_and_no_garnets(seeded):
    app, client = seeded
    index = client.get("/").text
    season = client.get("/s/demo")
    assert season.status_code == 200
    for file in FILES:
        assert f'href="/m/{file.match}"' in index and f'href="/m/{file.match}"' in season.text
        first = [p for p, r in app.match(file.match).results()["ranks"].items() if r == 1]
        line = re.search(rf'href="/m/{re.escape(file.match)}">.*?</li>', season.text, re.S)
        assert line and all(p in line.group(0) for p in first)
    assert 'href="/s/demo"' in index
    # King's Court king-win: erin is named EC; the host's garnet balances stay off the page.
    assert "erin was named Elimination Candidate in" in season.text
    assert "Garnets" not in season.text
    standings = app.season("demo")
    for player in ("alice", "erin"):
        row = re.search(rf"<th scope=\"row\">{player}</th>(.*?)</tr>", season.text, re.S)
        cells = re.findall(r"<td>(-?\d+)</td>", row.group(1))
        balances = standings.balances[player]
        assert cells == [str(balances[a]) for a in ("tol", "opal", "moe", "ec")]


def test_the_season_page_tells_who_is_still_in_and_where_each_other_player_left(tmp_path):
    """The seed season (seeds/seasons/spring.json): gil loses the first Death Match, amy the
    second but spends a Token of Life to stay, the host's ruling sends ben, cal, dee and eve
    out before the Final, and fin wins it."""
    url = f"sqlite:///{tmp_path}/season.db"
    app = Arbiter(url, signer=SIGNER)
    _, mismatches = play_season(app, load_season(SPRING), SPRING.parent)
    assert mismatches == []
    with TestClient(create_app(Settings(url=url, signer=SIGNER))) as client:
        def projected() -> bool:  # the views hold the whole season, not a fold of the log
            text = client.get("/s/spring").text
            return "fin won the season" in text and 'href="/m/spring-final"' in text and \
                "No match yet" not in text

        eventually(projected, timeout=60)
        text = client.get("/s/spring").text
    app.close()
    # The champion is said once, and nobody is "still in" beside him.
    assert text.count("fin won the season.") == 1 and "Still in" not in text
    assert 'gil left the season in <a href="/m/spring-dm-1">spring-dm-1</a>.' in text
    for player in ("ben", "cal", "dee", "eve"):  # the ruling keeps its reason
        assert (f"{player} left the season by the host's ruling: not in the Final (season "
                "rule 4: the most Tokens of Life against the last Death Match&#39;s winner).")\
            in text
    assert "amy left the season" not in text  # reinstated by her Token of Life
    assert "Garnets" not in text
    # By rank: fin won the Final, amy lost it; ben, cal, dee and eve left together (at
    # 18:10 on 9 December, no Token of Life among them: by name), after gil (the first
    # Death Match, 3 December).
    table = text[text.index('id="standings-title"'):text.index("Who left the season")]
    assert re.findall(r'<th scope="row">(\w+)</th>', table) == \
        ["fin", "amy", "ben", "cal", "dee", "eve", "gil"]
    # Matches in the order the season played them, not by name.
    listed = text[text.index('id="matches-title"'):]
    assert re.findall(r'<a href="/m/([\w-]+)">', listed)[:5] == \
        ["spring-totems", "spring-dm-1", "spring-amalgamation", "spring-dm-2", "spring-final"]


def test_unknown_pages_answer_with_a_page_and_the_api_keeps_its_json(seeded):
    _, client = seeded
    missing = client.get("/m/no-such-match")
    assert missing.status_code == 404 and "unknown_match" in missing.text
    assert missing.headers["content-type"].startswith("text/html")
    assert client.get("/matches/no-such-match").json()["error"] == "unknown_match"
    assert client.get("/s/no-such-season").status_code == 404
    client.cookies.clear()
    needs = client.get("/m/kings-court-king-win/me")
    assert needs.status_code == 401 and 'href="/m/kings-court-king-win/join"' in needs.text
    refused = client.post("/m/kings-court-king-win/session", data={"token": "not-a-token"})
    assert refused.status_code == 403 and "set-cookie" not in refused.headers


def test_docs_and_pages_load_nothing_from_outside(seeded):
    _, client = seeded
    for path in ("/docs", "/", "/m/kings-court-king-win", "/s/demo",
                 "/m/kings-court-king-win/join"):
        page = client.get(path)
        assert page.status_code == 200
        for link in re.findall(r'(?:src|href)="([^"]+)"', page.text):
            assert not re.match(r"(https?:)?//", link), (path, link)
            if link.startswith("/static"):
                assert client.get(link).status_code == 200, link
    assert client.get("/static-offline-docs/swagger-ui-bundle.js").status_code == 200
    policy = client.get("/").headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
