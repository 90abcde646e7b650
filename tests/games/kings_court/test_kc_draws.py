"""The seeded draws of the rulebook's section 3, against its worked example."""

from __future__ import annotations

from itertools import combinations

from domain.games.kings_court import GAME_ID, Setup
from domain.games.kings_court.draws import game_secrets, king_peek_coin, seeded_tiebreak
from domain.games.kings_court.roles import DUKE, KING, NOBLE
from domain.rng import Rng
from tests.games.kings_court.kc_harness import PLAYERS, Match

SEED = "example-seed"


def test_the_first_hash_of_the_vector():
    assert Rng(GAME_ID, SEED).h("king", "1") == int(
        "31efc76f43141453bcf0ae60ed1659dbe67edf3e8d81bb7b6fce9fb1760028ad", 16
    )


def test_game_one_of_the_vector():
    secrets = game_secrets(Setup(players=PLAYERS), SEED, 1, [])
    assert secrets.king == "p11"
    assert secrets.team(DUKE, PLAYERS) == ["p1", "p5", "p8", "p9", "p10"]
    assert secrets.team(NOBLE, PLAYERS) == ["p2", "p3", "p4", "p6", "p7"]
    assert (secrets.annoyed_duke, secrets.annoyed_noble) == ("p8", "p2")
    assert secrets.lists["p1"] == ("p10", "p7", "p11")
    assert secrets.lists["p4"] == ("p8", "p5", "p6")


def test_game_two_of_the_vector_excludes_the_first_king():
    secrets = game_secrets(Setup(players=PLAYERS), SEED, 2, ["p11"])
    assert secrets.king == "p3"
    assert secrets.team(DUKE, PLAYERS) == ["p1", "p5", "p6", "p8", "p10"]
    assert (secrets.annoyed_duke, secrets.annoyed_noble) == ("p10", "p11")


def test_games_three_and_four_of_the_worked_example():
    """Worked out with the recipe of docs/games/randomness.md by hand (a few lines of hashlib),
    as the rulebook's worked example continues and tests/games/kings_court/data/
    four_early_kings.json plays it."""
    third = game_secrets(Setup(players=PLAYERS), SEED, 3, ["p11", "p3"])
    assert third.king == "p1"
    assert third.team(DUKE, PLAYERS) == ["p2", "p3", "p4", "p9", "p11"]
    assert (third.annoyed_duke, third.annoyed_noble) == ("p3", "p5")
    fourth = game_secrets(Setup(players=PLAYERS), SEED, 4, ["p11", "p3", "p1"])
    assert fourth.king == "p7"
    assert fourth.team(DUKE, PLAYERS) == ["p3", "p4", "p5", "p6", "p8"]
    assert (fourth.annoyed_duke, fourth.annoyed_noble) == ("p8", "p10")


def test_king_peek_and_tiebreak_of_the_vector():
    assert king_peek_coin(SEED, 1, "p2") == "duke"
    assert seeded_tiebreak(SEED, 1, 3, ["p3", "p7"]) == "p7"


def test_the_vector_through_decide():
    match = Match(games=[], seed=SEED)
    drawn = match.last("GameRolesDrawn").data
    assert drawn["roles"]["p11"] == KING
    lists = match.last("GameListsDrawn").data
    assert lists["lists"]["p1"] == ["p10", "p7", "p11"]
    assert lists["explicit"] is False
    # A peek at the King by p2 answers duke.
    match.do("p2", "peek", target="p11")
    assert match.last("PeekAnswered").data["role_shown"] == "duke"
    # Round 3 ties p3 and p7 (the King is not tied); the default picks p7.
    match.round({"p2": "p1"})
    match.round({"p3": "p2"})
    match.round({"p4": "p3", "p5": "p7"})
    assert match.last("VotesTallied").data["tied"] == ["p3", "p7"]
    match.host("close_tiebreak")
    resolved = match.last("TiebreakResolved").data
    assert (resolved["choice"], resolved["source"], resolved["defaulted"]) == ("p7", "seed", True)
    assert match.court == ["p1", "p2", "p7"]


def test_every_drawn_list_is_valid_in_the_judges_view():
    for seed in ("a", "b", "c"):
        secrets = game_secrets(Setup(players=PLAYERS), seed, 1, [])
        for owner, names in secrets.lists.items():
            shown = [secrets.judge(name) for name in names]
            assert owner not in names and len(set(names)) == 3
            assert DUKE in shown and NOBLE in shown


def test_variant_lists_follow_true_roles():
    judge_would_refuse = 0
    for seed in ("a", "b", "c", "d", "e"):
        secrets = game_secrets(Setup(players=PLAYERS, lists_use="true_roles"), seed, 1, [])
        for names in secrets.lists.values():
            true_roles = [secrets.roles[name] for name in names]
            assert DUKE in true_roles and NOBLE in true_roles
            shown = [secrets.judge(name) for name in names]
            judge_would_refuse += not (DUKE in shown and NOBLE in shown)
    assert judge_would_refuse > 0


def test_lists_may_exclude_the_king():
    setup = Setup(players=PLAYERS, lists_may_include_king=False)
    secrets = game_secrets(setup, "a", 1, [])
    assert all(secrets.king not in names for names in secrets.lists.values())


def test_explicit_lists_are_kept_and_missing_owners_drawn():
    games = [
        {
            "king": "p11",
            "dukes": ["p1", "p2", "p3", "p4", "p5"],
            "nobles": ["p6", "p7", "p8", "p9", "p10"],
            "annoyed_duke": "p5",
            "annoyed_noble": "p10",
            "lists": {"p1": ["p2", "p6", "p11"]},
        }
    ]
    secrets = game_secrets(Setup(players=PLAYERS, games=games), "a", 1, [])
    assert secrets.lists["p1"] == ("p2", "p6", "p11")
    others = [p for p in PLAYERS if p != "p2"]
    assert tuple(sorted(secrets.lists["p2"])) in {tuple(sorted(c)) for c in combinations(others, 3)}


def test_a_derived_game_after_explicit_ones_skips_their_kings():
    games = []
    for king in ("p1", "p2", "p3"):
        others = [p for p in PLAYERS if p != king]
        games.append(
            {
                "king": king,
                "dukes": others[:5],
                "nobles": others[5:],
                "annoyed_duke": others[0],
                "annoyed_noble": others[5],
            }
        )
    setup = Setup(players=PLAYERS, games=games)
    for seed in ("a", "b", "c", "d", "e"):
        assert game_secrets(setup, seed, 4, ["p1", "p2", "p3"]).king not in ("p1", "p2", "p3")
