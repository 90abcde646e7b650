"""Discord on the loopback: interactions signed with a test key, a fake Discord REST API and
channel webhook (tests/support/fake_discord.py), and a King's Court round played entirely
through slash commands, its checkpoint posted to the channel and verified offline."""

from __future__ import annotations

import itertools
import json
import time
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from service_harness import Server, eventually
from test_host_pages import signed_in, text_of

from commands.cli.main import cli
from commands.service.arbiter import Arbiter
from commands.service.discord.links import Links
from commands.service.discord.settings import DiscordSettings
from commands.service.discord.slash import commands as slash_commands
from commands.service.tokens import Tokens, join_link
from domain.decider import HOST
from domain.errors import RuleViolation
from domain.games.amalgamation.setup import RATE_RANGE
from domain.games.merchants_guild.checks import check_is_bill
from domain.match import Match
from tests.support.fake_discord import FakeDiscord, command_problems
from tests.support.host_key import SIGNER

KEY = Ed25519PrivateKey.generate()
PUBLIC_KEY = KEY.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
APP = "111111111111111111"
GUILD = "222222222222222222"
PAGES = "https://arbiter.example"
PLAYERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
           "ken"]
USERS = {p: str(300000000000000000 + i) for i, p in enumerate([*PLAYERS, HOST, "zoe"])}
SETUP = {"games": [{"king": "grace", "dukes": ["alice", "bob", "carol", "dave", "erin"],
                    "nobles": ["frank", "heidi", "ivan", "judy", "ken"],
                    "annoyed_duke": "erin", "annoyed_noble": "ken"}],
         "king_peek_answers": ["noble"]}
ids = itertools.count(900000000000000000)


def signed(payload: dict[str, Any], key: Ed25519PrivateKey = KEY,
           timestamp: str | None = None) -> tuple[bytes, dict[str, str]]:
    body = json.dumps(payload).encode()
    timestamp = str(int(time.time())) if timestamp is None else timestamp
    return body, {"X-Signature-Ed25519": key.sign(timestamp.encode() + body).hex(),
                  "X-Signature-Timestamp": timestamp, "Content-Type": "application/json"}


def post(server: Server, body: bytes, headers: dict[str, str]) -> httpx.Response:
    return httpx.post(f"{server.url}/discord/interactions", content=body, headers=headers,
                      timeout=30)


def interaction(user: str, name: str, kind: int = 2, in_guild: bool = False,
                interaction_id: str | None = None, **options: Any) -> dict[str, Any]:
    """Discord's interaction object: in a server's channel the user is `member.user`, in a
    DM `user`; the options the user filled in, typed as the command declares them."""
    typed = {bool: 5, int: 4, str: 3}
    found: dict[str, Any] = {
        "type": kind, "id": interaction_id or str(next(ids)), "application_id": APP,
        "token": f"token-{next(ids)}", "version": 1,
        "data": {"id": "1", "name": name, "type": 1, "options": [
            {"name": k, "type": typed[type(v)], "value": v} for k, v in options.items()]}}
    who = {"id": user, "username": f"user{user[-3:]}"}
    if in_guild:
        found.update(guild_id=GUILD, member={"user": who, "roles": []})
    else:
        found["user"] = who
    return found


def say(server: Server, user: str, name: str, **options: Any) -> str:
    """A slash command's ephemeral answer."""
    response = post(server, *signed(interaction(user, name, **options)))
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["type"] == 4 and answer["data"]["flags"] == 64
    assert answer["data"]["allowed_mentions"] == {"parse": []}
    return answer["data"]["content"]


@pytest.fixture
def discord():
    with FakeDiscord() as fake:
        yield fake


def settings_for(discord: FakeDiscord, **more: Any) -> DiscordSettings:
    return DiscordSettings(application_id=APP, public_key=PUBLIC_KEY, bot_token="bot-token",
                           webhooks={"s1": discord.webhook("s1")}, public_url=PAGES,
                           api=discord.api, **more)


