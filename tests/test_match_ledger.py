"""The match ledger, told as one story on a small sealed-bid game (tests/support)."""

from __future__ import annotations

import hashlib

import pytest

from domain.envelope import GENESIS_PREV, commitment, entry_hash, salt
from domain.errors import RuleViolation
from domain.match import parse_salt_key
from projections.standings import standings
from projections.views import view
from tests.support.host_key import SIGNER

PLAYERS = ["ann", "bob", "cy"]
SEED = "s" * 40
SALT_KEY = "ab" * 32


def new_match(app, match_id="m1", garnets=(5, 1, 0), rounds=2, unsigned=False, **more):
    app.create_season("spring")
    for player, amount in zip(PLAYERS, garnets, strict=True):
        app.register("spring", player)
        if amount:
            app.grant("spring", player, "garnets", amount, "starting purse")
    app.create_match(match_id=match_id, season="spring", game="sealed_bid",
                     setup={"players": PLAYERS, "rounds": rounds, **more}, host_seed=SEED,
                     salt_key=SALT_KEY, unsigned=unsigned)


def refused(code, call, *args, **kwargs):
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code
    return caught.value


def test_a_match_from_creation_to_the_seed_reveal(app):
    # Create the season and the match: two entries, public genesis and the sealed setup.
    new_match(app)
    match = app.match("m1")
    assert match.version == 2
    assert match.records[0]["entry"]["kind"] == "MatchCreated"
    assert match.records[1]["entry"]["kind"] is None  # the setup is sealed

    # Before the host opens the match, players are told so; strangers are not players.
    refused("match_not_started", app.submit, "m1", "ann", "bid", {"amount": 3})
    refused("unknown_player", app.submit, "m1", "zed", "bid", {"amount": 3})
    refused("host_only", app.submit, "m1", "ann", "open_match")
    assert app.match("m1").version == 2

    # Open it; bids replace each other and the last one counts.
    app.submit("m1", "host", "open_match")
    app.submit("m1", "ann", "bid", {"amount": 3})
    app.submit("m1", "ann", "bid", {"amount": 7})
    app.submit("m1", "bob", "bid", {"amount": 5})
    assert app.match("m1").state.bids == {"ann": 7, "bob": 5}

    # A spend is debited with its match event; one the player cannot afford changes nothing.
    before = app.match("m1").version
    refused("insufficient_garnets", app.submit, "m1", "bob", "hint")
    assert app.match("m1").version == before
    assert app.season("spring").balances["bob"]["garnets"] == 1
    told = app.submit("m1", "ann", "hint").told
    assert [e["kind"] for e in told] == ["CommandAccepted", "HintGiven"]
    assert app.season("spring").balances["ann"]["garnets"] == 3

    # Closing round 1: ann wins it; cy missed the bid but has no garnet to lose.
    app.submit("m1", "host", "close_round")
    assert app.season("spring").balances["cy"]["garnets"] == 0
    # Round 2: nobody bids; ann (3) and bob (1) lose one garnet each; ann is champion.
    app.submit("m1", "host", "close_round")
    season = app.season("spring")
    assert season.balances["ann"] == {"garnets": 2, "tol": 1, "opal": 0, "moe": 0, "ec": 0,
                                      "dm_entrant": 0}
    assert season.balances["bob"]["garnets"] == 0
    assert standings(season, "host")["history"][-1]["cause"]["match"] == "m1"

    # The match ended by itself and revealed the seed; nothing more is accepted.
    match = app.match("m1")
    assert match.ended
    assert [r["entry"]["kind"] for r in match.records[-2:]] == ["MatchEnded", "SeedRevealed"]
    assert match.records[-1]["entry"]["public"]["host_seed"] == SEED
    refused("match_over", app.submit, "m1", "ann", "bid", {"amount": 1})
    # A game that ended by its rules answers late commands with its own code, the host's too.
    refused("match_over", app.submit, "m1", "host", "close_round")
    refused("wrong_state", app.submit, "m1", "host", "set_deadline", {"deadline": "soon"})


