"""COMMANDS declares exactly what `decide` accepts: every command of the rulebook's table
(docs/games/tile_joust.md, section 5) with its actor, every argument the rules read and nothing
they do not, and bounds that refuse nothing the rules would accept."""

from __future__ import annotations

import contextlib
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from commands.cli.matchfile import load
from domain.decider import HOST, Command
from domain.errors import RuleViolation
from domain.games import tile_joust as tj
from domain.rng import Rng
from tests.games.tile_joust.test_tj_rejections import ROWS
from tests.games.tile_joust.tj_harness import ANN, BOB, Match
from tests.games.tile_joust.tj_seeds import DM_SEED, FM_SEED

RULEBOOK = Path(__file__).resolve().parents[3] / "docs" / "games" / "tile_joust.md"
WHO_IS_NOT_ASKED = {"UNKNOWN_COMMAND", "HOST_ONLY", "NOT_A_PLAYER"}


def rulebook_commands() -> dict[str, str]:
    """The command table of section 5: name -> "host" or "player"."""
    text = RULEBOOK.read_text()
    table = text[text.index("## 5. Commands") : text.index("### Error codes")]
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \|", table, flags=re.MULTILINE)
    return {name: "host" if who.startswith("host") else "player" for name, who in rows}


def test_every_command_of_the_rulebook_is_declared_with_its_actor():
    declared = {name: spec.actor for name, spec in tj.COMMANDS.items()}
    assert declared == rulebook_commands()
    assert len(declared) == 9 and declared["timeout"] == "host"
    for spec in tj.COMMANDS.values():
        assert spec.label and all(arg.label for arg in spec.args.values())


def test_every_declared_command_is_one_the_rules_take_from_its_actor():
    """At some moment the command is the sender's to send: never unknown, never the wrong
    actor's (only the moment or the values may be wrong)."""
    for variant in ("death_match", "final_match"):
        match = Match(variant)
        for name, spec in tj.COMMANDS.items():
            actor = HOST if spec.actor == "host" else ANN
            try:
                tj.decide(match.state, Command(name, actor, {}))
            except RuleViolation as refusal:
                assert refusal.code not in WHO_IS_NOT_ASKED, (name, refusal)
            other = ANN if spec.actor == "host" else HOST
            assert match.reject(other, name) in ("HOST_ONLY", "NOT_A_PLAYER")
    assert Match().reject(ANN, "sing") == "UNKNOWN_COMMAND"


class Reading(Mapping):
    """Arguments that note every key the rules read (uses of `use_items` too)."""

    def __init__(self, args: Mapping[str, Any], name: str, reads: dict[str, set[str]]) -> None:
        self.args, self.name, self.reads = args, name, reads

    def __getitem__(self, key: str) -> Any:
        self.reads[self.name].add(key)
        value = self.args[key]
        if self.name == "use_items" and key == "items" and isinstance(value, list):
            return [
                Reading(use, "a use", self.reads) if isinstance(use, dict) else use
                for use in value
            ]
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self.args)

    def __len__(self) -> int:
        return len(self.args)


def reads_of_the_seeds_and_the_refusals() -> dict[str, set[str]]:
    reads: dict[str, set[str]] = defaultdict(set)
    for path in (DM_SEED, FM_SEED):
        file = load(path)
        setup = tj.Setup(players=file.players, **file.setup)
        state = tj.initial_state(setup, Rng(tj.GAME_ID, "any: the orderings are given"))
        for step in file.commands:
            command = Command(step.do, step.actor, Reading(step.args, step.do, reads))
            try:
                events = tj.decide(state, command)
            except RuleViolation:
                continue
            for event in events:
                state = tj.evolve(state, event)
        assert tj.finished(state)
    for make, actor, name, args, _ in ROWS:
        with contextlib.suppress(RuleViolation):
            tj.decide(make().state, Command(name, actor, Reading(args, name, reads)))
    return reads


def test_the_rules_read_every_declared_argument_and_nothing_else():
    reads = reads_of_the_seeds_and_the_refusals()
    for name, spec in tj.COMMANDS.items():
        assert reads.pop(name, set()) == set(spec.args), name
    assert reads.pop("a use") == {"item", "tile"}  # the fields of one use, as the label says
    assert set(reads) <= {"open_match", "dance", "close_round"}  # none of them reads anything
    assert not any(reads.values())


def test_without_a_required_argument_a_command_gets_that_arguments_code():
    """Only `use_items` may leave its argument out (no list is no use)."""
    match = Match()
    assert match.reject(ANN, "bid") == "INVALID_AMOUNT"
    match.sell(BOB)
    assert match.reject(BOB, "choose_next_tile") == "INVALID_TILE_CHOICE"
    fm = Match("final_match")
    assert fm.reject(ANN, "pick_item") == "UNKNOWN_ITEM"
    assert fm.reject(HOST, "timeout") == "WRONG_PHASE"
    optional = {
        (name, arg)
        for name, spec in tj.COMMANDS.items()
        for arg, declared in spec.args.items()
        if not declared.required
    }
    assert optional == {("use_items", "items")}
    window = item_window()
    window.do(ANN, "use_items")
    assert window.last("ItemsChosen").data["uses"] == []


def item_window() -> Match:
    """6-6 in set 1 of a Final Match: ann (Tile Inversion) and bob (Conceal) are asked."""
    items = {ANN: ["tile_inversion"], BOB: ["equaliser", "conceal"]}
    match = Match("final_match", item_allocation=items)
    match.sell_all([ANN] * 6 + [BOB] * 6)
    return match


WINDOW = item_window()
USES = st.one_of(
    st.sampled_from(["tile_inversion", "equaliser", "conceal"]),
    st.fixed_dictionaries(
        {"item": st.sampled_from(["tile_inversion", "conceal"]), "tile": st.just("s1g1M")}
    ),
)


@settings(max_examples=60, deadline=None)
@given(player=st.sampled_from([ANN, BOB]), uses=st.lists(USES, min_size=4, max_size=6))
def test_no_list_longer_than_its_bound_is_one_the_rules_would_accept(player, uses):
    """`max_items` of `use_items` is the number of items: a longer list repeats one."""
    assert len(uses) > tj.COMMANDS["use_items"].args["items"].max_items
    try:
        tj.decide(WINDOW.state, Command("use_items", player, {"items": uses}))
    except RuleViolation:
        return
    raise AssertionError(f"accepted {uses}")