def env_for(discord: FakeDiscord) -> dict[str, str]:
    return {"ARBITER_DISCORD_APPLICATION_ID": APP, "ARBITER_DISCORD_PUBLIC_KEY": PUBLIC_KEY,
            "ARBITER_DISCORD_BOT_TOKEN": "bot-token", "ARBITER_DISCORD_API": discord.api}


def king_court(server: Server) -> None:
    """Season s1 (the eleven and zoe, who plays in no match) and King's Court kc, opened."""
    arbiter = server.service.arbiter
    arbiter.create_season("s1")
    arbiter.register_all("s1", [*PLAYERS, "zoe"])
    arbiter.create_match(match_id="kc", season="s1", game="kings_court",
                         setup={"players": PLAYERS, **SETUP},
                         host_seed="7f3a9c1e5b2d48f6a0c4e8b1d3f5a7c9", salt_key="0d" * 32)
    server.service.submit("kc", HOST, "open_match", {})


def test_a_kings_court_round_played_through_slash_commands(sqlite_url, discord, tmp_path,
                                                           monkeypatch):
    runner = CliRunner()
    with Server(sqlite_url, discord=settings_for(discord), post_interval=0.1) as server:
        king_court(server)
        arbiter = server.service.arbiter

        # Register: every game's commands, once, for the test server.
        registered = runner.invoke(cli, ["discord", "register", "--guild", GUILD],
                                   env=env_for(discord))
        assert registered.exit_code == 0, registered.output
        names = {c["name"] for c in discord.commands[GUILD]}
        assert {"vote", "close_round", "join", "status", "rules"} <= names
        put = [r for r in discord.received if r["method"] == "PUT"]
        assert [r["path"] for r in put] == [f"/api/v10/applications/{APP}/guilds/{GUILD}/commands"]
        assert put[0]["authorization"] == "Bot bot-token"

        # Link: the host and alice by the host, the others with their personal links.
        for player in (HOST, "alice", "zoe"):
            linked = runner.invoke(cli, ["--db", sqlite_url, "discord", "link", "s1", player,
                                         USERS[player]])
            assert linked.exit_code == 0, linked.output
        tokens = Tokens(arbiter).issue_joins("kc", PLAYERS)  # the codes personal links hold
        for player in PLAYERS[1:]:
            said = say(server, USERS[player], "join",
                       link=join_link(PAGES, "kc", tokens[player]))
            assert said.startswith(
                f"Linked: your Discord account now plays as {player} in season s1")
        assert "Refused: this link is no player's current personal link" in say(
            server, "399999999999999999", "join", link=f"{PAGES}/m/kc/join#not-a-token")

        # Who may not act: someone never linked, zoe (no match), a player closing the round.
        assert say(server, "399999999999999999", "vote", candidate="bob").startswith(
            "Refused: your Discord account is not linked to a player")
        assert say(server, USERS["zoe"], "vote", candidate="bob") == \
            "Refused: none of your running matches takes /vote"
        assert say(server, USERS["bob"], "vote", candidate="carol", match="other") == \
            "Refused: you do not play in a running match 'other'"
        assert say(server, USERS["bob"], "close_round", round=1).startswith(
            "Refused: /close_round is the host's")

        # Eleven votes, one refused: alice for herself.
        votes = {"alice": "alice", "bob": "alice", "carol": "alice", "dave": "alice",
                 "erin": "alice", "frank": "heidi", "grace": "carol", "heidi": "frank",
                 "ivan": "judy", "judy": "ivan", "ken": "alice"}
        before = arbiter.match("kc").version
        answers = {}
        for player, candidate in votes.items():
            payload = interaction(USERS[player], "vote", in_guild=player in ("bob", "ken"),
                                  candidate=candidate)
            response = post(server, *signed(payload))
            answers[player] = (payload, response.json()["data"]["content"])
        assert answers["alice"][1].startswith("Refused: ")
        assert "yourself" in answers["alice"][1] or "self" in answers["alice"][1]
        recorded = {p: a for p, (_, a) in answers.items() if p != "alice"}
        assert all(a.startswith("Recorded as entry #") for a in recorded.values()), recorded
        entries = sorted(int(a.split("#")[1].split(" ")[0]) for a in recorded.values())
        assert len(set(entries)) == 10
        assert "Receipt: entry #" in recorded["bob"] and f"<{PAGES}/m/kc/me>" in recorded["bob"]

        # Discord retries an interaction it got no answer to: recorded once, same answer.
        length = arbiter.match("kc").version
        again = post(server, *signed(answers["bob"][0])).json()["data"]["content"]
        assert again == recorded["bob"] and arbiter.match("kc").version == length
        assert length > before

        status = say(server, USERS["bob"], "status")
        assert "Sent this round: vote (candidate alice), entry #" in status

        # The host sees who is still to act (alice, refused); a player never does.
        assert "Still to act (1): alice." in say(server, USERS[HOST], "status")
        assert "Still to act" not in status

        # The host closes round 1: alice has five votes of ten, more than anyone.
        closed = say(server, USERS[HOST], "close_round", round=1)
        assert closed.startswith("Recorded as entry #"), closed
        assert say(server, USERS[HOST], "close_round", round=1).startswith("Refused: ")

        # The round's story and its signed checkpoint reach the channel by themselves (after
        # the opening's: the season began while serving, so all of it is posted).
        note = arbiter.checkpoints("kc").notes[-1]["note"]
        posted = eventually(lambda: [m["content"] for m in discord.webhook_messages
                                     if note.rstrip() in m["content"]], timeout=30)
        assert "round 0" in discord.webhook_messages[0]["content"]
        assert f"```\n{note.rstrip()}\n```" in posted[0]
        assert all(len(m["content"]) <= 2000 for m in discord.webhook_messages)
        told = "\n".join(m["content"] for m in discord.webhook_messages)
        assert "- Votes: alice 5, carol 1, frank 1, heidi 1, ivan 1, judy 1" in told
        assert "- alice joins the court 1st, with 5 votes." in told

        # Each recorded vote's receipt followed it as a file, in an ephemeral follow-up; the
        # refused one had none.
        tokens = {answers[p][0]["token"] for p in recorded}
        eventually(lambda: {f["token"] for f in discord.followups} == tokens)
        bobs = next(f for f in discord.followups if f["token"] == answers["bob"][0]["token"])
        seq = int(recorded["bob"].split("#")[1].split(" ")[0])
        assert bobs["payload"]["flags"] == 64
        assert bobs["payload"]["attachments"] == [{"id": 0, "filename": f"receipt-kc-{seq}.json"}]
        receipt = bobs["files"][f"receipt-kc-{seq}.json"]
        assert json.loads(receipt)["entry"]["seq"] == seq
        bundle = httpx.get(f"{server.url}/matches/kc/bundle", timeout=30)
        assert bundle.status_code == 200, bundle.text

    chat = posted[0].split("```\n", 1)[1].split("```", 1)[0]  # the note, as a reader copies it
    (tmp_path / "note.txt").write_text(chat)
    (tmp_path / "bundle.jsonl").write_bytes(bundle.content)
    (tmp_path / "receipt.json").write_bytes(receipt)
    monkeypatch.setenv("ARBITER_KNOWN_KEYS", str(tmp_path / "known"))
    vkey = SIGNER.verifier_key()
    verified = runner.invoke(cli, ["verify", str(tmp_path / "bundle.jsonl"), "--key", vkey])
    assert verified.exit_code == 0, verified.output
    shown = runner.invoke(cli, ["receipt", "verify", str(tmp_path / "receipt.json"), "--bundle",
                                str(tmp_path / "bundle.jsonl"), "--checkpoint",
                                str(tmp_path / "note.txt"), "--key", vkey])
    assert shown.exit_code == 0 and "is in the log under the checkpoint of round" in shown.output, \
        shown.output
    # The check is the note's: one character of the posted root changed, and it fails.
    origin, size, root, *rest = chat.split("\n")
    forged = "A" if root[0] != "A" else "B"
    (tmp_path / "forged.txt").write_text("\n".join([origin, size, forged + root[1:], *rest]))
    refused = runner.invoke(cli, ["receipt", "verify", str(tmp_path / "receipt.json"),
                                  "--bundle", str(tmp_path / "bundle.jsonl"), "--checkpoint",
                                  str(tmp_path / "forged.txt"), "--key", vkey])
    assert refused.exit_code == 1 and "bad_signature" in refused.output, refused.output


