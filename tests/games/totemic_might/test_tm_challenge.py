"""The final challenge, scores, ranking, awards and the reveal (rules 3.4, 4.7, 4.8, 6.8-6.10,
8, 9, TM-R22-R27, TM-R32, TM-R34, TM-R35, TM-R42), worked out by hand.

In `final_challenge()` (harness) the pieces weigh: p6 210 + 6 = 216 (three groups of 72),
p7 210 + 12 + 9 = 231 (three of 77); nobody else can balance (211, 217, 223, 229, 215 are not
multiples of 3). Garnets then: p1 10, p2 8, p3 8, p4 5, p5 4, p6 1, p7 12.
"""

from __future__ import annotations

from domain.decider import PUBLIC, Posting
from domain.games import totemic_might as tm
from domain.games.totemic_might.grid import TOTEMS
from domain.games.totemic_might.ranking import final_ranking
from tests.games.totemic_might.harness import (
    P6_BALANCED,
    PLAYERS,
    STARTING,
    WEIGHTS,
    Match,
    final_challenge,
    standard_setup,
)

# p7's pieces in three groups of 77: 20+19+18+17+3, 16+15+14+13+12+7, the rest with both spirits.
P7_BALANCED = [
    ["C:Winter-Sky", "C:Winter-Land", "C:Winter-Future", "C:Winter-Creature", "C:Summer-Future"],
    ["C:Winter-Secret", "C:Spring-Sky", "C:Spring-Land", "C:Spring-Future", "C:Spring-Creature",
     "C:Void-Creature"],
    ["C:Summer-Secret", "C:Summer-Creature", "C:Summer-Land", "C:Summer-Sky", "C:Void-Secret",
     "C:Void-Future", "C:Void-Land", "C:Void-Sky", "C:Spring-Secret", "S:Spring-Creature",
     "S:Void-Land"],
]


def lopsided(match: Match, player: str) -> list[list[str]]:
    pieces = list(match.state.challenge[player].pieces)
    return [pieces[:1], pieces[1:2], pieces[2:]]


def test_the_piece_list_is_every_copy_every_spirit_and_every_balloon():
    match = Match(starting_chips=16)
    match.do("p2", "place_wager", kind="snake", letter="B")
    match.deadline()
    match.deadline()
    issued = match.last("FinalPiecesIssued", "p2")
    assert issued.audience == ("p2",)
    assert issued.data["pieces"] == [
        *(f"C:{t}" for t in TOTEMS), "S:Void-Creature", "B:snake-p2-1"]
    opened = match.last("FinalChallengeOpened")
    assert opened.audience == PUBLIC
    assert opened.data == {"round": 3, "trial_copies_discarded": True}
    assert all(not match.held(p).trial for p in PLAYERS)
    assert tm.round_of(match.state) == 3


def test_a_balanced_attempt_sets_the_final_weight():
    match = final_challenge()
    (event,) = match.do("p6", "attempt_balance", sides=P6_BALANCED)
    assert event.audience == ("p6",)
    assert (event.data["balanced"], event.data["final_weight"], event.data["failure_marks"]) == (
        True, 72, 0)


def test_a_failed_attempt_costs_a_mark_and_tells_nothing_more():
    match = final_challenge()
    (event,) = match.do("p6", "attempt_balance", sides=lopsided(match, "p6"))
    assert (event.data["balanced"], event.data["final_weight"], event.data["failure_marks"]) == (
        False, None, 1)
    (event,) = match.do("p6", "attempt_balance", sides=lopsided(match, "p6"))
    assert event.data["failure_marks"] == 2
    match.do("p6", "attempt_balance", sides=P6_BALANCED)
    assert match.state.challenge["p6"].weight == 72


def test_a_malformed_attempt_costs_no_mark():
    match = final_challenge()
    assert match.reject("p6", "attempt_balance", sides=P6_BALANCED[:2]) == "WRONG_SIDE_COUNT"
    assert match.state.challenge["p6"].marks == 0