def test_the_chain_links_every_entry_and_every_hash_recomputes(app):
    new_match(app)
    app.submit("m1", "host", "open_match")
    app.submit("m1", "bob", "bid", {"amount": 2})
    prev = GENESIS_PREV
    for seq, record in enumerate(app.match("m1").records, 1):
        entry = record["entry"]
        assert (entry["seq"], entry["prev"]) == (seq, prev)
        assert entry_hash(entry) == entry["hash"]
        prev = entry["hash"]


def test_a_sealed_entry_shows_the_public_only_that_it_exists(app):
    new_match(app)
    app.submit("m1", "host", "open_match")
    outcome = app.submit("m1", "bob", "bid", {"amount": 2})
    entry = app.match("m1").records[outcome.seqs[0] - 1]["entry"]
    assert {k for k, v in entry.items() if v is not None} == {
        "v", "match", "seq", "round", "prev", "seals", "hash"}
    assert "2" not in str(entry["public"]) and "bob" not in str(entry)


def test_a_receipt_opens_the_submitters_own_sealed_part(app):
    new_match(app)
    app.submit("m1", "host", "open_match")
    outcome = app.submit("m1", "bob", "bid", {"amount": 4})
    record = app.match("m1").records[outcome.receipt.seq - 1]
    assert outcome.receipt.hash == record["entry"]["hash"]
    assert list(outcome.receipt.salts) == [0]  # the host-only context is not bob's
    part = record["parts"][0]
    assert part["data"] == {"name": "bid", "args": {"amount": 4}}
    opened = commitment(bytes.fromhex(outcome.receipt.salts[0]), part)
    assert opened == record["entry"]["seals"][0]
    assert salt(parse_salt_key(SALT_KEY), outcome.receipt.seq, 0).hex() == \
        outcome.receipt.salts[0]


def test_a_repeated_command_id_is_answered_once(app):
    new_match(app)
    app.submit("m1", "host", "open_match")
    first = app.submit("m1", "ann", "hint", command_id="ann-1")
    again = app.submit("m1", "ann", "hint", command_id="ann-1")
    assert again.seqs == first.seqs
    assert again.receipt == first.receipt
    assert app.season("spring").balances["ann"]["garnets"] == 3  # debited once


def test_replayed_state_equals_live_state_after_every_command(app):
    from domain.decider import Command
    from domain.match import Match

    new_match(app)
    live = app.repository.get(Match.create_id("m1"))  # a copy of its own, driven by hand

    steps = [("host", "open_match", {}), ("ann", "bid", {"amount": 3}),
             ("bob", "bid", {"amount": 3}), ("host", "close_round", {}),
             ("cy", "bid", {"amount": 9}), ("host", "close_round", {})]
    for actor, name, args in steps:
        garnets = app.season("spring").garnets(PLAYERS)
        app.submit("m1", actor, name, args)
        live.handle(Command(name, actor, args, garnets))
        assert app.match("m1").state == live.state
        assert [r["entry"]["hash"] for r in app.match("m1").records] == \
            [r["entry"]["hash"] for r in live.records]


def test_a_host_correction_voids_a_submission_and_is_attributed(app):
    new_match(app)
    app.submit("m1", "host", "open_match")
    app.submit("m1", "ann", "bid", {"amount": 2})
    wrong = app.submit("m1", "ann", "bid", {"amount": 9})
    refused("reason_required", app.submit, "m1", "host", "correct", {"void": wrong.seqs[0]})
    refused("not_voidable", app.submit, "m1", "host", "correct",
            {"void": 1, "reason": "genesis"})
    refused("host_only", app.submit, "m1", "ann", "correct",
            {"void": wrong.seqs[0], "reason": "mine"})
    app.submit("m1", "host", "correct", {"void": wrong.seqs[0], "reason": "typo, said ann"})
    assert app.match("m1").state.bids == {"ann": 2}  # the earlier bid counts again

    # Entering a submission for a player is recorded as the host's, with the reason.
    app.submit("m1", "host", "correct",
               {"as": "bob", "command": "bid", "args": {"amount": 6}, "reason": "sent by DM"})
    assert app.match("m1").state.bids == {"ann": 2, "bob": 6}
    host = view(app.match("m1"), "host")
    assert any(e["kind"] == "SubmissionEntered" and e["data"]["reason"] == "sent by DM"
               for e in host["events"])
    assert not any(e["kind"] in ("SubmissionVoided", "SubmissionEntered")
                   for e in view(app.match("m1"), "public")["events"])

    # After the round closes, the bid has had its effect: it can no longer be voided.
    app.submit("m1", "host", "close_round")
    refused("not_voidable", app.submit, "m1", "host", "correct",
            {"void": wrong.seqs[0] - 1, "reason": "too late"})


