"""The match's timeline (rules 3): opening, each round's deadline in its listed steps, the end
check, and the opening of the final challenge."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games.totemic_might import draws, events
from domain.games.totemic_might.auction import run_auction
from domain.games.totemic_might.grid import LETTERS, SEASONS, SIGILS, TOTEMS
from domain.games.totemic_might.ranking import starting_priority
from domain.games.totemic_might.scale import deadline_answers
from domain.games.totemic_might.setup import Setup
from domain.games.totemic_might.spirits import grant_owed_spirits
from domain.games.totemic_might.state import AUCTION, FINAL_WEIGHING
from domain.games.totemic_might.transfers import settle_transfers
from domain.games.totemic_might.turn import Turn
from domain.games.totemic_might.wager_answers import settle_wagers
from domain.rng import Rng

Args = Mapping[str, Any]

CONFIGURATION = (
    "starting_chips", "bet_min_per_series", "bet_max_per_series", "bet_max_per_round",
    "end_chip_threshold", "end_player_count", "weighings_per_round", "snake_max_uses",
    "snake_lifts_distinct", "wolf_modulus", "wolf_restriction", "bear_cost", "bear_fine_extra",
    "fox_garnet_cost", "tie_rotation", "balloons_on_trial_scale", "weighing_results",
    "final_max_attempts", "guess_penalty", "opal_requires_correct_guess", "publish_schedule",
)


def open_match(turn: Turn, args: Args) -> None:
    """Fix and seal the secret setup, publish the table, tell each player their starting totem
    and its weight, open round 1."""
    state = turn.state
    setup = state.setup
    rng = Rng(draws.GAME_ID, state.seed)
    weights = draws.weights(setup, rng)
    starting = draws.starting_totems(setup, rng)
    turn.emit(events.secret_setup_recorded(
        weights=weights,
        starting_totems=starting,
        spirit_pool=draws.spirit_pool(setup, rng, starting),
        series=[pair.model_dump() for pair in setup.series],
        snake_hints=[hint.model_dump() for hint in setup.snake_hints],
    ))
    garnets_start = {player: turn.balance(player) for player in state.players}
    turn.emit(events.game_opened(
        players=list(state.players),
        grid={"seasons": list(SEASONS), "sigils": list(SIGILS), "totems": list(TOTEMS)},
        chips=dict.fromkeys(state.players, setup.starting_chips),
        garnets_start=garnets_start,
        garnet_history={p: list(setup.garnet_history.get(p, [])) for p in state.players},
        priority_list=starting_priority(setup, garnets_start),
        letters=list(LETTERS),
        config={key: getattr(setup, key) for key in CONFIGURATION},
        schedule=[pair.model_dump() for pair in setup.series] if setup.publish_schedule else None,
    ))
    for player in state.players:
        totem = starting[player]
        turn.emit(events.starting_totem_dealt(player, totem, weights[totem]))
    open_round(turn, 1, AUCTION)


def open_round(turn: Turn, number: int, round_type: str) -> None:
    """Round `number` opens: its series made public, the lone owed player shown the pool."""
    state = turn.state
    series = None
    if round_type == AUCTION:
        series = draws.series(state.setup, Rng(draws.GAME_ID, state.seed), number)
    turn.emit(events.round_opened(number, round_type, series))
    lone = turn.state.lone_owed()
    if lone is not None and turn.state.pool:
        turn.emit(events.spirit_pool_shown(number, lone, list(turn.state.pool)))


def close_round(turn: Turn, args: Args) -> None:
    """A deadline: steps 2-9 of 3.2 for an auction round, 2, 5, 7, 8 for the final weighing."""
    auction = turn.state.phase == AUCTION
    grant_owed_spirits(turn)
    if auction:
        run_auction(turn)
    disintegrate(turn)
    if auction:
        settle_transfers(turn)
    settle_wagers(turn)
    state = turn.state
    if not auction:
        open_final_challenge(turn)
    elif auctions_are_over(turn):
        turn.emit(events.auctions_ended(state.round))
        open_round(turn, state.round + 1, FINAL_WEIGHING)
    else:
        open_round(turn, state.round + 1, AUCTION)


def disintegrate(turn: Turn) -> None:
    """Step 5: the copies used on the scale are destroyed (answered first when results come at
    the deadline); one sealed account per player, used or not."""
    state = turn.state
    for player in state.players:
        if state.setup.weighing_results == "at_deadline":
            answers = deadline_answers(state, player)
            turn.emit(events.weighings_answered(state.round, player, answers))
        used = state.window.used_copies(player)
        turn.emit(events.trial_copies_destroyed(state.round, player, dict(sorted(used.items()))))


def auctions_are_over(turn: Turn) -> bool:
    """Step 9: at least `end_player_count` players at `end_chip_threshold` chips or fewer."""
    setup: Setup = turn.state.setup
    low = [p for p, chips in turn.state.chips.items() if chips <= setup.end_chip_threshold]
    return len(low) >= setup.end_player_count


def open_final_challenge(turn: Turn) -> None:
    """Trial copies are discarded; each player gets their piece list (3.4, TM-R32)."""
    state = turn.state
    turn.emit(events.final_challenge_opened(state.round + 1))
    for player in state.players:
        held = state.held(player)
        pieces = [
            *(f"C:{totem}" for totem in TOTEMS),
            *(f"S:{totem}" for totem in held.spirits),
            *(f"B:{balloon.id}" for balloon in held.balloons),
        ]
        turn.emit(events.final_pieces_issued(player, pieces))
