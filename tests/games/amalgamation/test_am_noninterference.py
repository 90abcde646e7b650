"""Non-interference: p1 cannot tell apart two matches that differ only in what p1 may not know.

The twins differ in: the default teams (never used: the DM winner p2 submits teams first), the
tile schedule after a random round k (compared until round k + 1 opens), the garnets the other
players hold (their exchanges stay within what both twins hold), how p3 and p4 split a rate
mean (10 and 14, or 14 and 10), and how p3 splits his spending between a Kong contribution and a
Chip Thief bet while red wins the round anyway (compared until the rankings, which publish
contribution-based places and point totals). Everything p1 sees, and the public shape of the
log, must be identical.
"""

from __future__ import annotations

from typing import Any

import hypothesis
from hypothesis import given
from hypothesis import strategies as st

from domain.decider import HOST, PUBLIC, Command, Event
from domain.errors import RuleViolation
from domain.games import amalgamation as am
from domain.games.amalgamation.draws import ROLES
from domain.rng import Rng
from tests.games.amalgamation.harness import PLAYERS, SCHEDULE, SETTINGS

VIEWER = "p1"
OTHERS = PLAYERS[1:]
TEAMS = {"red": ["p1", "p2", "p3"], "white": ["p4", "p5", "p6"]}


@st.composite
def twin(draw: Any, k: int) -> dict[str, Any]:
    """The hidden half of one twin."""
    shuffled = draw(st.permutations(PLAYERS))
    later = draw(st.permutations([t for tiles in SCHEDULE[k:] for t in tiles]))
    return {
        "default_teams": {"red": list(shuffled[:3]), "white": list(shuffled[3:])},
        "schedule": SCHEDULE[:k] + [list(later[i : i + 5]) for i in range(0, len(later), 5)],
        "garnets": {VIEWER: 3} | {p: draw(st.integers(14, 30)) for p in OTHERS},
        "rates": draw(st.sampled_from([(10, 14), (14, 10)])),
        "p3_shift": draw(st.lists(st.booleans(), min_size=7, max_size=7)),
    }


move = st.one_of(
    st.tuples(
        st.sampled_from(PLAYERS),
        st.integers(0, 40),  # kd
        st.lists(st.integers(-8, 8), min_size=5, max_size=5),
        st.integers(0, 20),  # invest
        st.integers(0, 20),  # donate
        st.sampled_from(ROLES),
        st.integers(0, 20),  # bet
        st.integers(0, 2),  # garnets
    ),
    st.just("p3_hidden"),
)
script = st.lists(st.lists(move, max_size=7), min_size=1, max_size=7)


def play(hidden: dict[str, Any], rounds: list[list[Any]]) -> tuple[list[Event], list[str | None]]:
    setup = am.Setup(
        players=PLAYERS,
        gamewide_tiebreak=PLAYERS,
        dm_winner="p2",
        default_teams=hidden["default_teams"],
        tile_schedule=hidden["schedule"],
    )
    state = am.initial_state(setup, Rng(am.GAME_ID, "twins"))
    garnets = dict(hidden["garnets"])
    log: list[Event] = []
    codes: list[str | None] = []

    def do(actor: str, name: str, args: dict[str, Any]) -> None:
        nonlocal state
        try:
            events = am.decide(state, Command(name, actor, args, dict(garnets)))
        except RuleViolation as refusal:
            events = []
            if actor == VIEWER:
                codes.append(refusal.code)
        else:
            if actor == VIEWER:
                codes.append(None)
        for event in events:
            state = am.evolve(state, event)
            for posting in event.postings:
                if posting.asset == "garnets":
                    garnets[posting.player] += posting.amount
        log.extend(events)

    do(HOST, "open_match", {})
    do("p2", "submit_teams", TEAMS)
    do(VIEWER, "submit_garnet_rate", {"rate": 12})
    do("p3", "submit_garnet_rate", {"rate": hidden["rates"][0]})
    do("p4", "submit_garnet_rate", {"rate": hidden["rates"][1]})
    do(HOST, "close_pregame", {})
    for moves in rounds:
        for step in moves:
            if step == "p3_hidden":
                # $160 from p3 outweighs white's at most 3 x $40: red wins either way.
                shifted = hidden["p3_shift"][state.round - 1]
                do("p3", "submit_round", submission(state, 160 + 10 * shifted, 10 * (not shifted)))
            else:
                player, kd, bids, invest, donate, role, bet, exchange = step
                args = submission(state, kd, bet, bids, invest, donate, role, exchange)
                if player != "p3":
                    do(player, "submit_round", args)
        do(HOST, "close_round", {})
    return log, codes


def submission(
    state: Any,
    kd: int,
    bet: int,
    bids: list[int] | None = None,
    invest: int = 0,
    donate: int = 0,
    role: str = "police",
    exchange: int = 0,
) -> dict[str, Any]:
    given_bids = bids or [0] * 5
    return {
        "round": state.round,
        "kd_contribution": kd,
        "ma_bids": {str(t): b for t, b in zip(state.tiles, given_bids, strict=True)},
        "invest": invest,
        "donate": donate,
        "ct_role": role,
        "ct_bet": bet,
        "garnets_to_exchange": exchange,
    }


def until_secrets_may_differ(log: list[Event], k: int) -> list[Event]:
    for index, event in enumerate(log):
        later_tiles = event.kind == "RoundOpened" and event.data["round"] > k
        if later_tiles or event.kind == "SubgameRanked":
            return log[:index]
    return log


def visible(log: list[Event]) -> list[tuple]:
    return [(e.kind, e.data, e.audience, e.actor, e.postings) for e in log if e.seen_by(VIEWER)]


@SETTINGS
@given(k=st.integers(1, 6), data=st.data(), rounds=script)
def test_a_player_cannot_tell_apart_what_he_may_not_know(k, data, rounds):
    first, second = data.draw(twin(k)), data.draw(twin(k))
    first_log, first_codes = play(first, rounds)
    second_log, second_codes = play(second, rounds)
    assert first_codes == second_codes
    first_log = until_secrets_may_differ(first_log, k)
    second_log = until_secrets_may_differ(second_log, k)
    assert visible(first_log) == visible(second_log)
    public = [[e.kind for e in log if e.audience == PUBLIC] for log in (first_log, second_log)]
    sealed = [sum(e.audience != PUBLIC for e in log) for log in (first_log, second_log)]
    assert public[0] == public[1] and sealed[0] == sealed[1]
    hypothesis.event(f"{sum(e.kind == 'RoundLocked' for e in first_log)} rounds compared")