def test_a_close_is_answered_at_once_while_the_channel_fails(sqlite_url, discord):
    """A command never waits for Discord: the host's /close_round is answered at once (not
    deferred) while the channel's webhook fails; `serve` tries the post again after its
    backoff (2 s after the first failure) and it reaches the channel once."""
    with Server(sqlite_url, discord=settings_for(discord), post_interval=0.1) as server:
        king_court(server)
        eventually(lambda: discord.webhook_messages)  # the opening's checkpoint, round 0
        for player in PLAYERS:
            if player != "alice":
                server.service.submit("kc", player, "vote", {"candidate": "alice"})
        CliRunner().invoke(cli, ["--db", sqlite_url, "discord", "link", "s1", HOST,
                                 USERS[HOST]])
        webhook = discord.webhook("s1").removeprefix(discord.url)
        tried = len([r for r in discord.received if r["path"] == webhook])
        discord.broken = 1  # the next request Discord takes fails
        started = time.monotonic()
        closed = say(server, USERS[HOST], "close_round", round=1)  # type 4: not deferred
        answered = time.monotonic() - started
        assert closed.startswith("Recorded as entry #") and answered < 2.0
        note = server.service.arbiter.checkpoints("kc").notes[-1]["note"].rstrip()
        eventually(lambda: any(note in m["content"] for m in discord.webhook_messages),
                   timeout=30)
        arrived = time.monotonic() - started
        assert arrived >= 1.9  # the failed try, then the season's 2 s wait
        assert len([r for r in discord.received if r["path"] == webhook]) == tried + 2
        assert len([m for m in discord.webhook_messages if note in m["content"]]) == 1


