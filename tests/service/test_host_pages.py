"""The host's pages without a browser: a season set up from its page (players pasted, grants
previewed then saved, a transfer, a ruling, a match from the game's setup form), the match's
page in the game's words (a tie-break is a tie-break, only the King acts), closes and
deadlines guarded (confirmed first, refused once the round has moved on, a past deadline
refused, nothing recorded), links as full URLs, bundles that verify, the announcement, check,
and the banner of views still catching up."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from fastapi.testclient import TestClient
from service_harness import eventually

from audit.notes import parse_verifier_key
from audit.season_verify import verify_season
from audit.verify import verify
from commands.cli.matchfile import Step, load
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens
from commands.web.app import create_app
from commands.web.worker import Settings
from domain.records import headline
from projections.announcement import announcement
from projections.views import view
from tests.support.host_key import SIGNER
from tests.support.seed_until import first, played_until

SEED = Path(__file__).resolve().parents[2] / "seeds" / "kings_court-king-win.json"
ELEVEN = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
          "ken"]


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def text_of(page: str) -> str:
    """What a reader reads: the page without its tags, spaces folded."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[tuple[Arbiter, str]]:
    url = f"sqlite:///{tmp_path}/host.db"
    app = Arbiter(url, signer=SIGNER)
    yield app, url
    app.close()


class Host(NamedTuple):
    client: TestClient  # entered: the service runs (leave with `with client:`)
    csrf: str
    token: str  # the host token, for the API


def signed_in(url: str, app: Arbiter, **settings: Any) -> Host:
    client = TestClient(create_app(Settings(url=url, signer=SIGNER, **settings)))
    client.__enter__()
    token = Tokens(app).set_host()
    page = client.post("/host/session", data={"token": Tokens(app).set_host_join()})
    assert page.status_code == 200
    return Host(client, csrf_of(page.text), token)


def caught_up(client: TestClient, app: Arbiter, match: str) -> None:
    views = client.app.state.service.views  # type: ignore[attr-defined]
    eventually(lambda: views.seqs([match]) == {match: app.match(match).version})


def test_a_host_sets_up_a_season_from_its_page(store):
    app, url = store
    client, csrf, _ = signed_in(url, app)
    with client:
        started = client.post("/host/seasons", data={"csrf": csrf, "name": "autumn"})
        assert started.url.path == "/host/s/autumn" and "The season is started" in started.text
        client.post("/host/s/autumn/players", data={"csrf": csrf, "players": " ".join(ELEVEN)})
        assert app.season("autumn").players == ELEVEN

        # Grants pasted: a preview first, nothing saved; a line that cannot be read stops it.
        lines = ("player,amount,reason\nbob,10,season start\ncarol,5\ncarol,-2,late, twice\n"
                 "zed,3\n")
        preview = client.post("/host/s/autumn/grants",
                              data={"csrf": csrf, "lines": lines, "reason": "welcome"})
        said = text_of(preview.text)
        assert "2 bob +10 garnets season start" in said and "3 carol +5 garnets welcome" in said
        assert "4 carol -2 garnets late, twice" in said
        assert "zed is not a player of this season" in said and "nothing is saved" in said
        fixed = lines.replace("zed,3", "ken,tol:1")
        preview = client.post("/host/s/autumn/grants",
                              data={"csrf": csrf, "lines": fixed, "reason": "welcome"})
        assert "Save these 4 grants" in preview.text and "+1 tol welcome" in text_of(preview.text)
        assert "+13 garnets in all" in text_of(preview.text)
        assert app.season("autumn").balances["bob"]["garnets"] == 0  # still nothing
        save = {"csrf": csrf, "lines": fixed, "reason": "welcome", "confirmed": "yes",
                "id": "grants-1"}
        client.post("/host/s/autumn/grants", data=save)
        client.post("/host/s/autumn/grants", data=save)  # a double tap: recorded once
        balances = app.season("autumn").balances
        assert (balances["bob"]["garnets"], balances["carol"]["garnets"]) == (10, 3)
        assert balances["ken"]["tol"] == 1

        client.post("/host/s/autumn/transfer", data={
            "csrf": csrf, "giver": "bob", "receiver": "dave", "amount": "4", "reason": "a deal"})
        refused = client.post("/host/s/autumn/transfer", data={
            "csrf": csrf, "giver": "dave", "receiver": "bob", "amount": "99", "reason": "x"})
        assert refused.status_code == 422 and 'value="99"' in refused.text  # values kept
        client.post("/host/s/autumn/ruling", data={
            "csrf": csrf, "player": "ken", "tol": "-1", "opal": "0", "moe": "1", "status": "",
            "reason": "spent a ToL"})
        balances = app.season("autumn").balances
        assert (balances["bob"]["garnets"], balances["dave"]["garnets"]) == (6, 4)
        assert (balances["ken"]["tol"], balances["ken"]["moe"]) == (0, 1)

        # A match from the game picker and the game's setup form.
        picker = client.get("/host/s/autumn/new")
        assert "King's Court" in text_of(picker.text) and 'name="game"' in picker.text
        form = client.get("/host/s/autumn/new?game=kings_court")
        assert 'name="setup.tiebreak_default"' in form.text and 'value="kc-1"' in form.text
        assert "The King's missing tie-break choice" in text_of(form.text)  # explained
        fields = {"csrf": csrf, "game": "kings_court", "kind": "main", "match": "kc-1",
                  "setup.tiebreak_default": "seat_order", "setup.annoyed_scope":
                  "all_judge_info", "setup.peek_uses_judge_view": "true",
                  "setup.lists_may_include_king": "true", "id": "create-1"}
        short = client.post("/host/s/autumn/new", data={**fields, "players": ELEVEN[:10]})
        assert short.status_code == 422 and "11 players" in short.text
        assert "checked" in short.text  # the ticks are kept
        made = client.post("/host/s/autumn/new", data={**fields, "players": ELEVEN})
        assert made.url.path == "/host/m/kc-1"
        match = app.match("kc-1")
        assert match.players == ELEVEN
        setup = headline(match.records[1])["data"]["setup"]  # the sealed setup entry
        assert setup["tiebreak_default"] == "seat_order"  # changed
        assert setup["annoyed_scope"] == "all_judge_info"  # the default