def test_several_voids_in_a_row_and_each_refusal_names_what_blocks_it(app):
    new_match(app)
    app.submit("m1", "host", "open_match")
    first = app.submit("m1", "ann", "bid", {"amount": 3}).seqs[0]
    second = app.submit("m1", "bob", "bid", {"amount": 4}).seqs[0]
    app.submit("m1", "host", "set_deadline", {"deadline": "2026-11-22T20:00:00Z"},
               at="2026-11-21T20:00:00Z")
    app.submit("m1", "host", "correct", {"void": first, "reason": "sent twice"})
    app.submit("m1", "host", "correct", {"void": second, "reason": "wrong player"})
    assert app.match("m1").state.bids == {}
    with pytest.raises(RuleViolation) as again:
        app.submit("m1", "host", "correct", {"void": first, "reason": "again"})
    assert again.value.code == "not_voidable" and f"entry {first} is voided" in \
        again.value.message

    spent = app.submit("m1", "ann", "hint").seqs[0]
    with pytest.raises(RuleViolation) as moved:
        app.submit("m1", "host", "correct", {"void": spent, "reason": "refund"})
    assert moved.value.message == f"entry {spent} moved season assets at entry {spent + 1}"

    third = app.submit("m1", "cy", "bid", {"amount": 5}).seqs[0]
    close = app.submit("m1", "host", "close_round").seqs[0]
    with pytest.raises(RuleViolation) as closed:
        app.submit("m1", "host", "correct", {"void": third, "reason": "too late"})
    assert closed.value.message == (f"entry {third} has had consequences: the host's "
                                    f"close_round at entry {close} came after it")


def test_views_show_each_viewer_only_their_share(app):
    new_match(app)
    app.submit("m1", "host", "open_match")
    app.submit("m1", "ann", "bid", {"amount": 8})
    app.submit("m1", "host", "close_round")
    app.submit("m1", "bob", "bid", {"amount": 1})
    match = app.match("m1")
    public = view(match, "public")
    assert all(e["audience"] == "public" for e in public["events"])
    assert "SecretDrawn" not in str(public) and "amount" not in str(public)
    bob = view(match, "bob")
    assert [e["data"]["amount"] for e in bob["events"] if e["kind"] == "BidPlaced"] == [1]
    # As of the end of round 1, bob's round-2 bid did not exist yet.
    assert not [e for e in view(match, "bob", round=1)["events"] if e["kind"] == "BidPlaced"]
    assert view(match, "public", round=1)["summary"]["winners"] == ["ann"]


def test_seed_contributions_are_mixed_in_before_the_draw(app):

    new_match(app)
    app.submit("m1", "bob", "contribute", {"text": "bob-luck"})
    refused("already_contributed", app.submit, "m1", "bob", "contribute", {"text": "again"})
    app.submit("m1", "host", "open_match")
    refused("contributions_closed", app.submit, "m1", "ann", "contribute", {"text": "late"})
    expected = hashlib.sha256(f"{SEED}||bob-luck|".encode()).hexdigest()
    assert app.match("m1").seed == expected