def test_only_discord_signed_fresh_requests_are_answered(sqlite_url, discord):
    with Server(sqlite_url, discord=settings_for(discord), post_interval=0.1) as server:
        king_court(server)
        arbiter = server.service.arbiter
        ping = {"type": 1, "id": str(next(ids)), "application_id": APP, "token": "t",
                "version": 1}
        answer = post(server, *signed(ping))
        assert answer.status_code == 200 and answer.json() == {"type": 1}
        runner = CliRunner()
        assert runner.invoke(cli, ["--db", sqlite_url, "discord", "link", "s1", "bob",
                                   USERS["bob"]]).exit_code == 0
        vote = interaction(USERS["bob"], "vote", candidate="alice")
        length = arbiter.match("kc").version
        body, headers = signed(vote)
        refused = [
            post(server, *signed(vote, key=Ed25519PrivateKey.generate())),  # another key
            post(server, *signed(vote, timestamp=str(int(time.time()) - 310))),  # stale
            post(server, *signed(vote, timestamp=str(int(time.time()) + 310))),  # ahead
            post(server, body.replace(b"alice", b"carol"), headers),  # the body changed
            post(server, body, {"Content-Type": "application/json"}),  # no signature
            post(server, body, {**headers, "X-Signature-Ed25519": "zz"}),  # not hex
            post(server, body, {**headers, "X-Signature-Timestamp": b"\xb2"}),  # superscript two
            post(server, body, {**headers, "X-Signature-Timestamp": "9" * 5000}),  # too long
        ]
        assert [r.status_code for r in refused] == [401] * 8
        assert all(r.json()["error"] == "bad_signature" for r in refused)
        assert arbiter.match("kc").version == length  # nothing happened
        assert post(server, body, headers).json()["data"]["content"].startswith("Recorded")


def test_the_endpoint_is_not_found_without_discord(sqlite_url):
    with Server(sqlite_url) as server:
        answer = post(server, *signed({"type": 1}))
        assert answer.status_code == 404 and answer.json()["error"] == "discord_off"


def test_the_declared_ranges_are_the_rules():
    for bill in (0, 61):
        with pytest.raises(RuleViolation) as refused:
            check_is_bill(bill)
        assert refused.value.code == "unknown_bill"
    assert (check_is_bill(1), check_is_bill(60)) == (1, 60)
    assert 4 not in RATE_RANGE and 21 not in RATE_RANGE and {5, 20} <= set(RATE_RANGE)


