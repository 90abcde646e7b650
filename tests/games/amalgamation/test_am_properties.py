"""Properties over random command sequences, legal and not, from any actor with any args.

A move is an intent resolved against the state when it runs (a round submission names the
open round and its tiles), sometimes with one field replaced by garbage; blocks of moves end
with every host close, so matches progress to their end.
"""

from __future__ import annotations

from typing import Any

import hypothesis
from hypothesis import given
from hypothesis import strategies as st

from domain.decider import HOST, Command, Event
from domain.games import amalgamation as am
from domain.games.amalgamation.draws import ROLES
from domain.games.amalgamation.state import State
from domain.rng import Rng
from tests.games.amalgamation.harness import PLAYERS, SETTINGS, STANDARD
from tests.support.deciders import checked_step, from_storage

CLOSES = ("close_pregame", "close_round", "close_ec_decision")
GARBAGE_FIELDS = (
    "round",
    "kd_contribution",
    "ma_bids",
    "invest",
    "donate",
    "ct_role",
    "ct_bet",
    "garnets_to_exchange",
)

players = st.sampled_from(PLAYERS)
garbage = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([2.0, 0.5, -1.5, 1e3]),
    st.text(max_size=3),
    st.lists(st.one_of(players, st.integers()), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(-2, 2), max_size=3),
)
amount = st.integers(0, 90)
submission = st.fixed_dictionaries(
    {
        "kd": amount,
        "bids": st.lists(st.integers(-25, 25), min_size=5, max_size=5),
        "invest": amount,
        "donate": amount,
        "role": st.sampled_from(ROLES),
        "bet": amount,
        "garnets": st.one_of(st.none(), st.integers(0, 3)),
        "round_offset": st.sampled_from([0, 0, 0, 0, 1, -1]),
        "spoil": st.one_of(
            st.none(), st.none(), st.none(), st.tuples(st.sampled_from(GARBAGE_FIELDS), garbage)
        ),
    }
)
moves = st.one_of(
    st.tuples(st.just("round"), players, submission),
    st.tuples(st.just("round"), players, submission),
    st.tuples(st.just("round"), players, submission),
    st.tuples(st.just("rate"), players, st.one_of(st.integers(3, 22), garbage)),
    st.tuples(st.just("order"), players, st.one_of(st.permutations(PLAYERS), garbage)),
    st.tuples(st.just("teams"), players, st.permutations(PLAYERS)),
    st.tuples(st.just("ec"), players, st.one_of(players, garbage)),
    st.tuples(
        st.just("nonsense"),
        st.one_of(players, st.sampled_from(["host", "zed", ""])),
        st.tuples(
            st.one_of(st.sampled_from(["submit_round", "choose_ec", "close_round", "x"]), garbage),
            st.dictionaries(st.text(max_size=8), garbage, max_size=3),
        ),
    ),
)
scripts = st.lists(
    st.tuples(st.lists(moves, max_size=8), st.sampled_from(CLOSES)), min_size=5, max_size=12
)


def round_submission(state: State, fields: dict[str, Any]) -> dict[str, Any]:
    tiles = state.tiles if state.phase == "round" else ()
    args: dict[str, Any] = {
        "round": state.round + fields["round_offset"],
        "kd_contribution": fields["kd"],
        "ma_bids": {str(t): b for t, b in zip(tiles, fields["bids"], strict=False)},
        "invest": fields["invest"],
        "donate": fields["donate"],
        "ct_role": fields["role"],
        "ct_bet": fields["bet"],
        "garnets_to_exchange": fields["garnets"],
    }
    if fields["spoil"]:
        field, value = fields["spoil"]
        args[field] = value
    return args


def to_command(state: State, move: tuple, garnets: dict[str, int]) -> Command:
    kind, actor, detail = move
    if kind == "round":
        return Command("submit_round", actor, round_submission(state, detail), garnets)
    if kind == "rate":
        return Command("submit_garnet_rate", actor, {"rate": detail}, garnets)
    if kind == "order":
        return Command(
            "submit_ma_order",
            actor,
            {"order": list(detail) if isinstance(detail, tuple) else detail},
            garnets,
        )
    if kind == "teams":
        return Command(
            "submit_teams", actor, {"red": list(detail[:3]), "white": list(detail[3:])}, garnets
        )
    if kind == "ec":
        return Command("choose_ec", actor, {"candidate": detail}, garnets)
    name, args = detail
    return Command(name, actor, args, garnets)


