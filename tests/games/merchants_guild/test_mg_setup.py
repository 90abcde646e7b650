"""Setup: validation (`invalid_setup`), variants and their defaults, the seeded draws of
rulebook §3.5 with its worked example, and the week-1 ballot (MG-R6, MG-R7)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from commands.service.arbiter import Arbiter
from domain.decider import HOST, PUBLIC, Command
from domain.errors import RuleViolation
from domain.games import get_game
from domain.games import merchants_guild as mg
from domain.match import parse_setup
from domain.rng import Rng
from tests.games.merchants_guild.mg_harness import (
    ALIGNMENTS,
    PAIRS,
    PLAYERS,
    Match,
    catalog,
    houses,
    kinds,
)
from tests.support.host_key import SIGNER

VECTOR_PLAYERS = [f"p{i:02d}" for i in range(1, 11)]


def h(seed: str, *parts: object) -> int:
    text = "|".join(["merchants_guild", seed, *(str(part) for part in parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")


def opened(seed: str, **fields: Any):
    """Open a guild of p01..p10 with what the host gave; returns the opening events."""
    setup = mg.Setup.model_validate({"players": VECTOR_PLAYERS, "bills": catalog(), **fields})
    state = mg.initial_state(setup, Rng(mg.GAME_ID, seed))
    return mg.decide(state, Command("open_match", HOST))


def first(events, kind):
    return next(event for event in events if event.kind == kind)


# The rulebook's worked example (seed `example-seed`)


def test_the_recipe_gives_the_rules_alignment_hash():
    assert h("example-seed", "alignment", "p01") == int(
        "16fdaefc08f5deed3a012e178b5d57b681e71a1066f6a63b4dbe9f9025e55262", 16
    )
    assert Rng(mg.GAME_ID, "example-seed").h("alignment", "p01") == h(
        "example-seed", "alignment", "p01"
    )


def test_drawn_alignments_and_pairs_match_the_test_vector():
    events = opened("example-seed")
    drawn = first(events, "SecretsDrawn")
    assert drawn.audience == HOST
    assert drawn.data["derived"] == ["pairs", "alignments"]
    assert drawn.data["alignments"] == {
        "p01": ["red", "green", "black"],
        "p02": ["green", "blue", "black"],
        "p03": ["green", "blue", "white"],
        "p04": ["red", "blue", "white"],
        "p05": ["red", "green", "blue"],
        "p06": ["green", "black", "white"],
        "p07": ["red", "black", "white"],
        "p08": ["red", "blue", "black"],
        "p09": ["red", "green", "white"],
        "p10": ["blue", "black", "white"],
    }
    pairs = drawn.data["pairs"]
    for pair in ([1, 29], [2, 5], [3, 23], [4, 49], [6, 50], [43, 60]):
        assert pair in pairs
    assert sorted(b for pair in pairs for b in pair) == list(range(1, 61))
    assert pairs == sorted(pairs) and all(low < high for low, high in pairs)


def test_without_leads_week_one_is_bill_one_and_then_the_lowest_bills_left():
    """Test-vector pairs: 1 brings 29; 2 is the lowest left and brings 5; then 3 brings 23."""
    events = opened("example-seed")
    assert first(events, "BallotPublished").data == {
        "week": 1,
        "pairs": [[1, 29], [2, 5], [3, 23]],
    }


def test_a_lead_that_the_drawn_pairing_puts_with_an_earlier_lead_is_skipped():
    """29 is 1's drawn partner: it is on the ballot already, the fill-up takes two pairs."""
    events = opened("example-seed", week1_leads=[1, 29])
    assert first(events, "BallotPublished").data["pairs"] == [[1, 29], [2, 5], [3, 23]]