def test_every_command_has_discords_documented_shape():
    """Names 1-32 lowercase, descriptions 1-100, at most 25 options, required first, option
    types of Discord's table (STRING 3, INTEGER 4, BOOLEAN 5), under 100 commands."""
    built = slash_commands()
    assert len(built) <= 100
    assert [p for c in built for p in command_problems(c)] == []
    vote = next(c for c in built if c["name"] == "vote")
    by_name = {o["name"]: o for o in vote["options"]}
    # King's Court votes a candidate, The Merchants' Guild two bills: neither is required
    # of both, each typed as its game declares it.
    assert by_name["candidate"] == {"type": 3, "name": "candidate", "required": False,
                                    "autocomplete": True,
                                    "description": "a player outside the court, not yourself"}
    assert by_name["bills_1"]["type"] == 4 and by_name["bills_2"]["type"] == 4
    close = next(c for c in built if c["name"] == "close_round")
    assert close["options"][0] == {"type": 4, "name": "round", "required": True,
                                   "min_value": 0, "description":
                                   "the round you mean to close (the open one)"}
    peek = next(c for c in built if c["name"] == "peek")
    assert {"type": 5, "name": "confirm", "required": True,
            "description": "True to spend 8 garnets: a spend is never given back"} in \
        peek["options"]
    assert all(c["contexts"] == [0, 1] and c["type"] == 1 for c in built)
    # Numbers within the rules' range where the rulebook fixes it: a bill is 1 to 60 (MG-R1),
    # a garnet rate 5 to 20 dollars (AM-R34); elsewhere any whole number Discord holds.
    options = {(c["name"], o["name"]): o for c in built for o in c["options"]}
    assert (options["nominate", "bill"]["min_value"], options["nominate", "bill"]["max_value"]) \
        == (1, 60)
    rate = options["submit_garnet_rate", "rate"]
    assert (rate["type"], rate["min_value"], rate["max_value"]) == (4, 5, 20)
    assert (options["bid", "amount"]["min_value"], options["bid", "amount"]["max_value"]) == \
        (-(2**53) + 1, 2**53 - 1)


def test_options_complete_with_the_players_of_the_match(sqlite_url, discord):
    with Server(sqlite_url, discord=settings_for(discord)) as server:
        king_court(server)
        CliRunner().invoke(cli, ["--db", sqlite_url, "discord", "link", "s1", "bob",
                                 USERS["bob"]])
        typing = interaction(USERS["bob"], "vote", kind=4, candidate="a")
        typing["data"]["options"][0]["focused"] = True
        answer = post(server, *signed(typing)).json()
        assert answer == {"type": 8, "data": {"choices": [
            {"name": p, "value": p} for p in ("alice", "carol", "dave", "frank", "grace", "ivan")]}}
        typing = interaction(USERS["bob"], "status", kind=4, match="")
        typing["data"]["options"][0]["focused"] = True
        assert post(server, *signed(typing)).json()["data"]["choices"] == \
            [{"name": "kc", "value": "kc"}]


def test_a_spend_asks_first_and_the_rules_answer_in_words(sqlite_url, discord):
    with Server(sqlite_url, discord=settings_for(discord)) as server:
        king_court(server)
        arbiter = server.service.arbiter
        arbiter.grant("s1", "alice", "garnets", 10, "start")
        CliRunner().invoke(cli, ["--db", sqlite_url, "discord", "link", "s1", "alice",
                                 USERS["alice"]])
        length = arbiter.match("kc").version
        asked = say(server, USERS["alice"], "peek", target="grace", confirm=False)
        assert asked.startswith("Not sent: /peek costs 8 garnets")
        assert arbiter.match("kc").version == length
        peeked = say(server, USERS["alice"], "peek", target="grace", confirm=True)
        assert peeked.startswith("Recorded as entry #")
        assert arbiter.season("s1").balances["alice"]["garnets"] == 2  # 10 - 8
        assert say(server, USERS["alice"], "vote", candidate="nobody").startswith("Refused: ")
        status = say(server, USERS["alice"], "status")
        assert "Your garnets: 2." in status and "Your role: duke." in status
        assert "Sent this round: peek (target grace), entry #" in status


