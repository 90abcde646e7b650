"""The season's channel gets each round's story and signed checkpoint by itself, and players
who have not acted get a reminder by DM: recorded first, sent in the background, retried with
backoff, never lost nor sent twice across a restart (tests/support/fake_discord.py)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from test_discord import PLAYERS, SETUP, USERS

from audit.notes import parse_verifier_key
from commands.service.arbiter import Arbiter
from commands.service.check import check_store
from commands.service.discord.links import Links
from commands.service.discord.posts import DiscordPosts, Poster
from commands.service.discord.rest import Rest
from commands.service.discord.settings import DiscordSettings
from domain.decider import HOST
from tests.support.fake_discord import FakeDiscord
from tests.support.host_key import SIGNER

NOW = datetime(2026, 11, 28, 20, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = NOW.timestamp()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def discord():
    with FakeDiscord() as fake:
        yield fake


@pytest.fixture
def arbiter(db_url):
    app = Arbiter(db_url, signer=SIGNER)
    app.create_season("s1")
    app.register_all("s1", PLAYERS)
    app.create_match(match_id="kc", season="s1", game="kings_court",
                     setup={"players": PLAYERS, **SETUP},
                     host_seed="7f3a9c1e5b2d48f6a0c4e8b1d3f5a7c9", salt_key="0d" * 32)
    app.submit("kc", HOST, "open_match", {}, at=NOW.isoformat())
    yield app
    app.close()


def poster(arbiter: Arbiter, discord: FakeDiscord, clock: Clock, **more) -> Poster:
    settings = DiscordSettings(application_id="1", public_key="00" * 32, bot_token="bot-token",
                               webhooks={"s1": discord.webhook("s1")},
                               public_url="https://arbiter.example", api=discord.api, **more)
    return Poster(arbiter, settings, Rest(discord.api, "bot-token", sleep=lambda _: None),
                  clock=clock)


def vote_all_and_close(arbiter: Arbiter) -> None:
    for player in PLAYERS:
        if player != "alice":
            arbiter.submit("kc", player, "vote", {"candidate": "alice"}, at=NOW.isoformat())
    arbiter.submit("kc", HOST, "close_round", {}, expect_round=1, at=NOW.isoformat())


def test_a_round_is_posted_once_through_rate_limits_failures_and_a_restart(
        arbiter, discord, db_url):
    clock = Clock()
    first = poster(arbiter, discord, clock)
    first.tick()  # posting begins: the opening's checkpoint was the host's to post
    assert discord.webhook_messages == []
    vote_all_and_close(arbiter)

    discord.broken = 1  # Discord fails once: nothing is marked sent, the season waits
    first.tick()
    assert discord.webhook_messages == []
    posts: DiscordPosts = arbiter.repository.get(DiscordPosts.create_id("s1"))
    assert [(k, p["sent"]) for k, p in posts.planned.items()] == [("round:kc:1", 0)]
    first.tick()  # within the backoff (2 s): not even tried
    assert len([r for r in discord.received if r["method"] == "POST"]) == 1
    clock.now += 2

    discord.throttle = 2  # then rate limits twice: waited out for their retry_after
    first.tick()
    assert len(discord.webhook_messages) == 1
    assert len([r for r in discord.received if r["method"] == "POST"]) == 4
    message = discord.webhook_messages[0]["content"]
    assert message.startswith("**King's Court · kc · Round 1: game 1, election round 1**")
    assert "- alice joins the court 1st, with 10 votes." in message
    assert arbiter.checkpoints("kc").notes[-1]["note"].rstrip() in message
    sent = discord.received[-1]
    assert sent["query"] == {"wait": ["true"]} and sent["authorization"] is None
    assert sent["body"]["allowed_mentions"] == {"parse": []}

    first.tick()
    restarted = Arbiter(db_url, signer=SIGNER)  # a restart: a fresh process's view
    try:
        poster(restarted, discord, Clock()).tick()
    finally:
        restarted.close()
    assert len(discord.webhook_messages) == 1


def test_a_post_planned_while_discord_is_down_is_sent_after_a_restart(arbiter, discord,
                                                                      db_url):
    first = poster(arbiter, discord, Clock())
    first.tick()
    vote_all_and_close(arbiter)
    discord.broken = 1
    first.tick()  # planned, recorded, not sent: then the process stops
    assert discord.webhook_messages == []
    restarted = Arbiter(db_url, signer=SIGNER)
    try:
        # A fresh process: round 1 was already signed at its first look, and is posted all
        # the same, because the post is in the store.
        second = poster(restarted, discord, Clock())
        second.tick()
        second.tick()
    finally:
        restarted.close()
    note = arbiter.checkpoints("kc").notes[-1]["note"].rstrip()
    assert [note in m["content"] for m in discord.webhook_messages] == [True]


def test_a_round_closed_while_nothing_was_serving_is_posted_at_the_restart(arbiter, discord,
                                                                          db_url):
    poster(arbiter, discord, Clock()).tick()  # posting began, then the process stopped
    vote_all_and_close(arbiter)  # closed from the command line while nothing served
    restarted = Arbiter(db_url, signer=SIGNER)
    try:
        poster(restarted, discord, Clock()).tick()
    finally:
        restarted.close()
    told = [m["content"] for m in discord.webhook_messages]
    assert len(told) == 1 and "- alice joins the court 1st, with 10 votes." in told[0]


def test_a_season_started_while_serving_has_every_round_posted(sqlite_url, discord):
    app = Arbiter(sqlite_url, signer=SIGNER)
    try:
        watching = poster(app, discord, Clock())
        watching.tick()  # no season s1 yet: nothing to do, and no failure
        assert watching._failures == {} and discord.received == []
        app.create_season("s1")
        app.register_all("s1", PLAYERS)
        app.create_match(match_id="kc", season="s1", game="kings_court",
                         setup={"players": PLAYERS, **SETUP},
                         host_seed="7f3a9c1e5b2d48f6a0c4e8b1d3f5a7c9", salt_key="0d" * 32)
        app.submit("kc", HOST, "open_match", {}, at=NOW.isoformat())
        vote_all_and_close(app)
        watching.tick()
    finally:
        app.close()
    told = [m["content"] for m in discord.webhook_messages]
    assert len(told) == 2  # the opening's checkpoint (round 0), then round 1's
    assert "round 0" in told[0] and "- alice joins the court 1st, with 10 votes." in told[1]


def test_players_who_have_not_acted_are_reminded_once_before_the_deadline(arbiter, discord):
    clock = Clock()
    deadline = (NOW + timedelta(minutes=30)).isoformat()
    arbiter.submit("kc", HOST, "set_deadline", {"deadline": deadline}, at=NOW.isoformat())
    links = Links(arbiter)
    for player in ("bob", "carol"):
        links.link("s1", player, USERS[player], by="host")
    arbiter.submit("kc", "carol", "vote", {"candidate": "alice"}, at=NOW.isoformat())
    early = poster(arbiter, discord, clock, reminders=frozenset({"s1"}), remind_before=600)
    early.tick()
    assert discord.direct_messages == []  # 30 minutes away, reminders 10 minutes before
    clock.now += 21 * 60
    early.tick()
    early.tick()
    assert [m["user"] for m in discord.direct_messages] == [USERS["bob"]]  # carol voted
    assert discord.direct_messages[0]["content"] == (
        f"Reminder: round 1 of kc closes at {deadline} and you have not acted yet. /status "
        "shows where you stand.")
    assert [r["body"] for r in discord.received if r["path"].endswith("/users/@me/channels")] \
        == [{"recipient_id": USERS["bob"]}]
    # The links and posts stored beside the logs leave `arbiter check` whole.
    report = check_store(arbiter, parse_verifier_key(SIGNER.verifier_key()))
    assert report.matches == 1 and report.others >= 2


def test_two_workers_posting_at_once_send_each_message_once(arbiter, discord, db_url):
    first = poster(arbiter, discord, Clock())
    first.tick()
    vote_all_and_close(arbiter)
    other = Arbiter(db_url, signer=SIGNER)  # the second worker's process
    try:
        second = poster(other, discord, Clock())
        go = threading.Barrier(2)

        def tick(p: Poster) -> None:
            go.wait()
            p.tick()

        workers = [threading.Thread(target=tick, args=(p,)) for p in (first, second)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(timeout=60)
        first.tick()
        second.tick()
    finally:
        other.close()
    assert len(discord.webhook_messages) == 1
