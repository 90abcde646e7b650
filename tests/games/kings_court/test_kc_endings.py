"""Game ends: early Kings and replays, the fourth early end, normal ends, rewards, the King's
gift, the EC and its tie rules, the DMO.

Standard court: King p11, Dukes p1-p5, Nobles p6-p10, annoyed p5 and p10.
"""

from __future__ import annotations

import pytest

from domain.decider import PUBLIC, Posting
from domain.games import kings_court as kc
from tests.games.kings_court.kc_harness import PLAYERS, Match, kinds, role_set

DUKES = ["p1", "p2", "p3", "p4", "p5"]
NOBLES = ["p6", "p7", "p8", "p9", "p10"]


def elect_all(match: Match, *players: str) -> None:
    for player in players:
        match.elect(player)


# Early ends


@pytest.mark.parametrize("before", [[], ["p1"], ["p1", "p6"]])
def test_a_king_first_second_or_third_to_join_is_early(before):
    match = Match()
    elect_all(match, *before)
    events = match.elect("p11")
    found = match.last("EarlyKingFound")
    assert found.audience == PUBLIC
    assert found.data == {"game": 1, "king": "p11", "moe": 1, "garnets_taken": 2, "next_game": 2}
    assert found.postings == (
        Posting("p11", "moe", 1, "early_king"),
        Posting("p11", "garnets", -2, "early_king"),
    )
    public = [e.kind for e in events if e.audience == PUBLIC]
    assert public[-4:] == ["MemberJoined", "EarlyKingFound", "GameStarted", "RoundOpened"]
    assert "GameEnded" not in kinds(events)
    assert match.last("GameStarted").data == {"game": 2, "previous_kings": ["p11"]}
    assert match.state.game.court == () and match.state.game.totals == {}
    assert match.state.game.king != "p11"  # drawn again without earlier Kings


def test_a_king_fourth_to_join_is_not_early():
    match = Match()
    elect_all(match, "p1", "p2", "p3", "p11")
    assert match.last("GameEnded").data["winner"] == "dukes"
    assert match.all("EarlyKingFound") == []


def test_the_early_king_penalty_takes_only_what_is_left_after_his_missed_vote():
    match = Match(garnets={**dict.fromkeys(PLAYERS, 10), "p11": 2})
    match.elect("p11")  # p11 misses the vote (-1 of 2), then the penalty finds 1
    assert match.last("EarlyKingFound").data["garnets_taken"] == 1
    assert match.balances["p11"] == 0


def test_the_replayed_game_gets_new_roles_and_every_player_is_told_privately():
    match = Match()
    match.elect("p11")
    drawn = match.last("GameRolesDrawn")
    assert drawn.data["game"] == 2 and drawn.audience == "host"
    told = match.all("RoleDisclosed")[11:]
    assert [e.audience for e in told] == [(p,) for p in PLAYERS]
    assert [e.data["role"] for e in told] == [drawn.data["roles"][p] for p in PLAYERS]


def four_early_kings() -> Match:
    games = [
        role_set(),
        role_set(king="p1", dukes=("p11", "p2", "p3", "p4", "p5"), lists={}),
        role_set(king="p2", dukes=("p1", "p11", "p3", "p4", "p5"), lists={}),
        role_set(king="p3", dukes=("p1", "p2", "p11", "p4", "p5"), lists={}),
    ]
    match = Match(games=games)
    elect_all(match, "p11", "p1", "p2", "p3")
    return match


def test_the_fourth_early_end_ends_the_match_with_the_four_kings():
    match = four_early_kings()
    ended = match.last("MainMatchEnded")
    assert ended.data == {"outcome": "four_early_kings", "death_match": ["p11", "p1", "p2", "p3"]}
    assert ended.postings == tuple(
        Posting(p, "dm_entrant", 1, "four_early_kings") for p in ("p11", "p1", "p2", "p3")
    )
    assert match.last("EarlyKingFound").data["next_game"] is None
    assert kc.finished(match.state)
    assert {asset for asset, by_player in match.ledger.items() if any(by_player.values())} == {
        "garnets",
        "moe",
        "dm_entrant",
    }
    assert [match.ledger["moe"][p] for p in ("p11", "p1", "p2", "p3")] == [1, 1, 1, 1]
    result = kc.results(match.state)
    assert result["outcome"] == "four_early_kings"
    assert result["ranks"] == {p: 2 if p in ("p11", "p1", "p2", "p3") else 1 for p in PLAYERS}
    assert result["details"]["death_match"] == ["p11", "p1", "p2", "p3"]
    assert result["details"]["kings"] == ["p11", "p1", "p2", "p3"]
    assert result["details"]["court"] == []  # no game ended normally: no court (a ruling)