def test_bad_setup_and_duplicates_are_refused(app):
    new_match(app)
    refused("match_exists", app.create_match, match_id="m1", season="spring",
            game="sealed_bid", setup={"players": PLAYERS}, host_seed=SEED, salt_key=SALT_KEY)
    refused("invalid_setup", app.create_match, match_id="m2", season="spring",
            game="sealed_bid", setup={"players": PLAYERS, "rounds": "many"},
            host_seed=SEED, salt_key=SALT_KEY)
    refused("weak_seed", app.create_match, match_id="m2", season="spring",
            game="sealed_bid", setup={"players": PLAYERS}, host_seed="short",
            salt_key=SALT_KEY)
    refused("invalid_setup", app.create_match, match_id="m2", season="spring",
            game="sealed_bid", setup={"players": PLAYERS}, host_seed="", salt_key=SALT_KEY,
            allow_weak_seed=True)
    refused("unknown_player", app.create_match, match_id="m2", season="spring",
            game="sealed_bid", setup={"players": ["ann", "zed"]}, host_seed=SEED,
            salt_key=SALT_KEY)
    refused("unknown_game", app.create_match, match_id="m2", season="spring",
            game="chess", setup={"players": PLAYERS}, host_seed=SEED, salt_key=SALT_KEY)
    assert list(app.season("spring").matches) == ["m1"]


def test_a_weak_seed_is_taken_only_when_allowed_and_the_genesis_says_so(app):
    """RANDOMNESS: any non-empty text seeds a match, so the rules' worked examples reproduce."""
    new_match(app)
    assert "weak_seed" not in app.match("m1").records[0]["entry"]["public"]
    app.create_match(match_id="m2", season="spring", game="sealed_bid",
                     setup={"players": PLAYERS}, host_seed="example-seed", salt_key=SALT_KEY,
                     allow_weak_seed=True)
    genesis = app.match("m2").records[0]["entry"]["public"]
    assert genesis["weak_seed"] is True
    assert genesis["seed_commitment"] == hashlib.sha256(b"example-seed").hexdigest()


def test_arguments_the_log_cannot_hold_are_refused(app):
    new_match(app)
    app.submit("m1", "host", "open_match")
    before = app.match("m1").version
    refused("invalid_command", app.submit, "m1", "host", "close_round", {"x": 1.5})
    refused("invalid_command", app.submit, "m1", "host", "close_round", {"x": 2**60})
    refused("invalid_command", app.submit, "m1", "ann", "bid", "7")
    assert app.match("m1").version == before


def test_the_rules_answer_a_float_where_they_want_an_integer(app):
    """The game's code is the contract: the ledger's own refusal comes only after the rules
    accepted what the log cannot hold."""
    new_match(app)
    app.submit("m1", "host", "open_match")
    before = app.match("m1").version
    for amount in (2.0, 2.5, 1e300, 2**60):
        refused("invalid_bid", app.submit, "m1", "ann", "bid", {"amount": amount})
    assert app.match("m1").version == before


def test_an_abandoned_match_reveals_its_seed_and_takes_no_more(app):
    new_match(app)
    app.submit("m1", "host", "open_match")
    refused("reason_required", app.submit, "m1", "host", "end", {})
    refused("host_only", app.submit, "m1", "ann", "end", {"reason": "bored"})
    told = app.submit("m1", "host", "end", {"reason": "server outage"}).told
    assert [e["kind"] for e in told] == ["CommandAccepted", "MatchAbandoned", "SeedRevealed"]
    assert told[-1]["data"]["host_seed"] == SEED
    refused("match_over", app.submit, "m1", "ann", "bid", {"amount": 1})
    refused("wrong_state", app.submit, "m1", "host", "end", {"reason": "again"})


def test_postings_are_committed_with_their_entry(app):
    new_match(app)
    app.submit("m1", "host", "open_match")
    spend = app.submit("m1", "ann", "hint")
    hint = app.match("m1").records[spend.seqs[-1] - 1]
    assert hint["entry"]["postings"] is None  # sealed: the spend is not public
    assert hint["parts"][0]["postings"] == [
        {"player": "ann", "asset": "garnets", "amount": -2, "reason": "hint"}]
    app.submit("m1", "ann", "bid", {"amount": 5})
    app.submit("m1", "host", "close_round")
    app.submit("m1", "host", "close_round")
    over = next(r for r in app.match("m1").records if r["entry"]["kind"] == "GameOver")
    assert over["entry"]["postings"] == over["postings"] != []


