"""Properties over random command sequences, legal and not, from any actor with any args.

Votes are drawn as positions on the ballot open when they are sent (so that they land), next
to plain garbage. Bill effects are drawn too, so that houses move in every direction.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import hypothesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.decider import PUBLIC, Command, Event
from domain.games import merchants_guild as mg
from domain.rng import Rng
from tests.games.merchants_guild.mg_harness import (
    ALIGNMENTS,
    HOUSES,
    PAIRS,
    PLAYERS,
    RESOURCES,
    catalog,
)
from tests.support.deciders import check_replay_and_views, checked_step, step_or_refusal

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

players = st.sampled_from(PLAYERS)
bills = st.integers(0, 61)
garbage = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 62),
    st.text(max_size=3),
    st.lists(st.one_of(players, st.none(), st.integers(0, 61)), max_size=4),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)
directions = st.one_of(st.sampled_from(["forward", "back"]), garbage)
three_houses = st.one_of(st.permutations(HOUSES).map(lambda h: list(h[:3])), garbage)


def command(name: str, actor: Any = players, **args: Any) -> st.SearchStrategy[tuple]:
    return st.tuples(
        actor if isinstance(actor, st.SearchStrategy) else st.just(actor),
        st.just(name),
        st.fixed_dictionaries(args),
    )


sensible = st.one_of(
    command("vote", picks=st.lists(st.integers(0, 5), max_size=2)),
    command("vote", picks=st.lists(st.integers(0, 5), max_size=2)),
    command("vote", bills=st.one_of(st.lists(bills, max_size=3), garbage)),
    command("nominate", bill=bills, direction=directions),
    command("paid_push", bill=bills, direction=directions),
    command("reveal_partner", bill=bills),
    command("investigate", target=st.one_of(players, garbage), houses=three_houses),
    command("extra_investigate", target=st.one_of(players, garbage), houses=three_houses),
    command(
        "blackmail", target=st.one_of(players, garbage), proceed=st.one_of(st.booleans(), garbage)
    ),
    command("open_match", "host"),
)
nonsense = st.tuples(
    st.one_of(players, st.sampled_from(["host", "zed", None, 5])),
    st.one_of(st.sampled_from(["vote", "reveal_partner", "close_week", "dance"]), garbage),
    st.one_of(
        st.dictionaries(st.sampled_from(["bills", "bill", "target", "houses"]), garbage), garbage
    ),
)


def in_blocks(moves: st.SearchStrategy[tuple], least: int, most: int) -> st.SearchStrategy:
    """Scripts that progress: a few moves, then the host closes the week; repeated."""
    block = st.lists(moves, max_size=8).map(lambda ms: [*ms, ("host", "close_week", {})])
    return st.lists(block, min_size=least, max_size=most).map(lambda bs: [m for b in bs for m in b])


effect = st.one_of(
    st.builds(
        lambda h, r, a: {"op": "add", "house": h, "resource": r, "amount": a},
        st.sampled_from(HOUSES), st.sampled_from(RESOURCES), st.sampled_from([-3, -1, 1, 2]),
    ),
    st.builds(
        lambda hs, r, a: {"op": "transfer", "from": hs[0], "to": hs[1], "resource": r, "amount": a},
        st.permutations(HOUSES), st.sampled_from(RESOURCES), st.integers(1, 3),
    ),
    st.builds(
        lambda hs, r: {"op": "swap", "houses": list(hs[:2]), "resource": r},
        st.permutations(HOUSES), st.sampled_from(RESOURCES),
    ),
    st.builds(
        lambda h, r, v: {"op": "set", "house": h, "resource": r, "value": v},
        st.sampled_from(HOUSES), st.sampled_from(RESOURCES), st.integers(0, 4),
    ),
)  # fmt: skip
special_bills = st.dictionaries(
    st.integers(1, 60).map(lambda n: f"b{n}"), st.lists(effect, max_size=2), max_size=20
)
options = st.fixed_dictionaries(
    {
        "nominate_presented": st.sampled_from(["reject", "ignore"]),
        "week8_selection_actions": st.sampled_from(["reject", "allow"]),
        "lookup_limit_per_week": st.sampled_from([None, 0, 1, 2]),
        "max_extra_investigations": st.integers(0, 2),
        "blackmail_evaluation": st.sampled_from(["simultaneous", "sequential_seat_order"]),
        "insolvent_tax": st.sampled_from(["take_all", "take_none"]),
        "all_tied_losers": st.sampled_from(["all", "none"]),
        "bills_tol_field": st.sampled_from(["payers_first", "all_then_require_payer"]),
        "week1_leads": st.lists(st.integers(1, 60), max_size=3, unique=True),
    }
)
balances = st.fixed_dictionaries({p: st.integers(0, 12) for p in PLAYERS})


def resolve(state: mg.State, name: Any, args: Any) -> Any:
    """`picks` are positions on the ballot open now."""
    if name == "vote" and isinstance(args, dict) and "picks" in args:
        on_ballot = state.on_ballot()
        return {"bills": [on_ballot[i] for i in args["picks"] if i < len(on_ballot)]}
    return args


def leads_setup(chosen: dict[str, Any], special: dict[str, Any], drawn: bool) -> mg.Setup:
    fields = {"players": PLAYERS, "bills": catalog(**special), **chosen}
    if not drawn:
        pair_of = {bill: tuple(pair) for pair in PAIRS for bill in pair}
        fields["week1_leads"] = list({pair_of[b]: b for b in chosen["week1_leads"]}.values())
        fields |= {"pairs": PAIRS, "alignments": ALIGNMENTS}
    return mg.Setup.model_validate(fields)


@SETTINGS
@given(
    seed=st.text(min_size=1, max_size=8),
    chosen=options,
    special=special_bills,
    drawn=st.booleans(),
    start=balances,
    script=in_blocks(st.one_of(sensible, sensible, nonsense), least=2, most=10),
)
def test_random_commands_keep_every_promise(seed, chosen, special, drawn, start, script):
    initial = mg.initial_state(leads_setup(chosen, special, drawn), Rng(mg.GAME_ID, seed))
    state = initial
    ledger = dict(start)
    log: list[Event] = []
    rounds = [mg.round_of(state)]
    for actor, name, args in [("host", "open_match", {}), *script]:
        command = Command(name, actor, resolve(state, name, args), dict(ledger))
        state, events = checked_step(mg, state, command, PLAYERS, ledger)
        assert all(v >= 0 for values in state.houses.values() for v in values.values())
        log.extend(events)
        rounds.append(mg.round_of(state))
    assert rounds == sorted(rounds), "round_of went backwards"
    hypothesis.event(f"week {state.week}, over {state.over}")
    check_ballots(state, log)
    if state.over:
        check_settlement_conserves(state, log, start, ledger)
    check_replay_and_views(mg, initial, state, log, PLAYERS)


def check_ballots(state: mg.State, log: list[Event]) -> None:
    """Every ballot is three partner pairs never presented before; every ballot bill is passed
    or rejected at its deadline."""
    seen: set[int] = set()
    ballots = [e.data["pairs"] for e in log if e.kind == "BallotPublished"]
    for pairs in ballots:
        assert len(pairs) == 3 and pairs == sorted(pairs)
        for low, high in pairs:
            assert state.partners[low] == high and low < high
            assert not {low, high} & seen
            seen |= {low, high}
    resolved_weeks = [e for e in log if e.kind == "WeekResolved"]
    for resolved, pairs in zip(resolved_weeks, ballots[: len(resolved_weeks)], strict=True):
        on_ballot = sorted(b for pair in pairs for b in pair)
        assert sorted(resolved.data["passed"] + resolved.data["rejected"]) == on_ballot


def check_settlement_conserves(state, log, start, ledger) -> None:
    """Blackmail moves gold, never makes it; the tax takes at most 2; garnets gained are the gold
    left; each player's match delta is gained less spent; ToLs within their caps."""
    gold = state.settlement["gold"]
    assert sum(r["gold_before_tax"] for r in gold) == sum(r["gold_from_houses"] for r in gold)
    assert sum(r["blackmail_paid"] for r in gold) == sum(r["blackmail_received"] for r in gold)
    for row in gold:
        assert 0 <= row["tax_taken"] <= 2 and row["gold_after_tax"] >= 0
        assert row["gold_after_tax"] == row["gold_before_tax"] - row["tax_taken"]
    totals = {e.data["player"]: e.data for e in log if e.kind == "TotalsDisclosed"}
    for player in PLAYERS:
        assert ledger[player] - start[player] == totals[player]["garnet_delta"]
        assert ledger[player] == totals[player]["final_balance"]
    awards = [e.data for e in log if e.kind == "ToLAwarded"]
    assert sum(a["count"] for a in awards if a["reason"] == "most_gold") <= 6
    assert sum(a["count"] for a in awards if a["reason"] == "bills") <= 1