def tied(app: Arbiter) -> str:
    """The King's Court seed (grace is King) up to its first tie, in round 3: the election
    closed tied, so the tie-break is open in the same round."""
    return played_until(app, first("tiebreak")).match


def at_the_tie(app: Arbiter, url: str, **settings: Any) -> tuple[str, Host]:
    """The seed up to its first tie, and the host signed in to a server whose views hold it."""
    match = tied(app)
    host = signed_in(url, app, **settings)
    caught_up(host.client, app, match)
    return match, host


def test_a_tiebreak_in_the_games_words_and_a_stale_close_refused(store):
    app, url = store
    match, (client, csrf, token) = at_the_tie(app, url)
    assert app.match(match).round == 3
    with client:
        said = text_of(client.get(f"/host/m/{match}").text)
        assert "Round 3: the tie-break; only grace acts." in said
        assert "Still to act (1): grace." in said
        assert "grace has not chosen: the default decides who joins" in said
        assert "Close round 3" not in said and "Close the tie-break…" in said
        board = text_of(client.get("/host").text)
        assert "Round 3: the tie-break; only grace acts." in board
        before = app.match(match).version

        # A form drawn before the election closed (a second tab, the back button).
        stale = {"csrf": csrf, "round": "3", "phase": "election", "id": "stale",
                 "confirmed": "yes"}
        refused = client.post(f"/host/m/{match}/close", data=stale)
        assert refused.status_code == 422
        # A sentence, its code a small label beside it.
        assert ("Round 3 of kings-court-king-win has moved on from the election to the "
                "tie-break; nothing was recorded. round_moved") in text_of(refused.text)
        # The API: a close aimed at round 2.
        api = TestClient(client.app, headers={"Authorization": f"Bearer {token}"})
        answer = api.post(f"/matches/{match}/close", json={"phase": "tiebreak", "round": 2})
        assert answer.status_code == 422 and answer.json()["error"] == "round_moved"
        late = api.post(f"/matches/{match}/deadline", json={"deadline": "2020-01-01T00:00:00Z"})
        assert late.status_code == 422 and late.json()["error"] == "deadline_past"
        # The API's close of the election sent again, after it opened the tie-break: the
        # election's close is not the tie-break's (docs/games/kings_court.md).
        twice = api.post(f"/matches/{match}/close", json={"phase": "round", "round": 3})
        assert twice.status_code == 422 and twice.json()["error"] == "wrong_state"
        assert app.match(match).version == before

        # The close the page shows, confirmed, sent twice (a double tap): recorded once.
        aimed = {"csrf": csrf, "round": "3", "phase": "tiebreak", "id": "close-tb"}
        asked = client.post(f"/host/m/{match}/close", data=aimed)
        assert "Close the tie-break of round 3?" in text_of(asked.text)
        assert app.match(match).version == before
        first = client.post(f"/host/m/{match}/close", data={**aimed, "confirmed": "yes"},
                            follow_redirects=False)
        after = app.match(match).version
        again = client.post(f"/host/m/{match}/close", data={**aimed, "confirmed": "yes"},
                            follow_redirects=False)
        assert first.status_code == again.status_code == 303 and after > before
        assert app.match(match).version == after
        closed = [r for r in app.match(match).records[before:] if r["role"] == "command"]
        assert [r["entry"]["public"]["name"] for r in closed] == ["close_tiebreak"]
        assert "You closed the tie-break of round 3" in client.get(first.headers["location"]).text
        # The API's close of the tie-break sent after it: round 4 is open, nothing recorded.
        late = api.post(f"/matches/{match}/close", json={"phase": "tiebreak", "round": 3})
        assert late.status_code == 422 and late.json()["error"] == "round_moved"
        assert app.match(match).version == after


