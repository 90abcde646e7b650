"""Setup validation: every bad setup is a pydantic error (the framework's `invalid_setup`)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from domain.games.kings_court import Setup
from tests.games.kings_court.kc_harness import PLAYERS, role_set


def setup(**fields: Any) -> Setup:
    return Setup(**{"players": PLAYERS, **fields})


def test_the_defaults_are_the_rulings():
    plain = setup()
    assert (
        plain.games == [] and plain.king_peek_answers == [] and plain.tiebreak_default_picks == []
    )
    assert plain.annoyed_scope == "all_judge_info"
    assert plain.allow_negative_garnets is False
    assert plain.tiebreak_default == "random"
    assert plain.lists_use == "judge_view"
    assert plain.lists_may_include_king is True
    assert plain.ec_bonus == "always"
    assert plain.ec_majority == "strict_of_party"
    assert plain.peek_uses_judge_view is True


def test_none_means_nothing_given():
    assert setup(games=None, king_peek_answers=None, tiebreak_default_picks=None).games == []


BAD_SETUPS = {
    "ten players": {"players": PLAYERS[:10]},
    "twelve players": {"players": [*PLAYERS, "p12"]},
    "duplicate ids": {"players": [*PLAYERS[:10], "p1"]},
    "the host as a player": {"players": [*PLAYERS[:10], "host"]},
    "an empty id": {"players": [*PLAYERS[:10], ""]},
    "an unknown option": {"annoyed": "p1"},
    "an unknown variant value": {"annoyed_scope": "everything"},
    "a string for a flag": {"allow_negative_garnets": "yes"},
    "five role sets": {"games": [role_set(king=k) for k in ("p11", "p1", "p2", "p3", "p4")]},
    "four dukes": {"games": [role_set(dukes=("p1", "p2", "p3", "p4"))]},
    "a player missing": {"games": [role_set(nobles=("p6", "p7", "p8", "p9", "p1"))]},
    "a king twice": {"games": [role_set(), role_set()]},
    "an annoyed duke who is a noble": {"games": [role_set(annoyed_duke="p6")]},
    "an annoyed noble who is a duke": {"games": [role_set(annoyed_noble="p1")]},
    "a list of two": {"games": [role_set(lists={"p1": ["p2", "p6"]})]},
    "a list naming its owner": {"games": [role_set(lists={"p1": ["p1", "p6", "p2"]})]},
    "a list naming a stranger": {"games": [role_set(lists={"p1": ["p2", "p6", "zed"]})]},
    "a list with a repeat": {"games": [role_set(lists={"p1": ["p2", "p6", "p6"]})]},
    "a list of a stranger": {"games": [role_set(lists={"zed": ["p2", "p6", "p7"]})]},
    # p5 is the annoyed Duke: the Judge shows him as a noble, so no duke in the Judge's view.
    "a list without a duke as the Judge sees it": {
        "games": [role_set(lists={"p1": ["p5", "p6", "p7"]})]
    },
    # p10 is the annoyed Noble: shown as a duke, so no noble in the Judge's view.
    "a list without a noble as the Judge sees it": {
        "games": [role_set(lists={"p1": ["p2", "p3", "p10"]})]
    },
    "a king peek answer that is no role": {"king_peek_answers": ["king"]},
    "a tiebreak pick who is no player": {"tiebreak_default_picks": ["zed"]},
}


@pytest.mark.parametrize("fields", BAD_SETUPS.values(), ids=BAD_SETUPS.keys())
def test_bad_setups_are_refused(fields):
    with pytest.raises(ValidationError):
        setup(**fields)


def test_a_list_true_to_roles_is_fine_when_lists_use_true_roles():
    listed = {"p1": ["p5", "p6", "p7"]}
    with pytest.raises(ValidationError):
        setup(games=[role_set(lists=listed)])
    assert setup(games=[role_set(lists=listed)], lists_use="true_roles").games[0].lists == listed
    assert setup(games=[role_set(lists=listed)], annoyed_scope="pair_checks_only")


def test_a_list_with_the_king_can_be_refused():
    listed = {"p1": ["p2", "p6", "p11"]}
    assert setup(games=[role_set(lists=listed)])
    with pytest.raises(ValidationError, match="no king"):
        setup(games=[role_set(lists=listed)], lists_may_include_king=False)


def test_four_explicit_games_with_four_kings_are_fine():
    games = [role_set()] + [
        role_set(
            king=king,
            dukes=tuple(p for p in ("p1", "p2", "p3", "p4", "p5", "p11") if p != king)[:5],
            annoyed_duke="p5" if king != "p5" else "p4",
            lists={},
        )
        for king in ("p1", "p2", "p3")
    ]
    assert len(setup(games=games).games) == 4