def test_the_worked_example_reproduces_through_the_log_with_a_weak_seed(tmp_path):
    """Rulebook §11: `example-seed`, allowed as weak, no contributions (so the match seed is
    the host seed): the week-1 ballots with no leads and with leads 4 and 43."""
    app = Arbiter(f"sqlite:///{tmp_path}/arbiter.db", signer=SIGNER)
    app.create_season("s")
    for player in VECTOR_PLAYERS:
        app.register("s", player)
    for number, leads in enumerate(([], [4, 43])):
        match_id = f"example-{number}"
        app.create_match(match_id=match_id, season="s", game=mg.GAME_ID,
                         setup={"players": VECTOR_PLAYERS, "bills": catalog(),
                                "week1_leads": leads},
                         host_seed="example-seed", salt_key="0f" * 32, allow_weak_seed=True)
        app.submit(match_id, "host", "open_match")
        records = app.match(match_id).records
        assert records[0]["entry"]["public"]["weak_seed"] is True
        ballot = next(r["entry"]["public"] for r in records
                      if r["entry"]["kind"] == "BallotPublished")
        assert ballot["pairs"] == ([[1, 29], [2, 5], [3, 23]] if not leads
                                   else [[1, 29], [4, 49], [43, 60]])
        drawn = next(r["parts"][0]["data"] for r in records
                     if r["entry"]["kind"] is None and r["parts"][0]["kind"] == "SecretsDrawn")
        assert drawn["alignments"]["p01"] == ["red", "green", "black"]
        assert drawn["alignments"]["p10"] == ["blue", "black", "white"]
    with pytest.raises(RuleViolation) as refused:
        app.create_match(match_id="strict", season="s", game=mg.GAME_ID,
                         setup={"players": VECTOR_PLAYERS, "bills": catalog()},
                         host_seed="example-seed", salt_key="0f" * 32)
    assert refused.value.code == "weak_seed"


def test_the_derivation_is_used_only_for_what_the_host_left_out():
    events = opened("example-seed", pairs=PAIRS)
    drawn = first(events, "SecretsDrawn")
    assert drawn.data["derived"] == ["alignments"]
    assert drawn.data["pairs"] == PAIRS
    assert drawn.data["alignments"]["p01"] == ["red", "green", "black"]


# The opening


def test_the_opening_commits_then_publishes_then_tells_each_player_their_houses():
    match = Match()
    assert kinds(match.log) == [
        "SecretsDrawn",
        "BallotSelected",
        "GuildOpened",
        "BallotPublished",
        *["AlignmentDisclosed"] * 10,
    ]
    opening = match.last("GuildOpened")
    assert opening.audience == PUBLIC
    assert opening.data["houses"] == houses()
    assert [bill["number"] for bill in opening.data["bills"]] == list(range(1, 61))
    assert opening.data["bills"][6] == {
        "number": 7,
        "title": "green ships 7",
        "effects": [{"op": "add", "house": "green", "resource": "ships", "amount": 1}],
    }
    told = match.all("AlignmentDisclosed")
    assert [event.audience for event in told] == [(p,) for p in PLAYERS]
    assert told[3].data == {"player": "p4", "houses": ["red", "blue", "black"]}
    assert match.state.week == 1 and mg.round_of(match.state) == 1


def test_host_leads_come_with_their_partners_and_the_rest_is_filled_by_lowest_number():
    """Leads 10 and 31 bring 9 and 32; the fill-up takes the lowest bill left, 1, with 2. The
    public listing is [lower, higher] by lower number; the selection order stays host-only."""
    match = Match(week1_leads=[10, 31])
    assert match.last("BallotPublished").data["pairs"] == [[1, 2], [9, 10], [31, 32]]
    selected = match.last("BallotSelected")
    assert selected.audience == HOST
    assert selected.data == {"week": 1, "selection": [[10, 9], [31, 32], [1, 2]]}


def test_three_leads_fix_the_whole_first_week():
    match = Match(week1_leads=[60, 20, 40])
    assert match.ballot() == [[19, 20], [39, 40], [59, 60]]


def test_alignments_are_used_in_canonical_house_order_whatever_order_the_host_gave():
    given = {**ALIGNMENTS, "p1": ["blue", "red", "green"]}
    match = Match(alignments=given)
    assert match.all("AlignmentDisclosed")[0].data["houses"] == ["red", "green", "blue"]


def test_variants_default_to_the_rulings():
    setup = mg.Setup(players=PLAYERS, bills=catalog())
    assert setup.nominate_presented == "reject"
    assert setup.week8_selection_actions == "reject"
    assert setup.lookup_limit_per_week is None
    assert setup.max_extra_investigations == 1
    assert setup.blackmail_evaluation == "simultaneous"
    assert setup.insolvent_tax == "take_all"
    assert setup.all_tied_losers == "all"
    assert setup.bills_tol_field == "payers_first"
    assert setup.week1_leads == [] and setup.pairs is None and setup.alignments is None