# Normal ends


def test_the_king_left_alone_joins_at_once_and_wins():
    match = Match()
    elect_all(match, *DUKES[:4], *NOBLES[:4], "p5")
    events = match.elect("p10")
    joins = [e.data for e in events if e.kind == "MemberJoined"]
    assert [(j["player"], j["via"]) for j in joins] == [("p10", "votes"), ("p11", "alone")]
    assert kinds(events).count("RoundOpened") == 0
    # p11 cast the last round's only vote; p10 missed it; the King is not asked to vote again.
    assert [e.data["player"] for e in events if e.kind == "MissedVotePenalised"] == ["p10"]
    ended = match.last("GameEnded").data
    assert (ended["dukes_in_court"], ended["nobles_in_court"], ended["winner"]) == (5, 5, "king")
    assert ended["king_garnets"] == 5
    # One vote each; bonuses by election order p1 p2 p3 p4 p6 = 5 4 3 2 1, then 0.
    bonuses = {p: ended["ec_scores"][p]["bonus"] for p in ("p1", "p2", "p3", "p4", "p6", "p7")}
    assert bonuses == {"p1": 5, "p2": 4, "p3": 3, "p4": 2, "p6": 1, "p7": 0}
    assert ended["ec_tied"] == ["p5", "p7", "p8", "p9", "p10"]


def test_a_team_win_reveals_everything_and_rewards_all_five():
    match = Match()
    elect_all(match, "p1", "p6", "p2", "p3", "p11")
    ended = match.last("GameEnded")
    assert ended.audience == PUBLIC
    assert ended.data["roles"] == {
        **dict.fromkeys(DUKES, "duke"),
        **dict.fromkeys(NOBLES, "noble"),
        "p11": "king",
    }
    assert (ended.data["annoyed_duke"], ended.data["annoyed_noble"]) == ("p5", "p10")
    assert ended.data["court"] == ["p1", "p6", "p2", "p3", "p11"]
    assert (ended.data["dukes_in_court"], ended.data["nobles_in_court"]) == (3, 1)
    assert ended.data["winner"] == "dukes" and ended.data["opal"] is None
    awards = match.last("AwardsGranted")
    assert awards.postings == tuple(
        posting
        for p in DUKES
        for posting in (Posting(p, "tol", 1, "dukes_win"), Posting(p, "garnets", 2, "dukes_win"))
    )
    freeze = match.last("TradeFreezeStarted")
    assert freeze.postings == tuple(
        Posting(p, "trade_freeze", 1, "kings_court_ec_pending") for p in PLAYERS
    )
    assert kc.round_of(match.state) == 6  # five election rounds, then the post-game round


def test_the_opal_goes_to_the_single_winner_outside_the_court():
    match = Match()
    elect_all(match, "p1", "p2", "p3", "p4", "p6", "p11")
    assert match.last("GameEnded").data["opal"] == "p5"
    assert Posting("p5", "opal", 1, "opal") in match.last("AwardsGranted").postings


def test_annoyed_players_count_by_their_true_role():
    match = Match()
    elect_all(match, "p5", "p1", "p6", "p11")  # p5 is a Duke the Judge calls a noble
    ended = match.last("GameEnded").data
    assert (ended["dukes_in_court"], ended["nobles_in_court"], ended["winner"]) == (2, 1, "dukes")


def test_nobles_can_win():
    match = Match()
    elect_all(match, "p6", "p7", "p1", "p11")
    assert match.last("GameEnded").data["winner"] == "nobles"
    assert kc.results(match.state)["outcome"] == "nobles"


# The King wins


def king_wins() -> Match:
    """Elected p1 (D), p6 (N), p2 (D), p7 (N), then p11: two and two."""
    match = Match()
    elect_all(match, "p1", "p6", "p2", "p7", "p11")
    return match


