"""The test vector of rulebook 10.1 through the draws module and through a whole pre-game close."""

from __future__ import annotations

from domain.games import amalgamation as am
from domain.games.amalgamation import draws
from domain.rng import Rng, seed_commitment
from tests.games.amalgamation.harness import PLAYERS, Match

VECTOR_SEED = "example-seed"


def rng() -> Rng:
    return Rng(am.GAME_ID, VECTOR_SEED)


def test_the_hash_of_the_vector():
    expected = 0x5F584B129918E4E79129334FEF2369C3937692C54C172306A15908A5BE5B3792
    assert rng().h("gt", "p1") == expected


def test_the_gamewide_tiebreak_of_the_vector():
    assert draws.gamewide_tiebreak(rng(), PLAYERS) == ["p4", "p5", "p1", "p6", "p2", "p3"]


def test_the_default_teams_of_the_vector():
    assert draws.default_teams(rng(), PLAYERS) == {
        "red": ["p3", "p4", "p2"],
        "white": ["p1", "p6", "p5"],
    }


def test_the_tile_schedule_of_the_vector():
    schedule = draws.tile_schedule(rng())
    assert schedule[0] == [-22, -8, -29, -15, -21]
    assert schedule[6] == [-18, -5, -33, -17, -35]
    assert sorted(t for tiles in schedule for t in tiles) == list(range(-35, 0))


def test_the_random_roles_of_round_one():
    roles = [draws.random_role(rng(), 1, player) for player in PLAYERS]
    assert roles == ["police", "police", "police", "mafia", "cartel", "cartel"]


def test_the_commitment_of_the_vector():
    assert seed_commitment(VECTOR_SEED) == (
        "cd139b161afd30dee3e1924f98dbae55ed2206c803f2a1dff5f4b6b62ce0d9f7"
    )


def test_a_match_that_leaves_everything_to_the_seed_draws_the_vector():
    match = Match(seed=VECTOR_SEED, gamewide_tiebreak=None, default_teams=None, tile_schedule=None)
    closed = match.last("PregameClosed").data
    assert closed["gamewide_tiebreak"] == ["p4", "p5", "p1", "p6", "p2", "p3"]
    # Teams are published in roster order.
    assert closed["teams"] == {"red": ["p2", "p3", "p4"], "white": ["p1", "p5", "p6"]}
    assert closed["ma_initial_order"] == ["p4", "p5", "p1", "p6", "p2", "p3"]
    assert match.last("RoundOpened").data["tiles"] == [-22, -8, -29, -15, -21]
    drawn = match.last("SetupDrawn").data
    assert drawn["sources"] == dict.fromkeys(
        ("gamewide_tiebreak", "default_teams", "tile_schedule"), "seed"
    )
    assert drawn["tile_schedule"][6] == [-18, -5, -33, -17, -35]
    # Nobody submits in round 1: every role is the seeded draw.
    match.host("close_round")
    assert match.last("ChipThiefRoundResolved").data["roles"] == {
        "p1": "police",
        "p2": "police",
        "p3": "police",
        "p4": "mafia",
        "p5": "cartel",
        "p6": "cartel",
    }
    assert match.last("DefaultsApplied").data["defaulted"] == PLAYERS


def test_explicit_setup_is_used_as_given():
    match = Match(seed=VECTOR_SEED)
    closed = match.last("PregameClosed").data
    assert closed["gamewide_tiebreak"] == PLAYERS
    assert closed["teams"] == {"red": ["p1", "p2", "p3"], "white": ["p4", "p5", "p6"]}
    assert match.last("RoundOpened").data["tiles"] == [-1, -2, -3, -4, -5]
    assert match.last("SetupDrawn").data["sources"] == dict.fromkeys(
        ("gamewide_tiebreak", "default_teams", "tile_schedule"), "setup"
    )