def test_balloons_take_off_their_lift_in_the_final_challenge():
    """p3 wins Snake letter C (lift 13) in round 1: 210 + 13 - 13 = 210 = 3 x 70."""
    match = Match(starting_chips=16)
    match.do("p3", "place_wager", kind="snake", letter="C")
    match.deadline()
    match.deadline()
    assert match.state.challenge["p3"].pieces[-2:] == ("S:Spring-Future", "B:snake-p3-1")
    sides = [
        ["C:Winter-Sky", "C:Winter-Land", "C:Winter-Future", "C:Spring-Future"],  # 70
        ["C:Winter-Creature", "C:Winter-Secret", "C:Spring-Sky", "C:Spring-Land",
         "C:Void-Future"],  # 70
        ["C:Summer-Secret", "C:Summer-Creature", "C:Summer-Future", "C:Summer-Land",
         "C:Summer-Sky", "C:Void-Secret", "C:Void-Creature", "C:Void-Land", "C:Void-Sky",
         "C:Spring-Secret", "C:Spring-Creature", "S:Spring-Future", "B:snake-p3-1"],  # 70
    ]
    (event,) = match.do("p3", "attempt_balance", sides=sides)
    assert (event.data["balanced"], event.data["final_weight"]) == (True, 70)


def worked_match() -> Match:
    """p7 balances first time (77); p6 fails once then balances (72, 1 mark); p1 fails once
    and never balances (2 marks at the end); p2-p5 never try (1 mark each). Guesses: p1 and p2
    find p7, p3 finds p6, p4 misses p6, p5 finds p1 and p2."""
    match = final_challenge()
    match.do("p7", "attempt_balance", sides=P7_BALANCED)
    match.do("p6", "attempt_balance", sides=lopsided(match, "p6"))
    match.do("p6", "attempt_balance", sides=P6_BALANCED)
    match.do("p1", "attempt_balance", sides=lopsided(match, "p1"))
    match.do("p1", "guess_starting_totem", target="p7", totem="Spring-Creature")
    match.do("p2", "guess_starting_totem", target="p7", totem="Spring-Creature")
    match.do("p3", "guess_starting_totem", target="p6", totem="Void-Secret")
    match.do("p4", "guess_starting_totem", target="p6", totem="Void-Sky")
    match.do("p5", "guess_starting_totem", target="p1", totem="Summer-Secret")
    match.do("p5", "guess_starting_totem", target="p2", totem="Spring-Future")
    match.do("p5", "guess_starting_totem", target="p2", totem="Void-Creature")  # replaces
    match.host("final_deadline")
    return match


def test_scores_ranking_and_awards_of_the_worked_match():
    """Scores: p7 77 - 2x3 = 71; p6 72 - 3 = 69; p1 0 - 3 = -3; p2 0 - 3 = -3; p3, p4, p5 0.
    Marks: p7 0; p2-p6 1; p1 2. Among the one-mark players: p6 (69), then p3 p4 p5 (0) by
    garnets 8, 5, 4, then p2 (-3). p1 last. Correct guesses made: p5 2, p1 p2 p3 1."""
    match = worked_match()
    results = match.last("MatchResults")
    assert results.audience == PUBLIC
    data = results.data
    assert data["ranking"] == ["p7", "p6", "p3", "p4", "p5", "p2", "p1"]
    rows = data["players"]
    assert {p: rows[p]["final_score"] for p in PLAYERS} == {
        "p1": -3, "p2": -3, "p3": 0, "p4": 0, "p5": 0, "p6": 69, "p7": 71}
    assert {p: rows[p]["failure_marks"] for p in PLAYERS} == {
        "p1": 2, "p2": 1, "p3": 1, "p4": 1, "p5": 1, "p6": 1, "p7": 0}
    assert {p: rows[p]["final_weight"] for p in PLAYERS} == {
        "p1": 0, "p2": 0, "p3": 0, "p4": 0, "p5": 0, "p6": 72, "p7": 77}
    assert rows["p7"]["guessed_by"] == ["p1", "p2"] and rows["p7"]["penalty"] == 6
    assert rows["p6"]["guessed_by"] == ["p3"]
    assert {p: rows[p]["correct_guesses"] for p in PLAYERS} == {
        "p1": 1, "p2": 1, "p3": 1, "p4": 0, "p5": 2, "p6": 0, "p7": 0}
    assert {p: rows[p]["end_garnets"] for p in PLAYERS} == {
        "p1": 10, "p2": 8, "p3": 8, "p4": 5, "p5": 4, "p6": 1, "p7": 12}
    assert data["starting_totems"] == STARTING
    assert (data["winner"], data["ec"], data["opal_challenge"]) == ("p7", "p1", "p5")
    assert data["awards"] == {"p1": {"ec": 1}, "p5": {"opal_challenge": 1},
                              "p7": {"tol": 2, "opal": 1}}
    assert set(results.postings) == {
        Posting("p7", "tol", 2, "winner"), Posting("p7", "opal", 1, "winner"),
        Posting("p5", "opal", 1, "opal_challenge"), Posting("p1", "ec", 1, "elimination_candidate"),
    }
    assert "p4" not in str(rows["p6"]["guessed_by"])  # a wrong guess stays private


