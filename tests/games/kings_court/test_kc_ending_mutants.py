"""A normal end's fields and branches that other tests leave unread (issue 16, mutation
testing), worked out from rulebook 5.5 and section 8 (KC-R19..R26) for the standard court
of kc_harness: King p11, Dukes p1-p5, Nobles p6-p10."""

from __future__ import annotations

from tests.games.kings_court.kc_harness import Match
from tests.support.deciders import is_plain_json

DUKES = ["p1", "p2", "p3", "p4", "p5"]
NOBLES = ["p6", "p7", "p8", "p9", "p10"]


def elect_all(match: Match, *players: str) -> None:
    for player in players:
        match.elect(player)


def test_a_king_win_records_whole_garnets_no_opal_and_names_its_game():
    match = Match()
    elect_all(match, "p1", "p6", "p2", "p7", "p11")  # two Dukes, two Nobles: the King wins
    ended = match.last("GameEnded").data
    assert ended["game"] == 1
    assert ended["king_garnets"] == 2 and type(ended["king_garnets"]) is int
    assert ended["opal"] is None
    awards = match.last("AwardsGranted").data
    assert awards == {"game": 1, "awards": {"p11": {"tol": 3, "garnets": 2, "opal": 0}}}
    assert is_plain_json(awards) and is_plain_json(ended)


def test_a_team_win_gives_the_king_no_garnets():
    match = Match()
    elect_all(match, "p1", "p6", "p2", "p3", "p11")  # three Dukes, one Noble
    ended = match.last("GameEnded").data
    assert (ended["game"], ended["winner"], ended["king_garnets"]) == (1, "dukes", 0)
    assert ended["party"] == DUKES
    assert list(ended["ec_scores"]) == NOBLES
    assert match.last("AwardsGranted").data["game"] == 1


def test_when_the_nobles_win_they_are_the_party_and_the_dukes_the_pool():
    match = Match()
    elect_all(match, "p6", "p7", "p1", "p11")  # two Nobles, one Duke
    ended = match.last("GameEnded").data
    assert ended["winner"] == "nobles"
    assert ended["party"] == NOBLES
    assert list(ended["ec_scores"]) == DUKES
    # p8, p9 and p10 are the Nobles outside the court: no single one, no Opal.
    assert ended["opal"] is None
    awards = match.last("AwardsGranted").data["awards"]
    assert awards == {p: {"tol": 1, "garnets": 2, "opal": 0} for p in NOBLES}


def test_after_a_king_win_the_ec_waits_for_the_gift_even_with_a_single_lowest():
    """KC-R21 then KC-R25: the gift comes first, so a single lowest score is decided only
    when the gift closes."""
    match = Match()
    # Round 1: p1 4 votes, p3 p4 p5 one each. Round 2: p6 3, p8 p9 one each.
    match.round(
        {"p2": "p1", "p3": "p1", "p4": "p1", "p6": "p1", "p1": "p3", "p5": "p4", "p7": "p5"}
    )
    match.round({"p2": "p6", "p3": "p6", "p4": "p6", "p5": "p8", "p7": "p9"})
    elect_all(match, "p2", "p7", "p11")  # one vote each
    ended = match.last("GameEnded").data
    assert ended["winner"] == "king"
    # Outside the court p3 p4 p5 p8 p9 have one vote, p10 none: p10 alone is lowest.
    assert ended["ec_tied"] == ["p10"]
    assert match.all("EcDecided") == []
    match.host("close_king_gift")
    assert [e.data["ec"] for e in match.all("EcDecided")] == ["p10"]


def close_with_p6_fifth(p6_votes: int, **options) -> Match:
    """Dukes win; Nobles p7-p10 have two votes each and no bonus; p6, elected fifth (bonus
    1), has `p6_votes` votes."""
    match = Match(**options)
    match.round(
        {
            "p2": "p1",
            "p3": "p1",
            "p4": "p1",
            "p5": "p1",
            "p6": "p7",
            "p7": "p8",
            "p8": "p9",
            "p9": "p10",
        }
    )
    match.round(
        {"p3": "p2", "p4": "p2", "p5": "p2", "p6": "p7", "p7": "p8", "p8": "p9", "p9": "p10"}
    )
    match.round({"p4": "p3"})
    match.round({"p5": "p4"})
    match.round({"p5": "p6", "p7": "p6"} if p6_votes == 2 else {"p5": "p6"})
    match.round({"p5": "p11"})
    assert match.court == ["p1", "p2", "p3", "p4", "p6", "p11"]
    return match


def test_with_the_bonus_always_added_equal_scores_tie_whatever_their_bonus():
    ended = close_with_p6_fifth(1).last("GameEnded").data
    assert ended["ec_scores"]["p6"] == {"votes": 1, "bonus": 1, "score": 2}
    assert ended["ec_scores"]["p7"] == {"votes": 2, "bonus": 0, "score": 2}
    assert ended["ec_tied"] == NOBLES


def test_with_the_bonus_only_as_tiebreak_equal_votes_are_split_by_the_bonus():
    ended = close_with_p6_fifth(2, ec_bonus="tiebreak_only").last("GameEnded").data
    assert ended["ec_scores"]["p6"] == {"votes": 2, "bonus": 1, "score": 2}
    assert ended["ec_tied"] == ["p7", "p8", "p9", "p10"]