def run(setup: am.Setup, seed: str, start: dict[str, int], script: list) -> tuple:
    """Play the script; check the per-command promises; return what the end checks need."""
    initial = am.initial_state(setup, Rng(am.GAME_ID, seed))
    state = initial
    garnets = dict(start)
    log: list[Event] = []
    rounds = [am.round_of(state)]
    steps: list[tuple] = [("host", "open_match")]
    for block, close in script:
        steps.extend(block)
        steps.extend(("host", name) for name in (close, *CLOSES))
    for step in steps:
        if step[0] == "host":
            command = Command(step[1], HOST, {}, dict(garnets))
        else:
            command = to_command(state, step, dict(garnets))
        state, events = checked_step(am, state, command, PLAYERS, garnets)
        assert all(balance >= 0 for balance in state.balances.values()), state.balances
        log.extend(events)
        rounds.append(am.round_of(state))
    assert rounds == sorted(rounds), "round_of went backwards"
    return initial, state, log, garnets


@SETTINGS
@given(
    seed=st.text(min_size=1, max_size=6),
    drawn=st.booleans(),
    variants=st.fixed_dictionaries(
        {
            "kd_tie_reveals_amount": st.booleans(),
            "ma_rotation": st.sampled_from(["tiebreak_winner_only", "every_winner"]),
            "ma_streak_scoring": st.sampled_from(["once_per_streak", "per_tile"]),
            "ti_zero_amount_eligible": st.booleans(),
            "four_plus_top_tie": st.sampled_from(["no_winner", "winners_without_tols"]),
            "starting_money": st.integers(0, 400),
        }
    ),
    twists=st.tuples(st.one_of(st.none(), players), st.one_of(st.none(), players)),
    start=st.fixed_dictionaries({p: st.integers(0, 4) for p in PLAYERS}),
    script=scripts,
)
def test_random_commands_keep_every_promise(seed, drawn, variants, twists, start, script):
    hidden = {} if drawn else STANDARD
    setup = am.Setup(
        players=PLAYERS, mm_winner=twists[0], dm_winner=twists[1], variants=variants, **hidden
    )
    initial, state, log, garnets = run(setup, seed, start, script)
    hypothesis.event(f"phase {state.phase}, round {state.round}")

    replayed = initial
    for event in log:
        replayed = am.evolve(replayed, from_storage(event))
    assert replayed == state

    check_money_is_conserved(setup, log, state)
    check_garnets_are_conserved(start, garnets, log, state)
    check_tiles_are_conserved(log)
    if am.finished(state):
        check_the_end_adds_up(state, log)
    am.results(state)
    for viewer in ("public", "host", *PLAYERS):
        am.summarize([e for e in log if e.seen_by(viewer)], viewer)


def check_money_is_conserved(setup: am.Setup, log: list[Event], state: State) -> None:
    """balance = start + money bought - money spent - penalties actually taken (0 to 20)."""
    if not state.balances:
        return
    expected = dict.fromkeys(PLAYERS, setup.variants.starting_money)
    penalised: list[str] = []
    for event in log:
        if event.kind == "MoneySpent":
            player = event.data["player"]
            expected[player] += event.data["money_bought"] - event.data["total"]
            assert expected[player] == event.data["balance"] >= 0
        elif event.kind == "MinusAuctionPenaltiesApplied":
            penalised = event.data["penalised"]
        elif event.kind == "BalancesBeforePenalties":
            assert event.data["balances"] == expected
            for player in penalised:
                expected[player] = max(0, expected[player] - 20)
        elif event.kind == "BalancesRevealed":
            assert event.data["balances"] == expected
    assert dict(state.balances) == expected


def check_garnets_are_conserved(start, garnets, log, state) -> None:
    """What left the season = exchanged in resolved rounds + held by the open submissions;
    what came in = the awards."""
    exchanged = {p: 0 for p in PLAYERS}
    awarded = {p: 0 for p in PLAYERS}
    for event in log:
        if event.kind == "MoneySpent":
            exchanged[event.data["player"]] += event.data["garnets_exchanged"]
            assert event.data["money_bought"] == event.data["garnets_exchanged"] * state.garnet_rate
        if event.kind == "GarnetsAwarded":
            awarded = dict(event.data["awards"])
    for player in PLAYERS:
        held = state.reserved_garnets(player) if state.phase == "round" else 0
        assert garnets[player] == start[player] - exchanged[player] - held + awarded[player]


def check_tiles_are_conserved(log: list[Event]) -> None:
    tiles = [e.data["tile"] for e in log if e.kind == "MinusAuctionTileAwarded"]
    closed = sum(e.kind == "RoundLocked" for e in log)
    assert len(tiles) == len(set(tiles)) == 5 * closed


def check_the_end_adds_up(state: State, log: list[Event]) -> None:
    final = state.ending()
    assert sum(final.match_points.values()) == 276
    assert sum(final.garnet_awards.values()) == 12
    assert sum(final.tols.values()) in (0, 2)
    assert sum(e.kind == "EcDetermined" for e in log) == 1
    assert final.ec in final.candidates
    assert (
        sum(e.data["chips"][p] for e in log if e.kind == "ChipThiefRoundResolved" for p in PLAYERS)
        <= 35
    )