def test_rules_link_the_rulebook_and_status_shows_the_deadline(sqlite_url, discord):
    """/rules links the game's rulebook, a page this service serves, and lists what the
    sender may send now; /status tells the deadline the host set; a match the user does not
    play is refused in words whichever command names it."""
    with Server(sqlite_url, discord=settings_for(discord)) as server:
        king_court(server)
        runner = CliRunner()
        for player in ("bob", HOST, "zoe"):
            assert runner.invoke(cli, ["--db", sqlite_url, "discord", "link", "s1", player,
                                       USERS[player]]).exit_code == 0
        rules = say(server, USERS["bob"], "rules").split("\n")
        assert rules[0] == f"**King's Court**, the rules: <{PAGES}/rules/kings_court>"
        assert "What you may send now:" in rules and any(r.startswith("- /vote") for r in rules)
        assert rules[-1] == f"<{PAGES}/m/kc>"
        page = httpx.get(f"{server.url}/rules/kings_court", timeout=30)  # the link's page
        assert page.status_code == 200 and "King's Court" in text_of(page.text)
        hosts = say(server, USERS[HOST], "rules")
        assert hosts.startswith(f"**King's Court**, the rules: <{PAGES}/rules/kings_court>")
        assert "What you may send now" not in hosts  # the host's commands are not a player's

        assert "Deadline: none set." in say(server, USERS["bob"], "status")
        server.service.submit("kc", HOST, "set_deadline",
                              {"deadline": "2099-01-01T18:00:00+00:00"})
        status = say(server, USERS["bob"], "status")
        assert "Deadline: 2099-01-01T18:00:00+00:00." in status
        assert "Sent this round: nothing yet." in status

        # zoe is linked in s1 but plays in no match: naming kc, which exists, is refused.
        for name, options in (("vote", {"candidate": "bob"}), ("status", {}), ("rules", {})):
            assert say(server, USERS["zoe"], name, match="kc", **options) == \
                "Refused: you do not play in a running match 'kc'"

    elsewhere = settings_for(discord, rules_url="https://rules.example/games/")
    with Server(sqlite_url, discord=elsewhere) as server:
        assert say(server, USERS["bob"], "rules").startswith(
            "**King's Court**, the rules: <https://rules.example/games/kings_court.md>")


def test_answers_have_discords_documented_shapes(sqlite_url, discord):
    """The interaction and response types of Discord's documentation (Receiving and
    Responding): PING 1 is answered PONG 1 and nothing more; APPLICATION_COMMAND 2 a
    CHANNEL_MESSAGE_WITH_SOURCE 4 whose data holds only content, the EPHEMERAL flag 64 and
    mentions parsed from nothing; AUTOCOMPLETE 4 an AUTOCOMPLETE_RESULT 8 of name and value
    choices; a MESSAGE_COMPONENT 3 or MODAL_SUBMIT 5, which Arbiter never asks for, a message
    in words."""
    with Server(sqlite_url, discord=settings_for(discord)) as server:
        king_court(server)
        CliRunner().invoke(cli, ["--db", sqlite_url, "discord", "link", "s1", "bob",
                                 USERS["bob"]])
        ping = {"type": 1, "id": str(next(ids)), "application_id": APP, "token": "t",
                "version": 1}
        assert post(server, *signed(ping)).json() == {"type": 1}
        answer = post(server, *signed(interaction(USERS["bob"], "status"))).json()
        assert set(answer) == {"type", "data"} and answer["type"] == 4
        assert set(answer["data"]) == {"content", "flags", "allowed_mentions"}
        assert answer["data"]["flags"] == 1 << 6 and answer["data"]["allowed_mentions"] == \
            {"parse": []}
        assert 1 <= len(answer["data"]["content"]) <= 2000
        typing = interaction(USERS["bob"], "vote", kind=4, candidate="")
        typing["data"]["options"][0]["focused"] = True
        completed = post(server, *signed(typing)).json()
        assert set(completed) == {"type", "data"} and completed["type"] == 8
        choices = completed["data"]["choices"]
        assert 1 <= len(choices) <= 25
        assert all(set(c) == {"name", "value"} and 1 <= len(c["name"]) <= 100 for c in choices)
        for kind, data in ((3, {"custom_id": "x", "component_type": 2}),
                           (5, {"custom_id": "x", "components": []})):
            other = {"type": kind, "id": str(next(ids)), "application_id": APP, "token": "t",
                     "version": 1, "user": {"id": USERS["bob"]}, "data": data}
            said = post(server, *signed(other))
            assert said.status_code == 200
            assert said.json() == {"type": 4, "data": {
                "content": "Arbiter could not read this interaction.", "flags": 64,
                "allowed_mentions": {"parse": []}}}


