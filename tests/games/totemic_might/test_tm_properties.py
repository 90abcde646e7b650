"""Properties over random command sequences, legal and not, from any actor with any args."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

import hypothesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.decider import PUBLIC, Command, Event
from domain.games import totemic_might as tm
from domain.games.totemic_might.grid import GARNET, LETTERS, TOTEMS
from domain.rng import Rng
from tests.games.totemic_might.harness import (
    ORDER_1A,
    ORDER_1B,
    PLAYERS,
    SERIES,
    STARTING,
    WEIGHTS,
    standard_setup,
)
from tests.support.deciders import check_replay_and_views, checked_step, step_or_refusal

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

players = st.sampled_from(PLAYERS)
totems = st.sampled_from(TOTEMS)
garbage = st.one_of(
    st.none(),
    st.integers(-2, 20),
    st.text(max_size=3),
    st.lists(st.one_of(st.none(), st.integers(), st.text(max_size=2)), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)
series_totems = st.sampled_from([*SERIES[0]["A"], *SERIES[0]["B"]])
balloon_ids = st.builds(lambda kind, p, n: f"{kind}-{p}-{n}",
                        st.sampled_from(["snake", "wolf", "fox"]), players, st.integers(1, 3))
token = st.one_of(
    st.builds("S:{}".format, st.sampled_from(sorted(STARTING.values()))),
    st.builds("T:{}".format, series_totems),
    st.builds("B:{}".format, balloon_ids),
    st.builds("C:{}".format, totems),
    st.text(max_size=4),
)
tokens = st.lists(token, max_size=4)
trial_tokens = st.lists(st.builds("T:{}".format, series_totems), min_size=1, max_size=2)


def command(name: str, actor: Any = players, **args: Any) -> st.SearchStrategy[tuple]:
    return st.tuples(
        actor if isinstance(actor, st.SearchStrategy) else st.just(actor),
        st.just(name),
        st.fixed_dictionaries(args),
    )


wager = st.one_of(
    st.fixed_dictionaries({"kind": st.just("snake"), "letter": st.sampled_from(LETTERS)}),
    st.fixed_dictionaries({"kind": st.just("wolf"),
                           "totems": st.lists(totems, min_size=2, max_size=2)}),
    st.fixed_dictionaries({"kind": st.just("bear"), "totems": st.lists(totems, max_size=3),
                           "fine": st.booleans()}),
    st.fixed_dictionaries({"kind": st.just("fox"), "totems": st.lists(totems, min_size=3,
                                                                        max_size=3),
                           "payment": st.sampled_from(["garnets", "balloon", "chips"])}),
    st.dictionaries(st.sampled_from(["kind", "letter", "totems", "params"]), garbage),
)
sensible = st.one_of(
    command("place_bet", series=st.sampled_from(["A", "B"]), amount=st.integers(0, 12)),
    command("set_pick_order", series=st.just("A"), order=st.permutations(ORDER_1A)),
    command("set_pick_order", series=st.just("B"), order=st.permutations(ORDER_1B)),
    command("choose_spirit_totem", totem=totems),
    command("weigh", left=tokens, right=tokens),
    st.tuples(players, st.just("place_wager"), wager),
    command("cancel_wager"),
    command("give", to=players, pieces=trial_tokens),
    command("propose_trade", **{"with": players}, give=trial_tokens, receive=trial_tokens),
    command("cancel_transfer", id=st.integers(1, 3)),
    command("attempt_split", i=st.integers(1, 12), j=st.integers(13, 22)),
    command("guess_starting_totem", target=players, totem=st.sampled_from([*STARTING.values(),
                                                                           "Void-Sky"])),
    command("withdraw_guess", target=players),
)
nonsense = st.tuples(
    st.one_of(players, st.sampled_from(["host", "zed", None, 5])),
    st.one_of(st.sampled_from(["weigh", "place_bet", "give", "final_deadline", "dance"]),
              garbage),
    st.one_of(st.dictionaries(
        st.sampled_from(["series", "amount", "left", "to", "pieces", "sides", "kind"]), garbage),
        garbage),
)
block = st.builds(
    lambda moves: [*moves, ("host", "deadline", {})],
    st.lists(st.one_of(sensible, sensible, sensible, nonsense), max_size=8),
)
script = st.lists(block, min_size=1, max_size=8).map(
    lambda blocks: [m for b in blocks for m in b] + [("host", "final_deadline", {})])
options = st.fixed_dictionaries({
    "starting_chips": st.sampled_from([0, 2, 16, 30]),
    "tie_rotation": st.sampled_from(["all_but_last", "first_only"]),
    "weighing_results": st.sampled_from(["immediate", "at_deadline"]),
    "wolf_restriction": st.sampled_from(["totem", "season"]),
    "balloons_on_trial_scale": st.booleans(),
    "final_max_attempts": st.sampled_from([None, 1, 2]),
})
balances = st.fixed_dictionaries({p: st.integers(0, 6) for p in PLAYERS})


def as_command(state: tm.State, actor: Any, name: Any, args: Any, garnets: dict) -> Command:
    """`attempt_split` splits the actor's own piece list in three, to reach real attempts."""
    if name == "attempt_split" and actor in state.challenge:
        pieces = list(state.challenge[actor].pieces)
        i, j = args["i"], args["j"]
        args = {"sides": [pieces[:i], pieces[i:j], pieces[j:]]}
        name = "attempt_balance"
    return Command(name, actor, args, garnets)


