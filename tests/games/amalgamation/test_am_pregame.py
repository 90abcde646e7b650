"""The opening, the pre-game window and its close (rulebook 3.1-3.3, 7.4): what is told to whom, the
twists and their fallbacks, the garnet rate."""

from __future__ import annotations

import pytest

from domain.decider import HOST, PUBLIC
from domain.errors import RuleViolation
from domain.games import amalgamation as am
from domain.games.amalgamation.pregame import garnet_rate
from domain.match import parse_setup
from tests.games.amalgamation.harness import PLAYERS, STANDARD, Match, kinds, round_args


def test_the_opening_tells_everyone_the_frame_and_each_player_his_garnets():
    match = Match(garnets={"p1": 4, "p3": 1}, close_pregame=False, mm_winner="p2")
    assert kinds(match.log) == ["AmalgamationOpened", *["GarnetsHeld"] * 6]
    opened = match.log[0]
    assert opened.audience == PUBLIC
    assert opened.data["players"] == PLAYERS
    assert opened.data["starting_money"] == 400
    assert opened.data["rounds"] == 7
    assert opened.data["gamewide_tiebreak"] == PLAYERS  # host-supplied: public at once
    assert (opened.data["mm_winner"], opened.data["dm_winner"]) == ("p2", None)
    assert "tile_schedule" not in opened.data and "default_teams" not in opened.data
    held = [(e.audience, e.data["garnets"]) for e in match.log[1:]]
    assert held == [(("p1",), 4), (("p2",), 0), (("p3",), 1)] + [((p,), 0) for p in PLAYERS[3:]]


def test_a_drawn_gt_is_not_public_before_the_close():
    match = Match(close_pregame=False, gamewide_tiebreak=None)
    assert match.log[0].data["gamewide_tiebreak"] is None
    match.host("close_pregame")
    assert match.last("PregameClosed").audience == PUBLIC
    assert len(match.last("PregameClosed").data["gamewide_tiebreak"]) == 6


def test_the_twists_are_used_when_submitted_last_valid_counts():
    match = Match(close_pregame=False, mm_winner="p2", dm_winner="p3")
    match.do("p2", "submit_ma_order", order=["p6", "p5", "p4", "p3", "p2", "p1"])
    match.do("p2", "submit_ma_order", order=["p3", "p1", "p2", "p6", "p5", "p4"])
    match.reject("p2", "submit_ma_order", order=["p1"])
    match.do("p3", "submit_teams", red=["p6", "p1", "p5"], white=["p2", "p3", "p4"])
    match.host("close_pregame")
    closed = match.last("PregameClosed").data
    assert closed["ma_initial_order"] == ["p3", "p1", "p2", "p6", "p5", "p4"]
    assert closed["teams"] == {"red": ["p1", "p5", "p6"], "white": ["p2", "p3", "p4"]}
    assert match.last("RoundOpened").data["ma_order"] == ["p3", "p1", "p2", "p6", "p5", "p4"]
    settled = match.last("PregameSettled")
    assert settled.audience == HOST
    assert (settled.data["teams_from"], settled.data["ma_order_from"]) == ("dm_winner", "mm_winner")


def test_without_twist_submissions_the_fallbacks_apply():
    """MM and DM winners named but silent: the GT is the order, the default teams play."""
    match = Match(close_pregame=False, mm_winner="p2", dm_winner="p3")
    match.host("close_pregame")
    closed = match.last("PregameClosed").data
    assert closed["ma_initial_order"] == PLAYERS
    assert closed["teams"] == STANDARD["default_teams"]
    settled = match.last("PregameSettled").data
    assert (settled["teams_from"], settled["ma_order_from"]) == (
        "default_teams",
        "gamewide_tiebreak",
    )


def test_twist_submissions_are_told_only_to_their_sender():
    match = Match(close_pregame=False, mm_winner="p2", dm_winner="p3")
    events = [
        *match.do("p1", "submit_garnet_rate", rate=7),
        *match.do("p2", "submit_ma_order", order=PLAYERS),
        *match.do("p3", "submit_teams", red=["p1", "p2", "p3"], white=["p4", "p5", "p6"]),
    ]
    assert [(e.audience, e.actor) for e in events] == [
        (("p1",), "p1"),
        (("p2",), "p2"),
        (("p3",), "p3"),
    ]


