"""The seeded orderings of rulebook section 3.3 (label `ordering`, docs/games/randomness.md),
recomputed here with a few lines of hashlib, and the sealed record of the hidden setup
(TJ-R25)."""

from __future__ import annotations

import hashlib
import re

from domain.decider import HOST, PUBLIC, Command
from domain.games.tile_joust.draws import set_ordering
from domain.match import Match as MatchAggregate
from domain.records import to_event
from tests.games.tile_joust.tj_harness import DM_SET_1, Match, setup

SEED = "example-seed"


def h(seed: str, *parts: object) -> int:
    text = "|".join(["tile_joust", seed, *(str(part) for part in parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")


def by_hand(seed: str, set_number: int, values: range) -> list[int]:
    return sorted(values, key=lambda value: (h(seed, "ordering", set_number, value), value))


def test_every_set_is_drawn_from_the_seed_when_the_host_gives_none():
    match = Match(seed=SEED, orderings=[])
    recorded = match.all("OrderingsRecorded")[0]
    assert recorded.audience == HOST
    assert recorded.data["drawn"] == [1, 2, 3]
    for number in (1, 2, 3):
        assert recorded.data["orderings"][str(number)] == by_hand(SEED, number, range(1, 14))
    fm = setup("final_match", orderings=[])
    assert set_ordering(fm, SEED, 2) == by_hand(SEED, 2, range(0, 14))


def test_the_hosts_orderings_are_used_as_given_and_only_the_rest_is_drawn():
    match = Match(seed=SEED, orderings=[DM_SET_1])
    recorded = match.all("OrderingsRecorded")[0].data
    assert recorded["drawn"] == [2, 3]
    assert recorded["orderings"]["1"] == DM_SET_1
    assert recorded["orderings"]["2"] == by_hand(SEED, 2, range(1, 14))


def test_the_drawn_groups_follow_the_drawn_ordering():
    match = Match(seed=SEED, orderings=[])
    first = by_hand(SEED, 1, range(1, 14))
    colours = match.last("GroupOpened").data["colours"]
    triple = sorted(first[:3])
    assert colours == {
        label: "BLACK" if value % 2 == 0 else "WHITE"
        for label, value in zip("MBG", triple, strict=True)
    }


def test_no_public_event_carries_a_digest_or_a_value_of_the_orderings():
    match = Match(seed=SEED)
    match.sell_all(["ann"] * 6 + ["bob"] * 6)
    digest = re.compile(r"[0-9a-f]{32,}")
    for event in match.log:
        if event.audience == PUBLIC:
            assert not digest.search(str(event.data)), event
            assert "orderings" not in event.data


def test_the_rulebooks_seeded_example_reproduces_through_the_match():
    """Rulebook section 10: host seed `example-seed` (weak, so allowed explicitly), no
    contributions, no host orderings."""
    match = MatchAggregate.configure(
        match_id="tj-example", season="s", game_id="tile_joust",
        setup={"players": ["ann", "bob"], "variant": "death_match", "dmo": "ann"},
        host_seed=SEED, salt_key="00" * 32, garnets={}, allow_weak_seed=True,
    )  # fmt: skip
    match.handle(Command("open_match", HOST))
    facts = [to_event(record) for record in match.records if record["role"] == "fact"]
    recorded = next(fact for fact in facts if fact.kind == "OrderingsRecorded")
    assert recorded.data["orderings"]["1"] == [6, 13, 1, 3, 8, 2, 12, 11, 7, 4, 9, 5, 10]
    assert recorded.data["orderings"]["1"] == by_hand(SEED, 1, range(1, 14))
    group = next(fact for fact in facts if fact.kind == "GroupOpened").data
    assert group["colours"] == {"M": "WHITE", "B": "BLACK", "G": "WHITE"}  # 1, 6, 13
    assert group["first_label"] == "B"
    # Group 1 sold B, M, G: the third tile is 13, and group 2 {2, 3, 8} starts with G8.
    for label in ("B", "M", "G"):
        match.handle(Command("fold", "ann" if label != "M" else "bob"))
        if label == "B":
            match.handle(Command("choose_next_tile", "bob", {"label": "M"}))
    facts = [to_event(record) for record in match.records if record["role"] == "fact"]
    opened = [fact.data for fact in facts if fact.kind == "GroupOpened"]
    assert (opened[-1]["group"], opened[-1]["first_label"]) == (2, "G")
    assert opened[-1]["colours"] == {"M": "BLACK", "B": "WHITE", "G": "BLACK"}  # 2, 3, 8
    fm = setup("final_match", orderings=[])
    assert set_ordering(fm, SEED, 1) == [6, 13, 1, 3, 8, 2, 12, 11, 7, 4, 9, 0, 5, 10]
