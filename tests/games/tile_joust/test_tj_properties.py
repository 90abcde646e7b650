"""Properties over random command sequences, legal and not, from any actor with any args:
only RuleViolation, no mutation, plain JSON events with one audience, chips and tiles
conserved, points add up, replay equality; and non-interference of every view."""

from __future__ import annotations

from collections import Counter
from typing import Any

import hypothesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.decider import PUBLIC, Command, Event
from domain.errors import RuleViolation
from domain.games import tile_joust as tj
from domain.rng import Rng
from tests.games.tile_joust.tj_harness import ANN, BOB, PLAYERS
from tests.support.deciders import check_replay_and_views, checked_step

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ITEMS = ["tile_inversion", "equaliser", "conceal"]
TILES = [f"s{s}g{g}{label}" for s in (1, 2, 3) for g in (1, 2, 3, 4) for label in "MBG"] + [
    f"s{s}x{i}" for s in (1, 2, 3) for i in (1, 2)
]
players = st.sampled_from(PLAYERS)
tiles = st.sampled_from(TILES)
garbage = st.one_of(
    st.none(),
    st.integers(-3, 3),
    st.sampled_from([2**53, -(2**64)]),
    st.floats(),  # the rules see a command before the log's JSON check
    st.text(max_size=3),
    st.booleans(),
    st.lists(st.one_of(tiles, st.none(), st.integers()), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)


def command(name: str, actor: Any = players, **args: Any) -> st.SearchStrategy[tuple]:
    return st.tuples(
        actor if isinstance(actor, st.SearchStrategy) else st.just(actor),
        st.just(name),
        st.fixed_dictionaries(args),
    )


nonsense = st.tuples(
    st.one_of(players, st.sampled_from(["host", "zed", 7])),
    st.one_of(st.sampled_from(["bid", "submit_tile", "use_items", "open_match", "x"]), garbage),
    st.one_of(
        st.dictionaries(st.sampled_from(["amount", "tile", "items", "label", "player"]), garbage),
        garbage,
    ),
)


def scripts(tile: st.SearchStrategy[str], least: int, most: int) -> st.SearchStrategy[list]:
    """Blocks of a few moves (tiles drawn from `tile`), each closed by both players timing
    out, so that every match moves on."""
    use = st.one_of(
        st.sampled_from(ITEMS),
        st.fixed_dictionaries({"item": st.sampled_from(ITEMS), "tile": tile}),
        garbage,
    )
    sensible = st.one_of(
        command("bid", amount=st.integers(0, 25)),
        command("bid", amount=st.one_of(st.integers(0, 25), st.floats(0, 25))),
        command("fold"),
        command("choose_next_tile", label=st.sampled_from("MBG")),
        command("keep_leftover", tile=st.sampled_from(["s1x1", "s1x2", "s2x1", "s2x2", "s3x2"])),
        command("pick_item", item=st.sampled_from(ITEMS)),
        command("use_items", items=st.lists(use, max_size=2)),
        command("submit_tile", tile=tile),
        command("submit_tile", tile=tile),
        command("submit_tile", tile=tile),
        command("pass"),
        command("timeout", "host", player=players),
    )
    block = st.builds(
        lambda moves: [
            *moves,
            ("host", "timeout", {"player": ANN}),
            ("host", "timeout", {"player": BOB}),
        ],
        st.lists(st.one_of(sensible, sensible, sensible, nonsense), max_size=4),
    )
    return st.lists(block, min_size=least, max_size=most).map(lambda bs: [m for b in bs for m in b])


@st.composite
def setups(draw: Any, sets: int | None = None) -> tj.Setup:
    variant = draw(st.sampled_from(["death_match", "final_match"]))
    options: dict[str, Any] = {
        "starting_chips": draw(st.integers(0, 30)),
        "sets": sets or draw(st.integers(1, 3)),
        "joust_tile_cap": draw(st.integers(1, 5)),
        "min_opening_bid": draw(st.integers(0, 2)),
        "default_next_tile": draw(st.sampled_from(["smaller", "larger"])),
    }
    if variant == "death_match":
        options["dmo"] = draw(players)
    else:
        options.update(
            fm_leftover_default=draw(st.sampled_from(["keep_higher", "keep_lower"])),
            inversion_colour=draw(st.sampled_from(["follows_value", "unchanged"])),
            conceal_scope=draw(st.sampled_from(["all_tiles", "own_tiles"])),
        )
        if draw(st.booleans()):
            options["first_picker"] = draw(players)
        else:
            single = draw(st.sampled_from(ITEMS))
            holder = draw(players)
            other = BOB if holder == ANN else ANN
            options["item_allocation"] = {
                holder: [single],
                other: [item for item in ITEMS if item != single],
            }
    return tj.Setup(players=PLAYERS, variant=variant, **options)


def check_conservation(state: tj.State, log: list[Event]) -> None:
    """Chips only leave as prices; no tile is in two places; points are the gains."""
    paid = sum(e.data["price"] for e in log if e.kind == "TileWon")
    start = state.setup.starting_chips
    assert sum(state.chips.values()) + paid == start * len(PLAYERS)
    assert all(chips >= 0 for chips in state.chips.values())
    placed = [
        *(t for p in PLAYERS for t in state.hand(p)),
        *(t for p in PLAYERS for t in state.stored.get(p, ())),
        *state.spent,
        *state.discarded,
        *(t for p in PLAYERS for t in (state.joust.committed.get(p, ()) if state.joust else ())),
    ]
    assert len(placed) == len(set(placed)), Counter(placed).most_common(2)
    gains = Counter()
    for event in log:
        if event.kind == "JoustResolved":
            gains.update(event.data["gains"])
        if event.kind == "FinalEnded":
            gains.update(event.data["remaining_points"])
    assert state.totals() == {player: gains[player] for player in PLAYERS}
    if tj.finished(state):
        every = {t for t, tile in state.tiles.items()}
        assert set(placed) == every and not any(state.stored.values())


@SETTINGS
@given(setup=setups(), seed=st.text(min_size=1, max_size=6), script=scripts(tiles, 20, 160))
def test_random_commands_keep_every_promise(setup, seed, script):
    initial = tj.initial_state(setup, Rng(tj.GAME_ID, seed))
    state = initial
    log: list[Event] = []
    rounds = [tj.round_of(state)]
    for actor, name, args in [("host", "open_match", {}), *script]:
        state, events = checked_step(tj, state, Command(name, actor, args), PLAYERS, {})
        assert all(event.postings == () for event in events)  # no season effects (rulebook 8)
        log.extend(events)
        rounds.append(tj.round_of(state))
        check_conservation(state, log)
    assert rounds == sorted(rounds), "round_of went backwards"
    hypothesis.event(f"{setup.variant} {state.phase}")
    check_replay_and_views(tj, initial, state, log, PLAYERS)
    outcome = tj.results(state)
    if tj.finished(state):
        assert outcome["ranks"] == {outcome["outcome"]: 1, state.other(outcome["outcome"]): 2}


# Non-interference: two orderings of set 1 that differ by a swap of two values a viewer
# cannot tell apart until the rules show them one of the two (or the end reveals all).


def start_label(values: dict[str, int], reference: int) -> str:
    distances = {label: abs(value - reference) for label, value in values.items()}
    nearest = min(distances.values())
    closest = [label for label in "MBG" if distances[label] == nearest]
    return "B" if len(closest) > 1 else closest[0]


def groups(ordering: list[int]) -> list[dict[str, int]]:
    triples = [sorted(ordering[i : i + 3]) for i in range(0, 12, 3)]
    return [dict(zip("MBG", triple, strict=True)) for triple in triples]


def looks_the_same(first: list[int], second: list[int]) -> bool:
    """Same colours and the same group starts, whatever tile came third."""
    a, b = groups(first), groups(second)
    for g in range(4):
        for label in "MBG":
            if a[g][label] % 2 != b[g][label] % 2:
                return False
    for g in range(1, 4):
        for label in "MBG":
            if start_label(a[g], a[g - 1][label]) != start_label(b[g], b[g - 1][label]):
                return False
    return True


def _labels(triple: list[int]) -> list[str]:
    ranked = sorted(triple)
    return ["MBG"[ranked.index(value)] for value in triple]


@st.composite
def twins(draw: Any) -> tuple[tj.Setup, tj.Setup, set[str]]:
    setup = draw(setups(sets=1))
    ordering = draw(st.permutations(setup.tile_values()))
    # Group tiles and the DM x1; not the FM leftover pair, whose split follows the values.
    swappable = range(12 if setup.final_match else 13)
    pairs = []
    for i in swappable:
        for j in swappable:
            if i >= j or ordering[i] % 2 != ordering[j] % 2:
                continue
            twin = list(ordering)
            twin[i], twin[j] = twin[j], twin[i]
            if _labels_kept(ordering, twin, (i, j)) and looks_the_same(ordering, twin):
                pairs.append((i, j, twin))
    hypothesis.assume(pairs)
    i, j, twin = draw(st.sampled_from(pairs))
    first = setup.model_copy(update={"orderings": [list(ordering)]})
    second = setup.model_copy(update={"orderings": [twin]})
    return first, second, {tile_at(ordering, i), tile_at(ordering, j)}


def _labels_kept(ordering: list[int], twin: list[int], positions: tuple[int, int]) -> bool:
    for position in positions:
        if position < 12:
            start = position - position % 3
            if _labels(ordering[start : start + 3]) != _labels(twin[start : start + 3]):
                return False
    return True


def tile_at(ordering: list[int], position: int) -> str:
    if position >= 12:
        return f"s1x{position - 11}"
    start = position - position % 3
    label = _labels(ordering[start : start + 3])[position % 3]
    return f"s1g{position // 3 + 1}{label}"


def play(setup: tj.Setup, script: list[tuple]) -> list[tuple[Event, tj.State]]:
    """Every event with the state it led to."""
    state = tj.initial_state(setup, Rng(tj.GAME_ID, "twin"))
    log: list[tuple[Event, tj.State]] = []
    for actor, name, args in [("host", "open_match", {}), *script]:
        try:
            events = tj.decide(state, Command(name, actor, args))
        except RuleViolation:
            events = []
        for event in events:
            state = tj.evolve(state, event)
            log.append((event, state))
    return log


def may_know(event: Event, state: tj.State, viewer: str, swapped: set[str]) -> bool:
    """Whether the rules let the viewer know a swapped value: once it is jousted (published),
    at the end reveal, or (a player) once they hold it."""
    if event.kind == "SetupRevealed" or swapped & set(state.spent):
        return True
    if viewer not in PLAYERS:
        return False
    committed = state.joust.committed.get(viewer, ()) if state.joust else ()
    held = {*state.hand(viewer), *state.stored.get(viewer, ()), *committed}
    return bool(swapped & held)


def until_allowed(log: list[tuple[Event, tj.State]], viewer: str, swapped: set[str]) -> list:
    """The events before the one after which the viewer may know a swapped value."""
    shown = []
    for event, state in log:
        if may_know(event, state, viewer, swapped):
            break
        shown.append(event)
    return shown


@SETTINGS
@given(pair=twins(), viewer=st.sampled_from(["public", *PLAYERS]), data=st.data())
def test_a_viewer_cannot_tell_apart_what_they_may_not_know(pair, viewer, data):
    first, second, swapped = pair
    # Jousting a swapped tile is what could betray it: name those tiles often.
    script = data.draw(scripts(st.one_of(st.sampled_from(sorted(swapped)), tiles), 10, 60))
    first_log, second_log = play(first, script), play(second, script)
    first_seen = until_allowed(first_log, viewer, swapped)
    second_seen = until_allowed(second_log, viewer, swapped)
    assert [e.audience == PUBLIC for e in first_seen] == [e.audience == PUBLIC for e in second_seen]

    def visible(events: list[Event]) -> list[tuple]:
        return [(e.kind, e.data, e.audience, e.actor) for e in events if e.seen_by(viewer)]

    assert visible(first_seen) == visible(second_seen)
    assert tj.summarize([e for e in first_seen if e.seen_by(viewer)], viewer) == tj.summarize(
        [e for e in second_seen if e.seen_by(viewer)], viewer
    )
    hypothesis.event(f"{len(first_seen) * 10 // len(first_log) * 10}% of the log compared")