# Non-interference: p1 cannot tell apart two guilds that differ only in what p1 may not know:
# the houses of p3..p10 (p1's and p2's are fixed) and how bills 49..60 pair up. Scripts keep
# bills 49..60 off every ballot (forward nominations of bills 1..48 only: the 24 pairs of
# 1..48 fill the 8 weeks), look up bills 1..48 only, and blackmail only p1 or p2, so that no
# other player's command is accepted in one twin and refused in the other.

VIEWER = "p1"
FIXED = {"p1": ["red", "green", "blue"], "p2": ["red", "green", "black"]}
OTHER_COMBINATIONS = [
    list(c) for c in combinations(HOUSES, 3) if list(c) not in FIXED.values()
]  # fmt: skip
LATE_BILLS = list(range(49, 61))


@st.composite
def secrets(draw: Any) -> dict[str, Any]:
    houses = draw(st.permutations(OTHER_COMBINATIONS))
    late = draw(st.permutations(LATE_BILLS))
    return {
        "alignments": {**FIXED, **dict(zip(PLAYERS[2:], houses, strict=True))},
        "pairs": PAIRS[:24] + [sorted(late[i : i + 2]) for i in range(0, 12, 2)],
    }


early = st.integers(1, 48)
twin_moves = st.one_of(
    command("vote", picks=st.lists(st.integers(0, 5), max_size=2)),
    command("nominate", bill=early, direction=st.just("forward")),
    command("paid_push", bill=early, direction=st.just("forward")),
    command("reveal_partner", bill=early),
    command("investigate", target=players, houses=three_houses),
    command("extra_investigate", target=players, houses=three_houses),
    command("investigate", VIEWER, target=st.just("p2"), houses=three_houses),
    command("blackmail", target=st.sampled_from(["p1", "p2"]), proceed=st.booleans()),
)


