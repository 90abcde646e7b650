"""Match to match: a Main Match's EC and DMO make its Death Match, the Death Match's loser
leaves the season, the last two play the Final and its winner is the champion. The seed season
plays the whole of it; the other tests take each refusal in turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit import keys
from audit.bundle import FULL, PUBLIC, export
from audit.season_verify import verify_season
from audit.verify import verify
from commands.cli.matchfile import load, play, renamed, run
from commands.cli.seasonfile import load_season, play_season
from commands.service.arbiter import Arbiter
from commands.service.outcomes import Grant
from domain.decider import HOST
from domain.envelope import GENESIS_PREV
from domain.season import DEATH_MATCH, MAIN, Season
from tests.support.host_key import SIGNER
from tests.test_match_ledger import refused

SEEDS = Path(__file__).resolve().parents[1] / "seeds"
SPRING = SEEDS / "seasons" / "spring.json"
DUEL = "tile_joust-dm-ec-outscores.json"


def lines(text: str) -> list[bytes]:
    return [raw.encode() + b"\n" for raw in text.splitlines()]


def test_the_seed_season_plays_to_its_expectations(app):
    _, mismatches = play_season(app, load_season(SPRING), SPRING.parent)
    assert mismatches == []


def test_the_seed_season_and_each_of_its_matches_verify_offline(sqlite_url):
    signer = keys.generate("host.example")
    app = Arbiter(sqlite_url, signer=signer)
    app.set_origin_prefix("games.example.org")
    data, mismatches = play_season(app, load_season(SPRING), SPRING.parent)
    assert mismatches == []
    for kind in (PUBLIC, FULL):
        audit = verify_season(iter(lines("".join(
            app.season_bundle("spring", kind, signer.verifier_key())))))
        assert (audit.season.champion, audit.season.remaining) == ("fin", ["amy", "fin"])
        assert audit.uncovered == 0  # every match ended, so a checkpoint covers everything
    for match_id in [m["match"] for m in data["matches"]]:
        notes = [n["note"] for n in app.checkpoints(match_id).notes]
        bundle = "".join(export(app.match(match_id), notes, FULL, signer.verifier_key()))
        assert verify(iter(lines(bundle))).ended


# -- a season with one Main Match played ------------------------------------------------------

def play_totems(app: Arbiter) -> Arbiter:
    """Season spring, its seven players with the Totemic Might file's purses, and that match
    played: amy wins, dee is the EC."""
    file = load(SEEDS / "totemic_might-garnet-tiebreak.json").model_copy(
        update={"season": "spring", "match": "totems"})
    app.create_season("spring")
    app.register_all("spring", file.players)
    app.grant_all("spring", [Grant(p, n, reason="purse") for p, n in file.garnets.items() if n])
    assert run(app, file)[1] == []
    return app


@pytest.fixture
def totems(sqlite_url) -> Arbiter:
    return play_totems(Arbiter(sqlite_url, signer=SIGNER))


def duel(app: Arbiter, match: str, dmo: str, ec: str, **season):
    file = renamed(load(SEEDS / DUEL), {"mira": dmo, "theo": ec}).model_copy(
        update={"season": "spring", "match": match})
    return run(app, file, **season)


def create_duel(app: Arbiter, match: str, **kwargs):
    return app.create_match(match_id=match, season="spring", game="tile_joust",
                            setup=kwargs.pop("setup", {}), host_seed="d" * 40,
                            salt_key="cd" * 32, **kwargs)


def test_a_death_match_comes_from_its_main_matchs_ec_and_dmo(totems):
    app = totems
    refused("no_dmo", create_duel, app, "dm", from_match="totems")
    refused("not_an_ec", create_duel, app, "dm", from_match="totems", ec="amy")
    refused("not_a_duel_game", app.create_match, match_id="dm", season="spring",
            game="kings_court", setup={}, host_seed="d" * 40, salt_key="cd" * 32,
            from_match="totems")
    refused("invalid_dmo", app.record_dmo, "spring", "totems", "dee", "the EC herself")
    refused("unknown_player", app.record_dmo, "spring", "totems", "zed", "nobody")
    refused("reason_required", app.record_dmo, "spring", "totems", "gil", " ")
    refused("unknown_match", app.record_dmo, "spring", "nope", "gil", "no match")
    app.record_dmo("spring", "totems", "gil", "named by the winner")
    refused("dmo_recorded", app.record_dmo, "spring", "totems", "ben", "changed my mind")
    # What the season decides, the setup may state but not contradict.
    refused("invalid_setup", create_duel, app, "dm", from_match="totems",
            setup={"dmo": "dee"})
    refused("invalid_setup", create_duel, app, "dm", from_match="totems",
            setup={"players": ["gil", "amy"]})
    refused("invalid_setup", create_duel, app, "dm", from_match="totems",
            setup={"variant": "final_match"})
    create_duel(app, "dm", from_match="totems")
    match = app.match("dm")
    assert (match.players, match.setup.dmo, match.setup.variant) == (
        ["gil", "dee"], "gil", "death_match")
    added = app.season("spring").matches["dm"]
    assert (added["kind"], added["from"], added["ec"], added["dmo"]) == (
        DEATH_MATCH, "totems", "dee", "gil")
    assert added["genesis"] == match.records[0]["entry"]["hash"]
    refused("death_match_exists", create_duel, app, "dm2", from_match="totems")
    refused("not_a_main_match", create_duel, app, "dm3", from_match="dm")


def test_the_death_matchs_loser_leaves_and_never_plays_again(totems):
    app = totems
    app.record_dmo("spring", "totems", "gil", "named by the winner")
    outcome, mismatches = duel(app, "dm", "gil", "dee", from_match="totems")
    assert mismatches == [] and outcome["outcome"] == "dee"  # the EC outscores the DMO
    season = app.season("spring")
    assert season.out == {"gil": {"match": "dm", "seq": season.version}}
    assert season.records[-1]["entry"]["kind"] == "Eliminated"
    assert season.records[-2]["entry"]["public"]["loser"] == "gil"
    # Never again: not in a match, not in a trade, not as a DMO.
    refused("player_eliminated", app.create_match, match_id="later", season="spring",
            game="sealed_bid", setup={"players": ["gil", "amy"]}, host_seed="e" * 40,
            salt_key="ef" * 32)
    refused("player_eliminated", app.transfer, "spring", "amy", "gil", 1, "a gift")
    refused("player_eliminated", app.rule, "spring", "gil", "twice", status="eliminated")
    # The ended Death Match answers him in its own words.
    refused("WRONG_PHASE", app.submit, "dm", "gil", "pass")


def test_an_abandoned_death_match_eliminates_nobody_and_may_be_played_again(totems):
    app = totems
    app.record_dmo("spring", "totems", "gil", "named by the winner")
    create_duel(app, "dm", from_match="totems")
    app.submit("dm", HOST, "end", {"reason": "the host's connection died"})
    season = app.season("spring")
    assert season.out == {}
    assert season.records[-1]["entry"]["public"]["abandoned"] is True
    create_duel(app, "dm-again", from_match="totems")
    assert app.match("dm-again").players == ["gil", "dee"]


def test_an_eliminated_player_cannot_act_in_a_match_still_running(totems):
    app = totems
    app.create_match(match_id="bids", season="spring", game="sealed_bid",
                     setup={"players": ["amy", "ben", "cal"]}, host_seed="e" * 40,
                     salt_key="ef" * 32)
    app.submit("bids", HOST, "open_match")
    app.rule("spring", "cal", "withdrew from the season", status="eliminated")
    refused("player_eliminated", app.submit, "bids", "cal", "bid", {"amount": 3})
    app.submit("bids", "ben", "bid", {"amount": 3})
    app.rule("spring", "cal", "came back", status="reinstated")
    app.submit("bids", "cal", "bid", {"amount": 2})


def test_the_final_is_for_the_last_two_and_crowns_the_champion(totems):
    app = totems
    final = {"setup": {"first_picker": "amy"}, "final": True}
    refused("not_final_two", create_duel, app, "final", **final)
    for player in ("ben", "cal", "dee", "eve", "fin"):
        app.rule("spring", player, "season rule 4: not in the Final", status="eliminated")
    refused("not_final_two", create_duel, app, "final", **{**final, "setup": {
        "players": ["amy", "ben"], "first_picker": "amy"}})
    refused("invalid_setup", create_duel, app, "final", **{**final, "setup": {
        "variant": "death_match", "first_picker": "amy"}})
    refused("invalid_input", create_duel, app, "final", from_match="totems", final=True)
    file = renamed(load(SEEDS / "tile_joust-fm-equaliser-tie.json"),
                   {"penzo": "amy", "jkitty": "gil"}).model_copy(
        update={"season": "spring", "match": "final"})
    outcome, mismatches = run(app, file, final=True)
    assert mismatches == [] and outcome["outcome"] == "gil"
    season = app.season("spring")
    assert season.champion == "gil"
    assert season.records[-1]["entry"]["public"] == {"player": "gil", "match": "final"}
    refused("season_over", app.grant, "spring", "amy", "tol", 1, "consolation")
    refused("season_over", app.register, "spring", "newcomer")
    refused("final_exists", Season.check_final_two, season, ["amy", "gil"])


def test_king_courts_own_dmo_makes_its_death_match(sqlite_url):
    app = Arbiter(sqlite_url, signer=SIGNER)
    file = load(SEEDS / "kings_court-king-win.json")
    assert play(app, file)[1] == []
    main = app.season(file.season).matches[file.match]
    ec, dmo = "erin", main["rules_dmo"]
    assert dmo is not None and ec in main["ecs"]
    refused("dmo_by_rules", app.record_dmo, file.season, file.match, "bob", "mine")
    app.create_match(match_id="kc-dm", season=file.season, game="tile_joust", setup={},
                     host_seed="d" * 40, salt_key="cd" * 32, from_match=file.match)
    assert app.match("kc-dm").players == [dmo, ec]


def test_several_ecs_each_get_their_death_match(sqlite_url):
    app = Arbiter(sqlite_url, signer=SIGNER)
    file = load(SEEDS / "merchants_guild-blackmail.json")
    assert play(app, file)[1] == []
    season, main = file.season, file.match
    assert app.season(season).matches[main]["ecs"] == ["alice", "bob"]
    refused("ec_ambiguous", app.record_dmo, season, main, "carol", "drawn")
    app.record_dmo(season, main, "carol", "drawn", ec="alice")
    app.record_dmo(season, main, "dave", "drawn", ec="bob")
    refused("ec_ambiguous", app.create_match, match_id="x", season=season, game="tile_joust",
            setup={}, host_seed="d" * 40, salt_key="cd" * 32, from_match=main)
    for ec, dmo in (("alice", "carol"), ("bob", "dave")):
        app.create_match(match_id=f"dm-{ec}", season=season, game="tile_joust", setup={},
                         host_seed="d" * 40, salt_key="cd" * 32, from_match=main, ec=ec)
        assert app.match(f"dm-{ec}").players == [dmo, ec]


def test_king_courts_four_early_kings_are_paired_by_the_host():
    """A fourth early end posts four Death Match entrants and no EC (KC-R17): the host pairs
    them, each DMO one of the other entrants."""
    season = Season.start(name="s", origin_prefix="arbiter", salt_key="00" * 32)
    kings, others = ["k1", "k2", "k3", "k4"], ["p5", "p6"]
    for player in kings + others:
        season.register(player)
    season.add_match("kc", "kings_court", MAIN, kings + others, "0" * 64)
    season.post("kc", 40, [{"player": k, "asset": "dm_entrant", "amount": 1,
                            "reason": "four_early_kings"} for k in kings])
    season.finish_match("kc", 41, abandoned=False, outcome="four_early_kings",
                         winners=others, loser=None, dmo=None)
    refused("ec_ambiguous", season.record_dmo, "kc", "k2", "paired by the host")
    refused("invalid_dmo", season.record_dmo, "kc", "p5", "paired", ec="k1")
    season.record_dmo("kc", "k2", "paired by the host", ec="k1")
    assert season.death_match_pairing("kc", "k1") == ("k2", "k1")
    season.add_match("dm", "tile_joust", DEATH_MATCH, ["k2", "k1"], "1" * 64,
                     from_match="kc", ec="k1", dmo="k2")
    assert season.records[0]["entry"]["prev"] == GENESIS_PREV