def test_the_king_wins_three_tol_and_half_the_others_in_garnets():
    match = king_wins()
    ended = match.last("GameEnded").data
    assert ended["winner"] == "king" and ended["king_garnets"] == 2
    assert match.last("AwardsGranted").postings == (
        Posting("p11", "tol", 3, "king_win"),
        Posting("p11", "garnets", 2, "king_win"),
    )
    assert match.state.phase == "king_gift"


def test_the_default_gift_goes_to_the_earliest_elected_duke_and_noble():
    match = king_wins()
    match.host("close_king_gift")
    gift = match.last("KingGiftMade")
    assert gift.data == {"duke": "p1", "noble": "p6", "defaulted": True}
    assert gift.postings == (
        Posting("p1", "tol", 1, "king_gift"),
        Posting("p6", "tol", 1, "king_gift"),
        Posting("p11", "tol", -2, "king_gift"),
    )
    assert match.ledger["tol"]["p11"] == 1


def test_the_king_may_gift_anyone_of_each_team_and_change_his_mind():
    match = king_wins()
    receipt = match.do("p11", "king_gift", duke="p2", noble="p6")
    assert receipt[0].audience == ("p11",)
    match.do("p11", "king_gift", duke="p3", noble="p10")  # outside the court, annoyed: fine
    match.host("close_king_gift")
    assert match.last("KingGiftMade").data == {"duke": "p3", "noble": "p10", "defaulted": False}


def test_after_a_king_win_the_pool_is_all_ten_and_the_king_alone_decides_a_tie():
    match = king_wins()
    match.host("close_king_gift")
    ended = match.last("GameEnded").data
    # One vote each for p1, p6, p2, p7 (and p11); bonuses 5, 4, 3, 2 by election order.
    assert ended["ec_scores"]["p1"] == {"votes": 1, "bonus": 5, "score": 6}
    assert ended["ec_scores"]["p7"] == {"votes": 1, "bonus": 2, "score": 3}
    assert ended["ec_scores"]["p3"] == {"votes": 0, "bonus": 0, "score": 0}
    assert list(ended["ec_scores"]) == PLAYERS[:10]
    assert ended["ec_tied"] == ["p3", "p4", "p5", "p8", "p9", "p10"]
    assert match.reject("p1", "ec_vote", candidate="p9") == "not_in_winning_party"
    match.do("p11", "ec_vote", candidate="p9")
    match.host("close_ec_vote")
    decided = match.last("EcDecided").data
    assert (decided["ec"], decided["decided_by"], decided["needed"]) == ("p9", "party_vote", 1)
    result = kc.results(match.state)
    assert result["ranks"] == {p: 1 if p == "p11" else 3 if p == "p9" else 2 for p in PLAYERS}


# The EC


def scripted_team_win(**options) -> Match:
    """Explicit ballots so that vote totals differ (see the comments for the counts)."""
    match = Match(**options)
    match.round(
        {"p2": "p1", "p3": "p1", "p4": "p1", "p5": "p1", "p6": "p8", "p7": "p9", "p8": "p10"}
    )
    match.round({"p2": "p6"})  # p6 joins second with a single vote
    match.round(
        {"p3": "p2", "p4": "p2", "p5": "p2", "p7": "p8", "p8": "p9", "p9": "p10", "p10": "p7"}
    )
    match.round(
        {"p4": "p3", "p5": "p3", "p11": "p3", "p7": "p8", "p8": "p10", "p9": "p7", "p10": "p9"}
    )
    match.round({"p4": "p11", "p5": "p11"})
    # Nobles' totals: p6 1, p7 2, p8 3, p9 3, p10 3; p6 was 2nd elected (+4).
    return match


def test_a_single_lowest_score_is_the_ec_at_once():
    match = scripted_team_win()
    ended = match.last("GameEnded").data
    assert ended["ec_scores"] == {
        "p6": {"votes": 1, "bonus": 4, "score": 5},
        "p7": {"votes": 2, "bonus": 0, "score": 2},
        "p8": {"votes": 3, "bonus": 0, "score": 3},
        "p9": {"votes": 3, "bonus": 0, "score": 3},
        "p10": {"votes": 3, "bonus": 0, "score": 3},
    }
    assert ended["ec_tied"] == ["p7"]
    decided = match.last("EcDecided")
    assert decided.data["ec"] == "p7" and decided.data["decided_by"] == "lowest_score"
    assert decided.postings == (Posting("p7", "ec", 1, "elimination_candidate"),)
    assert match.state.phase == "awaiting_dmo"
    assert match.reject("p1", "vote", candidate="p2") == "match_over"


