"""The words check (issue 24): every page of every seed match and of the seed season, for every
viewer and every round, and every command of the command line that prints them, read as a
person reads them. No outcome code, no `None`, no Python repr or JSON, no backtick, no
underscore word in what shows (codes stay in `--json`, the API, and small labels); every page
in the site's layout; no word cut across two lines of an 80-column terminal."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from pages_harness import FILES, last_round, play_seeds
from rich.console import Console
from service_harness import eventually

from audit import keys
from commands.cli import render
from commands.cli.main import cli
from commands.cli.matchfile import Step, create, prepare_season
from commands.cli.seasonfile import load_season, play_season
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens
from commands.web.app import create_app
from commands.web.pages import templating
from commands.web.pages.player import seen_by
from commands.web.pages.public import told
from commands.web.worker import Settings
from domain.decider import HOST, PUBLIC
from domain.errors import RuleViolation
from projections.announcement import SEPARATOR, announcement
from projections.inbox import inbox
from projections.story import chapters
from projections.views import view
from tests.support.host_key import SIGNER
from tests.support.words_check import (
    broken_items,
    in_layout,
    offences,
    split_words,
    visible,
)

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
    found = [*offences(visible(html), allowed), *broken_items(html)]
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


def cli_offences(seeded: dict[str, Any], allowed: tuple[str, ...], *args: str,
                 laid_out: bool = True) -> list[str]:
    """What `args` prints 80 columns wide that is not words; with `laid_out`, also each word
    cut across two lines (against the same printed 1,000 columns wide)."""
    narrow = printed(seeded, 80, *args)
    if args[0] in PLAIN or not laid_out:
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

    def check(*args: str, laid_out: bool = True) -> None:
        said = cli_offences(seeded, allowed, *args, laid_out=laid_out)
        if said:
            found[" ".join(args)] = said

    for match_id in MATCHES:
        match = app.match(match_id)
        last = last_round(match)
        for round in (0, last // 2, last):
            check("view", match_id, "--round", str(round))
            check("announce", match_id, "--round", str(round))
        check("view", match_id)
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


def terminal(renderables: list[Any], width: int) -> str:
    """What `arbiter view` prints, `width` columns wide (its renderer, on a view in hand)."""
    out = io.StringIO()
    console = Console(file=out, width=width, markup=False, emoji=False, highlight=False,
                      color_system=None)
    for renderable in renderables:
        console.print(render.fitted(renderable, width))
    return out.getvalue()


def test_every_round_of_every_seed_as_view_and_announce_tell_it(seeded):
    """Every round of every match, for the public and for each player, through the renderers
    `arbiter view` and `arbiter announce` run (the commands themselves, on a sample of rounds,
    above: what differs is only where the view is read from)."""
    app = seeded["app"]
    allowed = (*ids(app), "spring")
    found: dict[str, list[str]] = {}
    for match_id in MATCHES:
        match = app.match(match_id)
        notes = app.checkpoints(match_id).notes
        for round in range(last_round(match) + 1):
            for viewer in (PUBLIC, *players(app, match_id)):
                data = view(match, viewer, round)
                drawn = render.view(data, f"saw it at the end of round {round}")
                narrow = terminal(drawn, 80)  # the layout: the public's, whose story is longest
                cut = split_words(narrow, terminal(drawn, 1000)) if viewer == PUBLIC else []
                said = [*offences(narrow, allowed), *(f"a word cut: {w}" for w in cut)]
                if viewer == PUBLIC and any(c["round"] == round for c in chapters(data)):
                    chat = SEPARATOR.join(announcement(data, round, notes))
                    said.extend(offences(unfenced(chat), allowed))
                if said:
                    found[f"{match_id} {viewer} round {round}"] = said
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
    assert offences("- Each player's houses: alice Red;\n-   heidi Green.")  # a second dash
    assert offences("- Votes: alice 3,\n- bob 1.")  # a list's rest under a dash of its own
    assert offences("- Each player's houses: alice Red;\n  heidi Green.\n- Next.") == []
    assert offences("counts alice 3, game 1, round 1, tied none")
    assert offences("amount 0, game 1, player erin")
    assert broken_items("<ul><li>Votes: alice 3,</li><li>bob 1.</li></ul>")
    assert broken_items("<ul><li>Votes: alice 3,\n  bob 1.</li></ul>") == []


# -- what a command records, told as it is recorded ------------------------------------------

def typed(args: dict[str, Any]) -> list[str]:
    """A step's arguments as KEY=VALUE, as a host or a player types them (a list or an object
    as JSON, which the command line reads as it is)."""
    return [f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in args.items()]


def typing(app: Arbiter, match_id: str, step: Step) -> list[str]:
    """The command line that sends `step`: a player's `match submit`, a close's
    `match close-round` aimed at the open round, any other host command's `match host`."""
    if step.actor != HOST:
        return ["match", "submit", match_id, step.do, *typed(step.args), "--as", step.actor]
    if step.do.startswith("close_"):
        return ["match", "close-round", match_id, "--round", str(app.match(match_id).round),
                "--command", step.do]
    return ["match", "host", match_id, step.do, *typed(step.args)]