def test_deadlines_are_typed_in_local_time_and_a_past_one_is_refused(store):
    app, url = store
    match, (client, csrf, _) = at_the_tie(app, url)
    with client:
        before = app.match(match).version
        aimed = {"csrf": csrf, "round": "3", "phase": "tiebreak"}
        # The year mistyped: JavaScript off, the typed time read as UTC.
        past = client.post(f"/host/m/{match}/deadline", data={**aimed, "deadline":
                                                              "2020-11-21T20:00"})
        assert past.status_code == 422 and "deadline_past" in past.text
        assert app.match(match).version == before
        # JavaScript on: the browser sends the UTC instant of the local time typed.
        done = client.post(f"/host/m/{match}/deadline", data={
            **aimed, "deadline": "2099-11-21T21:00", "deadline_utc": "2099-11-21T20:00:00.000Z",
            "id": "d1"})
        # Said as a time the script shows in the host's zone; without it, in UTC.
        assert ('Deadline set: round 3 closes <time datetime="2099-11-21T20:00:00.000Z" '
                'data-local>Sat 21 Nov 2099, 20:00 UTC</time>.') in done.text
        set_ = app.match(match).records[-1]["entry"]["public"]
        assert set_ == {"round": 3, "deadline": "2099-11-21T20:00:00.000Z"}
        page = client.get(f"/host/m/{match}").text
        assert '<time datetime="2099-11-21T20:00:00.000Z" data-local>' in page
        assert 'data-until="2099-11-21T20:00:00.000Z"' in page  # the countdown's
        # Now: asked first, then the deadline is the moment it arrived.
        asked = client.post(f"/host/m/{match}/deadline", data={**aimed, "now": "yes", "id": "d2"})
        assert "Close round 3 now, by its deadline?" in text_of(asked.text)
        version = app.match(match).version
        done = client.post(f"/host/m/{match}/deadline", data={**aimed, "now": "yes", "id": "d2",
                                                              "confirmed": "yes"})
        assert "The deadline is now: the service closes round 3 within a second." in \
            text_of(done.text)
        # The command and its deadline; the service's close may already follow them.
        after = app.match(match)
        assert after.version >= version + 2
        now = after.record(version + 2)["entry"]
        assert now["public"] == {"round": 3, "deadline": now["at"]}


def test_links_bundles_announcement_and_check_from_the_match_page(store):
    app, url = store
    match, (client, csrf, _) = at_the_tie(app, url, public_url="https://arbiter.example")
    with client:
        asked = client.post(f"/host/m/{match}/links", data={"csrf": csrf})
        assert "11 new personal links" in text_of(asked.text)
        issued = client.post(f"/host/m/{match}/links", data={"csrf": csrf, "confirmed": "yes"},
                             headers={"Host": "evil.example"})  # never the links' address
        links = re.findall(rf"(https://arbiter\.example/m/{match}/join#[\w-]+)", issued.text)
        assert len(set(links)) == 11 and "evil.example" not in issued.text
        codes = [link.split("#")[1] for link in links]
        holders = {Tokens(app).joiner(match, code) for code in codes}
        assert holders == set(load(SEED).players)
        assert not any(Tokens(app).holder(match, code) for code in codes)  # not API tokens
        assert "grace, your personal link for kings-court-king-win" in issued.text

        page = text_of(client.get(f"/host/m/{match}").text)
        public = view(app.match(match), "public", 3)
        told = announcement(public, 3, app.checkpoints(match).notes, "https://arbiter.example")
        assert "Announce round 3 in the chat" in page
        assert "**King's Court · kings-court-king-win · " in told[0]
        assert all(re.sub(r"\s+", " ", message) in page for message in told)

        full = client.get(f"/host/m/{match}/bundle?kind=full")
        assert full.headers["content-disposition"].endswith(f'"{match}-full.jsonl"')
        audit = verify((line + b"\n" for line in full.content.splitlines()),
                       key=parse_verifier_key(SIGNER.verifier_key()))
        assert audit.entries == app.match(match).version
        season = client.get(f"/host/s/{load(SEED).season}/bundle")
        assert verify_season(line + b"\n" for line in season.content.splitlines()).entries == \
            app.season(load(SEED).season).version

        checked = text_of(client.post("/host/check", data={"csrf": csrf}).text)
        assert "Intact: the store holds." in checked