def trial_copies(state: tm.State) -> int:
    return sum(sum(state.held(p).trial.values()) for p in PLAYERS)


def check_conservation(before: tm.State, after: tm.State, events: list[Event]) -> None:
    """Copies only come from the auction and go by disintegration or the final challenge;
    chips only go by bids; the pool only shrinks by grants."""
    if before.phase == "not_started":
        return
    delivered = sum(item not in (None, GARNET) for e in events if e.kind == "SeriesResolved"
                    for item in e.data["allocation"].values())
    destroyed = sum(sum(e.data["copies"].values()) for e in events
                    if e.kind == "TrialCopiesDestroyed")
    if not any(e.kind == "FinalChallengeOpened" for e in events):
        assert trial_copies(after) == trial_copies(before) + delivered - destroyed
    paid = sum(sum(e.data["bids"].values()) for e in events if e.kind == "SeriesBidsRecorded")
    assert sum(after.chips.values()) == sum(before.chips.values()) - paid
    assert all(chips >= 0 for chips in after.chips.values())
    grants = sum(e.kind == "SpiritGrantResolved" for e in events)
    assert len(after.pool) == len(before.pool) - grants


@SETTINGS
@given(seed=st.text(min_size=1, max_size=8), chosen=options, start=balances, moves=script)
def test_random_commands_keep_every_promise(seed, chosen, start, moves):
    setup = tm.Setup.model_validate(standard_setup(series=SERIES[:1] * 40, **chosen))
    initial = tm.initial_state(setup, Rng(tm.GAME_ID, seed))
    state = initial
    ledger = dict(start)
    log: list[Event] = []
    rounds = [tm.round_of(state)]
    for actor, name, args in [("host", "open_match", {}), *moves]:
        before = state
        command = as_command(state, actor, name, args, dict(ledger))
        state, events = checked_step(tm, state, command, PLAYERS, ledger, one_recipient=False)
        if events and actor in PLAYERS:  # one sealed acknowledgement per submission
            assert len(events) == 1 and actor in events[0].audience
        check_conservation(before, state, events)
        log.extend(events)
        rounds.append(tm.round_of(state))
    assert rounds == sorted(rounds), "round_of went backwards"
    hypothesis.event(f"phase {state.phase}")
    check_replay_and_views(tm, initial, state, log, PLAYERS)
    check_story(log)


def check_story(log: list[Event]) -> None:
    """Every viewer's story can be told from whatever happened: short lines, a well-formed
    picture, plain JSON tables and forms."""
    for viewer in ("public", "host", *PLAYERS):
        seen = [e for e in log if e.seen_by(viewer)]
        shown = [{"kind": e.kind, "data": json.loads(json.dumps(e.data))} for e in seen]
        for chapter in tm.narrate(shown, viewer):
            assert all(0 < len(line) < 200 for line in chapter["lines"])
        summary = tm.summarize(seen, viewer)
        drawn = tm.picture(summary)
        if drawn is not None:
            ET.fromstring(drawn)
        json.dumps([tm.scoreboard(summary), tm.forms(summary, viewer)])


# Non-interference: p1 cannot tell apart two matches that differ only in what p1 may not know:
# every weight but its own starting totem's, and which of the other starting totems is whose.

VIEWER = "p1"
OTHERS = PLAYERS[1:]