@pytest.fixture(scope="module")
def recorded(seeded: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
             ) -> dict[str, Any]:
    """Every seed match played again into a store of its own, each host command and the first
    of each player command typed at the command line, 80 columns wide; every other step sent
    to the service and its answer drawn by the renderer those commands use (80 and 1,000
    columns wide). Then, on a match of its own, the host's deadline, corrections and early
    end; and a season's own commands."""
    folder = tmp_path_factory.mktemp("recorded")
    url = f"sqlite:///{folder}/recorded.db"
    app = Arbiter(url, signer=SIGNER)

    def typed_in(*args: str) -> str:
        result = CliRunner(env={**seeded["env"], "COLUMNS": "80"}).invoke(
            cli, ["--db", url, *args])
        assert result.exit_code == 0, (args, result.output)
        return result.output

    printed_: dict[str, str] = {}
    drawn: dict[str, tuple[str, str]] = {}
    for file in FILES:
        prepare_season(app, file)
        create(app, file)
        steps = file.steps
        typed_once: set[str] = set()
        for number, step in enumerate(steps, 1):
            where = f"{file.match} step {number} ({step.actor} {step.do})"
            if step.expect_error is None and step.at is None and step.id is None and (
                    step.actor == HOST or step.do not in typed_once):
                printed_[where] = typed_in(*typing(app, file.match, step))
                typed_once.add(step.do)
                continue
            try:
                result = app.submit(file.match, step.actor, step.do, step.args, at=step.at,
                                    command_id=step.id)
            except RuleViolation:
                continue
            drawing = render.outcome(result, step.actor, step.do,
                                     app.view(file.match, step.actor).view)
            drawn[where] = (terminal(drawing, 80), terminal(drawing, 1000))
    # The host's other commands, on a match of their own: round 1 of King's Court, its votes in.
    king_win = next(f for f in FILES if f.match == "kings-court-king-win")
    extra = king_win.model_copy(update={"match": "words-extra"})
    create(app, extra)
    votes = {}
    for step in extra.commands[:extra.commands.index(next(
            s for s in extra.commands if s.do == "close_round"))]:
        try:
            votes[(step.actor, step.do)] = app.submit(extra.match, step.actor, step.do,
                                                      step.args).seqs[0]
        except RuleViolation:
            continue
    printed_["deadline"] = typed_in("match", "deadline", "words-extra", "2099-01-01T20:00:00Z")
    printed_["void"] = typed_in("match", "correct", "words-extra", "--void",
                                str(votes[("alice", "vote")]), "--reason", "sent twice")
    printed_["enter"] = typed_in("match", "correct", "words-extra", "--as", "erin", "vote",
                                 "candidate=alice", "--reason", "by phone")
    printed_["end"] = typed_in("match", "end", "words-extra", "--reason", "the table left")
    # A season's own commands.
    typed_in("season", "create", "words")
    printed_["register"] = typed_in("season", "register", "words", "ann", "bob", "cy")
    printed_["grant"] = typed_in("season", "grant", "words", "ann", "5", "--reason",
                                 "opening purse")
    printed_["grant tol"] = typed_in("season", "grant", "words", "bob", "2", "--asset", "tol",
                                     "--reason", "won a bet")
    printed_["transfer"] = typed_in("season", "transfer", "words", "ann", "bob", "2",
                                    "--reason", "a trade")
    printed_["rule"] = typed_in("season", "rule", "words", "bob", "--tol", "-1", "--reason",
                                "spent a ToL")
    printed_["rule out"] = typed_in("season", "rule", "words", "cy", "--eliminate",
                                    "--reason", "left town")
    app.close()
    return {"printed": printed_, "drawn": drawn}


def test_every_recorded_command_prints_in_words(seeded, recorded):
    """What submit, close-round, the host's commands, corrections, the end and the season's
    commands print: no field dump, code, None or repr; no broken bullet; no word cut."""
    allowed = (*ids(seeded["app"]), "words-extra", "words", "ann", "bob", "cy")
    found: dict[str, list[str]] = {}
    for where, text in recorded["printed"].items():
        said = offences(text, allowed)
        if said:
            found[where] = said
    for where, (narrow, wide) in recorded["drawn"].items():
        said = [*offences(narrow, allowed),
                *(f"a word cut: {w}" for w in split_words(narrow, wide))]
        if said:
            found[where] = said
    assert len(recorded["printed"]) > 100 and len(recorded["drawn"]) > 300
    assert not found, summary(found)


def one_line(text: str) -> str:
    return " ".join(text.split())