def test_variant_the_bonus_only_breaks_ties():
    match = scripted_team_win(ec_bonus="tiebreak_only")
    assert match.last("GameEnded").data["ec_scores"]["p6"] == {"votes": 1, "bonus": 4, "score": 1}
    assert match.last("EcDecided").data["ec"] == "p6"


def ec_tie(garnets: dict[str, int] | None = None, **options) -> Match:
    """Dukes win; Nobles p7-p10 tie at 0 and each missed all five votes (-5)."""
    match = Match(garnets={**dict.fromkeys(PLAYERS, 10), **(garnets or {})}, **options)
    elect_all(match, "p1", "p6", "p2", "p3", "p11")
    assert match.last("GameEnded").data["ec_tied"] == ["p7", "p8", "p9", "p10"]
    return match


def test_a_strict_majority_of_the_party_names_the_ec():
    match = ec_tie()
    for voter, candidate in (("p1", "p8"), ("p2", "p8"), ("p4", "p8"), ("p4", "p9"), ("p3", "p8")):
        match.do(voter, "ec_vote", candidate=candidate)
    match.host("close_ec_vote")
    decided = match.last("EcDecided").data
    assert decided == {
        "ec": "p8",
        "decided_by": "party_vote",
        "counts": {"p7": 0, "p8": 3, "p9": 1, "p10": 0},
        "needed": 3,
        "garnets": None,
    }


def test_without_a_majority_the_fewest_garnets_decide():
    match = ec_tie(garnets={"p9": 9})
    match.do("p1", "ec_vote", candidate="p8")
    match.do("p2", "ec_vote", candidate="p8")
    match.do("p3", "ec_vote", candidate="p7")
    match.host("close_ec_vote")
    decided = match.last("EcDecided").data
    assert decided["decided_by"] == "garnets" and decided["ec"] == "p9"
    assert decided["garnets"] == {"p7": 5, "p8": 5, "p9": 4, "p10": 5}
    assert decided["counts"] == {"p7": 1, "p8": 2, "p9": 0, "p10": 0}


def test_equal_garnets_go_to_the_deadlock_coin_recorded_by_the_host():
    match = ec_tie(garnets={"p7": 9, "p10": 9})
    match.host("close_ec_vote")
    opened = match.last("DeadlockCoinOpened")
    assert opened.audience == PUBLIC and opened.data["candidates"] == ["p7", "p10"]
    assert match.state.phase == "deadlock_coin"
    assert match.reject("host", "record_deadlock_result", ec="p8") == "invalid_deadlock_result"
    match.host("record_deadlock_result", ec="p10")
    decided = match.last("EcDecided").data
    assert (decided["ec"], decided["decided_by"]) == ("p10", "deadlock_coin")


def test_variant_plurality_of_ballots():
    match = ec_tie(ec_majority="plurality_of_ballots")
    match.do("p1", "ec_vote", candidate="p8")
    match.do("p2", "ec_vote", candidate="p8")
    match.do("p3", "ec_vote", candidate="p9")
    match.host("close_ec_vote")
    decided = match.last("EcDecided").data
    assert (decided["ec"], decided["decided_by"], decided["needed"]) == ("p8", "party_vote", None)


def test_the_dmo_ends_the_trade_freeze_and_the_match():
    match = scripted_team_win()
    assert not kc.finished(match.state)
    match.host("record_dmo", dmo="p9")
    assert kinds(match.log)[-2:] == ["DmoRecorded", "TradeFreezeEnded"]
    assert match.last("DmoRecorded").data == {"dmo": "p9", "ec": "p7"}
    assert sum(match.ledger["trade_freeze"].values()) == 0
    assert kc.finished(match.state)
    assert match.reject("p7", "dance") == "match_over"
    result = kc.results(match.state)
    assert result["outcome"] == "dukes"
    assert result["ranks"] == {p: 1 if p in DUKES else 3 if p == "p7" else 2 for p in PLAYERS}
    details = result["details"]
    assert details["court"] == ["p1", "p6", "p2", "p3", "p11"]
    assert (details["ec"], details["ec_decided_by"], details["dmo"]) == ("p7", "lowest_score", "p9")
    assert details["kings"] == ["p11"]
