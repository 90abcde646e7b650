"""The words check (issue 24): every page of every seed match and of the seed season, for every
viewer and every round, and every command of the command line that prints them, read as a
person reads them. No outcome code, no `None`, no Python repr or JSON, no backtick, no
underscore word in what shows (codes stay in `--json`, the API, and small labels); every page
in the site's layout; no word cut across two lines of an 80-column terminal."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from pages_harness import FILES, last_round, play_seeds
from service_harness import eventually

from audit import keys
from commands.cli.main import cli
from commands.cli.seasonfile import load_season, play_season
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens
from commands.web.app import create_app
from commands.web.pages import templating
from commands.web.pages.player import seen_by
from commands.web.pages.public import told
from commands.web.worker import Settings
from domain.decider import HOST, PUBLIC
from projections.inbox import inbox
from projections.views import view
from tests.support.host_key import SIGNER
from tests.support.words_check import in_layout, offences, split_words, visible

SPRING = Path(__file__).resolve().parents[2] / "seeds" / "seasons" / "spring.json"
MATCHES = [f.match for f in FILES]


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("words")
    url = f"sqlite:///{folder}/words.db"
    app = play_seeds(url)
    _, mismatches = play_season(app, load_season(SPRING), SPRING.parent)
    assert mismatches == []
    keys.save(SIGNER, folder / "host.key")
    with TestClient(create_app(Settings(url=url, signer=SIGNER))) as client:
        views = client.app.state.service.views  # type: ignore[attr-defined]
        wanted = {m: app.match(m).version for m in MATCHES}
        eventually(lambda: views.seqs(wanted) == wanted, timeout=120)
        yield {"app": app, "client": client, "url": url, "dir": folder,
               "env": {"ARBITER_HOST_KEY": str(folder / "host.key"),
                       "ARBITER_KNOWN_KEYS": str(folder / "known")}}
    app.close()


def players(app: Arbiter, match_id: str) -> list[str]:
    created = view(app.match(match_id), PUBLIC, 0)["events"][0]
    return list(created["data"]["players"])


def ids(app: Arbiter) -> tuple[str, ...]:
    """What a reader types as it is: the matches', seasons' and players' ids."""
    return (*MATCHES, *(p for m in MATCHES for p in players(app, m)))


def summary(found: dict[str, list[str]]) -> str:
    """Each offence once, with the first place it was met and how often."""
    first: dict[str, list[Any]] = {}
    for where, said in found.items():
        for offence in said:
            first.setdefault(offence, [where, 0])[1] += 1
    return "\n".join(f"{n}x, first in {where}: {offence}"
                     for offence, (where, n) in first.items())[:6000]


def page_offences(html: str, allowed: tuple[str, ...]) -> list[str]:
    found = offences(visible(html), allowed)
    return found if in_layout(html) else ["not in the site's layout", *found]


def test_every_page_of_every_seed_match_for_every_viewer_and_round(seeded):
    """Rendered as the service renders them: the public page and each player's page, as of
    every round and now (the player's from their own view and inbox)."""
    app = seeded["app"]
    allowed = ids(app)
    found: dict[str, list[str]] = {}
    for match_id in MATCHES:
        match = app.match(match_id)
        rounds = [*range(last_round(match) + 1), None]
        for viewer in (PUBLIC, *players(app, match_id)):
            mine = None if viewer == PUBLIC else inbox(match, viewer)
            for round in rounds:
                seen = view(match, viewer, round)
                open_round = match.round if round is None else round + 1
                html = templating.render(
                    "match.html", **told(seen, open_round), round=round, checkpoints=[],
                    verifier_key=None, standings=[], me=None, origin="http://x") \
                    if mine is None else templating.render(
                    "player.html", **seen_by(seen, mine, viewer, round, open_round),
                    garnets=None, csrf="c", form_id="f", sent=None, refused=None)
                said = page_offences(html, allowed)
                if said:
                    found[f"{match_id} {viewer} round {round}"] = said
    assert not found, summary(found)