def test_the_setup_survives_the_frameworks_json_round_trip():
    setup = mg.Setup(
        players=PLAYERS,
        bills=catalog(b1=[{"op": "transfer", "from": "red", "to": "blue", "resource": "ships",
                           "amount": 2}]),
    )  # fmt: skip
    dumped = setup.model_dump(mode="json")
    assert dumped["bills"][0]["effects"][0]["from"] == "red"
    assert mg.Setup.model_validate(dumped) == setup


# invalid_setup


def base() -> dict[str, Any]:
    return {"players": PLAYERS, "bills": catalog(), "pairs": PAIRS, "alignments": ALIGNMENTS}


def effect(**fields: Any) -> dict[str, Any]:
    return {**base(), "bills": catalog(b5=[fields])}


def swapped_pairs() -> list[list[int]]:
    return [[1, 3], [2, 4], *PAIRS[2:]]


INVALID = {
    "nine players": {**base(), "players": PLAYERS[:9]},
    "duplicate ids": {**base(), "players": [*PLAYERS[:9], "p1"]},
    "reserved id": {**base(), "players": [*PLAYERS[:9], "host"]},
    "unknown field": {**base(), "starting_garnets": {}},
    "bad variant": {**base(), "insolvent_tax": "take_some"},
    "59 bills": {**base(), "bills": catalog()[:59]},
    "a number twice": {**base(), "bills": [*catalog()[:59], catalog()[0]]},
    "bill 61": {**base(), "bills": [*catalog()[:59], {**catalog()[59], "number": 61}]},
    "add zero": effect(op="add", house="red", resource="ships", amount=0),
    "add a boolean": effect(op="add", house="red", resource="ships", amount=True),
    "unknown house": effect(op="add", house="gold", resource="ships", amount=1),
    "unknown resource": effect(op="add", house="red", resource="mines", amount=1),
    "unknown op": effect(op="double", house="red", resource="ships"),
    "extra effect field": effect(op="add", house="red", resource="ships", amount=1, note="x"),
    "transfer to itself": effect(
        op="transfer", resource="ships", amount=1, **{"from": "red", "to": "red"}
    ),
    "transfer nothing": effect(
        op="transfer", resource="ships", amount=0, **{"from": "red", "to": "blue"}
    ),
    "swap with itself": effect(op="swap", houses=["red", "red"], resource="ships"),
    "swap three": effect(op="swap", houses=["red", "blue", "green"], resource="ships"),
    "set negative": effect(op="set", house="red", resource="ships", value=-1),
    "29 pairs": {**base(), "pairs": PAIRS[:29]},
    "a triple": {**base(), "pairs": [[1, 2, 3], *PAIRS[1:]]},
    "a bill in two pairs": {**base(), "pairs": [[1, 2], [2, 3], *PAIRS[2:]]},
    "a player without houses": {**base(), "alignments": {**ALIGNMENTS, "p1": ["red", "green"]}},
    "a combination twice": {**base(), "alignments": {**ALIGNMENTS, "p1": ALIGNMENTS["p2"]}},
    "an outsider aligned": {**base(), "alignments": {**ALIGNMENTS, "zed": ["red"]}},
    "a house twice": {**base(), "alignments": {**ALIGNMENTS, "p1": ["red", "red", "blue"]}},
    "four leads": {**base(), "week1_leads": [1, 3, 5, 7]},
    "leads from one pair": {**base(), "week1_leads": [1, 2]},
    "leads from one given pair": {**base(), "pairs": swapped_pairs(), "week1_leads": [1, 3]},
    "lead 0": {**base(), "week1_leads": [0]},
    "a lead twice": {**base(), "pairs": None, "week1_leads": [7, 7]},
    "lookup limit below 0": {**base(), "lookup_limit_per_week": -1},
}


@pytest.mark.parametrize("fields", INVALID.values(), ids=INVALID.keys())
def test_a_bad_setup_is_refused_whole(fields):
    with pytest.raises(RuleViolation) as caught:
        parse_setup(get_game("merchants_guild"), fields)
    assert caught.value.code == "invalid_setup"


def test_the_same_bills_in_another_pairing_are_fine():
    parse_setup(get_game("merchants_guild"), {**base(), "pairs": swapped_pairs()})
    parse_setup(get_game("merchants_guild"), {**base(), "week1_leads": [2, 3, 60]})