@pytest.mark.parametrize(
    ("rates", "rate"),
    [
        ([], 13),  # nobody submitted: 12.5 rounded up
        ([5], 5),
        ([12, 13], 13),  # 12.5 -> 13 (Python's round would give 12)
        ([8, 9], 9),  # 8.5 -> 9
        ([10, 13], 12),  # 11.5 -> 12
        ([10, 11, 11], 11),  # 10.67
        ([5, 5, 5, 20, 20, 20], 13),  # 75 / 6 = 12.5
        ([5, 5, 6], 5),  # 5.33
        ([20, 20, 20, 20, 20, 19], 20),  # 19.83
    ],
)
def test_the_rate_is_the_mean_with_halves_rounded_up(rates, rate):
    assert garnet_rate(dict(zip(PLAYERS, rates, strict=False)), 13) == rate


def test_the_rate_counts_each_players_last_submission_and_leaves_out_the_silent():
    """p1: 20 then 5; p2: 6. Mean of 5 and 6 = 5.5 -> 6; the other four are left out."""
    match = Match(close_pregame=False)
    match.do("p1", "submit_garnet_rate", rate=20)
    match.do("p1", "submit_garnet_rate", rate=5)
    match.do("p2", "submit_garnet_rate", rate=6)
    match.host("close_pregame")
    assert match.last("PregameClosed").data["garnet_rate"] == 6
    assert match.last("PregameSettled").data["rate_submissions"] == {"p1": 5, "p2": 6}


def test_the_rate_without_submissions_follows_the_variant():
    match = Match(variants={"garnet_rate_if_no_submissions": 9})
    assert match.last("PregameClosed").data["garnet_rate"] == 9


def test_starting_money_variant():
    match = Match(variants={"starting_money": 100})
    too_much = round_args(match) | {"kd_contribution": 101}
    assert match.reject("p1", "submit_round", **too_much) == "insufficient_funds"
    match.play_round(p1={"kd": 100})
    assert match.last("BalancesRevealed").data["balances"]["p1"] == 0


# Setups the host cannot create (`invalid_setup`)


def setup_with(**changes: object) -> dict[str, object]:
    return {"players": PLAYERS, **STANDARD, **changes}


@pytest.mark.parametrize(
    "setup",
    [
        {"players": PLAYERS[:5]},
        {"players": [*PLAYERS[:5], "p1"]},
        {"players": [*PLAYERS[:5], "host"]},
        {"players": [*PLAYERS[:5], ""]},
        setup_with(gamewide_tiebreak=PLAYERS[:5]),
        setup_with(gamewide_tiebreak=[*PLAYERS[:5], "zed"]),
        setup_with(mm_winner="zed"),
        setup_with(dm_winner="zed"),
        setup_with(default_teams={"red": ["p1", "p2"], "white": ["p3", "p4", "p5", "p6"]}),
        setup_with(default_teams={"red": ["p1", "p2", "p3"], "white": ["p3", "p4", "p5"]}),
        setup_with(tile_schedule=[[-1, -2, -3, -4, -5]] * 7),
        setup_with(tile_schedule=[[-(5 * r + i) for i in range(1, 6)] for r in range(6)]),
        setup_with(tile_schedule=[[-(5 * r + i) - 1 for i in range(1, 6)] for r in range(7)]),
        setup_with(variants={"ma_rotation": "sometimes"}),
        setup_with(variants={"starting_money": -1}),
        setup_with(variants={"garnet_rate_if_no_submissions": 21}),
        setup_with(variants={"kd_tie_reveals_amount": "yes"}),
        setup_with(variants={"no_such_variant": True}),
        setup_with(seed="the host seed belongs to the framework"),
        setup_with(garnets={"p1": 3}),
    ],
)
def test_an_invalid_setup_is_refused(setup):
    with pytest.raises(RuleViolation) as refused:
        parse_setup(am, setup)
    assert refused.value.code == "invalid_setup"


def test_null_hidden_setup_means_drawn():
    setup = parse_setup(
        am,
        {
            "players": PLAYERS,
            "gamewide_tiebreak": None,
            "default_teams": None,
            "tile_schedule": None,
            "mm_winner": None,
            "dm_winner": None,
        },
    )
    assert setup.variants == am.Variants()
