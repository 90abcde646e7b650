"""Election rounds: missed votes, tallies, ties and tie-breaks, name lists, round numbers."""

from __future__ import annotations

import hashlib

from domain.decider import HOST, PUBLIC, Posting
from domain.games import kings_court as kc
from tests.games.kings_court.kc_harness import LISTS, PLAYERS, Match, kinds


def h(seed: str, *parts: object) -> int:
    text = "|".join(["kings_court", seed, *(str(part) for part in parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")


def test_every_player_outside_without_a_vote_loses_a_garnet_privately():
    match = Match(garnets={**dict.fromkeys(PLAYERS, 10), "p3": 0})
    events = match.round({"p1": "p2"})
    missed = [e for e in events if e.kind == "MissedVotePenalised"]
    assert [e.data["player"] for e in missed] == PLAYERS[1:]  # the King p11 included
    assert all(e.audience == (e.data["player"],) for e in missed)
    p2 = missed[0]
    assert p2.data["amount"] == 1 and p2.postings == (Posting("p2", "garnets", -1, "missed_vote"),)
    p3 = missed[1]
    assert p3.data["amount"] == 0 and p3.postings == ()  # nothing to take: no debt
    assert match.balances["p3"] == 0 and match.balances["p1"] == 10
    # p2 is in the court now and is not asked to vote again.
    missed_next = [
        e.data["player"] for e in match.host("close_round") if e.kind == "MissedVotePenalised"
    ]
    assert "p2" not in missed_next and len(missed_next) == 10


def test_variant_negative_garnets_lets_the_penalty_make_debt():
    match = Match(garnets={**dict.fromkeys(PLAYERS, 10), "p3": 0}, allow_negative_garnets=True)
    match.round({"p1": "p2"})
    assert match.balances["p3"] == -1


def test_the_tally_publishes_every_candidates_count_and_a_single_top_joins():
    match = Match()
    match.do("p1", "vote", candidate="p2")
    match.do("p1", "vote", candidate="p3")  # replaces the first vote
    events = match.round({"p2": "p3", "p4": "p5"})
    tally = match.last("VotesTallied")
    assert tally.audience == PUBLIC
    assert tally.data["counts"] == {p: {"p3": 2, "p5": 1}.get(p, 0) for p in PLAYERS}
    assert tally.data["tied"] == []
    joined = match.last("MemberJoined")
    assert joined.audience == PUBLIC
    assert joined.data == {
        "game": 1,
        "round": 1,
        "player": "p3",
        "is_king": False,
        "court": ["p3"],
        "via": "votes",
    }
    assert kinds(events)[-3:] == ["VotesTallied", "MemberJoined", "RoundOpened"]
    assert match.state.game.totals["p3"] == 2


def test_a_tie_at_zero_is_a_tie_among_all_and_the_default_is_seeded():
    match = Match()
    match.host("close_round")
    assert match.last("VotesTallied").data["tied"] == PLAYERS
    assert match.state.phase == "tiebreak"
    events = match.host("close_tiebreak")
    eligible = PLAYERS[:10]  # the tied players without the King, in seat order
    expected = eligible[h("test-seed", "tiebreak", 1, 1) % 10]
    resolved = events[0]
    assert resolved.kind == "TiebreakResolved" and resolved.audience == HOST
    assert resolved.data["choice"] == expected and resolved.data["defaulted"] is True
    assert match.court == [expected]


def test_a_tie_with_the_king_opens_a_tiebreak_even_when_his_choice_is_forced():
    match = Match()
    match.round({"p1": "p3", "p2": "p11"})
    assert match.last("VotesTallied").data["tied"] == ["p3", "p11"]
    assert match.state.phase == "tiebreak"
    match.host("close_tiebreak")
    assert match.court == ["p3"]
    assert match.last("TiebreakResolved").data["defaulted"] is True


def test_the_kings_choice_is_private_and_the_public_sees_only_the_joiner():
    chosen, defaulted = Match(), Match()
    for match in (chosen, defaulted):
        match.round({"p1": "p2", "p2": "p1"})
    receipt = chosen.do("p11", "tiebreak", choice="p2")
    assert receipt[0].audience == ("p11",)
    chosen.do("p11", "tiebreak", choice="p1")  # replaces
    chosen_events = chosen.host("close_tiebreak")
    assert chosen.last("TiebreakResolved").data["defaulted"] is False
    assert chosen.court == ["p1"]
    defaulted_events = defaulted.host("close_tiebreak")
    public = [
        [(e.kind, sorted(e.data)) for e in evs if e.audience == PUBLIC]
        for evs in (chosen_events, defaulted_events)
    ]
    assert (
        public[0]
        == public[1]
        == [
            ("MemberJoined", ["court", "game", "is_king", "player", "round", "via"]),
            ("RoundOpened", ["game", "match_round", "round"]),
        ]
    )
    assert chosen.last("MemberJoined").data["via"] == "tiebreak"


def test_explicit_default_picks_are_used_in_order_and_an_ineligible_one_is_skipped():
    match = Match(tiebreak_default_picks=["p2", "p9"])
    match.round({"p1": "p2", "p2": "p1"})
    match.host("close_tiebreak")
    assert match.court == ["p2"]
    assert match.last("TiebreakResolved").data["source"] == "explicit"
    match.round({"p3": "p4", "p4": "p3"})  # p9 is not tied
    match.host("close_tiebreak")
    resolved = match.last("TiebreakResolved").data
    assert resolved["skipped_pick"] == "p9" and resolved["source"] == "seed"
    assert resolved["choice"] == ["p3", "p4"][h("test-seed", "tiebreak", 1, 2) % 2]
    match.round({"p5": "p6", "p6": "p5"})  # the picks are used up: the seed decides
    match.host("close_tiebreak")
    assert match.last("TiebreakResolved").data["skipped_pick"] is None


def test_variant_seat_order_default():
    match = Match(tiebreak_default="seat_order")
    match.round({"p1": "p3", "p3": "p2"})
    match.host("close_tiebreak")
    assert match.court == ["p2"]


def test_list_names_are_released_at_court_sizes_two_four_and_six():
    match = Match()
    released = {}
    for size, player in enumerate(("p1", "p2", "p3", "p4", "p6", "p7", "p8"), start=1):
        events = match.elect(player)
        released[size] = [e for e in events if e.kind == "ListNameReleased"]
    assert [size for size, events in released.items() if events] == [2, 4, 6]
    for size, index in ((2, 1), (4, 2), (6, 3)):
        events = released[size]
        assert [e.audience for e in events] == [(p,) for p in PLAYERS]
        assert all(e.data["index"] == index for e in events)
        assert [e.data["name"] for e in events] == [LISTS[p][index - 1] for p in PLAYERS]


def test_no_name_is_released_when_the_king_is_the_second_to_join():
    match = Match()
    match.elect("p1")
    events = match.elect("p11")
    assert "ListNameReleased" not in kinds(events)


def test_round_numbers_across_the_match():
    match = Match(open_match=False)
    assert kc.round_of(match.state) == 0
    match.host("open_match")
    assert kc.round_of(match.state) == 1
    match.host("close_round")  # a 0-0 tie: the tie-break belongs to round 1
    assert kc.round_of(match.state) == 1
    match.host("close_tiebreak")
    assert kc.round_of(match.state) == 2
    match.elect("p11")  # early: game 2 opens as match round 3
    assert match.last("RoundOpened").data == {"game": 2, "round": 1, "match_round": 3}
    assert kc.round_of(match.state) == 3