def test_the_host_links_players_from_the_seasons_page(sqlite_url, discord):
    app = Arbiter(sqlite_url, signer=SIGNER)
    app.create_season("s1")
    app.register_all("s1", PLAYERS)
    try:
        client, csrf, _ = signed_in(sqlite_url, app)
        try:
            assert "Who plays as whom on Discord" not in client.get("/host/s/s1").text
        finally:
            client.__exit__(None, None, None)
        client, csrf, _ = signed_in(sqlite_url, app, discord=settings_for(discord))
        try:
            page = text_of(client.get("/host/s/s1").text)
            assert "Who plays as whom on Discord Nobody yet" in page
            done = client.post("/host/s/s1/discord", data={
                "csrf": csrf, "player": "bob", "user": USERS["bob"], "id": "link-1"})
            assert "Linked: their slash commands now act as that player." in done.text
            assert f"bob {USERS['bob']}" in text_of(done.text)
            wrong = client.post("/host/s/s1/discord", data={
                "csrf": csrf, "player": "zed", "user": USERS["carol"]})
            assert wrong.status_code == 422 and "zed" in text_of(wrong.text)
            typo = client.post("/host/s/s1/discord", data={
                "csrf": csrf, "player": "host", "user": "@carol"})
            assert typo.status_code == 422
            assert "is not a Discord user id" in text_of(typo.text)
            assert Links(app).of("s1") == {USERS["bob"]: "bob"}
        finally:
            client.__exit__(None, None, None)
    finally:
        app.close()


def test_a_command_kept_waiting_is_answered_thinking_then_in_place(sqlite_url, discord):
    """Discord drops an interaction unanswered after 3 s; a vote waiting for its match's
    writer is answered "thinking" (type 5, still ephemeral), then the answer replaces it."""
    with Server(sqlite_url, discord=settings_for(discord)) as server:
        king_court(server)
        arbiter = server.service.arbiter
        CliRunner().invoke(cli, ["--db", sqlite_url, "discord", "link", "s1", "bob",
                                 USERS["bob"]])
        server.service.discord.defer_after = 0.3
        vote = interaction(USERS["bob"], "vote", candidate="alice")
        vote["token"] = "bobs-interaction"
        with arbiter._writing(Match.create_id("kc")):  # another command holds the writer
            answer = post(server, *signed(vote))
            assert answer.json() == {"type": 5, "data": {"flags": 64}}
            assert discord.edited == []
            discord.unknown = 2
        edited = eventually(lambda: discord.edited)
        assert edited[0]["token"] == "bobs-interaction"
        assert edited[0]["content"].startswith("Recorded as entry #")
        assert edited[0]["allowed_mentions"] == {"parse": []}
        patch = [r for r in discord.received if r["method"] == "PATCH"]
        assert patch[0]["path"] == f"/api/v10/webhooks/{APP}/bobs-interaction/messages/@original"
        assert patch[0]["authorization"] is None
        # Then the receipt, once Discord knows the interaction (twice it does not, yet).
        receipts = eventually(lambda: discord.followups, timeout=30)
        assert [f["token"] for f in receipts] == ["bobs-interaction"]
        tried = [r for r in discord.received if r["path"].endswith("/bobs-interaction")]
        assert len(tried) == 3