def test_every_page_served_is_in_words_and_in_the_layout(seeded):
    """What the service answers on each page path: the lists, the season, the rules, each
    match now for the public, each player and the host, and every error a page can meet."""
    app, client = seeded["app"], seeded["client"]
    allowed = (*ids(app), "spring", "demo")
    html = {"text/html": "text/html"}
    paths = ["/", "/s/spring", "/s/demo", "/rules",
             *(f"/rules/{g}" for g in ("kings_court", "merchants_guild", "amalgamation",
                                       "totemic_might", "tile_joust")),
             *(f"/m/{m}" for m in MATCHES)]
    errors = ["/m/kings-court-king-win?round=-1", "/m/kings-court-king-win?round=abc",
              "/no-such-page", "/m/no-such-match", "/s/no-such-season", "/rules/poker",
              "/host", "/m/kings-court-king-win/me"]
    found: dict[str, list[str]] = {}
    for path in [*paths, *errors]:
        answer = client.get(path, headers={"accept": html["text/html"]})
        assert answer.headers["content-type"].startswith("text/html"), path
        assert (answer.status_code == 200) == (path in paths), (path, answer.status_code)
        said = page_offences(answer.text, allowed)
        if said:
            found[path] = said
    for match_id in MATCHES:  # each player's own page, now
        for player in players(app, match_id):
            token = Tokens(app).issue_joins(match_id, [player])[player]
            client.post(f"/m/{match_id}/session", data={"token": token})
            said = page_offences(client.get(f"/m/{match_id}/me").text, allowed)
            if said:
                found[f"/m/{match_id}/me as {player}"] = said
    client.post("/host/session", data={"token": Tokens(app).set_host_join()})
    for path in ["/host", *(f"/host/m/{m}" for m in MATCHES), "/host/s/spring"]:
        answer = client.get(path)
        assert answer.status_code == 200, path
        said = page_offences(answer.text, allowed)
        if said:
            found[path] = said
    assert not found, summary(found)


def printed(seeded: dict[str, Any], width: int, *args: str) -> str:
    Path(seeded["env"]["ARBITER_KNOWN_KEYS"]).unlink(missing_ok=True)  # each run a first use
    result = CliRunner(env={**seeded["env"], "COLUMNS": str(width)}).invoke(
        cli, ["--db", seeded["url"], *args])
    assert result.exit_code == 0, (args, result.output)
    return result.output


def unfenced(markdown: str) -> str:
    """A chat message as it reads: the checkpoint's code block and Markdown's escapes off."""
    return re.sub(r"```.*?```", "", markdown, flags=re.S).replace("\\", "")


PLAIN = ("announce", "checkpoint")  # printed as they are, never laid out to the terminal


def cli_offences(seeded: dict[str, Any], allowed: tuple[str, ...], *args: str) -> list[str]:
    narrow = printed(seeded, 80, *args)
    if args[0] in PLAIN:
        return offences(unfenced(narrow) if args[0] == "announce" else narrow, allowed)
    cut = split_words(narrow, printed(seeded, 1000, *args))
    return [*offences(narrow, allowed), *(f"a word cut across lines: {w}" for w in cut)]


def test_every_printing_command_on_every_seed(seeded, tmp_path):
    """`view` for the public as of every round, for each player and the host now; `announce`
    of every round; `checkpoint`, `verify`, `replay` and `receipt verify` of each match; the
    season: 80 columns wide, and in words."""
    app = seeded["app"]
    allowed = (*ids(app), "spring")
    found: dict[str, list[str]] = {}

    def check(*args: str) -> None:
        said = cli_offences(seeded, allowed, *args)
        if said:
            found[" ".join(args)] = said

    for match_id in MATCHES:
        match = app.match(match_id)
        for round in range(last_round(match) + 1):
            check("view", match_id, "--round", str(round))
            check("announce", match_id, "--round", str(round))
        check("view", match_id, "--host")
        for player in players(app, match_id):
            check("view", match_id, "--player", player)
        check("checkpoint", match_id)
        bundle = tmp_path / f"{match_id}.jsonl"
        printed(seeded, 80, "export", match_id, "--public", "-o", str(bundle))
        check("verify", str(bundle))
        check("replay", str(bundle), "--round", "1")
        player = players(app, match_id)[0]
        receipt = inbox(match, player)["receipts"][0]
        saved = tmp_path / f"{match_id}-receipt.json"
        saved.write_text(json.dumps(receipt))
        check("receipt", "verify", str(saved), "--bundle", str(bundle))
    check("season", "show", "spring")
    season = tmp_path / "spring.jsonl"
    printed(seeded, 80, "export", "--season", "spring", "--public", "-o", str(season))
    check("verify", str(season))
    assert not found, summary(found)


def test_the_games_reference_prints_whole_words_and_no_backtick(seeded):
    """`arbiter games` lists the commands as they are typed (codes by design), so only the
    layout and the backticks are held here."""
    for args in (["games"], *(["games", g] for g in ("kings_court", "totemic_might"))):
        narrow, wide = printed(seeded, 80, *args), printed(seeded, 1000, *args)
        assert "`" not in narrow and split_words(narrow, wide) == [], args


def test_the_check_finds_what_it_is_for():
    """The check itself: each kind of code it must catch, caught; plain words pass."""
    assert offences("Results: joint_winners")
    assert offences("error: None is not a player")
    assert offences("{'candidate': 'carol'}") and offences('{"args": {"candidate": "carol"}')
    assert offences("open the link (`arbiter tokens host`)")
    assert offences("#3 VoteCast by bob")
    assert offences("The King wins: grace.") == []
    assert offences("kc_1 voted", allowed=("kc_1",)) == []
    assert split_words("alice bob grac\ne carol", "alice bob grace carol") == ["e", "grac"]
    assert not in_layout("<html><body><p>no layout</p></body></html>")
    assert HOST == "host"
