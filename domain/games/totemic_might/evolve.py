"""evolve(state, event) -> state: pure and total, reads only the event record, never draws.

Event data may come back from storage as plain JSON (lists, string keys), so every handler reads
lists and builds its own tuples and dicts. Kinds without a handler change nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from domain.decider import Event
from domain.games.totemic_might.grid import GARNET
from domain.games.totemic_might.state import (
    AUCTION,
    FINAL_CHALLENGE,
    FINAL_WEIGHING,
    OVER,
    Balloon,
    Challenge,
    Holdings,
    State,
    Transfer,
    Wager,
    Window,
)

Data = Mapping[str, Any]


def evolve(state: State, event: Event) -> State:
    handler = HANDLERS.get(event.kind)
    return handler(state, event.data) if handler else state


def _window(state: State, **changes: Any) -> State:
    return replace(state, window=replace(state.window, **changes))


def _holdings(state: State, player: str, **changes: Any) -> State:
    held = replace(state.held(player), **changes)
    return replace(state, holdings={**state.holdings, player: held})


def _trial_plus(state: State, player: str, delta: Mapping[str, int]) -> State:
    trial = Counter(state.held(player).trial)
    trial.update(delta)
    kept = {totem: count for totem, count in sorted(trial.items()) if count > 0}
    return _holdings(state, player, trial=kept)


def _per_player(mapping: Mapping[str, Any], player: str, value: Any) -> dict[str, Any]:
    return {**mapping, player: value}


# Opening


def secret_setup_recorded(state: State, data: Data) -> State:
    starting = dict(data["starting_totems"])
    return replace(
        state,
        weights=dict(data["weights"]),
        starting=starting,
        initial_pool=tuple(data["spirit_pool"]),
        pool=tuple(data["spirit_pool"]),
        holdings={player: Holdings(spirits=(starting[player],)) for player in state.players},
    )


def game_opened(state: State, data: Data) -> State:
    return replace(
        state,
        chips=dict(data["chips"]),
        priority=tuple(data["priority_list"]),
        garnets_start=dict(data["garnets_start"]),
    )


def round_opened(state: State, data: Data) -> State:
    auction = data["round_type"] == AUCTION
    series = {name: tuple(totems) for name, totems in (data["series"] or {}).items()}
    return replace(
        state,
        phase=AUCTION if auction else FINAL_WEIGHING,
        round=data["round"],
        series=series,
        schedule=(*state.schedule, series) if auction else state.schedule,
        window=Window(),
    )


# Player submissions


def bet_placed(state: State, data: Data) -> State:
    bets = state.window.bets
    mine = {**bets.get(data["player"], {}), data["series"]: data["amount"]}
    return _window(state, bets=_per_player(bets, data["player"], mine))


def pick_order_set(state: State, data: Data) -> State:
    orders = state.window.orders
    mine = {**orders.get(data["player"], {}), data["series"]: tuple(data["order"])}
    return _window(state, orders=_per_player(orders, data["player"], mine))


def spirit_choice_made(state: State, data: Data) -> State:
    return _window(state, spirit_choice=data["totem"])


def weighing_performed(state: State, data: Data) -> State:
    window = state.window
    player = data["player"]
    weighed = (*window.weighed(player), (tuple(data["left"]), tuple(data["right"])))
    return _window(state, weighings=_per_player(window.weighings, player, weighed))


def wager_placed(state: State, data: Data) -> State:
    wager = data["wager"]
    standing = Wager(
        kind=wager["kind"],
        letter=wager.get("letter"),
        totems=tuple(wager.get("totems", ())),
        fine=wager.get("fine", False),
        payment=wager.get("payment"),
    )
    return _window(state, wagers=_per_player(state.window.wagers, data["player"], standing))


def wager_cancelled(state: State, data: Data) -> State:
    wagers = {p: w for p, w in state.window.wagers.items() if p != data["player"]}
    return _window(state, wagers=wagers)


def _totems_of(tokens: list[str]) -> tuple[str, ...]:
    return tuple(token.removeprefix("T:") for token in tokens)


def transfer_proposed(state: State, data: Data) -> State:
    transfer = Transfer(
        proposer=data["proposer"],
        number=data["id"],
        kind=data["kind"],
        counterparty=data["to"],
        give=_totems_of(data["give"]),
        receive=_totems_of(data["receive"]),
    )
    window = state.window
    numbers = _per_player(window.transfer_numbers, transfer.proposer, transfer.number)
    return _window(state, transfers=(*window.transfers, transfer), transfer_numbers=numbers)


def transfer_cancelled(state: State, data: Data) -> State:
    named = (data["proposer"], data["id"])
    kept = tuple(t for t in state.window.transfers if (t.proposer, t.number) != named)
    return _window(state, transfers=kept)


def balance_attempted(state: State, data: Data) -> State:
    player = data["player"]
    challenge = replace(
        state.challenge[player],
        attempts=data["attempt"],
        marks=data["failure_marks"],
        weight=data["final_weight"],
    )
    return replace(state, challenge=_per_player(state.challenge, player, challenge))


def guess_recorded(state: State, data: Data) -> State:
    player = data["player"]
    mine = {**state.guesses.get(player, {}), data["target"]: data["totem"]}
    return replace(state, guesses=_per_player(state.guesses, player, mine))


def guess_withdrawn(state: State, data: Data) -> State:
    player = data["player"]
    mine = {t: g for t, g in state.guesses.get(player, {}).items() if t != data["target"]}
    return replace(state, guesses=_per_player(state.guesses, player, mine))


# Deadlines


def spirit_grant_resolved(state: State, data: Data) -> State:
    return replace(state, pool=tuple(data["pool_after"]))


def spirit_totem_granted(state: State, data: Data) -> State:
    return replace(state, owed=())


def spirit_totem_received(state: State, data: Data) -> State:
    player = data["player"]
    return _holdings(state, player, spirits=(*state.held(player).spirits, data["totem"]))


def series_bids_recorded(state: State, data: Data) -> State:
    return replace(state, priority=tuple(data["priority_after"]))


def series_resolved(state: State, data: Data) -> State:
    for player, item in data["allocation"].items():
        if item not in (None, GARNET):
            state = _trial_plus(state, player, {item: 1})
    return state


def chips_updated(state: State, data: Data) -> State:
    return replace(state, chips=dict(data["chips"]))


def spirit_totems_owed(state: State, data: Data) -> State:
    return replace(state, owed=tuple(data["players"]))


def trial_copies_destroyed(state: State, data: Data) -> State:
    gone = {totem: -count for totem, count in data["copies"].items()}
    return _trial_plus(state, data["player"], gone)


def transfers_settled(state: State, data: Data) -> State:
    delta: Counter[str] = Counter(data["copies_in"])
    delta.subtract(data["copies_out"])
    return _trial_plus(state, data["player"], delta)


def wagers_settled(state: State, data: Data) -> State:
    """The host's record carries the balloons with their lifts (players may not know them)."""
    state = replace(state, snake_taken=tuple(data["snake"]["taken_after"]))
    for made in data["balloons"]:
        held = state.held(made["player"])
        state = _holdings(state, made["player"],
                          balloons=(*held.balloons, Balloon(made["id"], made["lift"])))
    return state