def test_a_game_may_seal_a_host_command_it_names(app, monkeypatch):
    from tests.support import sealed_bid

    monkeypatch.setattr(sealed_bid, "SEALED_HOST_COMMANDS", frozenset({"close_round"}),
                        raising=False)
    # A sealed close penalises each of the three players in a row: its runs must fit.
    monkeypatch.setattr(sealed_bid, "SEALED_RUN", 3, raising=False)
    new_match(app)
    app.submit("m1", "host", "open_match")
    close = app.submit("m1", "host", "close_round")
    entry = app.match("m1").records[close.seqs[0] - 1]["entry"]
    assert entry["kind"] is None and entry["actor"] is None  # only commitments show
    assert entry["round"] == 1


def test_a_game_opens_an_earlier_sealed_event_with_its_salt(app):
    new_match(app)
    app.submit("m1", "host", "open_match")
    app.submit("m1", "host", "close_round")
    app.submit("m1", "host", "close_round")
    records = app.match("m1").records
    drawn = next(r for r in records if r["parts"] and r["parts"][0]["kind"] == "SecretDrawn")
    opened = next(r for r in records if r["entry"]["kind"] == "SealOpened")
    disclosed = opened["entry"]["public"]
    assert disclosed["seq"] == drawn["entry"]["seq"] and disclosed["part"] == drawn["parts"][0]
    assert commitment(bytes.fromhex(disclosed["salt"]), disclosed["part"]) == \
        drawn["entry"]["seals"][0]
    kinds = [r["entry"]["kind"] for r in records]
    assert kinds.index("SealOpened") == kinds.index("GameOver") + 1


def test_a_close_meant_for_a_round_already_closed_is_refused(app):
    new_match(app)
    app.submit("m1", "host", "open_match")
    app.submit("m1", "host", "close_round")  # the host closed round 1 by hand
    before = app.match("m1").version
    refused("round_moved", app.submit, "m1", "host", "close_round", expect_round=1,
            command_id="deadline:m1:1")
    assert app.match("m1").version == before
    first = app.submit("m1", "host", "close_round", expect_round=2, command_id="deadline:m1:2")
    # The same deadline close again (a second worker) gets the first answer back.
    again = app.submit("m1", "host", "close_round", expect_round=2, command_id="deadline:m1:2")
    assert again.seqs == first.seqs


def test_a_read_refuses_an_entry_edited_in_the_database(sqlite_url, monkeypatch):
    """A sealed bid changed with SQL no longer opens its commitment: no view shows it (a store
    without a store key, whose rows SQL can read; tests/test_sealing.py has the encrypted)."""
    import sqlite3

    from commands.service.arbiter import Arbiter

    monkeypatch.delenv("ARBITER_STORE_KEY")
    monkeypatch.chdir(sqlite_url.removeprefix("sqlite:///").rsplit("/", 1)[0])

    app = Arbiter(sqlite_url, signer=SIGNER)
    new_match(app)
    app.submit("m1", "host", "open_match")
    bid = app.submit("m1", "ann", "bid", {"amount": 3}).seqs[0] + 1  # the BidPlaced entry
    app.close()
    with sqlite3.connect(sqlite_url.removeprefix("sqlite:///")) as db:
        (state,) = db.execute("SELECT state FROM stored_events WHERE originator_version = ? "
                              "AND topic LIKE '%Appended'", (bid,)).fetchone()
        assert b'"amount":3' in state
        db.execute("UPDATE stored_events SET state = ? WHERE originator_version = ? AND topic "
                   "LIKE '%Appended'", (state.replace(b'"amount":3', b'"amount":8'), bid))
    fresh = Arbiter(sqlite_url)
    with pytest.raises(RuleViolation) as caught:
        fresh.match("m1")
    assert caught.value.code == "forged_entry"
    assert f"entry {bid}: a sealed part does not open its commitment" in caught.value.message
