"""Properties over random command sequences, legal and not, from any actor with any args."""

from __future__ import annotations

from typing import Any

import hypothesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.decider import PUBLIC, Command, Event
from domain.games import kings_court as kc
from domain.rng import Rng
from tests.games.kings_court.kc_harness import PLAYERS
from tests.support.deciders import check_replay_and_views, checked_step, step_or_refusal

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

players = st.sampled_from(PLAYERS)
garbage = st.one_of(
    st.none(),
    st.integers(-2, 2),
    st.text(max_size=3),
    st.lists(st.one_of(players, st.none(), st.integers()), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)
value = st.one_of(players, players, garbage)
pair = st.one_of(st.lists(players, min_size=2, max_size=2), garbage)


def command(name: str, actor: Any = players, **args: Any) -> st.SearchStrategy[tuple]:
    return st.tuples(
        actor if isinstance(actor, st.SearchStrategy) else st.just(actor),
        st.just(name),
        st.fixed_dictionaries(args),
    )


sensible = st.one_of(
    command("vote", candidate=players),
    command("vote", candidate=players),
    command("vote", candidate=players),
    command("close_round", "host"),
    command("close_round", "host"),
    command("close_tiebreak", "host"),
    command("tiebreak", choice=players),
    command("pair_check", targets=pair),
    command("king_learn", targets=pair),
    command("peek", target=players),
    command("annoyed_check"),
    command("king_gift", duke=players, noble=players),
    command("close_king_gift", "host"),
    command("ec_vote", candidate=players),
    command("close_ec_vote", "host"),
    command("record_deadlock_result", "host", ec=players),
    command("record_dmo", "host", dmo=players),
    command("open_match", "host"),
)
nonsense = st.tuples(
    st.one_of(players, st.sampled_from(["host", "zed", None, 5])),
    st.one_of(st.sampled_from(["vote", "peek", "pair_check", "record_dmo", "dance"]), garbage),
    st.one_of(
        st.dictionaries(st.sampled_from(["candidate", "targets", "target", "ec"]), value), garbage
    ),
)


def closers(ec: str, dmo: str) -> list[tuple]:
    """Every host close in turn: the one whose phase is open moves the match on."""
    return [
        ("host", "close_round", {}),
        ("host", "close_tiebreak", {}),
        ("host", "close_king_gift", {}),
        ("host", "close_ec_vote", {}),
        ("host", "record_deadlock_result", {"ec": ec}),
        ("host", "record_dmo", {"dmo": dmo}),
    ]


def in_blocks(
    moves: st.SearchStrategy[tuple], least: int, most: int
) -> st.SearchStrategy[list[tuple]]:
    """Scripts that progress: a few moves, a few votes for one favourite (so that somebody,
    sometimes the King, gets elected outright), then every close; repeated."""
    block = st.builds(
        lambda moves, favourite, voters, ec, dmo: [
            *moves,
            *((voter, "vote", {"candidate": favourite}) for voter in voters),
            *closers(ec, dmo),
        ],
        st.lists(moves, max_size=6),
        players,
        st.lists(players, max_size=3),
        players,
        players,
    )
    return st.lists(block, min_size=least, max_size=most).map(lambda bs: [m for b in bs for m in b])


commands = in_blocks(st.one_of(sensible, sensible, nonsense), least=10, most=40)
options = st.fixed_dictionaries(
    {
        "annoyed_scope": st.sampled_from(
            ["all_judge_info", "pair_checks_only", "checks_and_peeks"]
        ),
        "tiebreak_default": st.sampled_from(["random", "seat_order"]),
        "lists_use": st.sampled_from(["judge_view", "true_roles"]),
        "lists_may_include_king": st.booleans(),
        "ec_bonus": st.sampled_from(["always", "tiebreak_only"]),
        "ec_majority": st.sampled_from(["strict_of_party", "plurality_of_ballots"]),
        "peek_uses_judge_view": st.booleans(),
    }
)
balances = st.fixed_dictionaries({p: st.integers(0, 12) for p in PLAYERS})


@SETTINGS
@given(seed=st.text(min_size=1, max_size=8), chosen=options, start=balances, script=commands)
def test_random_commands_keep_every_promise(seed, chosen, start, script):
    setup = kc.Setup(players=PLAYERS, **chosen)
    initial = kc.initial_state(setup, Rng(kc.GAME_ID, seed))
    state = initial
    ledger = dict(start)
    log: list[Event] = []
    rounds = [kc.round_of(state)]
    for actor, name, args in [("host", "open_match", {}), *script]:
        command = Command(name, actor, args, dict(ledger))
        state, events = checked_step(kc, state, command, PLAYERS, ledger)
        log.extend(events)
        rounds.append(kc.round_of(state))
    assert rounds == sorted(rounds), "round_of went backwards"
    hypothesis.event(f"outcome {kc.results(state)['outcome']}, phase {state.phase}")
    check_replay_and_views(kc, initial, state, log, PLAYERS)


# Non-interference: p1 cannot tell apart two games that differ only in what p1 may not know.

VIEWER = "p1"
HIDDEN = ["p3", "p4", "p5", "p7", "p8", "p9", "p10"]  # roles shuffled between the twins


@st.composite
def hidden_roles(draw: Any) -> dict[str, Any]:
    """King p11 and Duke p1 in both; p2 a plain Duke and p6 a plain Noble, so that p1's list
    [p2, p6, p11] is valid in both. Everyone else, and who is annoyed (p1 included), varies."""
    extra_dukes = draw(st.permutations(HIDDEN))[:3]
    dukes = ["p1", "p2", *extra_dukes]
    nobles = ["p6", *(p for p in HIDDEN if p not in extra_dukes)]
    return {
        "king": "p11",
        "dukes": dukes,
        "nobles": nobles,
        "annoyed_duke": draw(st.sampled_from([d for d in dukes if d != "p2"])),
        "annoyed_noble": draw(st.sampled_from([n for n in nobles if n != "p6"])),
        "lists": {VIEWER: ["p2", "p6", "p11"]},
    }


others = st.sampled_from(PLAYERS[1:])
not_the_king = st.sampled_from(PLAYERS[:10])
twin_commands = in_blocks(
    st.one_of(
        command("vote", others, candidate=not_the_king),
        command("vote", VIEWER, candidate=not_the_king),
        command("close_round", "host"),
        command("close_tiebreak", "host"),
        command("tiebreak", "p11", choice=not_the_king),
        command("king_learn", "p11", targets=st.lists(others, min_size=2, max_size=2)),
        command("pair_check", others, targets=st.lists(players, min_size=2, max_size=2)),
        command("peek", others, target=players),
        command("peek", VIEWER, target=st.sampled_from(["p2", "p6", "p11"])),
        command("annoyed_check", others),
    ),
    least=1,
    most=12,
)


def run(game: dict[str, Any], script: list[tuple]) -> tuple[list[Event], list[str | None]]:
    state = kc.initial_state(kc.Setup(players=PLAYERS, games=[game]), Rng(kc.GAME_ID, "twin"))
    ledger = dict.fromkeys(PLAYERS, 30)
    log: list[Event] = []
    codes: list[str | None] = []
    for actor, name, args in [("host", "open_match", {}), *script]:
        command = Command(name, actor, args, dict(ledger))
        state, events, code = step_or_refusal(kc, state, command, ledger)
        codes.append(code)
        log.extend(events)
        if any(event.kind == "GameEnded" for event in events):
            break  # the normal end reveals every role: the twins may differ from here on
    return log, codes


def until_the_end(log: list[Event]) -> list[Event]:
    ends = [i for i, event in enumerate(log) if event.kind == "GameEnded"]
    return log[:ends[0]] if ends else log


def visible(log: list[Event], viewer: str) -> list[tuple]:
    shown = []
    for event in log:
        if event.kind == "GameEnded":
            break
        if event.seen_by(viewer):
            shown.append((event.kind, event.data, event.audience, event.actor, event.postings))
    return shown


@SETTINGS
@given(first=hidden_roles(), second=hidden_roles(), script=twin_commands)
def test_a_player_cannot_tell_apart_what_they_may_not_know(first, second, script):
    first_log, first_codes = run(first, script)
    second_log, second_codes = run(second, script)
    assert first_codes == second_codes
    assert visible(first_log, VIEWER) == visible(second_log, VIEWER)
    # What the public learns, up to the normal end (which reveals every role to everyone).
    before = [until_the_end(log) for log in (first_log, second_log)]
    public = [[e.kind for e in log if e.audience == PUBLIC] for log in before]
    sealed = [sum(e.audience != PUBLIC for e in log) for log in before]
    assert public[0] == public[1] and sealed[0] == sealed[1]
    hypothesis.event(f"court of {sum(e.kind == 'MemberJoined' for e in first_log)}")