def test_a_close_tells_the_round_as_the_story_does(recorded):
    """King's Court, round 1 of kings-court-king-win (its notes): erin and ken, with no
    garnets, miss the vote and lose nothing; alice has 3 votes, bob, carol, frank, heidi,
    ivan and judy 1 each; alice joins the court first and is not the King (grace is)."""
    closed = one_line(next(text for where, text in recorded["printed"].items()
                           if where.startswith("kings-court-king-win")
                           and "close_round" in where))
    assert "accepted: the host's close round" in closed
    assert "Round 1: game 1, election round 1" in closed
    assert "Missed the vote: erin (nothing taken), ken (nothing taken)." in closed
    assert "Votes: alice 3, bob 1, carol 1, frank 1, heidi 1, ivan 1, judy 1; everyone else " \
           "0." in closed
    assert "alice joins the court 1st, with 3 votes. Not the King." in closed
    for dump in ("tied none", "amount 0", "is king no", "counts alice 3"):
        assert dump not in closed


def test_a_player_is_told_their_own_command_in_words(recorded):
    """alice's question to the Judge about grace costs 8 garnets; the Judge answers the
    host's explicit pick, noble (the seed's setup)."""
    peek = one_line(next(text for where, text in recorded["printed"].items()
                         if where.startswith("kings-court-king-win") and "alice peek" in where))
    assert "accepted: alice's question to the Judge about grace" in peek
    assert "You paid 8 garnets to peek at grace." in peek
    assert "The Judge says grace is a Noble." in peek


def test_the_hosts_deadline_corrections_and_end_are_sentences(recorded):
    printed_ = {k: one_line(v) for k, v in recorded["printed"].items()}
    assert "The host set the deadline of round 1: Thu 1 Jan 2099, 20:00 UTC." in \
        printed_["deadline"]
    assert re.search(r"The host voided entry #\d+: sent twice", printed_["void"])
    assert "The host entered erin's vote for alice: by phone" in printed_["enter"]
    assert "The host ended the match early: the table left" in printed_["end"]


def test_the_seasons_commands_say_what_they_recorded(recorded):
    printed_ = {k: one_line(v) for k, v in recorded["printed"].items()}
    assert "registered 3 in words: ann, bob, cy" in printed_["register"]
    assert "ann +5 garnets opening purse" in printed_["grant"]
    assert "bob +2 ToL won a bet" in printed_["grant tol"]
    assert "ann gave bob 2 garnets (a trade)" in printed_["transfer"]
    assert "ruling on bob: -1 ToL (spent a ToL)" in printed_["rule"]
    assert "ruling on cy: eliminated (left town)" in printed_["rule out"]


def test_a_list_carried_over_a_line_stays_one_bullet(seeded):
    """The Guild's week 8 tells each of its ten players' houses in one sentence, too long for
    one line of the story: announced, it is one bullet whose second line is indented under
    it, never a second dash ("-   heidi …")."""
    out = printed(seeded, 80, "announce", "merchants-guild-ruby-rises", "--round", "8")
    bullets = re.split(r"\n(?=- )", out)
    houses = next(b for b in bullets if b.startswith("- Each player's houses:"))
    for player in ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan",
                   "judy"):
        assert re.search(rf"\b{player} [A-Z]", houses), player
    assert not re.search(r"(?m)^-\s{2,}", out)
    assert offences(unfenced(out), ids(seeded["app"])) == []


def test_the_public_pages_link_each_games_rules(seeded):
    """The public match page links its game's rules; the season's list of matches and the
    home page's link each match's game to its rules (spring: Totemic Might, Tile Joust and
    The Amalgamation, by its notes)."""
    client = seeded["client"]
    page = client.get("/m/kings-court-king-win").text
    assert '<a href="/rules/kings_court">The rules of King&#39;s Court</a>' in page
    season = client.get("/s/spring").text
    for game in ("totemic_might", "tile_joust", "amalgamation"):
        assert f'href="/rules/{game}"' in season, game
    home = client.get("/").text
    for game in ("kings_court", "merchants_guild", "amalgamation", "totemic_might",
                 "tile_joust"):
        assert f'href="/rules/{game}"' in home, game


def test_the_hosts_season_pages_list_standings_by_rank(seeded):
    """spring (its notes): fin is the champion, amy the runner-up; ben, cal, dee and eve left
    together by the host's ruling 4, after gil, who left in the first Death Match: so fin,
    amy, the four, then gil; not the order they registered in (amy, ben, ..., gil)."""
    app, client = seeded["app"], seeded["client"]
    client.post("/host/session", data={"token": Tokens(app).set_host_join()})
    for path, caption in (("/host/s/spring", "Standings by rank"),
                          ("/host", "Season spring by rank")):
        page = client.get(path).text
        table = page[page.index(caption):]
        table = table[:table.index("</table>")]
        rows = re.findall(r'<tr><th scope="row">([^<]+)</th>', table)
        assert rows[:2] == ["fin", "amy"], (path, rows)
        assert sorted(rows[2:6]) == ["ben", "cal", "dee", "eve"] and rows[6] == "gil", rows
