"""The state root (audit/state_root.py, docs/audit.md): HMAC-SHA256 under the match's salt key
of "arbiter/state/v1\\n" and the canonical JSON of the phase, the contributions, the voided
seqs (sorted) and the game state, objects by field name and sets sorted."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from enum import Enum
from types import SimpleNamespace

import pytest
from pydantic import BaseModel

from audit.canonical import NotCanonical
from audit.state_root import match_state, state_root, to_json


class Colour(Enum):
    RED = "red"


@dataclass(frozen=True)
class Seat:
    name: str
    chips: int


class Setup(BaseModel):
    rounds: int
    label: str


def test_plain_values_stay_as_they_are() -> None:
    assert to_json(None) is None
    assert to_json(7) == 7 and to_json("x") == "x" and to_json(True) is True
    assert to_json(Colour.RED) == "red"
    assert to_json([1, (2, 3)]) == [1, [2, 3]]


def test_objects_are_written_by_field_name() -> None:
    assert to_json(Seat("ann", 3)) == {"name": "ann", "chips": 3}
    assert to_json(Setup(rounds=2, label="a")) == {"rounds": 2, "label": "a"}
    with pytest.raises(NotCanonical):
        to_json(Seat)  # a class is not a value


def test_sets_and_non_text_keys_are_sorted_by_canonical_text() -> None:
    # Canonical texts: "10" < "9" and "\"b\"" < "\"c\"".
    assert to_json({9, 10}) == [10, 9]
    assert to_json(frozenset({"c", "b"})) == ["b", "c"]
    assert to_json({9: "x", 10: "y"}) == [[10, "y"], [9, "x"]]
    assert to_json({"b": {1}, "a": Colour.RED}) == {"b": [1], "a": "red"}


@pytest.mark.parametrize("value", [1.5, object(), b"bytes"])
def test_other_types_have_no_canonical_form(value) -> None:
    with pytest.raises(NotCanonical):
        to_json(value)


def fake_match(**changes) -> SimpleNamespace:
    fields = {"phase": "open", "contributions": {"ann": "x"}, "voided": {9, 7},
              "state": Seat("ann", 3), "salt_key": "0f" * 32, **changes}
    return SimpleNamespace(**fields)


def test_the_state_holds_phase_contributions_voids_and_game() -> None:
    assert match_state(fake_match()) == {"phase": "open", "contributions": {"ann": "x"},
                                         "voided": [7, 9],
                                         "game": {"name": "ann", "chips": 3}}


def test_the_root_is_the_keyed_hash_of_that_text() -> None:
    text = (b'arbiter/state/v1\n{"contributions":{"ann":"x"},'
            b'"game":{"chips":3,"name":"ann"},"phase":"open","voided":[7,9]}')
    expected = hmac.new(bytes([15]) * 32, text, hashlib.sha256).hexdigest()
    assert state_root(fake_match()) == expected
    # Any change to the state, or another key, changes the root.
    assert state_root(fake_match(voided={7})) != expected
    assert state_root(fake_match(salt_key="0e" * 32)) != expected