def wager_settled(state: State, data: Data) -> State:
    if not data["took_place"]:
        return state
    player = data["player"]
    state = replace(state, wagers_taken=_per_player(
        state.wagers_taken, player, state.wagers_taken.get(player, 0) + 1))
    if data["kind"] == "snake":
        received = (*state.snake_received.get(player, ()), data["letter"])
        uses = state.snake_uses.get(player, 0) + 1
        state = replace(
            state,
            snake_received=_per_player(state.snake_received, player, received),
            snake_uses=_per_player(state.snake_uses, player, uses),
        )
    return state


def final_challenge_opened(state: State, data: Data) -> State:
    holdings = {player: replace(held, trial={}) for player, held in state.holdings.items()}
    return replace(state, phase=FINAL_CHALLENGE, round=data["round"], holdings=holdings)


def final_pieces_issued(state: State, data: Data) -> State:
    challenge = Challenge(pieces=tuple(data["pieces"]))
    return replace(state, challenge=_per_player(state.challenge, data["player"], challenge))


def match_results(state: State, data: Data) -> State:
    return replace(state, results=dict(data))


def setup_revealed(state: State, data: Data) -> State:
    return replace(state, phase=OVER)


HANDLERS: dict[str, Callable[[State, Data], State]] = {
    "SecretSetupRecorded": secret_setup_recorded,
    "GameOpened": game_opened,
    "RoundOpened": round_opened,
    "BetPlaced": bet_placed,
    "PickOrderSet": pick_order_set,
    "SpiritChoiceMade": spirit_choice_made,
    "WeighingPerformed": weighing_performed,
    "WagerPlaced": wager_placed,
    "WagerCancelled": wager_cancelled,
    "TransferProposed": transfer_proposed,
    "TransferCancelled": transfer_cancelled,
    "BalanceAttempted": balance_attempted,
    "GuessRecorded": guess_recorded,
    "GuessWithdrawn": guess_withdrawn,
    "SpiritGrantResolved": spirit_grant_resolved,
    "SpiritTotemGranted": spirit_totem_granted,
    "SpiritTotemReceived": spirit_totem_received,
    "SeriesBidsRecorded": series_bids_recorded,
    "SeriesResolved": series_resolved,
    "ChipsUpdated": chips_updated,
    "SpiritTotemsOwed": spirit_totems_owed,
    "TrialCopiesDestroyed": trial_copies_destroyed,
    "TransfersSettled": transfers_settled,
    "WagersSettled": wagers_settled,
    "WagerSettled": wager_settled,
    "FinalChallengeOpened": final_challenge_opened,
    "FinalPiecesIssued": final_pieces_issued,
    "MatchResults": match_results,
    "SetupRevealed": setup_revealed,
}