def test_views_catching_up_are_said_on_every_page(store):
    app, url = store
    app.create_season("autumn")  # SeasonStarted; its checkpoints started and signed: 3 entries
    client = signed_in(url, app, projections=False).client
    with client:
        for path in ("/", "/host", "/s/autumn", "/host/s/autumn"):
            said = text_of(client.get(path).text)
            assert "Updating: 3 entries to read." in said, path
        assert "Not read yet: the views are still catching up" in text_of(
            client.get("/host").text)
    fresh, _, _ = signed_in(url, app)
    with fresh:
        eventually(lambda: "Updating" not in fresh.get("/host").text)


def test_a_players_spend_is_asked_first(store):
    """A spend cannot be undone: the player's page says what it costs before it is sent."""
    app, url = store
    match, (client, _, _) = at_the_tie(app, url)
    with client:
        code = Tokens(app).issue_joins(match, ["bob"])["bob"]
        me = client.post(f"/m/{match}/session", data={"token": code})
        csrf = csrf_of(me.text)
        before, garnets = app.match(match).version, app.season("demo").balances["bob"]["garnets"]
        peek = {"csrf": csrf, "command": "peek", "arg.target": "alice", "id": "peek-1"}
        asked = client.post(f"/m/{match}/me/commands", data=peek)
        said = text_of(asked.text)
        # docs/games/kings_court.md: a peek is 8 garnets, a question to the Judge about a player
        assert "Spend 8 garnets on your question to the Judge about alice?" in said
        assert "Your question to the Judge about alice costs 8 garnets" in said
        assert app.match(match).version == before
        client.post(f"/m/{match}/me/commands", data={**peek, "confirmed": "yes"})
        assert app.match(match).version > before
        assert app.season("demo").balances["bob"]["garnets"] == garnets - 8


def test_the_final_of_the_last_two_from_the_seasons_page(store):
    app, url = store
    client, csrf, _ = signed_in(url, app)
    with client:
        client.post("/host/seasons", data={"csrf": csrf, "name": "winter"})
        client.post("/host/s/winter/players", data={"csrf": csrf, "players": "amy ben cal"})
        assert "Create the Final" not in client.get("/host/s/winter").text  # three are in
        client.post("/host/s/winter/ruling", data={"csrf": csrf, "player": "cal", "tol": "0",
                                                   "opal": "0", "moe": "0",
                                                   "status": "eliminated", "reason": "left"})
        said = text_of(client.get("/host/s/winter").text)
        assert "Two players remain, amy and ben: Create the Final…" in said
        form = client.get("/host/s/winter/new?kind=final").text
        assert '<option value="ben">ben</option>' in form and 'name="setup.dmo"' not in form
        made = client.post("/host/s/winter/new", data={
            "csrf": csrf, "game": "tile_joust", "kind": "final", "match": "final",
            "setup.first_picker": "ben"})
        assert made.url.path == "/host/m/final", text_of(made.text)[-700:]
        setup = headline(app.match("final").records[1])["data"]["setup"]
        assert (setup["variant"], setup["first_picker"], setup["players"]) == \
            ("final_match", "ben", ["amy", "ben"])