def test_the_results_and_the_end_of_the_match():
    match = worked_match()
    assert tm.finished(match.state)
    out = tm.results(match.state)
    assert out["outcome"] == "p7"
    assert out["ranks"] == {"p7": 1, "p6": 2, "p3": 3, "p4": 4, "p5": 5, "p2": 6, "p1": 7}
    assert out["details"]["opal_challenge"] == "p5"
    revealed = match.last("SetupRevealed")
    assert revealed.audience == PUBLIC
    assert revealed.data["weights"] == WEIGHTS
    assert revealed.data["starting_totems"] == STARTING
    assert len(revealed.data["spirit_pool"]) == 10
    assert [h["lift"] for h in revealed.data["snake_hints"]] == list(range(11, 21))
    assert match.log[-2:] == [match.last("MatchResults"), revealed]


def no_chips(garnets: dict[str, int], **options) -> Match:
    """Nobody has a chip: nobody bids, everyone is at 0, so round 2 is the final weighing."""
    return Match(garnets=garnets, starting_chips=0, **options)


def test_ties_fall_to_garnets_then_older_counts_then_the_priority_list():
    """Everyone ends with one mark and score 0. p4 has most garnets; p1 p2 p3 p6 p7 have 3 now
    and at the start; p1 and p2 posted 2 last time, p3 1, p6 and p7 nothing; p2's 2 beats p1's 1
    before that; p6 is above p7 on the priority list; p5 has none: last."""
    garnets = {"p1": 3, "p2": 3, "p3": 3, "p4": 5, "p5": 0, "p6": 3, "p7": 3}
    history = {"p1": [2, 1], "p2": [2, 2], "p3": [1]}
    match = no_chips(garnets, garnet_history=history)
    match.deadline()
    match.deadline()
    match.host("final_deadline")
    assert match.last("MatchResults").data["ranking"] == ["p4", "p2", "p1", "p3", "p6", "p7", "p5"]


def test_the_end_balance_counts_before_the_start_balance():
    """As above, but p6 pays 2 for a Bear wager: 1 garnet at the end, below the threes."""
    garnets = {"p1": 3, "p2": 3, "p3": 3, "p4": 5, "p5": 0, "p6": 3, "p7": 3}
    history = {"p1": [2, 1], "p2": [2, 2], "p3": [1]}
    match = no_chips(garnets, garnet_history=history)
    match.deadline()
    match.do("p6", "place_wager", kind="bear", totems=["Void-Sky"])
    match.deadline()
    match.host("final_deadline")
    assert match.last("MatchResults").data["ranking"] == ["p4", "p2", "p1", "p3", "p7", "p6", "p5"]
    assert match.last("MatchResults").data["players"]["p6"]["end_garnets"] == 1


