"""evolve(state, event) -> state: pure and total, reads only the event record, never draws.

Event data may come back from storage as plain JSON (lists, string keys), so every handler
reads lists and builds its own tuples and dicts. Kinds without a handler change nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from domain.decider import Event
from domain.games.amalgamation.kong import TEAMS
from domain.games.amalgamation.state import (
    EC_DECISION,
    OVER,
    PREGAME,
    RESOLVING,
    ROUND,
    SCORING_ROUND,
    Final,
    State,
    Submission,
    Tally,
)

Data = Mapping[str, Any]


def evolve(state: State, event: Event) -> State:
    handler = HANDLERS.get(event.kind)
    return handler(state, event.data) if handler else state


def _tally(state: State, **changes: Any) -> State:
    return replace(state, tally=replace(state.totals(), **changes))


def _final(state: State, **changes: Any) -> State:
    return replace(state, final=replace(state.ending(), **changes))


def _added(counts: Mapping[str, int], extra: Mapping[str, int]) -> dict[str, int]:
    return {player: count + extra.get(player, 0) for player, count in counts.items()}


def opened(state: State, data: Data) -> State:
    given = data["gamewide_tiebreak"]
    money: int = data["starting_money"]
    return replace(
        state,
        phase=PREGAME,
        gamewide_tiebreak=tuple(given) if given else (),
        balances=dict.fromkeys(state.players, money),
    )


def rate_submitted(state: State, data: Data) -> State:
    return replace(state, rate_submissions={**state.rate_submissions, data["player"]: data["rate"]})


def ma_order_submitted(state: State, data: Data) -> State:
    return replace(state, ma_order_submission=tuple(data["order"]))


def teams_submitted(state: State, data: Data) -> State:
    return replace(
        state, teams_submission={"red": tuple(data["red"]), "white": tuple(data["white"])}
    )


def setup_drawn(state: State, data: Data) -> State:
    return replace(
        state,
        gamewide_tiebreak=tuple(data["gamewide_tiebreak"]),
        tile_schedule=tuple(tuple(tiles) for tiles in data["tile_schedule"]),
    )


def pregame_closed(state: State, data: Data) -> State:
    teams = {team: tuple(data["teams"][team]) for team in TEAMS}
    return replace(
        state,
        teams=teams,
        ma_order=tuple(data["ma_initial_order"]),
        garnet_rate=data["garnet_rate"],
        tally=Tally.empty(state.players, TEAMS),
    )


def round_opened(state: State, data: Data) -> State:
    return replace(
        state, phase=ROUND, round=data["round"], ma_order=tuple(data["ma_order"]), submissions={}
    )


def submission_accepted(state: State, data: Data) -> State:
    submission = Submission(
        kd_contribution=data["kd_contribution"],
        ma_bids={int(tile): bid for tile, bid in data["ma_bids"].items()},
        invest=data["invest"],
        donate=data["donate"],
        ct_role=data["ct_role"],
        ct_bet=data["ct_bet"],
        garnets_to_exchange=data["garnets_to_exchange"],
    )
    return replace(state, submissions={**state.submissions, data["player"]: submission})


def round_locked(state: State, data: Data) -> State:
    return replace(state, phase=RESOLVING)


def money_spent(state: State, data: Data) -> State:
    player, tally = data["player"], state.totals()
    return _tally(
        state,
        kong_contributions=_added(tally.kong_contributions, {player: data["kd_contribution"]}),
        ma_spent=_added(tally.ma_spent, {player: data["ma_bids_total"]}),
        id_spent=_added(tally.id_spent, {player: data["invest"] + data["donate"]}),
        garnets_exchanged=_added(tally.garnets_exchanged, {player: data["garnets_exchanged"]}),
    )


def kong_round_resolved(state: State, data: Data) -> State:
    rounds = dict(state.totals().kong_point_rounds)
    if data["result"] in rounds:
        rounds[data["result"]] = (*rounds[data["result"]], data["round"])
    return _tally(state, kong_points=dict(data["points"]), kong_point_rounds=rounds)


def tile_awarded(state: State, data: Data) -> State:
    tiles = dict(state.totals().ma_tiles)
    tiles[data["winner"]] = (*tiles[data["winner"]], data["tile"])
    return _tally(state, ma_tiles=tiles)


def ma_round_closed(state: State, data: Data) -> State:
    return replace(state, ma_order=tuple(data["order_after"]))


def tokens_awarded(state: State, data: Data) -> State:
    tally = state.totals()
    top = data["top_investor"]
    return _tally(
        state,
        top_investor_tokens=_added(tally.top_investor_tokens, {top: 1} if top else {}),
        miser_tokens=_added(tally.miser_tokens, dict.fromkeys(data["misers"], 1)),
    )


def chip_thief_bets(state: State, data: Data) -> State:
    return _tally(state, ct_points=_added(state.totals().ct_points, data["points"]))


def penalties_applied(state: State, data: Data) -> State:
    return _tally(state, dry_rounds=dict(data["dry_rounds"]))


def balances_revealed(state: State, data: Data) -> State:
    return replace(state, balances=dict(data["balances"]))


def subgame_ranked(state: State, data: Data) -> State:
    subgame = data["subgame"]
    return replace(
        state,
        rankings={**state.rankings, subgame: tuple(data["ranking"])},
        subgame_scores={**state.subgame_scores, subgame: dict(data["scores"])},
    )


def match_scored(state: State, data: Data) -> State:
    final = Final(
        match_points=dict(data["match_points"]),
        winners=tuple(data["winners"]),
        tols=dict(data["tols"]),
        tols_invalidated=data["tols_invalidated"],
        candidates=tuple(data["ec_candidates"]),
    )
    return replace(state, final=final, round=SCORING_ROUND)


def ec_decision_opened(state: State, data: Data) -> State:
    return replace(state, phase=EC_DECISION)


def ec_chosen(state: State, data: Data) -> State:
    return _final(
        state, ec_choices={**state.ending().ec_choices, data["winner"]: data["candidate"]}
    )


def ec_determined(state: State, data: Data) -> State:
    return _final(state, ec=data["ec"], ec_decided_by=data["decided_by"])


def garnets_awarded(state: State, data: Data) -> State:
    return replace(_final(state, garnet_awards=dict(data["awards"])), phase=OVER)


HANDLERS: dict[str, Callable[[State, Data], State]] = {
    "AmalgamationOpened": opened,
    "GarnetRateSubmitted": rate_submitted,
    "MinusAuctionOrderSubmitted": ma_order_submitted,
    "TeamsSubmitted": teams_submitted,
    "SetupDrawn": setup_drawn,
    "PregameClosed": pregame_closed,
    "RoundOpened": round_opened,
    "RoundSubmissionAccepted": submission_accepted,
    "RoundLocked": round_locked,
    "MoneySpent": money_spent,
    "KongRoundResolved": kong_round_resolved,
    "MinusAuctionTileAwarded": tile_awarded,
    "MinusAuctionRoundClosed": ma_round_closed,
    "InvestmentTokensAwarded": tokens_awarded,
    "ChipThiefBets": chip_thief_bets,
    "MinusAuctionPenaltiesApplied": penalties_applied,
    "BalancesRevealed": balances_revealed,
    "SubgameRanked": subgame_ranked,
    "MatchScored": match_scored,
    "EcDecisionOpened": ec_decision_opened,
    "EcChosen": ec_chosen,
    "EcDetermined": ec_determined,
    "GarnetsAwarded": garnets_awarded,
}