def test_the_dmo_and_a_reinstatement_from_the_seasons_page(store):
    """The Totemic Might seed leaves its EC's DMO to the host (tests/test_season_flow.py: dee
    is the EC, amy wins): the season's page asks for it, refuses the EC herself in words with
    nothing recorded, records another, then offers the Death Match; a ruling eliminates a
    player and another reinstates them."""
    from tests.test_season_flow import play_totems

    app, url = store
    play_totems(app)
    client, csrf, _ = signed_in(url, app)
    with client:
        eventually(lambda: "totems named dee: record the DMO below" in text_of(
            client.get("/host/s/spring").text))
        before = app.season("spring").version
        refused = client.post("/host/s/spring/dmo", data={
            "csrf": csrf, "match": "totems", "dmo": "dee", "reason": "the EC herself"})
        assert refused.status_code == 422 and "invalid_dmo" in refused.text
        assert app.season("spring").version == before
        client.post("/host/s/spring/dmo", data={"csrf": csrf, "match": "totems", "dmo": "gil",
                                                "reason": "named by the winner"})
        assert app.season("spring").dmos["totems"] == {"dee": "gil"}
        eventually(lambda: "totems named dee against gil (DMO): Create the Death Match…" in
                   text_of(client.get("/host/s/spring").text))

        ruling = {"csrf": csrf, "player": "ben", "tol": "0", "opal": "0", "moe": "0"}
        client.post("/host/s/spring/ruling", data={**ruling, "status": "eliminated",
                                                   "reason": "withdrew"})
        assert "ben" in app.season("spring").out
        client.post("/host/s/spring/ruling", data={**ruling, "status": "reinstated",
                                                   "reason": "came back"})
        assert "ben" not in app.season("spring").out
        again = client.post("/host/s/spring/ruling", data={**ruling, "status": "reinstated",
                                                           "reason": "twice"})
        assert again.status_code == 422 and "is still in the season" in again.text


def test_ending_a_match_early_is_asked_first(store):
    app, url = store
    match, (client, csrf, _) = at_the_tie(app, url)
    with client:
        before = app.match(match).version
        end = {"csrf": csrf, "reason": "a storm took the server", "id": "end-1"}
        asked = text_of(client.post(f"/host/m/{match}/end", data=end).text)
        assert f"End {match} now?" in asked
        assert "every later command is refused" in asked
        assert "Reason, public: a storm took the server" in asked
        assert app.match(match).version == before and not app.match(match).ended
        ended = client.post(f"/host/m/{match}/end", data={**end, "confirmed": "yes"})
        assert app.match(match).ended
        assert "The match is ended; the seed is revealed." in text_of(ended.text)
        assert "every later command is refused" not in text_of(ended.text)


def test_a_past_deadline_that_closed_the_election_leaves_the_tiebreak_open(store):
    """A deadline that closed round 3's election has passed: the tie-break it opened has no
    deadline, the page says so (not the past time as the tie-break's), and the service's
    deadlines close nothing more."""
    from commands.service.deadlines import Deadlines
    from domain.decider import HOST
    from projections.follow import deadline_command_id

    app, url = store

    def before_the_tied_close(steps: list[Step]) -> int:
        tie = first("tiebreak")(steps)
        return max(i for i, s in enumerate(steps[:tie]) if s.do == "close_round")

    file = played_until(app, before_the_tied_close)
    match, steps = file.match, file.steps
    close, tie = before_the_tied_close(steps), first("tiebreak")(steps)
    assert app.match(match).round == 3 and app.phase(match, 3) == "election"
    deadline = "2026-01-02T20:00:00Z"
    app.submit(match, HOST, "set_deadline", {"deadline": deadline}, at="2026-01-01T20:00:00Z")
    app.submit(match, HOST, "close_round", {}, at=deadline, expect_round=3,
               command_id=deadline_command_id(match, 3, deadline))  # as the deadline closes
    for step in steps[close + 1:tie]:
        if not step.expect_error:
            app.submit(match, step.actor, step.do, step.args)
    before = app.match(match).version

    def submit(match_id, actor, name, args, command_id, **kw):
        return app.submit(match_id, actor, name, args, command_id=command_id, **kw)

    deadlines = Deadlines(app, None, submit)  # type: ignore[arg-type]
    assert deadlines.close(match, datetime(2026, 6, 1, tzinfo=UTC)) is None
    assert app.match(match).version == before

    client, _, _ = signed_in(url, app)
    with client:
        caught_up(client, app, match)
        page = client.get(f"/host/m/{match}").text
        said = text_of(page)
        assert "Round 3: the tie-break; only grace acts." in said
        assert f'Round 3\'s deadline, <time datetime="{deadline}" data-local>' in \
            html.unescape(page)
        assert "has passed: it closed the phase open then. The tie-break has no deadline " \
            "yet." in said
        assert "Deadline:" not in said and "data-until" not in page
    assert app.match(match).version == before