def test_the_command_line_registers_links_and_refuses_in_words(sqlite_url, discord):
    runner = CliRunner()
    app = Arbiter(sqlite_url, signer=SIGNER)
    app.create_season("s1")
    app.register_all("s1", PLAYERS)
    app.close()

    def run(*args: str, env: dict[str, str] | None = None):
        return runner.invoke(cli, ["--db", sqlite_url, "discord", *args], env=env or {})

    off = run("register", env={"ARBITER_DISCORD_PUBLIC_KEY": ""})
    assert off.exit_code == 2 and "discord_off: set ARBITER_DISCORD_APPLICATION_ID" in off.output
    everywhere = run("register", "--json", env=env_for(discord))
    assert everywhere.exit_code == 0, everywhere.output
    assert json.loads(everywhere.output)["guild"] is None and "global" in discord.commands
    assert [r["path"] for r in discord.received] == [f"/api/v10/applications/{APP}/commands"]
    printed = run("register", "--print")
    assert json.loads(printed.output) == slash_commands()

    assert run("link", "s1", "bob", USERS["bob"]).output == \
        f"Discord user {USERS['bob']} plays as bob in s1\n"
    assert run("link", "s1", "carol", USERS["bob"]).exit_code == 0  # the link moves
    zed = run("link", "s1", "zed", USERS["carol"])
    assert zed.exit_code == 2 and "zed" in zed.output
    typo = run("link", "s1", "dave", "dave#1234")
    assert typo.exit_code == 2
    assert "invalid_user: \u201cdave#1234\u201d is not a Discord user id" in typo.output
    assert "unknown_season" in run("link", "nope", "bob", USERS["bob"]).output
    assert json.loads(run("links", "s1", "--json").output) == \
        [{"player": "carol", "user": USERS["bob"]}]
    assert run("unlink", "s1", USERS["bob"]).output == \
        f"Discord user {USERS['bob']} unlinked from s1\n"
    assert run("links", "s1").output == "nobody is linked in s1\n"


def test_settings_that_cannot_be_used_stop_serve_in_words(sqlite_url):
    runner = CliRunner()
    for env, said in [
        ({"ARBITER_DISCORD_PUBLIC_KEY": "not hex"}, "PUBLIC_KEY is the application's public "
                                                     "key in hex"),
        ({"ARBITER_DISCORD_PUBLIC_KEY": PUBLIC_KEY, "ARBITER_DISCORD_WEBHOOKS": "s1"},
         "ARBITER_DISCORD_WEBHOOKS: \u201cs1\u201d is not SEASON=https://discord.com/api/webhooks/..."),
        ({"ARBITER_DISCORD_PUBLIC_KEY": PUBLIC_KEY, "ARBITER_DISCORD_REMIND_BEFORE": "soon"},
         "ARBITER_DISCORD_REMIND_BEFORE is a number of seconds"),
    ]:
        refused = runner.invoke(cli, ["--db", sqlite_url, "serve", "--port", "0"], env=env)
        assert refused.exit_code == 2 and "invalid_setting" in refused.output, refused.output
        assert said in refused.output


def test_discords_requests_are_not_counted_against_its_address(sqlite_url, discord):
    """Every interaction comes from Discord's few addresses: past the address's burst, signed
    requests are still answered, while an unsigned page from the same address is limited and
    a bad signature spends the address's budget of failures."""
    with Server(sqlite_url, discord=settings_for(discord), rate=1.0, burst=3,
                failures=2) as server:
        ping = {"type": 1, "application_id": APP, "token": "t", "version": 1}
        answers = [post(server, *signed({**ping, "id": str(next(ids))})) for _ in range(8)]
        assert [a.status_code for a in answers] == [200] * 8
        pages = [httpx.get(f"{server.url}/", timeout=30).status_code for _ in range(6)]
        assert pages[:3] == [200] * 3 and 429 in pages  # the same address, on a page
        forged = [post(server, *signed({**ping, "id": str(next(ids))},
                                       key=Ed25519PrivateKey.generate())) for _ in range(2)]
        assert [f.status_code for f in forged] == [401, 401]
