"""The season log: registrations, grants with reasons, trades and their freeze, each posting a
match entry made, all as hash-chained entries; one atomic save with the match; a signed season
checkpoint after each change."""

from __future__ import annotations

import hashlib
from pathlib import Path

from audit import keys
from audit.notes import parse_checkpoint, parse_note
from audit.season_signing import mark_of, parse_season_extensions, standings_hash
from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from commands.service.outcomes import Grant
from domain.envelope import GENESIS_PREV, SEASON_PREFIX, commitment, entry_bytes, salt
from domain.match import parse_salt_key
from domain.season import Season, public_standings, season_headline
from projections.standings import standings
from tests.test_match_ledger import PLAYERS, SALT_KEY, SEED, refused

SEEDS = Path(__file__).resolve().parents[1] / "seeds"


def kinds(season: Season) -> list[str | None]:
    return [r["entry"]["kind"] for r in season.records]


def test_grants_and_trades_name_their_cause(app):
    app.create_season("s")
    refused("season_exists", app.create_season, "s")
    refused("invalid_season", app.create_season, "two words")
    app.register("s", "ann")
    app.register("s", "bob")
    refused("player_exists", app.register, "s", "ann")
    refused("invalid_player", app.register, "s", "host")
    refused("invalid_player", app.register, "s", " ann")
    refused("reason_required", app.grant, "s", "ann", "garnets", 5, " ")
    refused("unknown_asset", app.grant, "s", "ann", "gems", 5, "why not")
    refused("insufficient_garnets", app.grant, "s", "ann", "garnets", -1, "fine")
    refused("invalid_amount", app.grant, "s", "ann", "garnets", True, "a bool is no amount")
    app.grant("s", "ann", "garnets", 5, "season start")
    refused("insufficient_garnets", app.transfer, "s", "ann", "bob", 6, "trade")
    refused("invalid_amount", app.transfer, "s", "ann", "bob", 0, "trade")
    refused("invalid_transfer", app.transfer, "s", "ann", "ann", 1, "trade")
    app.transfer("s", "ann", "bob", 2, "bought a hint")
    season = app.season("s")
    assert season.garnets(["ann", "bob"]) == {"ann": 3, "bob": 2}
    assert [h.get("cause") for h in standings(season, "host")["history"]] == [
        None, None, {"grant": "season start"}, {"transfer": "bought a hint"},
        {"transfer": "bought a hint"}]
    # Garnets are their owner's: the grant is sealed to ann, the trade to ann and bob.
    assert kinds(season) == ["SeasonStarted", "PlayerRegistered", "PlayerRegistered", None, None]
    assert [r["parts"][0]["audience"] for r in season.records[3:]] == [["ann"], ["ann", "bob"]]


def test_every_entry_is_chained_and_hashed_with_the_season_prefix(app):
    app.create_season("s")
    app.register_all("s", ["ann", "bob"])
    app.grant_all("s", [Grant("ann", 4, reason="start"), Grant("bob", 1, "tol", "prize")])
    season = app.season("s")
    key = parse_salt_key(season.salt_key)
    prev = GENESIS_PREV
    for seq, record in enumerate(season.records, 1):
        entry = record["entry"]
        assert (entry["seq"], entry["prev"], entry["season"]) == (seq, prev, "s")
        assert entry["hash"] == hashlib.sha256(SEASON_PREFIX + entry_bytes(entry)).hexdigest()
        for i, part in enumerate(record["parts"]):
            assert entry["seals"][i] == commitment(salt(key, seq, i), part)
        prev = entry["hash"]
    # A sealed entry shows nothing but its commitment.
    sealed = season.records[3]["entry"]
    assert [sealed[k] for k in ("kind", "actor", "at", "public")] == [None] * 4
    assert season.records[4]["entry"]["public"] == {"player": "bob", "asset": "tol",
                                                    "amount": 1, "reason": "prize"}


def test_a_bulk_command_records_everything_in_one_save_or_nothing(app):
    app.create_season("s")
    app.register("s", "ann")
    refused("player_exists", app.register_all, "s", ["bob", "cy", "ann"])
    refused("player_exists", app.register_all, "s", ["bob", "bob"])
    assert app.season("s").players == ["ann"]
    app.register_all("s", ["bob", "cy"])
    version = app.season("s").version
    refused("unknown_player", app.grant_all, "s", [Grant("ann", 3, reason="start"),
                                                   Grant("zed", 3, reason="start")])
    refused("reason_required", app.grant_all, "s", [Grant("ann", 3)])
    assert app.season("s").version == version
    app.grant_all("s", [Grant(p, 3, reason="start") for p in ("ann", "bob", "cy")])
    assert app.season("s").garnets(["ann", "bob", "cy"]) == {"ann": 3, "bob": 3, "cy": 3}


def test_standings_are_a_fold_of_the_log(app):
    app.create_season("s")
    app.register_all("s", ["ann", "bob"])
    app.grant("s", "ann", "garnets", 5, "start")
    app.grant("s", "bob", "tol", 2, "prize")
    app.transfer("s", "ann", "bob", 2, "trade")
    app.rule("s", "bob", "spent a ToL on a house rule", changes={"tol": -1})
    season = app.season("s")
    again = Season(name="s", salt_key=season.salt_key, record=season.records[0])
    for record in season.records[1:]:
        again._apply(record)
    assert again.balances == season.balances
    assert public_standings(again) == public_standings(season)


