"""The rules bound what one player can write (issue 25): one player sends one command at most
1 + `max_replacements` times a round (a setup setting, 30 unless stated), refused past that
with `too_many_replacements`, nothing recorded. A setup that does not state it is recorded
as before, so every earlier log reads the same."""

from __future__ import annotations

import pytest

from audit.bundle import FULL
from audit.notes import parse_verifier_key
from audit.verify import verify
from commands.service.arbiter import Arbiter
from domain.errors import RuleViolation
from domain.records import headline
from domain.setup import REPLACEMENTS
from tests.support.host_key import SIGNER

PLAYERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
           "ken"]


def opened(app: Arbiter, match: str, **setup: int) -> None:
    app.create_match(match_id=match, season="s", game="kings_court",
                     setup={"players": PLAYERS, **setup}, host_seed="ab" * 32,
                     salt_key="cd" * 32)
    app.submit(match, "host", "open_match")


@pytest.fixture
def app(sqlite_url):
    arbiter = Arbiter(sqlite_url, signer=SIGNER)
    arbiter.create_season("s")
    arbiter.register_all("s", PLAYERS)
    yield arbiter
    arbiter.close()


def pair(app: Arbiter, match: str) -> tuple[str, str]:
    """A player who votes this round (not in the court), and one they may vote for."""
    court = app.match(match).state.current().court
    free = [p for p in PLAYERS if p not in court]
    return free[0], free[1]


def test_a_vote_replaced_past_the_bound_is_refused_and_the_next_round_starts_afresh(app):
    opened(app, "kc", max_replacements=2)
    player, candidate = pair(app, "kc")
    vote = {"candidate": candidate}
    for _ in range(3):  # the vote, replaced twice: the bound
        app.submit("kc", player, "vote", vote)
    version = app.match("kc").version
    with pytest.raises(RuleViolation) as caught:
        app.submit("kc", player, "vote", vote)
    assert caught.value.code == "too_many_replacements"
    assert "replaced 2 times a round" in caught.value.message
    assert app.match("kc").version == version  # nothing recorded
    app.submit("kc", candidate, "vote", {"candidate": player})  # every player has their own
    third = next(p for p in PLAYERS if p not in app.match("kc").state.current().court
                 and p not in (player, candidate))
    app.submit("kc", third, "vote", {"candidate": candidate})

    round = app.match("kc").round
    app.submit("kc", "host", "close_round")
    assert app.match("kc").round == round + 1  # 2 votes to 1, no tie: the next round
    player, candidate = pair(app, "kc")
    for _ in range(3):  # a new round: counted afresh
        app.submit("kc", player, "vote", {"candidate": candidate})


def test_unstated_the_bound_is_thirty_and_the_setup_is_recorded_without_it(app):
    opened(app, "kc")
    setup = next(headline(r)["data"]["setup"] for r in app.match("kc").records
                 if headline(r)["kind"] == "SetupCommitted")
    assert "max_replacements" not in setup and REPLACEMENTS == 30
    player, candidate = pair(app, "kc")
    for _ in range(31):  # the vote and its 30 replacements
        app.submit("kc", player, "vote", {"candidate": candidate})
    with pytest.raises(RuleViolation) as caught:
        app.submit("kc", player, "vote", {"candidate": candidate})
    assert caught.value.code == "too_many_replacements"


def test_a_stated_bound_is_in_the_sealed_setup_and_the_auditor_reruns_it(app):
    opened(app, "kc", max_replacements=1)
    setup = next(headline(r)["data"]["setup"] for r in app.match("kc").records
                 if headline(r)["kind"] == "SetupCommitted")
    assert setup["max_replacements"] == 1
    player, candidate = pair(app, "kc")
    app.submit("kc", player, "vote", {"candidate": candidate})
    app.submit("kc", player, "vote", {"candidate": candidate})
    with pytest.raises(RuleViolation):
        app.submit("kc", player, "vote", {"candidate": candidate})
    lines = "".join(app.bundle("kc", FULL)).encode().splitlines(keepends=True)
    found = verify(iter(lines), parse_verifier_key(SIGNER.verifier_key()))
    assert found.entries == app.match("kc").version


@pytest.mark.parametrize("bad", [-1, 10_001, "3", 2.5])
def test_a_bound_out_of_range_is_refused(app, bad):
    with pytest.raises(RuleViolation) as caught:
        opened(app, "kc", max_replacements=bad)
    assert caught.value.code == "invalid_setup"
