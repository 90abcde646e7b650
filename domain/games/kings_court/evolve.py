"""evolve(state, event) -> state: pure and total, reads only the event record, never draws.

Event data may come back from storage as plain JSON (lists, string keys), so every handler
reads lists and builds its own tuples and dicts. Kinds without a handler change nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from domain.decider import Event
from domain.games.kings_court.phases import (
    AWAITING_DMO,
    BETWEEN_GAMES,
    DEADLOCK_COIN,
    EC_VOTE,
    ELECTION,
    KING_GIFT,
    OVER,
    TIEBREAK,
)
from domain.games.kings_court.roles import Secrets
from domain.games.kings_court.state import Aftermath, Game, State

Data = Mapping[str, Any]


def evolve(state: State, event: Event) -> State:
    handler = HANDLERS.get(event.kind)
    return handler(state, event.data) if handler else state


def _game(state: State, **changes: Any) -> State:
    return _changed(state, {"game": _changed(state.current(), changes)})


def _after(state: State, **changes: Any) -> State:
    return _changed(state, {"aftermath": _changed(state.settled(), changes)})


Frozen = TypeVar("Frozen", State, Game, Aftermath)


def _changed(value: Frozen, changes: dict[str, Any]) -> Frozen:
    """`dataclasses.replace` for these frozen values (each field set by __init__, no
    __post_init__) at a fifth of its cost: every vote runs it four times, every replay as
    often as it has entries."""
    unknown = changes.keys() - vars(value).keys()
    if unknown:
        raise TypeError(f"{type(value).__name__} has no field {sorted(unknown)}")
    new = object.__new__(type(value))
    vars(new).update(vars(value))
    vars(new).update(changes)
    return new


def roles_drawn(state: State, data: Data) -> State:
    secrets = Secrets(
        roles=dict(data["roles"]),
        annoyed_duke=data["annoyed_duke"],
        annoyed_noble=data["annoyed_noble"],
        lists={},
    )
    return replace(state, game=Game(number=data["game"], secrets=secrets))


def lists_drawn(state: State, data: Data) -> State:
    lists = {owner: tuple(names) for owner, names in data["lists"].items()}
    return _game(state, secrets=replace(state.current().secrets, lists=lists))


def round_opened(state: State, data: Data) -> State:
    state = _game(
        state, round=data["round"], votes={}, pair_check=(), tied=(), tiebreak_choice=None
    )
    return replace(state, phase=ELECTION, match_round=data["match_round"])


def vote_cast(state: State, data: Data) -> State:
    return _game(state, votes={**state.current().votes, data["voter"]: data["candidate"]})


def pair_check_submitted(state: State, data: Data) -> State:
    return _game(state, pair_check=tuple(data["targets"]))


def king_look_answered(state: State, data: Data) -> State:
    return _game(state, king_looked=True)


def peek_answered(state: State, data: Data) -> State:
    game = state.current()
    if data["target"] == game.king:
        state = replace(state, king_peeks=state.king_peeks + 1)
    return _game(state, peeks=(*game.peeks, (data["peeker"], data["target"])))


def annoyed_check_answered(state: State, data: Data) -> State:
    checked = (*state.current().annoyed_checked, data["player"])
    return _game(state, annoyed_checked=checked)


def tiebreak_chosen(state: State, data: Data) -> State:
    return _game(state, tiebreak_choice=data["choice"])


def pair_check_answered(state: State, data: Data) -> State:
    return _game(state, pair_check=())


def votes_tallied(state: State, data: Data) -> State:
    """The deadline passed: totals grow, the previous joiner's check right lapses."""
    game = state.current()
    totals = {player: game.totals.get(player, 0) for player in state.players}
    for player, count in data["counts"].items():
        totals[player] += count
    state = _game(state, totals=totals, check_right=None, tied=tuple(data["tied"]))
    return replace(state, phase=TIEBREAK) if data["tied"] else state


def tiebreak_resolved(state: State, data: Data) -> State:
    if data["source"] == "explicit" or data["skipped_pick"] is not None:
        return replace(state, default_picks=state.default_picks + 1)
    return state


def member_joined(state: State, data: Data) -> State:
    joiner = data["player"]
    state = _game(
        state,
        court=tuple(data["court"]),
        tied=(),
        tiebreak_choice=None,
        check_right=None if data["is_king"] else joiner,
    )
    return replace(state, kings=(*state.kings, joiner)) if data["is_king"] else state


def early_king_found(state: State, data: Data) -> State:
    return replace(state, phase=BETWEEN_GAMES, early_ends=state.early_ends + 1)


def main_match_ended(state: State, data: Data) -> State:
    return replace(state, phase=OVER, death_match=tuple(data["death_match"]))


def game_ended(state: State, data: Data) -> State:
    aftermath = Aftermath(
        winner=data["winner"],
        party=tuple(data["party"]),
        ec_scores={player: dict(score) for player, score in data["ec_scores"].items()},
        ec_tied=tuple(data["ec_tied"]),
    )
    phase = KING_GIFT if data["winner"] == "king" else EC_VOTE
    return replace(state, phase=phase, aftermath=aftermath, match_round=state.match_round + 1)


def awards_granted(state: State, data: Data) -> State:
    return _after(state, awards={player: dict(prizes) for player, prizes in data["awards"].items()})


def trade_freeze(on: bool) -> Callable[[State, Data], State]:
    return lambda state, data: replace(state, trade_freeze=on)


def king_gift_chosen(state: State, data: Data) -> State:
    return _after(state, gift_choice=(data["duke"], data["noble"]))


def king_gift_made(state: State, data: Data) -> State:
    return replace(_after(state, gift=(data["duke"], data["noble"])), phase=EC_VOTE)


def ec_ballot_cast(state: State, data: Data) -> State:
    ballots = {**state.settled().ec_ballots, data["voter"]: data["candidate"]}
    return _after(state, ec_ballots=ballots)


def deadlock_coin_opened(state: State, data: Data) -> State:
    return replace(_after(state, deadlock=tuple(data["candidates"])), phase=DEADLOCK_COIN)


def ec_decided(state: State, data: Data) -> State:
    state = _after(state, ec=data["ec"], ec_decided_by=data["decided_by"])
    return replace(state, phase=AWAITING_DMO)


def dmo_recorded(state: State, data: Data) -> State:
    return replace(_after(state, dmo=data["dmo"]), phase=OVER)


HANDLERS: dict[str, Callable[[State, Data], State]] = {
    "GameRolesDrawn": roles_drawn,
    "GameListsDrawn": lists_drawn,
    "RoundOpened": round_opened,
    "VoteCast": vote_cast,
    "PairCheckSubmitted": pair_check_submitted,
    "KingLookAnswered": king_look_answered,
    "PeekAnswered": peek_answered,
    "AnnoyedCheckAnswered": annoyed_check_answered,
    "TiebreakChosen": tiebreak_chosen,
    "PairCheckAnswered": pair_check_answered,
    "VotesTallied": votes_tallied,
    "TiebreakResolved": tiebreak_resolved,
    "MemberJoined": member_joined,
    "EarlyKingFound": early_king_found,
    "MainMatchEnded": main_match_ended,
    "GameEnded": game_ended,
    "AwardsGranted": awards_granted,
    "TradeFreezeStarted": trade_freeze(True),
    "TradeFreezeEnded": trade_freeze(False),
    "KingGiftChosen": king_gift_chosen,
    "KingGiftMade": king_gift_made,
    "EcBallotCast": ec_ballot_cast,
    "DeadlockCoinOpened": deadlock_coin_opened,
    "EcDecided": ec_decided,
    "DmoRecorded": dmo_recorded,
}