def test_king_court_freezes_trades_from_the_end_until_the_dmo(app):
    file = load(SEEDS / "kings_court-king-win.json")
    # Stop before the last command (record_dmo): the freeze is on.
    play(app, file.model_copy(update={"commands": file.commands[:-1], "expect": None}))
    refused("garnet_trades_frozen", app.transfer, file.season, "alice", "bob", 1, "trade")
    app.submit(file.match, "host", file.commands[-1].do, file.commands[-1].args)
    assert file.commands[-1].do == "record_dmo"
    app.transfer(file.season, "bob", "alice", 1, "trade")  # the DMO ends the freeze


def bid_match(app: Arbiter, garnets=(5, 1, 0)) -> None:
    app.create_season("spring")
    app.register_all("spring", PLAYERS)
    app.grant_all("spring", [Grant(p, n, reason="starting purse")
                             for p, n in zip(PLAYERS, garnets, strict=True) if n])
    app.create_match(match_id="m1", season="spring", game="sealed_bid",
                     setup={"players": PLAYERS}, host_seed=SEED, salt_key=SALT_KEY)


def test_a_spend_saves_the_match_entry_and_the_season_posting_together(app):
    bid_match(app)
    app.submit("m1", "host", "open_match")
    # A command that moves nothing writes nothing to the season.
    version = app.season("spring").version
    app.submit("m1", "ann", "bid", {"amount": 3})
    assert app.season("spring").version == version
    # A spend the player cannot afford changes nothing, in the match or the season.
    match_version = app.match("m1").version
    refused("insufficient_garnets", app.submit, "m1", "cy", "hint")
    assert (app.match("m1").version, app.season("spring").version) == (match_version, version)
    # A spend: the match entry and the season's posting, sealed to the spender.
    outcome = app.submit("m1", "ann", "hint")
    season = app.season("spring")
    assert season.version == version + 1
    posted = season.records[-1]
    assert posted["entry"]["kind"] is None
    assert posted["parts"][0]["audience"] == ["ann"]
    assert posted["parts"][0]["data"] == {
        "match": "m1", "seq": outcome.seqs[-1],
        "postings": [{"player": "ann", "asset": "garnets", "amount": -2, "reason": "hint"}]}
    assert season.balances["ann"]["garnets"] == 3


def test_the_match_end_is_a_season_entry_and_public_postings_are_public(app):
    bid_match(app)
    for command in ("open_match", "close_round", "close_round"):
        app.submit("m1", "host", command)
    season = app.season("spring")
    finished = season.records[-1]["entry"]
    assert finished["kind"] == "MatchFinished"
    ended = next(r for r in app.match("m1").records if r["entry"]["kind"] == "MatchEnded")
    assert finished["public"]["seq"] == ended["entry"]["seq"]
    assert finished["public"]["abandoned"] is False
    # Nobody bid: each round every player with a garnet lost one (sealed: ann and bob, then
    # ann), nobody won a point, so no ToL.
    heads = [season_headline(r) for r in season.records]
    assert [h["data"]["postings"][0]["player"] for h in heads if h["kind"] == "Posted"] == [
        "ann", "bob", "ann"]
    assert season.garnets(PLAYERS) == {"ann": 3, "bob": 0, "cy": 0}


def test_a_season_checkpoint_follows_each_change_and_names_each_matchs_latest(sqlite_url):
    signer = keys.generate("host.example")
    app = Arbiter(sqlite_url, signer=signer)
    app.set_origin_prefix("games.example.org")
    refused("origin_set", app.set_origin_prefix, "other.example.org")
    app.set_origin_prefix("games.example.org")  # the same again is no change
    refused("invalid_origin", Arbiter(sqlite_url.replace("arbiter.db", "b.db")).set_origin_prefix,
            "has space")
    bid_match(app)
    season = app.season("spring")
    notes = app.season_checkpoints("spring").notes
    # create, register (3 in one save), grants (2 in one save), the match: 4 changes.
    assert [n["size"] for n in notes] == [1, 4, 6, 7]
    assert season.origin == "games.example.org/season/spring"
    assert app.checkpoints("m1").origin == "games.example.org/match/m1"
    for command in ("open_match", "close_round"):
        app.submit("m1", "host", command)
    notes = app.season_checkpoints("spring").notes
    last = parse_checkpoint(parse_note(notes[-1]["note"]).text)
    assert last.origin == "games.example.org/season/spring"
    assert last.size == app.season("spring").version
    close = parse_season_extensions(last.extensions)
    assert close.standings == standings_hash(public_standings(app.season("spring")))
    match_notes = app.checkpoints("m1").notes
    assert close.matches == (mark_of("m1", match_notes[-1]["note"]),)
    assert parse_checkpoint(parse_note(match_notes[-1]["note"]).text).origin == \
        "games.example.org/match/m1"
