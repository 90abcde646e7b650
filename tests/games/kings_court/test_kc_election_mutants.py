"""Fields of the election's events that other tests leave unread (issue 16, mutation testing):
each value below is worked out from the rulebook (5.1-5.4) and the event table of
kings_court-decisions.md for the standard court of kc_harness (King p11)."""

from __future__ import annotations

from tests.games.kings_court.kc_harness import LISTS, PLAYERS, STANDARD, Match


def test_only_the_games_given_in_setup_have_explicit_lists_and_roles_name_their_game():
    match = Match()
    match.elect("p11")  # the King alone in court: an early end, game 2 is drawn
    first, second = match.all("GameListsDrawn")
    assert (first.data["game"], first.data["explicit"]) == (1, True)
    assert first.data["lists"] == LISTS
    assert (second.data["game"], second.data["explicit"]) == (2, False)
    disclosed = match.all("RoleDisclosed")
    assert [e.data["game"] for e in disclosed] == [1] * 11 + [2] * 11
    assert disclosed[0].data == {"game": 1, "player": "p1", "role": "duke"}
    assert disclosed[10].data == {"game": 1, "player": "p11", "role": "king"}


def test_two_explicit_games_are_both_explicit():
    match = Match(
        games=[
            STANDARD,
            STANDARD
            | {"king": "p10", "nobles": ["p6", "p7", "p8", "p9", "p11"], "annoyed_noble": "p11"},
        ]
    )
    match.elect("p11")
    assert [e.data["explicit"] for e in match.all("GameListsDrawn")] == [True, True]


def test_a_tally_names_its_game_and_round():
    match = Match()
    match.round({"p1": "p2"})
    match.round({"p1": "p3", "p4": "p3"})
    tally = match.last("VotesTallied").data
    counts = dict.fromkeys(PLAYERS, 0)
    counts["p3"] = 2
    del counts["p2"]  # in court: no longer a candidate
    assert tally == {"game": 1, "round": 2, "counts": counts, "tied": []}


def test_a_missed_vote_penalty_names_its_game_round_player_and_amount():
    match = Match()
    match.round({"p1": "p2"})
    match.round({"p1": "p3"})
    missed = match.all("MissedVotePenalised")
    # round 1: ten missed (p2..p11); round 2: p1 and p2 are out of it, nine missed (p3..p11)
    assert len(missed) == 19
    assert missed[10].data == {"game": 1, "round": 2, "player": "p3", "amount": 1}


def test_a_tiebreak_resolution_records_the_tie_the_choice_and_its_source():
    match = Match(tiebreak_default="seat_order")
    match.round({"p1": "p2"})  # round 1: p2 joins
    match.round({"p1": "p4", "p3": "p5"})  # round 2: p4 and p5 tie
    match.host("close_tiebreak")
    assert match.last("TiebreakResolved").data == {
        "game": 1,
        "round": 2,
        "tied": ["p4", "p5"],
        "choice": "p4",
        "defaulted": True,
        "source": "seat_order",
        "skipped_pick": None,
    }
    assert match.court == ["p2", "p4"]


def test_released_list_names_name_their_game():
    match = Match()
    match.elect("p1")
    events = match.elect("p2")
    released = [e for e in events if e.kind == "ListNameReleased"]
    assert released[0].data == {"game": 1, "player": "p1", "index": 1, "name": "p2"}
    assert {e.data["game"] for e in released} == {1}
