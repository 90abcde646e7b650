"""Setup, the opening and the seeded draws (rules 2, TM-R8, TM-R11, TM-R30, TM-R39)."""

from __future__ import annotations

import hashlib

import pytest

from domain.decider import HOST, PUBLIC
from domain.errors import RuleViolation
from domain.games import get_game
from domain.games import totemic_might as tm
from domain.games.totemic_might import draws
from domain.games.totemic_might.grid import TOTEMS
from domain.match import parse_setup
from domain.rng import Rng
from tests.games.totemic_might.harness import (
    HINTS,
    PLAYERS,
    POOL,
    SERIES,
    STARTING,
    WEIGHTS,
    Match,
    kinds,
    standard_setup,
)

SEED = "an-example-seed-for-totemic-might"


def H(*parts: object) -> int:
    """The recipe of docs/games/randomness.md, written out again."""
    text = "|".join(["totemic_might", SEED, *(str(part) for part in parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")


def ordered(items, *label):
    return sorted(items, key=lambda item: (H(*label, item), item))


def seeded_match() -> Match:
    return Match(seed=SEED, weights=None, starting_totems=None, spirit_pool=None, series=None)


def test_the_opening_events_and_their_audiences():
    match = Match()
    assert kinds(match.log) == [
        "SecretSetupRecorded", "GameOpened", *["StartingTotemDealt"] * 7, "RoundOpened",
    ]
    secret, opened, *dealt, round_one = match.log
    assert secret.audience == HOST
    assert secret.data["weights"] == WEIGHTS
    assert secret.data["starting_totems"] == STARTING
    assert secret.data["spirit_pool"] == POOL
    assert secret.data["series"] == SERIES
    assert [h["lift"] for h in secret.data["snake_hints"]] == list(range(11, 21))
    assert opened.audience == PUBLIC
    assert opened.data["chips"] == dict.fromkeys(PLAYERS, 120)
    assert opened.data["letters"] == list("ABCDEFGHIJ")
    # The grid as the rulebook draws it: seasons are rows, sigils columns, totems row by row.
    assert opened.data["grid"]["seasons"] == ["Summer", "Void", "Spring", "Winter"]
    assert opened.data["grid"]["sigils"] == ["Secret", "Creature", "Future", "Land", "Sky"]
    assert opened.data["grid"]["totems"][:6] == [
        "Summer-Secret", "Summer-Creature", "Summer-Future", "Summer-Land", "Summer-Sky",
        "Void-Secret"]
    assert len(opened.data["grid"]["totems"]) == 20
    assert opened.data["schedule"] is None
    assert "weights" not in opened.data and "snake_hints" not in opened.data
    # Each player privately: their own starting totem and its weight.
    assert [(e.audience, e.data["totem"], e.data["weight"]) for e in dealt] == [
        (("p1",), "Summer-Secret", 1), (("p2",), "Void-Creature", 7),
        (("p3",), "Spring-Future", 13), (("p4",), "Winter-Land", 19),
        (("p5",), "Summer-Sky", 5), (("p6",), "Void-Secret", 6),
        (("p7",), "Spring-Creature", 12),
    ]
    assert round_one.audience == PUBLIC
    assert round_one.data == {"round": 1, "round_type": "auction", "series": SERIES[0]}
    assert tm.round_of(match.state) == 1


def test_no_event_carries_a_setup_digest():
    match = Match()
    assert all("digest" not in e.data and "commitment" not in e.data for e in match.log)


def test_priority_by_garnets_then_older_counts_then_setup_order():
    # p7 9; p1-p4 5 each: p3's last count 6 beats p1's and p2's 4; p2's 3 beats p1's 2; p4 has
    # no count at all and ranks below; p5 and p6 3 each with no history: setup order.
    garnets = {"p1": 5, "p2": 5, "p3": 5, "p4": 5, "p5": 3, "p6": 3, "p7": 9}
    history = {"p1": [4, 2], "p2": [4, 3], "p3": [6], "p4": []}
    match = Match(garnets=garnets, garnet_history=history)
    assert match.last("GameOpened").data["priority_list"] == [
        "p7", "p3", "p2", "p1", "p4", "p5", "p6",
    ]


def test_a_missing_older_count_ranks_below_a_zero():
    garnets = dict.fromkeys(PLAYERS, 1)
    match = Match(garnets=garnets, garnet_history={"p1": [4], "p2": [4, 0]})
    assert match.state.priority[:2] == ("p2", "p1")


def test_the_publish_schedule_variant_shows_the_host_schedule():
    match = Match(publish_schedule=True)
    assert match.last("GameOpened").data["schedule"] == SERIES


# Seeded draws, recomputed from the recipe


def test_weights_from_the_seed():
    match = seeded_match()
    expected = {totem: ordered(TOTEMS, "weights").index(totem) + 1 for totem in TOTEMS}
    assert dict(match.state.weights) == expected
    assert sorted(expected.values()) == list(range(1, 21))


def test_starting_totems_pool_and_series_from_the_seed():
    match = seeded_match()
    starting = ordered(TOTEMS, "starting")[:7]
    assert dict(match.state.starting) == dict(zip(PLAYERS, starting, strict=True))
    others = [t for t in TOTEMS if t not in starting]
    pool = set(ordered(others, "pool")[:10])
    assert set(match.state.pool) == pool
    assert list(match.state.pool) == [t for t in TOTEMS if t in pool]  # canonical order
    round_one = ordered(TOTEMS, "series", 1)
    assert match.last("RoundOpened").data["series"] == {
        "A": round_one[:5], "B": round_one[5:10],
    }


def test_series_after_the_host_prefix_come_from_the_seed():
    match = Match(seed=SEED, series=SERIES[:1], starting_chips=60)
    match.deadline()
    round_two = ordered(TOTEMS, "series", 2)
    assert match.last("RoundOpened").data["series"] == {"A": round_two[:5], "B": round_two[5:10]}


def test_each_player_learns_the_weight_of_their_seeded_starting_totem():
    match = seeded_match()
    for event in match.all("StartingTotemDealt"):
        assert event.data["weight"] == match.state.weights[event.data["totem"]]


# Setup validation: the framework reports the game's SETUP_ERROR, `INVALID_SETUP`


def other_hints(**change):
    return [{**hint, **change} if hint["letter"] == "A" else hint for hint in HINTS]


INVALID = [
    {"players": PLAYERS[:6]},
    {"players": [*PLAYERS[:6], "p1"]},
    {"players": [*PLAYERS[:6], "host"]},
    {"snake_hints": HINTS[:9]},
    {"snake_hints": other_hints(letter="K")},
    {"snake_hints": other_hints(lift=12)},
    {"snake_hints": other_hints(lift=21), "snake_lifts_distinct": False},
    {"snake_hints": None},  # no hints at all: the match cannot open
    {"weights": {**WEIGHTS, "Void-Sky": 1}},
    {"weights": {t: w for t, w in WEIGHTS.items() if t != "Void-Sky"}},
    {"starting_totems": {**STARTING, "p2": "Summer-Secret"}},
    {"starting_totems": {**STARTING, "p2": "Autumn-Sky"}},
    {"starting_totems": {p: t for p, t in STARTING.items() if p != "p7"}},
    {"spirit_pool": POOL[:9]},
    {"spirit_pool": [*POOL[:9], "Summer-Secret"]},
    {"spirit_pool": POOL, "starting_totems": None},
    {"series": [{"A": SERIES[0]["A"][:4], "B": SERIES[0]["B"]}]},
    {"series": [{"A": SERIES[0]["A"], "B": [*SERIES[0]["B"][:4], "Void-Land"]}]},
    {"series": [{"A": SERIES[0]["A"], "B": SERIES[0]["B"], "C": []}]},
    {"garnet_history": {"zed": [1]}},
    {"garnet_history": {"p1": [-1]}},
    {"draws": {"pick|1|C|p1": "GARNET"}},
    {"draws": {"pick|0|A|p1": "GARNET"}},
    {"draws": {"pick|1|A|zed": "GARNET"}},
    {"draws": {"wolf_lift|1|p1": 3}},
    {"draws": {"fox_lift|1|p1": True}},
    {"draws": {"spirit_shared|1": "GARNET"}},
    {"draws": {"weights|1": 1}},
    {"tie_rotation": "everyone"},
    {"bet_min_per_series": 0},
    {"end_player_count": 8},
    {"final_max_attempts": 0},
    {"unknown_variant": True},
]


@pytest.mark.parametrize("change", INVALID, ids=[str(sorted(c)) for c in INVALID])
def test_invalid_setups_are_refused_before_the_match_exists(change):
    with pytest.raises(RuleViolation) as caught:
        parse_setup(get_game("totemic_might"), standard_setup(**change))
    assert caught.value.code == "INVALID_SETUP"


def test_the_variants_default_to_the_rulings():
    setup = tm.Setup(players=PLAYERS, snake_hints=HINTS)
    assert (setup.starting_chips, setup.bet_min_per_series, setup.bet_max_per_series,
            setup.bet_max_per_round) == (120, 1, 10, 15)
    assert (setup.end_chip_threshold, setup.end_player_count, setup.weighings_per_round) == (
        15, 3, 3)
    assert (setup.snake_max_uses, setup.snake_lifts_distinct, setup.wolf_modulus) == (2, True, 8)
    assert (setup.wolf_restriction, setup.bear_cost, setup.bear_fine_extra) == ("totem", 2, 1)
    assert (setup.fox_garnet_cost, setup.tie_rotation, setup.balloons_on_trial_scale) == (
        4, "all_but_last", True)
    assert (setup.weighing_results, setup.final_max_attempts, setup.guess_penalty) == (
        "immediate", None, 3)
    assert setup.opal_requires_correct_guess is True
    assert setup.publish_schedule is False


def test_the_rulebooks_example_seed():
    """docs/games/totemic_might.md 11.1: the draws of the weak seed `example-seed`."""
    match = Match(seed="example-seed", weights=None, starting_totems=None, spirit_pool=None,
                  series=None)
    secret = match.log[0].data
    rows = {"Summer": [2, 6, 20, 7, 3], "Void": [8, 13, 17, 14, 16],
            "Spring": [12, 9, 19, 15, 11], "Winter": [1, 4, 10, 18, 5]}
    assert secret["weights"] == {
        f"{season}-{sigil}": weight for season, weights in rows.items()
        for sigil, weight in zip(("Secret", "Creature", "Future", "Land", "Sky"), weights,
                                 strict=True)}
    assert secret["starting_totems"] == {
        "p1": "Summer-Land", "p2": "Spring-Land", "p3": "Spring-Secret", "p4": "Summer-Secret",
        "p5": "Spring-Sky", "p6": "Summer-Creature", "p7": "Void-Sky"}
    assert secret["spirit_pool"] == [
        "Summer-Sky", "Void-Secret", "Void-Creature", "Void-Future", "Spring-Creature",
        "Spring-Future", "Winter-Secret", "Winter-Creature", "Winter-Land", "Winter-Sky"]
    assert match.last("RoundOpened").data["series"] == {
        "A": ["Spring-Future", "Spring-Sky", "Void-Creature", "Summer-Future", "Winter-Land"],
        "B": ["Void-Future", "Void-Secret", "Winter-Future", "Spring-Creature",
              "Winter-Creature"]}
    assert draws.series(match.setup, Rng(tm.GAME_ID, "example-seed"), 2) == {
        "A": ["Summer-Future", "Void-Secret", "Void-Sky", "Spring-Sky", "Spring-Secret"],
        "B": ["Winter-Land", "Void-Future", "Void-Creature", "Winter-Secret", "Spring-Future"]}
    items = ["Summer-Future", "Void-Creature", "Spring-Future", "Spring-Sky", "Winter-Land",
             "GARNET"]
    pool = secret["spirit_pool"]

    def drawn(options, label, *parts):
        return draws.draw(match.setup, "example-seed", options, label, *parts).outcome

    assert drawn(items, "pick", 1, "A", "p7") == "Void-Creature"
    assert drawn(items, "pick", 1, "A", "p1") == "GARNET"
    assert drawn(pool, "spirit_default", 2, "p7") == "Winter-Creature"
    assert drawn(pool, "spirit_shared", 2) == "Winter-Sky"
    assert drawn([1, 2], "wolf_lift", 1, "p2") == 1
    assert drawn([1, 2, 3, 4, 5], "fox_lift", 1, "p3") == 5