@st.composite
def hidden_setup(draw: Any) -> dict[str, Any]:
    weights = draw(st.permutations(range(2, 21)))
    others = [t for t in TOTEMS if t != STARTING[VIEWER]]
    starting = draw(st.permutations([STARTING[p] for p in OTHERS]))
    return {
        "weights": {STARTING[VIEWER]: 1, **dict(zip(others, weights, strict=True))},
        "starting_totems": {VIEWER: STARTING[VIEWER], **dict(zip(OTHERS, starting, strict=True))},
    }


others = st.sampled_from(OTHERS)
viewer_moves = st.one_of(
    command("place_bet", VIEWER, series=st.sampled_from(["A", "B"]), amount=st.integers(1, 7)),
    command("weigh", VIEWER, left=st.just(["S:Summer-Secret"])),
    command("place_wager", VIEWER, kind=st.just("snake"), letter=st.sampled_from(LETTERS)),
    command("place_wager", VIEWER, kind=st.just("bear"), totems=st.just(["Summer-Secret"])),
    command("give", VIEWER, to=others, pieces=trial_tokens),
    command("guess_starting_totem", VIEWER, target=others, totem=totems),
)
other_moves = st.one_of(
    command("place_bet", others, series=st.sampled_from(["A", "B"]), amount=st.integers(1, 7)),
    command("set_pick_order", others, series=st.just("A"), order=st.permutations(ORDER_1A)),
    command("weigh", others, left=tokens, right=tokens),
    st.tuples(others, st.just("place_wager"), wager),
    command("give", others, to=players, pieces=trial_tokens),
    command("propose_trade", others, **{"with": players}, give=trial_tokens,
            receive=trial_tokens),
    command("choose_spirit_totem", others, totem=totems),
    command("attempt_split", others, i=st.integers(1, 12), j=st.integers(13, 22)),
    command("guess_starting_totem", others, target=players, totem=totems),
)
twin_block = st.builds(
    lambda moves: [*moves, ("host", "deadline", {})],
    st.lists(st.one_of(viewer_moves, other_moves, other_moves), max_size=6),
)
twin_script = st.lists(twin_block, min_size=1, max_size=6).map(
    lambda blocks: [m for b in blocks for m in b] + [("host", "final_deadline", {})])


def run(hidden: dict[str, Any], moves: list[tuple]) -> tuple[list[Event], list[str | None]]:
    setup = tm.Setup.model_validate(standard_setup(series=SERIES[:1] * 40, starting_chips=30,
                                                   **hidden))
    state = tm.initial_state(setup, Rng(tm.GAME_ID, "twin"))
    ledger = dict.fromkeys(PLAYERS, 6)
    log: list[Event] = []
    codes: list[str | None] = []
    for actor, name, args in [("host", "open_match", {}), *moves]:
        command = as_command(state, actor, name, args, dict(ledger))
        state, events, code = step_or_refusal(tm, state, command, ledger)
        codes.append(code)
        log.extend(events)
        if any(event.kind == "MatchResults" for event in events):
            break  # the results reveal everything: the twins may differ from here on
    return log, codes


def visible(log: list[Event], viewer: str) -> list[tuple]:
    shown = []
    for event in log:
        if event.kind in ("MatchResults", "SetupRevealed"):
            break
        if event.seen_by(viewer):
            shown.append((event.kind, event.data, event.audience, event.actor, event.postings))
    return shown


@SETTINGS
@given(first=hidden_setup(), second=hidden_setup(), moves=twin_script)
def test_a_player_cannot_tell_apart_what_they_may_not_know(first, second, moves):
    first_log, first_codes = run(first, moves)
    second_log, second_codes = run(second, moves)
    viewer_codes = [
        (a, b) for (actor, *_), a, b in zip([("host",), *moves], first_codes, second_codes,
                                            strict=False)
        if actor == VIEWER
    ]
    assert all(a == b for a, b in viewer_codes)
    assert visible(first_log, VIEWER) == visible(second_log, VIEWER)
    public = [[e.kind for e in log if e.audience == PUBLIC] for log in (first_log, second_log)]
    assert public[0] == public[1]
    if first_codes == second_codes:
        # Another player's attempt may pass in one twin and be refused in the other (it
        # balanced earlier there): a refusal records nothing, so only then may counts differ.
        sealed = [sum(e.audience != PUBLIC for e in log) for log in (first_log, second_log)]
        assert sealed[0] == sealed[1]
    hypothesis.event("same codes" if first_codes == second_codes else "codes differ")


def test_the_twin_weights_are_a_bijection():
    assert sorted(WEIGHTS.values()) == list(range(1, 21))
