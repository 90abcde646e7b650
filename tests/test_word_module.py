"""The words module (projections/words.py): each outcome, standing, command and message said as
the rulebooks and the pages say it, worked out by hand; never the code itself."""

from __future__ import annotations

import pytest

from projections import words


@pytest.mark.parametrize("game, results, said", [
    # docs/games/kings_court.md 1: the King wins with a balanced court, else the bigger team.
    ("kings_court", {"outcome": "king", "ranks": {"grace": 1, "bob": 2}},
     "the King wins: grace"),
    ("kings_court", {"outcome": "nobles", "ranks": {"frank": 1, "ken": 1, "bob": 2}},
     "the Nobles win: frank and ken"),
    # docs/games/merchants_guild.md 8.5: who cannot pay the tax loses; the richest win.
    ("merchants_guild", {"outcome": "non_payers", "ranks": {"heidi": 1, "ivan": 1, "alice": 3,
                                                            "bob": 3, "carol": 2}},
     "the Guild's non-payers lose (alice and bob); the richest win: heidi and ivan"),
    ("merchants_guild", {"outcome": "least_gold", "ranks": {"frank": 1, "erin": 3, "bob": 2}},
     "the poorest lose (erin); the richest wins: frank"),
    # docs/games/amalgamation.md 7.2: one winner, two or three jointly, four or more none.
    ("amalgamation", {"outcome": "joint_winners", "ranks": {"ben": 1, "fay": 1, "ann": 3}},
     "the joint winners on match points are ben and fay"),
    ("amalgamation", {"outcome": "no_winner", "ranks": {}},
     "nobody wins: four or more share the most match points"),
    # Totemic Might and Tile Joust publish the winner's id as the outcome.
    ("totemic_might", {"outcome": "amy", "ranks": {"amy": 1, "bo": 2}}, "the winner is amy"),
    # A game that has not written its words yet: the code made readable, never the code.
    ("new_game", {"outcome": "last_one_standing", "ranks": {"zoe": 1}},
     "last one standing, first: zoe"),
])
def test_an_outcome_in_words(game, results, said):
    assert words.outcome(game, results) == said
    assert "_" not in words.sentence(said)


def test_no_outcome_before_the_end():
    assert words.outcome("kings_court", None) is None
    assert words.outcome("kings_court", {"outcome": None, "ranks": {}}) is None
    assert words.ended("kings_court", None) == "over"


def test_a_message_reads_as_a_sentence():
    assert words.sentence("open the host's link (`arbiter tokens host`)") == \
        "Open the host's link (arbiter tokens host)."
    assert words.sentence("no match 'kc-9'") == "No match “kc-9”."
    assert words.sentence("vote was sent 31 times this round") == \
        "Vote was sent 31 times this round."


@pytest.mark.parametrize("said", [
    "kc-1: other writers held the store for 5 s; nothing was recorded, send it again",
    "alice: no such player in this season",
    "vote.candidate: 'zed' is not a player",
    "season_2 is not open",
])
def test_a_message_that_opens_with_a_name_keeps_it_as_written(said):
    assert words.sentence(said) == words.plain(said) + "."
    assert words.plain("the King's gift and the host's link") == \
        "the King's gift and the host's link"  # apostrophes are not a repr's quotes


def test_a_command_as_the_player_sent_it():
    assert words.command("kings_court", "vote", {"candidate": "carol"}) == "vote for carol"
    assert words.command("merchants_guild", "vote", {"bills": [4, 11]}) == \
        "vote for bills 4 and 11"
    assert words.command("tile_joust", "use_items",
                         {"items": [{"item": "tile_inversion", "tile": "s1g1M"}]}) == \
        "use of Tile Inversion on tile s1g1M"
    assert words.command("amalgamation", "submit_round", {"invest": 10, "ct_role": "mafia"}) == \
        "submit round: invest 10, ct role mafia"
    assert words.receipt("bob", "kings_court", "vote", {"candidate": "carol"}, 17, 2) == \
        "bob's vote for carol, entry #17, is in the log under the checkpoint of round 2"


def test_standings_instants_and_rounds():
    assert words.standing("runner_up") == "runner-up"
    assert words.instant("2026-11-30T20:00:00Z") == "Mon 30 Nov 2026, 20:00 UTC"
    assert words.instant("not a time") == "not a time"
    assert words.round_name(0) == "the opening" and words.round_name(3) == "round 3"
    assert words.code_or_text("match_winner") == "match winner"
    assert words.code_or_text("Opening purse") == "Opening purse"


def test_a_part_is_told_only_to_who_plays():
    created = {"kind": "MatchCreated", "data": {"players": ["ann", "bob"]}}
    view = {"game": "amalgamation", "events": [created],
            "summary": {"teams": {"red": ["ann"], "white": ["bob"]}}}
    assert words.role(view, "ann")["role"] == "In Kong's Dilemma you play for the red team."
    assert words.role(view, "public") is None and words.role(view, "host") is None