def run(hidden: dict[str, Any], script: list[tuple]) -> tuple[list[Event], list[str | None]]:
    setup = mg.Setup.model_validate({"players": PLAYERS, "bills": catalog(), **hidden})
    state = mg.initial_state(setup, Rng(mg.GAME_ID, "twin"))
    ledger = dict.fromkeys(PLAYERS, 30)
    log: list[Event] = []
    codes: list[str | None] = []
    for actor, name, args in [("host", "open_match", {}), *script]:
        if (
            actor == VIEWER
            and name in ("investigate", "extra_investigate")
            and args["target"] != "p2"
        ):
            continue  # p1 may only investigate the player whose houses are fixed
        command = Command(name, actor, resolve(state, name, args), dict(ledger))
        state, events, code = step_or_refusal(mg, state, command, ledger)
        codes.append(code)
        log.extend(events)
    return log, codes


def visible(log: list[Event], viewer: str) -> list[tuple]:
    shown = []
    for event in log:
        if event.kind == "MatchSettled":
            break  # the settlement discloses every alignment and the pairing
        if event.seen_by(viewer):
            shown.append((event.kind, event.data, event.audience, event.actor, event.postings))
    return shown


@SETTINGS
@given(first=secrets(), second=secrets(), script=in_blocks(twin_moves, least=1, most=9))
def test_a_player_cannot_tell_apart_what_they_may_not_know(first, second, script):
    first_log, first_codes = run(first, script)
    second_log, second_codes = run(second, script)
    assert first_codes == second_codes
    assert visible(first_log, VIEWER) == visible(second_log, VIEWER)
    cut = [
        [e for e in log[: next((i for i, e in enumerate(log) if e.kind == "MatchSettled"), None)]]
        for log in (first_log, second_log)
    ]
    public = [[e.kind for e in log if e.audience == PUBLIC] for log in cut]
    sealed = [sum(e.audience != PUBLIC for e in log) for log in cut]
    assert public[0] == public[1] and sealed[0] == sealed[1]
    hypothesis.event(f"weeks closed: {sum(e.kind == 'WeekResolved' for e in first_log)}")