def snakes_for_all_but_p3(**options) -> Match:
    match = no_chips(dict.fromkeys(PLAYERS, 1), **options)
    match.deadline()
    for player, letter in zip(("p1", "p2", "p4", "p5", "p6", "p7"), "ABCDEF", strict=True):
        match.do(player, "place_wager", kind="snake", letter=letter)
    match.deadline()
    return match


def test_no_correct_guess_means_no_opal_challenge_winner():
    match = snakes_for_all_but_p3()
    match.host("final_deadline")
    assert match.last("MatchResults").data["opal_challenge"] is None


def test_without_the_correct_guess_requirement_fewest_wagers_win():
    match = snakes_for_all_but_p3(opal_requires_correct_guess=False)
    match.host("final_deadline")
    data = match.last("MatchResults").data
    assert data["players"]["p3"]["wagers_taken"] == 0
    assert data["players"]["p1"]["wagers_taken"] == 1
    assert data["opal_challenge"] == "p3"


def test_an_opal_tie_goes_to_fewer_wagers_and_otherwise_to_nobody():
    match = snakes_for_all_but_p3()
    match.do("p3", "guess_starting_totem", target="p1", totem="Summer-Secret")
    match.do("p1", "guess_starting_totem", target="p3", totem="Spring-Future")
    match.host("final_deadline")
    assert match.last("MatchResults").data["opal_challenge"] == "p3"
    match = snakes_for_all_but_p3()
    match.do("p2", "guess_starting_totem", target="p1", totem="Summer-Secret")
    match.do("p1", "guess_starting_totem", target="p3", totem="Spring-Future")
    match.host("final_deadline")
    assert match.last("MatchResults").data["opal_challenge"] is None


def test_withdrawing_a_guess():
    match = final_challenge()
    match.do("p1", "guess_starting_totem", target="p7", totem="Spring-Creature")
    (withdrawn,) = match.do("p1", "withdraw_guess", target="p7")
    assert withdrawn.data == {"player": "p1", "target": "p7", "withdrawn": True}
    for target in ("p7", "p1", "zed", 5, None):
        (nothing,) = match.do("p1", "withdraw_guess", target=target)
        assert nothing.data["withdrawn"] is False
    match.host("final_deadline")
    assert match.last("MatchResults").data["players"]["p7"]["guessed_by"] == []


def test_a_score_may_go_below_zero():
    match = final_challenge()
    for guesser in ("p2", "p3", "p4"):
        match.do(guesser, "guess_starting_totem", target="p1", totem="Summer-Secret")
    match.host("final_deadline")
    assert match.last("MatchResults").data["players"]["p1"]["final_score"] == -9


def test_guess_penalty_variant():
    match = final_challenge(guess_penalty=5)
    match.do("p2", "guess_starting_totem", target="p6", totem="Void-Secret")
    match.do("p6", "attempt_balance", sides=P6_BALANCED)
    match.host("final_deadline")
    assert match.last("MatchResults").data["players"]["p6"]["final_score"] == 67


def test_the_rulebooks_ranking_example():
    """docs/games/totemic_might.md 11.6 (the original text's example), players listed in an
    order that is not the answer."""
    setup = tm.Setup.model_validate(standard_setup())
    rows = {"p1": (3, 25, 0), "p2": (1, 20, 10), "p3": (0, 20, 0), "p4": (2, 10, 0),
            "p5": (1, 35, 0), "p6": (0, 30, 0), "p7": (1, 20, 20)}
    marks = {p: row[0] for p, row in rows.items()}
    scores = {p: row[1] for p, row in rows.items()}
    end_garnets = {p: row[2] for p, row in rows.items()}
    ranking = final_ranking(setup, marks, scores, end_garnets, dict.fromkeys(rows, 0),
                            list(rows))
    assert ranking == ["p6", "p3", "p5", "p7", "p2", "p4", "p1"]
